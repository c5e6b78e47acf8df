"""What crosses from the table service to a front end: one frozen model per shape.

The web table serves them as JSON (``model_dump(mode="json")``, and as the response
models the OpenAPI schema publishes); the terminal and the command line read their
attributes. A shoe's roads are :mod:`~riverboat.table.road_views`; a shared table's
snapshots, messages and the lobby :mod:`~riverboat.table.live.views`.

>>> ChoiceView(action="play", label="Play", minimum=1000, maximum=3000).model_dump()
{'action': 'play', 'label': 'Play', 'minimum': 1000, 'maximum': 3000}
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)

from riverboat.games import GameRules, SomeGame
from riverboat.money import Cents
from riverboat.table.felt_rounds import HandOutcome
from riverboat.table.felt_views import EdgeLine, LineInfo, PaySection, StrategyCardInfo
from riverboat.table.paytables import felt_lines, pay_sections
from riverboat.table.states import EdgesState, RoundStatus

__all__ = [
    "SEED_CHARACTERS",
    "BalanceView",
    "ChoiceView",
    "CoachVerdict",
    "CreditKind",
    "CreditView",
    "EdgeLine",
    "ExportedRound",
    "GameInfo",
    "HandInfo",
    "HintOption",
    "HintView",
    "LineInfo",
    "LoginView",
    "MeView",
    "NewDeal",
    "NextCommitment",
    "OkView",
    "OptionInfo",
    "PaySection",
    "RoundRecord",
    "RoundView",
    "ShoeEnded",
    "ShoeInfo",
    "SpotInfo",
    "StrategyCardInfo",
    "Wagers",
]

#: wagers by spot name, in cents
Wagers = dict[str, Cents]
#: a seat's client seed at a shared table; seven of them, joined, fit the 128
#: characters a deal keeps
SEED_CHARACTERS = 16
#: the most spots one request's wagers may name (no game has more; a request naming more
#: is refused before it is read further)
MOST_SPOTS = 16


class _View(BaseModel):
    # defer_build: each model's validator and serializer are built at its first use,
    # not at import, so a command that shows a history builds only the views it shows
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# ----------------------------------------------------------------- rounds
class ChoiceView(_View):
    """A decision the round allows now, with what it stakes (a range for a 1x-3x Play)."""

    action: str
    label: str
    minimum: Cents
    maximum: Cents


class RoundView(_View):
    """A round as its player may see it: their own cards while it is open (never a blind
    second position's, C8), everything once it is over; the server seed once revealed."""

    id: int
    game: str
    #: the rules the round is dealt by: a named variant of the game, or a variant file's
    #: (a shared table's); hints and the coach weigh its hand by them
    variant: str = ""
    status: RoundStatus = Field(description="open, settled or void (G7)")
    shared: bool
    commitment: str
    client_seed: str
    nonce: int
    server_seed: str | None
    cards: dict[str, list[str]]
    face_down: int
    totals: list[int] | None
    winner: str | None = Field(description="a coup's side: Player, Banker or Tie (B7)")
    choices: list[ChoiceView]
    wagers: Wagers
    second: Wagers | None
    result: Wagers | None
    second_result: Wagers | None
    net: Cents | None
    description: str | None
    balance: Cents
    #: every line's stake now, the lines placed in play too, keyed like ``result``
    stakes: Wagers = {}
    #: the same for a blind second position (C8); None: there is none
    second_stakes: Wagers | None = None
    #: per visible hand, the indices into ``cards`` of the cards its ranked hand uses
    #: (settled rounds only)
    made: dict[str, list[int]] = {}
    #: a visible hand's name as the description says it ("Pair of Sevens", Baccarat "9")
    hand_names: dict[str, str] = {}
    #: whether the dealer qualified, for games whose dealer qualifies, once settled
    dealer_qualifies: bool | None = None
    #: how the hand ended against the dealer's, once settled (apart from the money):
    #: won, lost, tied, folded, not_qualified (the dealer's), no_play (nothing decided)
    hand_outcome: HandOutcome | None = None


class RoundRecord(_View):
    """A round's record, as stored and replayed: its rules, the cards it drew and its
    events, in order (its JSON is what a verifier checks, key for key)."""

    format: int
    game: str
    rules: dict[str, Any]
    cards_drawn: list[int]
    events: list[dict[str, Any]]


class ExportedRound(_View):
    """A round as the player may keep it (history): the record once it is over, the
    seed once revealed, and the places of its deck or shoe its cards came from."""

    totals: list[int] | None
    winner: str | None = Field(description="a coup's side: Player, Banker or Tie (B7)")
    id: int
    game: str
    #: the name of the rules the round was dealt by (its record holds them whole)
    variant: str = ""
    status: RoundStatus = Field(description="open, settled or void (G7)")
    shared: bool
    commitment: str
    server_seed: str | None
    client_seed: str
    seeds: str | None = Field(
        default=None,
        description="at a shared table whose seated players' seeds were too many to keep "
        "as the client seed: those seeds joined by '|' (yours among them), of which "
        "client_seed is the SHA-256; None otherwise",
    )
    nonce: int
    places: list[int] | None
    balance_before: Cents
    balance_after: Cents | None
    net: Cents | None
    played_at: str
    record: RoundRecord | None


#: a change to a player's account that is not a round's: a new player's starting
#: credit, a top-up (the page's Refill), or the house's (an operator's credit or debit,
#: the account locked or unlocked, its sessions ended)
CreditKind = Literal["start", "top_up", "adjustment", "locked", "unlocked", "sessions_ended"]


class CreditView(_View):
    """A change to the player's account that is not a round's, as their history lists
    it: the starting credit, a top-up or the house's; what it added (cents, below 0 for
    a debit) and the balance it left; the house's reason; ``at`` in UTC."""

    id: int = Field(description="the credit's transaction id (the next page's `before`)")
    kind: CreditKind
    amount: Cents = Field(
        description="what it added to the balance, in cents: below 0 for the house's "
        "debit, 0 for a lock, an unlock or sessions ended"
    )
    balance_after: Cents | None = Field(
        description="the balance it left (None where it moved no money)"
    )
    at: datetime
    reason: str | None = Field(default=None, description="the house's reason for its change")


class NewDeal(_View):
    """A shared table's next deck or shoe: its id and the commitment to its seed."""

    id: int
    commitment: str


class NextCommitment(_View):
    """The commitment to the next round's server seed at one's own table; whether a
    Baccarat shoe deals on from the seeds it has (B1)."""

    commitment: str
    shoe_in_play: bool


class BalanceView(_View):
    balance: Cents


class MeView(_View):
    """The player: their balance and the top-up's rule (below ``top_up_below``, a
    top-up brings the balance back to ``top_up_to``, counting open rounds)."""

    player: int
    balance: Cents
    signed_in: bool
    top_up_below: Cents = 0
    top_up_to: Cents = 0


class LoginView(_View):
    player: int
    balance: Cents


class OkView(_View):
    ok: bool


class ShoeEnded(_View):
    ended: bool


class HintOption(_View):
    """A legal option's expected value for the hand, in Antes."""

    action: str
    label: str
    expected: float


class HintView(_View):
    """The hint: every legal option for the hand, best first, in words in the round's
    money and with the exact figures per $1 of Ante (:mod:`riverboat.table.advice`)."""

    options: list[HintOption] = Field(description="best first; expected values in Antes")
    text: str = Field(description="the hint in words, in dollars, on average")
    details: str = Field(description="each option's expected value per $1 of Ante")


class CoachVerdict(_View):
    """A decision weighed against the best option for the hand (the coach): expected
    values in Antes, and what the decision gave up in Antes and in cents."""

    action: str
    amount: Cents = Field(description="what the decision staked")
    label: str
    best: bool = Field(description="no option was worth more")
    best_action: str = Field(description="the best option, as the analyzer names it (play3x)")
    best_label: str
    best_amount: Cents
    expected: float
    best_expected: float
    ev_cost: float = Field(description="expected value given up, in Antes")
    ev_cost_cents: float = Field(description="expected value given up, in cents")
    text: str = Field(description="the verdict in words, in dollars, on average")
    details: str = Field(description="the expected values per $1 of Ante behind the words")


# ------------------------------------------------------------------ games
class SpotInfo(_View):
    """A wager spot: its limits in cents and the spot it must equal (R1)."""

    name: str
    label: str
    minimum: Cents
    maximum: Cents
    required: bool
    equal_to: str | None


class HandInfo(_View):
    """A hand of a round as the game's spec deals it (:class:`riverboat.games.spec.HandSpec`):
    the key of its cards in a round, its title, the most and fewest cards it takes."""

    name: str
    title: str
    cards: int
    fewest: int
    each_position: bool = Field(description="one per betting position, else one per round")
    house: bool = Field(description="the house's hand, face down until the round is over")
    dealt_on: str | None = Field(description="dealt only when this decision is made")


class OptionInfo(_View):
    """A decision the game offers (the engine's, the hints' and the page's vocabulary)."""

    action: str
    label: str
    line: str | None = Field(default=None, description="the line of the wager it places")
    fee_line: str | None = Field(
        default=None, description="the line of a fee it pays beside that wager (R4's rabbit fee)"
    )


class ShoeInfo(_View):
    """A shoe that lives across rounds: its decks and its cut card; a new shoe shows its
    first card and burns (B1)."""

    decks: int
    cut_card_from_end: int


class GameInfo(_View):
    """A game's wagers, chips, pay tables and rules in brief (R11), with the analyzer's
    house edge once it is known, and the shape a front end lays out (its spec).

    >>> from riverboat.games import find_game
    >>> info = GameInfo.of(find_game("tri-card"))
    >>> info.title, [spot.name for spot in info.wagers]
    ('Tri-Card Poker', ['ante', 'pair_plus'])
    >>> [(hand.name, hand.cards, hand.house) for hand in info.hands], info.shared
    ([('player', 3, False), ('dealer', 3, True)], False)
    """

    game: str
    title: str
    variant: str
    wagers: list[SpotInfo]
    chips: list[Cents]
    pay_tables: dict[str, list[list[str]]]
    how_to_play: list[str]
    rules: dict[str, Any]
    house_edge: float | None = None
    #: the hands in dealing order (a hand dealt on a decision after the others)
    hands: list[HandInfo] = []
    #: the decisions a position makes (none: the round settles when dealt, no hints)
    options: list[OptionInfo] = []
    #: the Play a blind second position makes, in Antes (C8); None: no such position
    blind_play: float | None = None
    #: a shoe that lives across rounds; None: a fresh deck each round
    shoe: ShoeInfo | None = None
    #: whether several seats may play one deal (a shared table), and how many
    shared: bool = False
    max_seats: int = 1
    #: every betting circle, the pre-deal spots then the lines a decision places
    lines: list[LineInfo] = []
    #: what every result line is called, the circles' and those settlement adds with
    #: no circle of their own (R9's cap)
    line_labels: dict[str, str] = {}
    #: the pay tables and rules in words, one section per wager
    pay_table: list[PaySection] = []
    #: the house edge of the required wagers and of each side wager; None while
    #: being worked out
    edges: list[EdgeLine] | None = None
    #: a strategy card for the required wagers (:mod:`riverboat.analysis.strategy_cards`);
    #: None while being worked out, and for a game without decisions
    strategy_card: StrategyCardInfo | None = None
    #: where the house edges and strategy card stand: known (given above), being
    #: worked out (ask again), or not to be had from this server
    edges_state: EdgesState = EdgesState.PENDING

    @classmethod
    def of(
        cls,
        game: SomeGame,
        house_edge: float | None = None,
        edges: list[EdgeLine] | None = None,
        strategy_card: StrategyCardInfo | None = None,
        rules: GameRules | None = None,
        edges_state: EdgesState | None = None,
    ) -> GameInfo:
        """The information under ``rules`` (the default variant's if None), every part
        from the same rules, with the analyzer's figures if known: their state is known
        when ``edges`` are given, else pending unless ``edges_state`` says unavailable."""
        if edges is not None:
            edges_state = EdgesState.KNOWN
        elif edges_state is not EdgesState.UNAVAILABLE:
            edges_state = EdgesState.PENDING
        rules = game.rules() if rules is None else rules
        spec = game.spec(rules)
        shoe = spec.shoe
        return cls.model_validate(
            {
                **game.table_info(rules),
                "house_edge": house_edge,
                "hands": [
                    HandInfo(
                        name=hand.name,
                        title=hand.title,
                        cards=hand.cards,
                        fewest=hand.fewest,
                        each_position=hand.each_position,
                        house=hand.house,
                        dealt_on=hand.dealt_on,
                    )
                    for hand in spec.hands
                ],
                "options": [
                    OptionInfo(action=o.action, label=o.label, line=o.line, fee_line=o.fee_line)
                    for o in spec.options
                ],
                "blind_play": None if spec.blind_play is None else float(spec.blind_play),
                "shoe": None
                if shoe is None
                else ShoeInfo(decks=shoe.decks, cut_card_from_end=shoe.cut_card_from_end),
                "shared": spec.shared,
                "max_seats": spec.max_seats,
                "lines": felt_lines(game, rules),
                "line_labels": {
                    **{spot.name: spot.label for spot in spec.spots},
                    **game.line_words(rules).labels,
                },
                "pay_table": pay_sections(game, rules),
                "edges": edges,
                "strategy_card": strategy_card,
                "edges_state": edges_state,
            }
        )
