"""What a round, a shared table and a seat are doing, and where a game's house edges
stand, by name.

Each is a string enum: it compares equal to its value and is stored and sent as it
(``"open"``), while the code names it (``RoundStatus.OPEN``) and the API publishes
each as an enum, which the page's types and its ``states.js`` follow.

>>> RoundStatus.OPEN == "open", str(TablePhase.BETTING)
(True, 'betting')
>>> seat_state(TablePhase.DECIDING, in_round=True, decided=False, bet=False)
<SeatState.DECIDING: 'deciding'>
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["EdgesState", "RoundStatus", "SeatState", "TablePhase", "seat_state"]


class RoundStatus(StrEnum):
    """A round is open until it settles, or is void (G7: every wager returned)."""

    OPEN = "open"
    SETTLED = "settled"
    VOID = "void"


class TablePhase(StrEnum):
    """A shared table takes bets, waits for its hands' decisions, tries again a
    showdown its database did not take, or is closed until its rounds are refunded."""

    BETTING = "betting"
    DECIDING = "deciding"
    SETTLING = "settling"
    CLOSED = "closed"


class SeatState(StrEnum):
    """Where a seat stands: no bet yet for the next deal, or one placed; in a hand
    being decided, sitting it out, deciding, or decided."""

    WAITING = "waiting"
    BET = "bet"
    OUT = "out"
    DECIDING = "deciding"
    DECIDED = "decided"


class EdgesState(StrEnum):
    """A game's house edges and strategy card for its pay table: being worked out
    (apart from play, after the server starts), known, or not to be had here (the
    server does not work them out, or the work failed)."""

    PENDING = "pending"
    KNOWN = "known"
    UNAVAILABLE = "unavailable"


def seat_state(phase: TablePhase, in_round: bool, decided: bool, bet: bool) -> SeatState:
    """A seat's state at a table in ``phase``: while hands are decided, whether it is
    in one and has decided; else whether it has bet on the next deal."""
    if phase is TablePhase.DECIDING:
        if not in_round:
            return SeatState.OUT
        return SeatState.DECIDED if decided else SeatState.DECIDING
    return SeatState.BET if bet else SeatState.WAITING
