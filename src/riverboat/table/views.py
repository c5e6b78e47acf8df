"""What crosses from the table service to a front end: one frozen model per shape.

The web table serves them as JSON (``model_dump(mode="json")``, and as the response
models the OpenAPI schema publishes); the terminal and the command line read their
attributes. A shared table's messages are models too, one per ``type``.

>>> ChoiceView(action="play", label="Play", minimum=1000, maximum=3000).model_dump()
{'action': 'play', 'label': 'Play', 'minimum': 1000, 'maximum': 3000}
>>> DecidedMessage(action="fold", waiting=2).model_dump(mode="json")
{'type': 'decided', 'action': 'fold', 'waiting': 2}
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from riverboat.games import GameDefinition
from riverboat.games.roads import ROWS, DerivedRoad, Preview, roads
from riverboat.money import Cents
from riverboat.table.felt_rounds import HandOutcome
from riverboat.table.felt_views import EdgeLine, LineInfo, PaySection, StrategyCardInfo
from riverboat.table.paytables import felt_lines, pay_sections
from riverboat.table.states import RoundStatus, SeatState, TablePhase

__all__ = [
    "LOBBY_ROAD_COLUMNS",
    "SEED_CHARACTERS",
    "BalanceView",
    "BeadView",
    "Bet",
    "BigRoadEntryView",
    "ChoiceView",
    "CoachVerdict",
    "CoupMessage",
    "CreditKind",
    "CreditView",
    "DealtMessage",
    "Decide",
    "DecidedMessage",
    "DerivedMarkView",
    "EdgeLine",
    "ErrorMessage",
    "ExportedRound",
    "GameInfo",
    "HandInfo",
    "HintOption",
    "HintView",
    "LineInfo",
    "LobbyShoe",
    "LobbyTable",
    "LobbyView",
    "LoginView",
    "MeView",
    "NewDeal",
    "NextCommitment",
    "OkView",
    "OptionInfo",
    "PaySection",
    "PlayerMessage",
    "ResultMessage",
    "RoadPreviewView",
    "RoadsView",
    "RoundRecord",
    "RoundView",
    "SeatView",
    "ShoeEnded",
    "ShoeInfo",
    "ShoeView",
    "SpotInfo",
    "StrategyCardInfo",
    "TableMessage",
    "TableSnapshot",
    "Wagers",
]

#: wagers by spot name, in cents
Wagers = dict[str, Cents]
#: a seat's client seed at a shared table; seven of them, joined, fit the 128
#: characters a deal keeps
SEED_CHARACTERS = 16


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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


#: a credit of play money that is not a round's: a new player's starting credit, or a
#: top-up (the page's Refill)
CreditKind = Literal["start", "top_up"]


class CreditView(_View):
    """A credit of play money that is not a round's, as the player's history lists it:
    the starting credit or a top-up, what it added (cents) and the balance it left;
    ``at`` in UTC."""

    id: int = Field(description="the credit's transaction id (the next page's `before`)")
    kind: CreditKind
    amount: Cents = Field(description="what the credit added to the balance, in cents")
    balance_after: Cents | None = Field(
        description="the balance the credit left: the starting credit for both kinds"
    )
    at: datetime


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

    @classmethod
    def of(
        cls,
        game: GameDefinition[Any],
        house_edge: float | None = None,
        edges: list[EdgeLine] | None = None,
        strategy_card: StrategyCardInfo | None = None,
    ) -> GameInfo:
        """The default variant's information, with the analyzer's figures if known."""
        spec = game.spec()
        shoe = spec.shoe
        return cls.model_validate(
            {
                **game.table_info(),
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
                "lines": felt_lines(game),
                "line_labels": {
                    **{spot.name: spot.label for spot in spec.spots},
                    **game.line_words(game.rules()).labels,
                },
                "pay_table": pay_sections(game),
                "edges": edges,
                "strategy_card": strategy_card,
            }
        )


# ------------------------------------------------------------------- roads
class BeadView(_View):
    """A coup on the bead plate, at its cell (column, row from 0 at the top left)."""

    winner: str = Field(description="Banker, Player or Tie (B7)")
    column: int
    row: int


class BigRoadEntryView(_View):
    """A Banker or Player result on the big road, at its grid cell (dragon tails
    turned); ``ties`` followed it, ``leading_ties`` opened the shoe before it."""

    winner: str = Field(description="Banker or Player")
    column: int
    row: int
    ties: int
    leading_ties: int


class DerivedMarkView(_View):
    """A mark on a derived road, at its grid cell."""

    colour: Literal["red", "blue"]
    column: int
    row: int


class RoadPreviewView(_View):
    """The marks a next result would add (``None``: that road would not start yet)."""

    big_eye_boy: Literal["red", "blue"] | None
    small_road: Literal["red", "blue"] | None
    cockroach_pig: Literal["red", "blue"] | None


class RoadsView(_View):
    """One shoe's roads, ready to draw: every grid ``rows`` high.

    >>> view = RoadsView.of(["Tie", "Banker", "Player"])
    >>> view.big_road[0].model_dump()
    {'winner': 'Banker', 'column': 0, 'row': 0, 'ties': 0, 'leading_ties': 1}
    >>> view.next_player.model_dump()
    {'big_eye_boy': 'blue', 'small_road': None, 'cockroach_pig': None}
    """

    rows: int
    bead_plate: list[BeadView]
    big_road: list[BigRoadEntryView]
    leading_ties: int = Field(description="ties of a shoe with no Banker or Player result yet")
    big_eye_boy: list[DerivedMarkView]
    small_road: list[DerivedMarkView]
    cockroach_pig: list[DerivedMarkView]
    next_banker: RoadPreviewView
    next_player: RoadPreviewView

    @classmethod
    def of(cls, winners: list[str]) -> RoadsView:
        """The roads of one shoe's winners, in order (the current shoe's only)."""
        built = roads(winners)

        def marks(road: DerivedRoad) -> list[DerivedMarkView]:
            return [
                DerivedMarkView(colour=m.colour, column=m.column, row=m.row) for m in road.marks
            ]

        def ask(preview: Preview) -> RoadPreviewView:
            return RoadPreviewView(
                big_eye_boy=preview.big_eye_boy,
                small_road=preview.small_road,
                cockroach_pig=preview.cockroach_pig,
            )

        return cls(
            rows=ROWS,
            bead_plate=[
                BeadView(winner=b.winner, column=b.column, row=b.row)
                for b in built.bead_plate.beads
            ],
            big_road=[
                BigRoadEntryView(
                    winner=e.winner,
                    column=e.column,
                    row=e.row,
                    ties=e.ties,
                    leading_ties=e.leading_ties,
                )
                for e in built.big_road.entries
            ],
            leading_ties=built.big_road.leading_ties,
            big_eye_boy=marks(built.big_eye_boy),
            small_road=marks(built.small_road),
            cockroach_pig=marks(built.cockroach_pig),
            next_banker=ask(built.next_banker),
            next_player=ask(built.next_player),
        )


# ---------------------------------------------------------- shared tables
class SeatView(_View):
    """A seat as everyone at the table sees it: its place, its name, its chips by line
    and whether it has decided; never anyone's cards, nor what a decision was."""

    seat: int = Field(
        description="the seat's place around the table, 1 to the table's seats, "
        "kept while its player sits"
    )
    name: str = Field(description="the player's account name, as they chose it")
    you: bool
    staked: Cents | None
    second: bool
    in_round: bool
    decided: bool
    state: SeatState = Field(
        description="where the seat stands: waiting (no bet yet) or bet, for the next deal; "
        "out (sitting out the hand in play), deciding or decided, while hands are decided"
    )
    wagers: Wagers | None = Field(
        default=None,
        description="the first position's chips by line in cents (lines with none left "
        "out): the round's while it plays, else the next deal's; None before a bet",
    )
    second_wagers: Wagers | None = Field(
        default=None,
        description="the same for a blind second position, its 1x Play included (C8); "
        "None: there is none",
    )


class ShoeView(_View):
    """A shared Baccarat shoe: the cards left, its coups' winners (the road) and the
    roads drawn from them, empty again at a new shoe."""

    cards_left: int | None
    road: list[str]
    roads: RoadsView


#: how many seats besides the viewer's own a table's snapshot shows (the first by place)
SEATS_SHOWN = 6


class TableSnapshot(_View):
    """The table as one player sees it: the seats, the phase, the seconds left and the
    deal's commitment; at Baccarat (only) the shoe."""

    type: Literal["table"] = "table"
    game: str
    phase: TablePhase = Field(
        description="betting, deciding, settling (a showdown its database did not take, tried "
        "again) or closed (its database cannot be reached)"
    )
    seconds_left: float | None
    seconds_total: float | None = Field(
        default=None,
        description="the whole time the running clock gave (betting or deciding), "
        "for drawing what is left of it; None with no clock running",
    )
    commitment: str | None
    seats: list[SeatView] = Field(
        description="the seats shown, in place order: your own, and the first "
        f"{SEATS_SHOWN} others; the rest are counted in ``players`` and their chips "
        "summed in ``on_spots``"
    )
    seats_free: int | None = Field(description="seats no one sits in; None: no limit")
    players: int = Field(default=0, description="everyone seated, shown or not")
    on_spots: Wagers = Field(
        default_factory=dict,
        description="everyone's chips on each line in cents (lines with none left out): "
        "the bets for the next deal, or the rounds' in play",
    )
    shoe: ShoeView | None = None

    @model_serializer(mode="wrap")
    def _without_shoe(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A table without a shoe (Crazy 4) sends no ``shoe`` key at all."""
        data: dict[str, Any] = handler(self)
        if data.get("shoe") is None:
            data.pop("shoe", None)
        return data


class DealtMessage(_View):
    """The player's own round, just dealt (or again after a reload)."""

    type: Literal["dealt"] = "dealt"
    round: RoundView


class ResultMessage(_View):
    """The player's own round, settled."""

    type: Literal["result"] = "result"
    round: RoundView


class CoupMessage(_View):
    """A Baccarat coup's cards, totals and winner, which every seat sees."""

    type: Literal["coup"] = "coup"
    cards: dict[str, list[str]]
    totals: list[int] | None
    winner: str | None = Field(description="a coup's side: Player, Banker or Tie (B7)")


class DecidedMessage(_View):
    """The player's decision was taken; it is carried out when ``waiting`` is 0."""

    type: Literal["decided"] = "decided"
    action: str
    waiting: int


class ErrorMessage(_View):
    """A refusal or a note for the player. Over the web, ``error`` (the same text as
    ``message``) and ``code`` (the refusal's kind; ``note`` for the table's own notes)
    are the fields of every HTTP refusal too; a message without them sends neither."""

    type: Literal["error"] = "error"
    message: str
    error: str | None = None
    code: str | None = None

    @model_serializer(mode="wrap")
    def _without_kind(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in ("error", "code"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


#: every message a shared table sends, told apart by ``type``
TableMessage = Annotated[
    TableSnapshot | DealtMessage | ResultMessage | CoupMessage | DecidedMessage | ErrorMessage,
    Field(discriminator="type"),
]


class Bet(BaseModel):
    """A player's wagers for the next deal, with their client seed for it."""

    type: Literal["bet"]
    wagers: dict[str, int]
    second: dict[str, int] | None = None
    client_seed: str | None = Field(default=None, max_length=SEED_CHARACTERS)


class Decide(BaseModel):
    """A player's Crazy 4 decision."""

    type: Literal["decide"]
    action: str = Field(max_length=32)
    amount: int | None = None


#: every message a player sends to a shared table, told apart by ``type``
PlayerMessage = Annotated[Bet | Decide, Field(discriminator="type")]


# ------------------------------------------------------------------ the lobby
class LobbyShoe(_View):
    """A shared Baccarat table's shoe as the lobby shows it: the cards left (None until
    its first coup is dealt), the coups dealt from it so far and how many each side won."""

    cards_left: int | None
    coups: int
    banker: int = Field(description="coups of this shoe the Banker won")
    player: int = Field(description="coups of this shoe the Player won")
    tie: int = Field(description="coups of this shoe that were a tie")
    last: str | None = Field(description="the last coup's winner: Banker, Player or Tie")


#: how many of a big road's newest columns the lobby shows (its miniature)
LOBBY_ROAD_COLUMNS = 20


class LobbyTable(_View):
    """One shared table in the lobby: what it plays and its seats, never a card or seed."""

    id: str
    name: str
    game: str
    title: str
    variant: str
    limits: str = Field(description="the first wager's limits in words, e.g. 'Ante $5 to $100'")
    wagers: list[SpotInfo]
    seats: int | None = Field(description="the table's seats; None: no limit")
    seats_taken: int = Field(description="the players seated")
    seats_free: int | None = Field(description="seats no one sits in; None: no limit")
    phase: TablePhase = Field(description="betting, deciding, settling or closed")
    you: bool = Field(description="whether you are seated here")
    players: list[str] = Field(
        default_factory=list,
        description=f"the names of the players seated, in seat order (your own and the "
        f"first {SEATS_SHOWN} others)",
    )
    seated: list[SeatView] = Field(
        default_factory=list,
        description="the seats shown, as everyone at the table sees them (place, name, "
        "chips by line, bet or decided; never a card), for the lobby's live miniature",
    )
    on_spots: Wagers = Field(
        default_factory=dict, description="everyone's chips on each line in cents"
    )
    seconds_left: float | None = Field(
        default=None, description="the table's clock, as at the table; None: none runs"
    )
    shoe: LobbyShoe | None = None
    big_road: list[BigRoadEntryView] | None = Field(
        default=None,
        description=(
            "at a table with a shoe, its big road's last "
            f"{LOBBY_ROAD_COLUMNS} columns, each entry at the table's own (column, row)"
        ),
    )


class LobbyView(_View):
    """The shared tables, in the order they were configured."""

    tables: list[LobbyTable]
