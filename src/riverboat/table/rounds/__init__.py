"""Rounds: a player's own (:mod:`.own`) and a shared table's deal (:mod:`.shared`),
their records and rows, the sources their cards come from, their exports and the
check anyone can run on them (:mod:`.verify`).

>>> from riverboat.table.rounds.rows import SETTLING
>>> sorted(SETTLING.values())
['settle', 'void']
"""
