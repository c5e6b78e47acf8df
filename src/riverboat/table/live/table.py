"""Shared tables: several players at one live table.

Crazy 4 Poker seats up to six players against one dealer hand dealt from one deck,
with at most six betting positions in all; a player may take a second, blind one
(C8). Baccarat deals every coup from one shoe to everyone seated, until the cut card
comes out (B1).

A table is an asyncio object. A front end seats a player with :meth:`SharedTable.sit`,
giving a ``send`` coroutine for the messages meant for that player, then calls
:meth:`~SharedTable.bet`, :meth:`~SharedTable.decide` and :meth:`~SharedTable.leave`.
Messages are the models of :mod:`riverboat.table.views`, each with a ``type``:
``table`` (the seats, the phase, the deal's commitment), ``dealt`` and ``result`` (the
player's own round, as the service shows it), ``coup`` (a Baccarat coup's cards, which
every seat sees), ``decided`` and ``error``.

:class:`SharedTable` is built of the parts beside this module, each on the one before:
:mod:`~riverboat.table.live.core` (its state), :mod:`~riverboat.table.live.snapshots`,
:mod:`~riverboat.table.live.deal`, :mod:`~riverboat.table.live.shoe`,
:mod:`~riverboat.table.live.showdown`, :mod:`~riverboat.table.live.betting` and
:mod:`~riverboat.table.live.handover`. The seats and sending to their connections are
:mod:`riverboat.table.live.seats`; the betting and decision deadlines are a
:class:`riverboat.table.live.clock.Timer`.
"""

from __future__ import annotations

from riverboat.table.live.core import SHARED_GAMES
from riverboat.table.live.handover import TableHandover

__all__ = ["SHARED_GAMES", "SharedTable"]


class SharedTable(TableHandover):
    """One live shared table of ``game`` (one of :data:`SHARED_GAMES`) over ``service``.

    Betting closes when every seat has bet, or ``betting_seconds`` after the first bet;
    Crazy 4 seats then have ``decision_seconds`` to decide. A showdown the database
    does not take is tried again after each of :attr:`retry_pauses` seconds, then its
    rounds are void; a void it does not take either, every :attr:`reopen_seconds`,
    the table closed to bets meanwhile.
    """

    async def close(self) -> None:
        """Stop the table's timer and any showdown being tried again (the server is
        stopping: a round left open is void at the next start, G7)."""
        self._timer.cancel()
        self._company_told()
        if self._settling is not None:
            self._settling.cancel()
