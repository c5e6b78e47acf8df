"""Card sources and deals: where a round's cards come from.

At the player's own table, one interface for two kinds:

* :class:`FreshDeck`: a fresh 52-card deck of the round's own, on the player's
  committed server seed, their client seed and their round count as nonce (G2);
* :class:`OwnShoe`: the player's own shoe, dealing coup after coup until its cut
  card (Baccarat, B1).

Each gives the round's rules, deals its cards, names the places they came from and
says when its seed may be revealed. :func:`card_source` picks one, once, from
whether the game's spec deals from a shoe; the rounds module then does the same
thing with either. A shared table's rounds take places in its sealed deck or shoe
(:class:`SharedCards`, docs/fairness.md), every seat of a deal at once
(:mod:`~riverboat.table.rounds.shared`).

>>> type(card_source("tri-card", None, None)).__name__
'FreshDeck'
>>> type(card_source("baccarat", None, None)).__name__
'OwnShoe'
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import bindparam, delete, select
from sqlalchemy.orm import Session

from riverboat.deck import Deck, Shoe, cut_card_reached
from riverboat.errors import IllegalAction, NotFound
from riverboat.games import GameRules, Round, SomeGame, find_game
from riverboat.games.codec import rules_json, to_json
from riverboat.rng import FairSource, joined_seed, new_client_seed
from riverboat.store.models import Deal, RoundRow
from riverboat.store.statements import Read
from riverboat.table.accounts.ledger import Ledger, first, run
from riverboat.table.live.across.live_state import Fence, check_fence
from riverboat.table.rounds.verify import DealLayout, deal_layout, fair_cards
from riverboat.table.views import NewDeal

__all__ = [
    "CardSource",
    "Deals",
    "Dealt",
    "FreshDeck",
    "OwnShoe",
    "SharedCards",
    "card_source",
    "open_deal",
    "sealed_order",
]


@dataclass(frozen=True)
class SharedCards:
    """Where a shared table's round takes its cards: places in a deal's deck or shoe,
    in the order the round draws them (its positions' cards, then the dealer's)."""

    deal_id: int
    places: Sequence[int]
    #: the lease of the process that runs the table, checked as the round is dealt
    fence: Fence | None = None


@dataclass(frozen=True)
class Dealt:
    """What a source dealt a round: the seeds its cards came from, the deal (deck or
    shoe) they belong to if it outlives the round, the places they came from (None:
    the top of the round's own deck, in order), and whether nothing more comes from
    the seed after this round, so it may be shown once the round is over."""

    seeds: FairSource
    deal: Deal | None
    places: list[int] | None
    last: bool


class CardSource(ABC):
    """Where one round's cards come from."""

    def __init__(self, game: str, client_seed: str | None) -> None:
        self.game, self.client_seed = game, client_seed

    def rules(self, session: Session, kind: SomeGame, variant: str | None) -> GameRules:
        """The rules the round plays by: the variant's, unless the source has its own."""
        rules: GameRules = kind.rules(variant)
        return rules

    @abstractmethod
    def deal(
        self, session: Session, player_id: int, game_round: Round[GameRules], nonce: int
    ) -> Dealt:
        """Deal the round's cards from this source; ``nonce`` is how many rounds the
        player has been dealt so far (:meth:`Ledger.lock` read it): their own deck's
        nonce (G2)."""

    def reads(self, player_id: int) -> list[Read]:
        """The reads :meth:`deal` begins with, which may be sent ahead of it."""
        return []

    @abstractmethod
    def commitment(self, session: Session, player_id: int) -> str:
        """The commitment to the seed the player's next round here is dealt from."""


class FreshDeck(CardSource):
    """A fresh deck of the round's own on the player's committed seed (G2)."""

    def deal(
        self, session: Session, player_id: int, game_round: Round[GameRules], nonce: int
    ) -> Dealt:
        committed = take_committed_seed(session, player_id, self.game)  # shown, if asked
        if committed is None:  # none was asked for: a fresh seed, never stored unused
            seeds = FairSource.new(self.client_seed, nonce)
        else:
            seeds = FairSource.new(self.client_seed, nonce, committed)
        game_round.deal(fair_cards(self.game, rules_json(game_round.rules), seeds))
        return Dealt(seeds, None, None, last=True)

    def reads(self, player_id: int) -> list[Read]:
        return [_committed_seed_read(player_id, self.game)]

    def commitment(self, session: Session, player_id: int) -> str:
        return next_seed(session, player_id, self.game).commitment


class OwnShoe(CardSource):
    """The player's own shoe, coup after coup until its cut card (B1): the one in play,
    or a new one on their committed seed, sealed with this client seed."""

    def deal(
        self, session: Session, player_id: int, game_round: Round[GameRules], nonce: int
    ) -> Dealt:
        rules = rules_json(game_round.rules)
        deal = running_shoe(session, player_id, self.game)
        if deal is not None and json.loads(deal.rules) != rules:
            raise IllegalAction("the shoe in play deals by its own rules until its cut card")
        if deal is None:
            deal = next_seed(session, player_id, self.game)
            deal.client_seed = self.client_seed or new_client_seed()
            deal.rules = json.dumps(rules)
        seeds = FairSource(deal.server_seed, deal.client_seed or "", 0)
        shoe = fair_cards(self.game, rules, seeds)
        assert isinstance(shoe, Shoe)
        dealt = session.scalars(select(RoundRow.deal_cards).where(RoundRow.deal_id == deal.id))
        first = 1 + max((json.loads(c)[-1] for c in dealt if c), default=len(shoe.burned) - 1)
        most = game_round.spec.cards_per_round()
        places = list(range(first, min(first + most, shoe.size)))
        game_round.deal(Deck.stacked(shoe.order[place] for place in places))
        left = shoe.size - first - len(game_round.drawn)
        last = bool(cut_card_reached(left, shoe.cut_card_from_end))
        return Dealt(seeds, deal, places[: len(game_round.drawn)], last)

    def commitment(self, session: Session, player_id: int) -> str:
        shoe = running_shoe(session, player_id, self.game)
        return (shoe or next_seed(session, player_id, self.game)).commitment


def card_source(game: str, variant: str | None, client_seed: str | None) -> CardSource:
    """The source of a round's cards at the player's own table, chosen once: their own
    shoe where the game deals from one, else a fresh deck."""
    kind = find_game(game)
    if kind.spec(kind.rules(variant)).shoe is not None:
        return OwnShoe(game, client_seed)
    return FreshDeck(game, client_seed)


def running_shoe(session: Session, player_id: int, game: str) -> Deal | None:
    """The player's own shoe of ``game`` in play, or None."""
    return session.scalar(
        select(Deal).where(
            Deal.player_id == player_id,
            Deal.game == game,
            Deal.client_seed.is_not(None),
            Deal.revealed.is_(False),
        )
    )


_COMMITTED = (
    Deal.player_id == bindparam("player"),
    Deal.game == bindparam("game"),
    Deal.client_seed.is_(None),
)
_COMMITTED_SEED = select(Deal).where(*_COMMITTED)
_COMMITTED_SERVER_SEED = select(Deal.id, Deal.server_seed).where(*_COMMITTED)
_DELETE_DEAL = delete(Deal).where(Deal.id == bindparam("deal"))


def committed_seed(session: Session, player_id: int, game: str) -> Deal | None:
    """The seed committed to for the player's next round of ``game``, if one was."""
    return session.scalar(_COMMITTED_SEED, {"player": player_id, "game": game})


def _committed_seed_read(player_id: int, game: str) -> Read:
    """:func:`take_committed_seed`'s read, to send ahead (:meth:`FreshDeck.reads`)."""
    return _COMMITTED_SERVER_SEED, {"player": player_id, "game": game}


def take_committed_seed(session: Session, player_id: int, game: str) -> str | None:
    """The server seed committed to for the player's next round of ``game``, if one
    was, no longer stored: each seed deals once; the next is made when asked for.
    Core statements: no ORM object is loaded (a round deals without one, mostly)."""
    found = first(session, *_committed_seed_read(player_id, game))
    if found is None:
        return None
    deal_id, server_seed = found
    run(session, _DELETE_DEAL, {"deal": deal_id})
    return str(server_seed)


def next_seed(session: Session, player_id: int, game: str) -> Deal:
    """The player's committed seed for their next round of ``game``, made if none."""
    deal = committed_seed(session, player_id, game)
    if deal is None:
        seeds = FairSource.new()
        deal = Deal(
            game=game,
            rules="{}",
            server_seed=seeds.server_seed,
            commitment=seeds.commitment,
            revealed=False,
            player_id=player_id,
        )
        session.add(deal)
        session.flush()
    return deal


#: the most characters of seeds, joined, a shared deal is sealed with
MOST_SEEDS = 4_000_000


@lru_cache(maxsize=16)
def sealed_order(game: str, rules: str, server_seed: str, client_seed: str) -> tuple[int, ...]:
    """A sealed deal's cards in order, shuffled once for all the rounds dealt from it
    (every seat at a shoe of 416 cards would otherwise shuffle it again)."""
    return tuple(fair_cards(game, json.loads(rules), FairSource(server_seed, client_seed, 0)).order)


def open_deal(session: Session, deal_id: int, shared: bool = False) -> Deal:
    """The deal, locked until the transaction ends (``shared``: for dealing from, which
    many transactions may do at once; not shared: to seal or reveal it, alone); refused
    if there is none or it is revealed."""
    deal = session.get(Deal, deal_id, with_for_update={"read": True} if shared else True)
    if deal is None:
        raise NotFound(f"there is no deal {deal_id}")
    if deal.revealed:
        raise IllegalAction(f"deal {deal_id} is not open")
    return deal


class Deals:
    """Seeds and deals: a player's committed seeds and own shoe, a shared table's
    decks and shoes."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def next_commitment(self, player_id: int, game: str) -> str:
        """The commitment to the server seed of the player's next round at their own
        table of ``game``, the same until that round is dealt. Show it before they
        choose a client seed: the house is bound to its seed before it sees theirs."""
        source = card_source(game, None, None)

        def work(session: Session) -> str:
            self.ledger.lock(session, player_id)
            return source.commitment(session, player_id)

        return self.ledger.write(work)

    def end_shoe(self, player_id: int, game: str) -> bool:
        """End the player's own shoe of ``game`` before its cut card: its seed shows, so
        its coups can be checked now, and the next coup starts a new shoe. Whether a
        shoe of that game was in play (never at a game dealt from a fresh deck)."""
        find_game(game)  # a game that does not exist is not found

        def work(session: Session) -> bool:
            self.ledger.lock(session, player_id)
            shoe = running_shoe(session, player_id, game)
            if shoe is not None:
                shoe.revealed = True
            return shoe is not None

        return self.ledger.write(work)

    def shoe_in_play(self, player_id: int, game: str) -> bool:
        """Whether the player's own shoe of ``game`` has coups dealt and more to come:
        its seed and client seed are then fixed, and the next coup deals on from it."""
        find_game(game)
        with Session(self.ledger.engine) as session:
            return running_shoe(session, player_id, game) is not None

    def new_deal(
        self, game: str, variant: str | None = None, fence: Fence | None = None
    ) -> NewDeal:
        """A shared table's next deck or shoe: a fresh server seed, committed to now,
        before any player's client seed is known; with ``fence``, only while that
        lease runs the table."""
        kind = find_game(game)
        rules = json.dumps(to_json(kind.rules(variant)))
        seeds = FairSource.new("", 0)

        def work(session: Session) -> NewDeal:
            check_fence(session, fence)
            deal = Deal(
                game=game,
                rules=rules,
                server_seed=seeds.server_seed,
                commitment=seeds.commitment,
                revealed=False,
            )
            session.add(deal)
            session.flush()
            return NewDeal(id=deal.id, commitment=deal.commitment)

        return self.ledger.write(work)

    def seal_deal(self, deal_id: int, client_seed: str, fence: Fence | None = None) -> DealLayout:
        """Fix the deal's client seed (the seated players' seeds, joined) before its
        first cards; the layout of the cards it gives. A sealed deal keeps its seed.
        With ``fence``, only while that lease runs the table."""
        if len(client_seed) > MOST_SEEDS:
            raise IllegalAction(f"a shared table's seeds are at most {MOST_SEEDS} characters")

        def work(session: Session) -> DealLayout:
            check_fence(session, fence)
            deal = open_deal(session, deal_id)
            if deal.client_seed is None:
                deal.client_seed = joined_seed(client_seed)
                deal.seeds = client_seed if deal.client_seed != client_seed else None
            seeds = FairSource(deal.server_seed, deal.client_seed, 0)
            return deal_layout(deal.game, json.loads(deal.rules), seeds)

        return self.ledger.write(work)

    def reveal_deal(self, deal_id: int, fence: Fence | None = None) -> None:
        """Nothing from this deal is in play any more: its seed may be shown (again).
        With ``fence``, only while that lease runs the table (a holder that lost it
        never shows the seed of a deal its successor still deals from)."""

        def work(session: Session) -> None:
            check_fence(session, fence)
            deal = session.get(Deal, deal_id, with_for_update=True)
            if deal is None:
                raise NotFound(f"there is no deal {deal_id}")
            deal.revealed = True

        self.ledger.write(work)
