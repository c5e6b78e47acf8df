"""The terminal table's state and parts: its widgets, which keys work now, and
betting on the felt (spots, chips, Crazy 4's blind second position, C8).

:class:`~riverboat.terminal.app.TableApp` adds the rounds, which the table service
deals and decides.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import var
from textual.widgets import Footer

from riverboat.games import GAMES, GameRules, find_game
from riverboat.games.chips import hold, tap
from riverboat.games.rules import IllegalAction
from riverboat.games.spec import GameSpec
from riverboat.money import Cents, format_money
from riverboat.table.coach import CoachTally
from riverboat.table.service import TOP_UP_BELOW, TableService
from riverboat.table.states import RoundStatus
from riverboat.table.views import ChoiceView, RoundView
from riverboat.terminal.felt import (
    GAME_KEYS,
    SHORT,
    SPECS,
    Chips,
    Hand,
    Road,
    Spots,
    deal_variant,
)
from riverboat.terminal.widgets import (
    DECISION_KEYS,
    Balance,
    Choices,
    GamesBar,
    MessageLine,
    Status,
)

__all__ = ["Table", "remember_coach", "remembered_coach"]

#: each decision's label, from the games' specs
_DECISIONS = {o.action: o.label for spec in SPECS.values() for o in spec.options}

_SPOT = Binding.Group("Spot", compact=True)
_CHIP = Binding.Group("Chip", compact=True)
_BETTING = frozenset({"spot", "chip", "tap", "hold", "deal", "replay"})


def _settings() -> Path:
    """The terminal table's settings: a JSON file in the user's config directory."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("riverboat")) / "terminal.json"


def remembered_coach() -> bool:
    """Whether the coach was on when last left (off at first, or if unreadable)."""
    try:
        return bool(json.loads(_settings().read_text()).get("coach", False))
    except (OSError, ValueError, AttributeError):
        return False


def remember_coach(on: bool) -> None:
    """Keep the coach's switch for the next run (quietly not, where it cannot be written)."""
    path = _settings()
    with suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        spare = path.with_suffix(".tmp")
        spare.write_text(json.dumps({"coach": on}))
        spare.replace(path)  # whole or not at all


class Table(App[None]):
    """The table's parts and state, which keys work now, and betting on the felt; the
    rounds, which ask the service, are :class:`~riverboat.terminal.app.TableApp`'s.

    Each part of the table is a widget that keeps what it shows and draws itself
    (:mod:`riverboat.terminal.felt`, :mod:`riverboat.terminal.widgets`); the table
    shown, its round and the balance are reactives here, bound to the parts that show
    them.
    """

    TITLE = "riverboat"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { background: #0d3b26; color: #f4f1e6; }
    ModalScreen { background: $background 50%; }
    #top { height: 1; background: $panel; }
    #games { width: 1fr; }
    #balance { width: auto; text-style: bold; }
    .hand { height: 3; margin: 1 1 0 1; }
    #spots { height: auto; margin: 1 1 0 1; }
    #chips { height: 1; margin: 0 1; }
    #road { height: 1; margin: 0 1; }
    #choices { height: 1; margin: 1 1 0 1; }
    #message { height: 1fr; min-height: 2; margin: 1 1 0 1; }
    #message.-error { color: $text-error; }
    #status { height: 1; background: $panel; }
    Footer.-compact KeyGroup { margin: 0; padding: 0; }
    Footer.-compact FooterLabel { margin: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            # listed in the games bar at the top, each key beside its game
            Binding(key, f"game('{name}')", SHORT[name], show=False)
            for key, name in GAME_KEYS.items()
        ),
        Binding("up", "spot(-1)", "Spot up", group=_SPOT),
        Binding("down", "spot(1)", "Spot down", group=_SPOT),
        Binding("left", "chip(-1)", "Smaller chip", group=_CHIP),
        Binding("right", "chip(1)", "Bigger chip", group=_CHIP),
        Binding("enter,space", "tap", "Add"),
        Binding("backspace,delete", "hold", "Clear"),
        Binding("d", "deal", "Deal"),
        # Crazy 4's blind second position (C8); listed on the felt as well, and only
        # there when the footer also lists the top-up and has no room left for it
        Binding("b", "blind", "Blind"),
        Binding("b", "blind_unlisted", "Blind", show=False),
        Binding("g", "replay", "Replay"),
        # Baccarat: end the shoe in play (B1); listed on the felt as well, and only there
        # when the footer also lists the top-up and has no room left for it
        Binding("n", "new_shoe", "Shuffle"),
        Binding("n", "new_shoe_unlisted", "Shuffle", show=False),
        *(
            Binding(DECISION_KEYS[action], f"decide('{action}')", label)
            for action, label in _DECISIONS.items()
        ),
        Binding("m", "most", "Play max"),
        Binding("a", "amount", "Amount"),
        Binding("h", "hint", "Hint"),
        # the coach, on or off (remembered); said in the decision prompt, not the footer
        Binding("c", "coach", "Coach", show=False),
        Binding("u", "top_up", "Top up"),
        Binding("t", "rules", "Rules"),
        Binding("y", "history", "History"),
        Binding("q", "quit", "Quit"),
    ]

    #: the table shown, its round (open, or the last one played) and the balance:
    #: bound to the parts of the table that show them
    game: var[str] = var("", bindings=True)
    view: var[RoundView | None] = var(None, bindings=True)
    balance: var[Cents] = var(0, bindings=True)

    def __init__(
        self,
        service: TableService,
        player: int | None = None,
        game: str | None = None,
        wagers: dict[str, Cents] | None = None,
        client_seed: str | None = None,
        ascii_cards: bool = False,
        house_edges: bool = True,
        blind: bool = False,
        coach: bool | None = None,
        rules: GameRules | None = None,
    ) -> None:
        super().__init__()
        game = game or next(iter(GAMES))
        find_game(game)
        if rules is not None:  # the first table deals a variant (a variant file's)
            deal_variant(game, rules)
        self.service = service
        self.player = service.local_player() if player is None else player
        self.client_seed, self.ascii_cards, self.house_edges = client_seed, ascii_cards, house_edges
        #: per table: the round shown there, as the service last returned it
        self.rounds: dict[str, RoundView | None] = dict.fromkeys(GAMES)
        #: the hints worked out, by round (in words, and the figures behind them);
        #: whether one is being worked out
        self.hints: dict[int, tuple[str, str]] = {}
        self.hinting = False
        #: the coach: on or off (None: as last left, remembered), and this session's tally
        self.coaching = remembered_coach() if coach is None else coach
        self.tally = CoachTally()
        self._felt = Spots({game: dict(wagers or {})}, blind)
        self.set_reactive(Table.game, game)

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        table, shown = Table.game, Table.view
        with Horizontal(id="top"):
            yield GamesBar(id="games").data_bind(table)
            yield Balance(id="balance").data_bind(Table.balance)
        yield Hand(True, self.ascii_cards, id="dealer").data_bind(table, shown)
        yield Hand(False, self.ascii_cards, id="player").data_bind(table, shown)
        yield self._felt.data_bind(table, shown)
        yield Chips(id="chips").data_bind(table)
        yield Road(id="road").data_bind(table)
        yield Choices(id="choices").data_bind(shown)
        yield MessageLine(id="message")
        yield Status(id="status").data_bind(table, shown)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        for name in ("game", "wagers", "blind"):  # what the deal takes, said by the choices
            self.watch(self._felt, name, self._felt_changed)
        self._load(self.game)

    def _felt_changed(self) -> None:
        choices = self.query_one(Choices)
        choices.staked, choices.two_hands = self._felt.staked(), self._felt.two_hands()

    # ------------------------------------------- the parts' state, for reading
    @property
    def wagers(self) -> dict[str, dict[str, Cents]]:
        """Per table, the wagers on the felt."""
        return self._felt.wagers

    @property
    def blind(self) -> bool:
        """Crazy 4: the next deal has a blind second position (C8)."""
        return self._felt.blind

    @property
    def shoe_in_play(self) -> bool:
        """Baccarat: the player's own shoe has coups dealt and more to come (B1)."""
        return self._felt.shoe_in_play

    @property
    def commitments(self) -> dict[str, str | None]:
        """Per table, the commitment to the next round's server seed, as shown."""
        return self.query_one(Status).commitments

    @property
    def session_net(self) -> Cents:
        return self.query_one(Status).net

    @property
    def message(self) -> Text:
        return self.query_one(MessageLine).text

    @property
    def message_is_error(self) -> bool:
        return self.query_one(MessageLine).error

    def chip_value(self) -> Cents:
        """The selected chip at the current table, in cents."""
        return self.query_one(Chips).value()

    def spec(self, game: str | None = None) -> GameSpec:
        """The shape of ``game``'s table (the current one's by default)."""
        return SPECS[game or self.game]

    def round_view(self) -> RoundView | None:
        """The round shown at the current table (open, or the last one played)."""
        return self.view

    def is_open(self) -> bool:
        view = self.view
        return view is not None and view.status == RoundStatus.OPEN

    def choices(self) -> dict[str, ChoiceView]:
        """The decisions the engine allows now, by action."""
        view = self.view
        if view is None or view.status != RoundStatus.OPEN:
            return {}
        return {choice.action: choice for choice in view.choices}

    def _ranged(self) -> ChoiceView | None:
        """A choice with a range of amounts (Crazy 4's Play up to 3x, C3), if offered."""
        return next((c for c in self.choices().values() if c.maximum > c.minimum), None)

    # ------------------------------------------------------------- bindings
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only what can be done now is listed in the footer and runs on its key."""
        if action in _BETTING:
            return not self.is_open()
        if action in ("blind", "blind_unlisted"):
            listed = action == "blind"
            blind = self.spec().blind_play is not None
            return blind and not self.is_open() and listed == self._room()
        if action in ("new_shoe", "new_shoe_unlisted"):
            listed = action == "new_shoe"
            between = self.shoe_in_play and not self.is_open()
            return self.spec().shoe is not None and between and listed == self._room()
        if action == "decide":
            return parameters[0] in self.choices()
        if action in ("most", "amount"):
            return self._ranged() is not None
        if action == "hint":
            return bool(self.spec().options) and bool(self.choices())
        if action == "top_up":
            return self.balance < TOP_UP_BELOW
        return True

    def _room(self) -> bool:
        """Whether the footer has room for Crazy 4's blind key or Baccarat's new shoe at
        80 columns: not while it lists the top-up."""
        return not self.check_action("top_up", ())

    # ------------------------------------------------------------- the felt
    def action_game(self, name: str) -> None:
        if name != self.game:
            self.game, self.view = name, self.rounds[name]
            self._load(name)

    def action_spot(self, step: int) -> None:
        self._felt.move(step)

    def action_chip(self, step: int) -> None:
        self.query_one(Chips).move(step)

    def action_tap(self) -> None:
        """Add the selected chip to the selected spot (R2): capped at the maximum, and a
        spot already at its maximum goes back to zero; the Bonus follows the Ante."""
        spot, chip, spots = self._felt.selected(), self.chip_value(), self.spec().spots
        self._change_felt(lambda w: tap(w, spot.name, chip, spots))

    def action_hold(self) -> None:
        """Clear the selected spot, as pressing and holding it does (R2)."""
        spot, spots = self._felt.selected(), self.spec().spots
        self._change_felt(lambda w: hold(w, spot.name, spots))

    def _change_felt(self, change: Callable[[dict[str, Cents]], dict[str, Cents]]) -> None:
        try:
            self._felt.place(change(self._felt.on_table()))
        except IllegalAction as error:
            self._say(str(error), error=True)
        else:
            spot = self._felt.selected()
            on = self._felt.on_table().get(spot.name, 0)
            self._say(f"{spot.label}: {format_money(on)}. {self._felt_total()}")

    def _felt_total(self) -> str:
        total = self._felt.staked()
        two = " on two hands" if self._felt.two_hands() else ""
        return f"On the felt: {format_money(total)}{two}; d deals." if total else ""

    def action_blind(self) -> None:
        """Crazy 4: a blind second position with the same wagers, on or off (C8)."""
        self._felt.blind = not self._felt.blind
        if self._felt.blind:
            self._say(
                "Blind second hand on: the same wagers again on a second position, "
                "played unseen with a 1x Play and shown at the showdown (C8). "
                + self._felt_total()
            )
        else:
            self._say("Blind second hand off: one position. " + self._felt_total())

    def _load(self, game: str) -> None:
        """Show ``game``'s table as the database has it."""
        raise NotImplementedError

    def _say(self, text: str, error: bool = False) -> None:
        self.query_one(MessageLine).say(text, error)

    def action_blind_unlisted(self) -> None:
        """``b`` while the footer has no room to list it (the felt lists it)."""
        self.action_blind()
