"""How a turn gets its plan, simplest path first: the deterministic rules
(resume), the actions a request names, request forms matched locally, the
planning tier's proposal, and a new proposal when the guards ask for one.
"""
