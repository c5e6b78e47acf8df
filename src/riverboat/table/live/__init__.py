"""The live shared tables: several players at one table, in this process or across
several.

:class:`~riverboat.table.live.table.SharedTable` (with ``SHARED_GAMES``) is in
``table``, built in parts, each on the one before: ``core`` (its state, written to the
database when several processes serve it), ``snapshots`` (what the seats see),
``deal`` (the deal every seat's round comes from), ``shoe`` (Baccarat's coups and
road), ``showdown`` (a deck's hands, decided and shown down), ``betting`` (sitting,
leaving, betting, deciding) and ``handover`` (taken over from another process).
``seats``: who sits at a table and sending them its messages. ``clock``: the table's
timer. ``across/``: the hubs that carry players' messages to a table, and what lets
several server processes serve one table (the lease, the fenced state).

This package imports nothing itself, so the service can use ``across`` while the
tables import the service.
"""
