"""What is read of a player's rounds: one round as its player sees it, the round left
open at their own table, the winners of their shoe in play, and pages of history
(:class:`RoundReads`, the read side of :class:`~riverboat.table.rounds.own.Rounds`);
and :func:`outcome`, what history keeps of a finished round.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session

from riverboat.errors import IllegalAction
from riverboat.games import GameRules, Round, find_game, replay
from riverboat.json_types import JsonObject
from riverboat.money import Cents
from riverboat.store.models import Deal, RoundEvent, RoundRow
from riverboat.table.accounts.ledger import Ledger
from riverboat.table.felt_rounds import totals, winner
from riverboat.table.rounds import records
from riverboat.table.rounds.exports import export_round, reveal_state, round_view
from riverboat.table.rounds.rows import at_table, owned, resume
from riverboat.table.rounds.sources import running_shoe
from riverboat.table.rounds.verify import own_places
from riverboat.table.states import RoundStatus
from riverboat.table.views import ExportedRound, RoundRecord, RoundView

__all__ = ["HISTORY_LIMIT", "RoundReads", "outcome"]

#: the most rounds one page of history shows
HISTORY_LIMIT = 1000


class RoundReads:
    """The reads of a player's rounds, over the ledger's database."""

    ledger: Ledger

    def shown(
        self,
        session: Session,
        row: RoundRow,
        game_round: Round[GameRules] | None = None,
        balance: Cents | None = None,
    ) -> RoundView:
        """The round as its player sees it now (``balance``: theirs, if already read)."""
        if balance is None:
            balance = self.ledger.balance(session, row.player_id)
        played = resume(row, session) if game_round is None else game_round
        return round_view(row, played, balance, *reveal_state(session, row))

    def open_round(self, player_id: int, game: str) -> RoundView | None:
        """The player's unfinished round at their own table of the game, to resume it
        (G7), or None; a shared table's round is resumed at the shared table."""
        find_game(game)
        with Session(self.ledger.engine) as session:
            row = session.scalar(
                select(RoundRow).where(
                    RoundRow.player_id == player_id,
                    RoundRow.game == game,
                    RoundRow.status == RoundStatus.OPEN,
                    at_table(False),
                )
            )
            return None if row is None else self.shown(session, row)

    def round(self, player_id: int, round_id: int) -> RoundView:
        with Session(self.ledger.engine) as session:
            return self.shown(session, owned(session, player_id, round_id))

    def shoe_winners(self, player_id: int, game: str) -> list[str]:
        """The winners, in order, of the finished coups of the player's own shoe of
        ``game`` in play; none once that shoe has ended (cut card or ended early), until
        the next coup starts a new one."""
        find_game(game)
        with Session(self.ledger.engine) as session:
            shoe = running_shoe(session, player_id, game)
            if shoe is None:
                return []
            rows = session.scalars(
                select(RoundRow)
                .where(
                    RoundRow.player_id == player_id,
                    RoundRow.deal_id == shoe.id,
                    RoundRow.status == RoundStatus.SETTLED,
                )
                .order_by(RoundRow.id)
            ).all()
            found = (winner(replay(records.load(row))) for row in rows)
            return [side for side in found if side is not None]

    def history(
        self,
        player_id: int,
        limit: int = 20,
        commitment: str | None = None,
        before: int | None = None,
    ) -> list[ExportedRound]:
        """The player's last rounds, newest first, each with its seeds once finished;
        with ``commitment``, only the rounds dealt on that seed (a shoe's coups); with
        ``before``, the page of those older than that round (keyset pages).

        A page costs three queries whatever the history holds: its rounds, their events
        and their deals. A finished round's outcome is read from its stored ``result``,
        not replayed.
        """
        if not 1 <= limit <= HISTORY_LIMIT:  # a bad value for the query, at either end
            raise IllegalAction(f"history shows 1 to {HISTORY_LIMIT} rounds, not {limit}")
        if before is not None and before < 1:
            raise IllegalAction(f"before is a round id (1 or more), not {before}")
        query = select(RoundRow).where(RoundRow.player_id == player_id)
        if commitment is not None:
            query = query.where(RoundRow.commitment == commitment)
        if before is not None:
            query = query.where(RoundRow.id < before)
        with Session(self.ledger.engine) as session:
            rows = session.scalars(query.order_by(RoundRow.id.desc()).limit(limit)).all()
            events = records.stored_events(session, [row.id for row in rows])
            deal_ids = {row.deal_id for row in rows if row.deal_id is not None}
            deals = {
                deal.id: deal
                for deal in (
                    session.scalars(select(Deal).where(Deal.id.in_(deal_ids))) if deal_ids else []
                )
            }
            return [_exported(row, events[row.id], deals.get(row.deal_id or 0)) for row in rows]


def outcome(
    game_round: Round[GameRules],
    deal_cards: str | None,
    server_seed: str,
    client_seed: str,
    nonce: int,
) -> JsonObject:
    """What history shows of a finished round besides its record (stored as the
    round's ``result``): its net, its hands' totals and the side they favour (a coup's,
    B7), and the places its cards came from: ``deal_cards`` (a JSON list) at a shared
    table or in a shoe, else the top of a fresh deck, or its run after a shoe's burn."""
    if deal_cards is not None:
        places = json.loads(deal_cards)
    elif game_round.spec.shoe is None:  # a fresh deck: its top cards, no burn
        places = list(range(len(game_round.drawn)))
    else:
        record = game_round.record()
        places = own_places(record["game"], record, server_seed, client_seed, nonce)
    return {
        "net": game_round.net(),
        "totals": totals(game_round),
        "winner": winner(game_round),
        "places": places,
    }


def _exported(row: RoundRow, events: Sequence[RoundEvent], deal: Deal | None) -> ExportedRound:
    """A round of a history page as :func:`~riverboat.table.rounds.exports.export_round` gives
    it, from its stored outcome, events and deal (a round finished without a stored
    outcome is replayed)."""
    if row.status != RoundStatus.OPEN and row.result is None:
        session = object_session(row)
        assert session is not None  # read in the page's session
        return export_round(row, *reveal_state(session, row))
    shared = deal is not None and deal.player_id is None
    revealed = row.status != RoundStatus.OPEN and (deal is None or deal.revealed)
    found = json.loads(row.result) if row.result is not None else {}
    record = records.build(row, events) if row.status != RoundStatus.OPEN else None
    rules = json.loads(row.rules) if row.rules is not None else {}
    return ExportedRound(
        totals=found.get("totals"),
        winner=found.get("winner"),
        id=row.id,
        game=row.game,
        variant=str(rules.get("variant", "")) if isinstance(rules, dict) else "",
        status=RoundStatus(row.status),
        shared=shared,
        commitment=row.commitment,
        server_seed=row.server_seed if revealed else None,
        client_seed=row.client_seed,
        seeds=deal.seeds if deal is not None else None,
        nonce=row.nonce,
        places=found.get("places") if revealed else None,
        balance_before=row.balance_before,
        balance_after=row.balance_after,
        net=found.get("net"),
        played_at=row.created_at.isoformat(),
        record=RoundRecord.model_validate(record) if record is not None else None,
    )
