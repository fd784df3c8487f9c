"""The executors that ship with Metnos over the owner's files and records, with their request forms.

The protocol they implement, the registry and the catalog live in
``apps/runtime/executor.py``, below every package of the runtime.
"""
