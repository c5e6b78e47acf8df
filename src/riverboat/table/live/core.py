"""What every part of a live shared table stands on: the games with shared tables, the
table's state (:class:`TableCore`), what the database keeps of it and writing it there
when several processes serve the table, and the database calls made from the table's
event loop (:func:`_reach`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from riverboat.errors import IllegalAction, Refusal, Unavailable
from riverboat.games import GAMES, find_game
from riverboat.json_types import JsonObject
from riverboat.money import Cents
from riverboat.table.live.across import live_state
from riverboat.table.live.across.live_state import Fence, LeaseLostError
from riverboat.table.live.clock import Timer
from riverboat.table.live.seats import Seat
from riverboat.table.service import DealLayout, TableService
from riverboat.table.states import TablePhase
from riverboat.table.views import NewDeal

if TYPE_CHECKING:
    from riverboat.table.lobby import TableConfig

__all__ = ["HANDLED_KEPT", "SHARED_GAMES", "TableCore"]

#: the games with shared tables; their seats are the round's (``max_seats``)
SHARED_GAMES = tuple(name for name, game in GAMES.items() if game.spec().shared)
_log = logging.getLogger(__name__)
#: how many of the newest messages' ids a table keeps, to carry out none twice
HANDLED_KEPT = 256
_UNREACHABLE = "the table could not reach its database"


P = ParamSpec("P")
T = TypeVar("T")


async def _reach(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call`` in a worker thread; a database that fails is :class:`Unavailable`, a
    refusal that changed nothing and says to try again."""
    try:
        return await asyncio.to_thread(call, *args, **kwargs)
    except (Refusal, LeaseLostError):
        raise
    except Exception as error:
        _log.warning("a shared table's call failed: %s", _short(error))
        raise Unavailable(f"{_UNREACHABLE}: nothing changed; try again shortly") from error


def _phase(stored: str) -> TablePhase:
    """A phase as written (by this version or another): betting if it names none."""
    try:
        return TablePhase(stored)
    except ValueError:
        return TablePhase.BETTING


def _short(error: Exception) -> str:
    """An error in one line, for the log."""
    return str(error).splitlines()[0] if str(error) else type(error).__name__


class TableCore:
    """A live shared table's state: its game and rules, seats, phase, deal and shoe
    (``next_place``, ``road``), the lease it runs with (``fence``) and its clock. The
    parts of :class:`~riverboat.table.live.table.SharedTable` build on it."""

    def __init__(
        self,
        service: TableService,
        game: str,
        betting_seconds: float = 15.0,
        decision_seconds: float = 45.0,
        variant: str | None = None,
        config: TableConfig | None = None,
    ) -> None:
        if config is not None:  # a lobby's table: its game and variant, its id and name
            game, variant = config.game, config.variant
        self.config = config
        if game not in SHARED_GAMES:
            raise IllegalAction(f"shared tables play {' or '.join(SHARED_GAMES)}, not {game!r}")
        self.service, self.game, self.variant = service, game, variant
        self.kind = find_game(game)
        self.rules = self.kind.rules(variant)
        self.spec = self.kind.spec(self.rules)
        #: the seats; None: as many as come (a Baccarat shoe's coup is everyone's)
        self.max_seats = (
            config.seats if config is not None and config.seats else self.spec.table_seats
        )
        self.betting_seconds, self.decision_seconds = betting_seconds, decision_seconds
        self.seats: list[Seat] = []
        self.phase = TablePhase.BETTING
        self.deal: NewDeal | None = None
        self.layout: DealLayout | None = None
        self.next_place = 0
        self.road: list[str] = []  # this shoe's coups' winners: Player, Banker or Tie
        #: the ids of the newest messages carried out here (:meth:`first_time`)
        self.handled: list[str] = []
        #: the lease this process runs the table with, when several processes serve it
        self.fence: Fence | None = None
        #: the balances of the players whose bets are in the batch carried out together
        self._balances: dict[int, Cents] = {}
        self._lock = asyncio.Lock()
        self._timer = Timer(self._lock, _log, game)

    def stored(self) -> JsonObject:
        """What the database keeps of the table besides its phase, deadline and deal."""
        return {
            "seats": [seat.stored() for seat in self.seats],
            "next_place": self.next_place,
            "road": self.road,
            "commitment": self.deal.commitment if self.deal else None,
            "handled": self.handled[-HANDLED_KEPT:],
            "cards_left": self._cards_left(),
        }

    def _cards_left(self) -> int | None:
        """The cards left in the shoe or deck in play, None before its first cards."""
        size = self.layout.size if self.layout else None
        return size - self.next_place if size else None

    def first_time(self, message_id: str) -> bool:
        """Whether the message ``message_id`` is new here; from now on it is not. The ids
        are written with the table's state, so a message carried out, then delivered
        again to the next holder (its first holder died before acknowledging it), is
        not carried out twice."""
        if message_id in self.handled:
            return False
        self.handled = [*self.handled[-HANDLED_KEPT + 1 :], message_id]
        return True

    async def _save(self) -> None:
        """Write the table's state, when several processes serve it (lock held). A
        newer lease's claim stops the step (:class:`LeaseLostError`); a database that does
        not answer leaves the last state written, and the table plays on."""
        if self.fence is None:
            return
        try:
            await asyncio.to_thread(
                live_state.save,
                self.service.engine,
                self.fence,
                self.phase,
                self._timer.deadline(),
                self.deal.id if self.deal else None,
                self.stored(),
            )
        except LeaseLostError:
            raise
        except Exception as error:
            _log.warning("the %s table's state was not written: %s", self.game, _short(error))
