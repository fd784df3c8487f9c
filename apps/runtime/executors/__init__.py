"""Executors: the protocol and registry the catalog is built from (base), and the
executors that ship with Metnos over the owner's files and records, with their
request forms.
"""
