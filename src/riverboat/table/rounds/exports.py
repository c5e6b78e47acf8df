"""What a player may see of a round: its view while playing, its export to keep."""

from __future__ import annotations

import json

from sqlalchemy.orm import Session, object_session

from riverboat.games import GameRules, Round, replay
from riverboat.money import Cents
from riverboat.store.models import Deal, RoundRow
from riverboat.table.felt_rounds import (
    dealer_qualifies,
    hand_names,
    hand_outcome,
    made_cards,
    position_stakes,
    round_lines,
    totals,
    winner,
)
from riverboat.table.rounds import records
from riverboat.table.rounds.verify import own_places
from riverboat.table.states import RoundStatus
from riverboat.table.views import ChoiceView, ExportedRound, RoundRecord, RoundView

__all__ = ["export_round", "reveal_state", "round_view", "shown_while_open"]


def reveal_state(session: Session, row: RoundRow) -> tuple[bool, bool]:
    """Whether the round's server seed may be shown (once it is over and, if it came
    from a deck or shoe that deals on, once nothing of that is in play), and whether
    it was played at a shared table."""
    deal = session.get(Deal, row.deal_id) if row.deal_id is not None else None
    shared = deal is not None and deal.player_id is None
    revealed = row.status != RoundStatus.OPEN and (deal is None or deal.revealed)
    return revealed, shared


def _deal_seeds(row: RoundRow) -> str | None:
    """The seated players' seeds of the round's shared deal, where it keeps them."""
    session = object_session(row)
    if row.deal_id is None or session is None:
        return None
    deal = session.get(Deal, row.deal_id)
    return deal.seeds if deal is not None else None


def round_view(
    row: RoundRow, game_round: Round[GameRules], balance: Cents, revealed: bool, shared: bool
) -> RoundView:
    """What the player may see: their own cards while the round is open (never the blind
    second position's, C8, nor the house's), everything after; the seed once
    ``revealed``."""
    finished = row.status != RoundStatus.OPEN
    shown = set(game_round.cards) if finished else shown_while_open(game_round)
    visible = {hand: cards for hand, cards in game_round.cards.items() if hand in shown}
    positions = game_round.positions
    lines = round_lines(game_round)
    return RoundView(
        id=row.id,
        game=row.game,
        variant=str(getattr(game_round.rules, "variant", "")),
        status=RoundStatus(row.status),
        shared=shared,
        commitment=row.commitment,
        client_seed=row.client_seed,
        nonce=row.nonce,
        server_seed=row.server_seed if revealed else None,
        cards={hand: [str(c) for c in cards] for hand, cards in visible.items()},
        face_down=sum(len(c) for hand, c in game_round.cards.items() if hand not in visible),
        totals=totals(game_round) if finished else None,
        winner=winner(game_round) if finished else None,
        choices=[
            ChoiceView(action=c.action, label=c.label, minimum=c.minimum, maximum=c.maximum)
            for c in game_round.legal_actions()
        ],
        wagers=dict(positions[0].wagers),
        second=dict(positions[1].wagers) if len(positions) > 1 else None,
        result=positions[0].result if finished else None,
        second_result=positions[1].result if finished and len(positions) > 1 else None,
        net=game_round.net() if finished else None,
        description=game_round.describe() if finished else None,
        balance=balance,
        stakes=position_stakes(game_round, positions[0], lines) if positions else {},
        second_stakes=position_stakes(game_round, positions[1], lines)
        if len(positions) > 1
        else None,
        # what a server works out of a settled round before it listens (settled_felt)
        made=made_cards(game_round, visible),
        hand_names=hand_names(game_round, visible),
        dealer_qualifies=dealer_qualifies(game_round),
        hand_outcome=hand_outcome(game_round),
    )


def shown_while_open(game_round: Round[GameRules]) -> set[str]:
    """The hands a round's player sees while it is open, by its spec: the hand of each
    position they act on and what their decisions dealt (the rabbit, R4); never the
    house's hand nor a blind second position's (C8).

    >>> from riverboat.games import find_game
    >>> game_round = find_game("crazy4").new_round()
    >>> _ = game_round.place_wagers({"ante": 500, "super_bonus": 500}, seat="ann")
    >>> _ = game_round.place_wagers({"ante": 500, "super_bonus": 500}, seat="ann", blind=True)
    >>> sorted(shown_while_open(game_round))
    ['ann']
    """
    spec = game_round.spec
    shown = {hand.name for hand in spec.hands if hand.dealt_on is not None and not hand.house}
    if any(hand.each_position and not hand.house for hand in spec.hands):
        shown.update(
            game_round.hand_name(index)
            for index, position in enumerate(game_round.positions)
            if not position.blind
        )
    return shown


def export_round(row: RoundRow, revealed: bool, shared: bool) -> ExportedRound:
    """A round as the player may keep it: the record once the round is over, the seed
    once ``revealed`` (see :func:`reveal_state`).

    ``places`` are the places in the seeds' deck or shoe that the round's cards came
    from: the top of a fresh deck, a coup's run of its shoe after the burn (B1), or at
    a shared table the places its deal gave this round.
    """
    finished = row.status != RoundStatus.OPEN
    record = records.load(row)
    played = replay(record) if finished else None
    places = None
    if revealed:
        places = own_places(row.game, record, row.server_seed, row.client_seed, row.nonce)
        if row.deal_cards is not None:
            places = json.loads(row.deal_cards)
    return ExportedRound(
        totals=totals(played) if played else None,
        winner=winner(played) if played else None,
        id=row.id,
        game=row.game,
        variant=str(record["rules"].get("variant", "")),
        status=RoundStatus(row.status),
        shared=shared,
        commitment=row.commitment,
        server_seed=row.server_seed if revealed else None,
        client_seed=row.client_seed,
        seeds=_deal_seeds(row),
        nonce=row.nonce,
        places=places,
        balance_before=row.balance_before,
        balance_after=row.balance_after,
        net=played.net() if played else None,  # other rounds may fall between the balances
        played_at=row.created_at.isoformat(),
        record=RoundRecord.model_validate(record) if finished else None,
    )
