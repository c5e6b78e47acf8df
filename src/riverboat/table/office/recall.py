"""Game recall: any round by id, as its player saw it and as it was dealt.

The record (wagers, every card in the order drawn, each decision, the settlement),
the commitment, the seeds once revealed, the round's ledger entries and what the
database-free verifier (:func:`~riverboat.table.rounds.verify.verify_round`) says of
it, for a round of one's own table or of a shared one. While a round is open the
house sees no more of it than its player does: its face-down cards stay hidden until
it ends, so no operator can tell a player what is coming.

>>> from riverboat.table.service import TableService
>>> service = TableService("sqlite://")
>>> me = service.local_player()
>>> dealt = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="doc")
>>> service.office.recall(dealt.id).dealt is None  # open: nothing the player cannot see
True
>>> _ = service.act(me, dealt.id, "fold")
>>> recalled = service.office.recall(dealt.id)
>>> recalled.verified, recalled.problems, [line.amount for line in recalled.ledger]
(True, [], [-1000, 1000, -1000, 1000])
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from riverboat.errors import NotFound
from riverboat.store.models import LedgerEntry, Player, RoundRow, Transaction
from riverboat.table.office.views import LedgerLine, RecallView
from riverboat.table.rounds.exports import export_round, reveal_state
from riverboat.table.rounds.own import Rounds
from riverboat.table.rounds.verify import verify_round
from riverboat.table.states import RoundStatus

__all__ = ["recall"]


def recall(rounds: Rounds, round_id: int) -> RecallView:
    """The round ``round_id`` of any player, or :class:`NotFound`."""
    with Session(rounds.ledger.engine) as session:
        row = session.get(RoundRow, round_id)
        if row is None:
            raise NotFound(f"there is no round {round_id}")
        player = session.scalar(select(Player.name).where(Player.id == row.player_id)) or "?"
        revealed, shared = reveal_state(session, row)
        seen = rounds.shown(session, row)
        finished = row.status != RoundStatus.OPEN
        dealt = export_round(row, revealed, shared) if finished else None
        lines = session.execute(
            select(Transaction.id, Transaction.kind, LedgerEntry.account, LedgerEntry.amount)
            .join(LedgerEntry, LedgerEntry.transaction_id == Transaction.id)
            .where(Transaction.round_id == round_id)
            .order_by(Transaction.id, LedgerEntry.id)
        ).all()
        problems = verify_round(dealt) if dealt is not None and dealt.server_seed else []
        return RecallView(
            id=row.id,
            player_id=row.player_id,
            player=player,
            table="shared" if shared else "own",
            deal_id=row.deal_id,
            created_at=row.created_at,
            updated_at=row.updated_at,
            seen=seen,
            dealt=dealt,
            ledger=[
                LedgerLine(transaction_id=txn, kind=kind, account=account, amount=amount)
                for txn, kind, account, amount in lines
            ],
            verified=None if dealt is None or not dealt.server_seed else not problems,
            problems=problems,
        )
