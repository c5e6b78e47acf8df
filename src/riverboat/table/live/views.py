"""What a shared table's seats see and send: each seat, the table's snapshot, the
messages of a deal, a result and a decision, the players' bets and decisions; and
the lobby of shared tables.

>>> DecidedMessage(action="fold", waiting=2).model_dump(mode="json")
{'type': 'decided', 'action': 'fold', 'waiting': 2}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    StrictInt,
    model_serializer,
)

from riverboat.money import Cents
from riverboat.table.road_views import BigRoadEntryView, RoadsView
from riverboat.table.states import SeatState, TablePhase
from riverboat.table.views import (
    MOST_SPOTS,
    SEED_CHARACTERS,
    RoundView,
    SpotInfo,
    Wagers,
    _View,
)

__all__ = [
    "LOBBY_ROAD_COLUMNS",
    "SEATS_SHOWN",
    "Bet",
    "CoupMessage",
    "DealtMessage",
    "Decide",
    "DecidedMessage",
    "ErrorMessage",
    "LobbyShoe",
    "LobbyTable",
    "LobbyView",
    "PlayerMessage",
    "ResultMessage",
    "SeatView",
    "ShoeView",
    "TableMessage",
    "TableSnapshot",
]


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
    #: cents by spot, whole numbers only: "500", 500.0 or true is refused, not dealt
    wagers: dict[str, StrictInt] = Field(max_length=MOST_SPOTS)
    second: dict[str, StrictInt] | None = Field(default=None, max_length=MOST_SPOTS)
    client_seed: str | None = Field(default=None, max_length=SEED_CHARACTERS)


class Decide(BaseModel):
    """A player's Crazy 4 decision."""

    type: Literal["decide"]
    action: str = Field(max_length=32)
    amount: StrictInt | None = None


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
