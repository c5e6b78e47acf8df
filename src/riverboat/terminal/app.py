"""The terminal table: the four games in a Textual app, keyboard first.

The table service decides everything (wagers, legal decisions, payouts) and keeps
the money on the same database as the web table; this app shows what it is told.
Every key that does something now is listed in the footer. At Crazy 4, ``b`` adds a
blind second position with the same wagers (C8): its cards stay face down until the
showdown, and the money shown is the whole round's net over both positions. At
Baccarat, ``n`` ends the shoe in play between coups (B1): its seed shows in the
history, and the next coup starts a new shoe.

Provably fair: before each deal the status line shows the house's commitment (SHA-256)
to the next round's server seed at this table, and the history its full value; the
app then draws its own client seed for the deal (unless one was given), and checks
that the round dealt carries the commitment shown: a round that does not is said.

>>> from riverboat.table.service import TableService
>>> app = TableApp(TableService("sqlite://"), game="tri-card")   # app.run() shows it
>>> app.game, app.chip_value("tri-card")
('tri-card', 500)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import ClassVar

from rich.text import Text
from sqlalchemy.exc import DBAPIError
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from riverboat.games import GAMES, find_game
from riverboat.games.chips import hold, tap
from riverboat.games.rules import IllegalAction, RulesError, Spot
from riverboat.games.spec import GameSpec, HandSpec
from riverboat.money import Cents, format_money
from riverboat.rng import new_client_seed
from riverboat.table.service import TOP_UP_BELOW, TableService
from riverboat.table.views import ChoiceView, RoundView
from riverboat.terminal.cards import draw
from riverboat.terminal.plain import result_text, round_net
from riverboat.terminal.screens import AmountScreen, HistoryScreen, RulesScreen

__all__ = ["DECISION_KEYS", "GAME_KEYS", "TableApp", "short_commitment"]

#: the games in the registry's order, keyed 1, 2, 3...
GAME_KEYS = {str(number): name for number, name in enumerate(GAMES, 1)}
_SPECS: dict[str, GameSpec] = {name: find_game(name).spec() for name in GAMES}
#: the short names the games bar shows: the titles without "Poker", to fit 80 columns
_SHORT = {name: spec.title.removesuffix(" Poker") for name, spec in _SPECS.items()}
#: the key of each decision the engine may offer
DECISION_KEYS = {"fold": "f", "play": "p", "buy": "b", "raise": "r"}
#: each decision's label, from the games' specs
_DECISIONS = {o.action: o.label for spec in _SPECS.values() for o in spec.options}

_SPOT = Binding.Group("Spot", compact=True)
_CHIP = Binding.Group("Chip", compact=True)
_BETTING = frozenset({"spot", "chip", "tap", "hold", "deal", "replay"})
_SHOE_DONE = "The shoe is done: its seed shows in history; the next coup starts a new shoe."
_ROAD_STYLES = {"P": "bold #7ab0ff", "B": "bold #ff7a7a", "T": "bold #8be08b"}
_WELCOME = "↑↓ picks a spot, ←→ a chip; ⏎ adds the chip, ⌫ clears the spot; d deals."
#: the parts with a blank line above them, which a long message may take, nearest first
_SPACED = ("#message", "#choices", "#spots", "#player", "#dealer")


class TableApp(App[None]):
    """The tables for one player: wagers, deal, decisions, hint, pay table, history.

    ``game`` is the table shown first; ``wagers`` (cents) are placed on it to start;
    ``client_seed`` goes into every deal (provably fair; by default the app draws a
    fresh one for each deal, after the commitment is shown); ``house_edges`` lets the
    pay table work out the analyzer's house edge in the background; ``blind`` starts
    Crazy 4 with its blind second position on (C8).
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
            Binding(key, f"game('{name}')", _SHORT[name], show=False)
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
        Binding("u", "top_up", "Top up"),
        Binding("t", "rules", "Rules"),
        Binding("y", "history", "History"),
        Binding("q", "quit", "Quit"),
    ]

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
    ) -> None:
        super().__init__()
        game = game or next(iter(GAMES))
        find_game(game)
        self.service = service
        self.player = service.local_player() if player is None else player
        self.game = game
        self.client_seed, self.ascii_cards, self.house_edges = client_seed, ascii_cards, house_edges
        self.spots = {name: find_game(name).new_round().spots for name in GAME_KEYS.values()}
        self.chips = {name: find_game(name).rules().chips for name in GAME_KEYS.values()}
        #: per game: the wagers on the felt, the selected spot and chip, the round shown
        self.wagers: dict[str, dict[str, Cents]] = {name: {} for name in GAME_KEYS.values()}
        self.wagers[game] = dict(wagers or {})
        self.spot_index = dict.fromkeys(GAME_KEYS.values(), 0)
        self.chip_index = dict.fromkeys(GAME_KEYS.values(), 1)
        self.rounds: dict[str, RoundView | None] = dict.fromkeys(GAME_KEYS.values())
        self.hints: dict[int, str] = {}
        self.hinting = False
        self.balance: Cents = 0
        self.message = Text(_WELCOME)
        self.message_is_error = False
        self.session_rounds, self.session_net = 0, 0
        #: Crazy 4: deal a blind second position with the same wagers (C8)
        self.blind = blind
        #: Baccarat's bead road: P, B or T for each recent coup, oldest first
        self.road = ""
        #: per game: the commitment to the next round's server seed, as shown
        self.commitments: dict[str, str | None] = dict.fromkeys(GAME_KEYS.values())
        #: the rounds dealt with another commitment than the one shown before the deal
        self.unexpected: set[int] = set()
        #: Baccarat: the player's own shoe has coups dealt and more to come (B1)
        self.shoe_in_play = False

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="games")
            yield Static(id="balance")
        yield Static(id="dealer", classes="hand")
        yield Static(id="player", classes="hand")
        yield Static(id="spots")
        yield Static(id="chips")
        yield Static(id="road")
        yield Static(id="choices")
        yield Static(id="message")
        yield Static(id="status")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self._load(self.game)
        self._show()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_message)

    def chip_value(self, game: str) -> Cents:
        """The selected chip at ``game``'s table, in cents."""
        chips: tuple[Cents, ...] = self.chips[game]
        return chips[self.chip_index[game]]

    def spot(self) -> Spot:
        """The selected wager spot at the current table."""
        return self.spots[self.game][self.spot_index[self.game]]

    def round_view(self) -> RoundView | None:
        """The round shown at the current table (open, or the last one played)."""
        return self.rounds[self.game]

    def is_open(self) -> bool:
        view = self.round_view()
        return view is not None and view.status == "open"

    def choices(self) -> dict[str, ChoiceView]:
        """The decisions the engine allows now, by action."""
        view = self.round_view()
        if view is None or view.status != "open":
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
            return self._has_blind() and not self.is_open() and listed == self._room()
        if action in ("new_shoe", "new_shoe_unlisted"):
            listed = action == "new_shoe"
            between = self._has_shoe() and self.shoe_in_play and not self.is_open()
            return between and listed == self._room()
        if action == "decide":
            return parameters[0] in self.choices()
        if action in ("most", "amount"):
            return self._ranged() is not None
        if action == "hint":
            return bool(self.spec().options) and bool(self.choices())
        if action == "top_up":
            return self.balance < TOP_UP_BELOW
        return True

    def spec(self, game: str | None = None) -> GameSpec:
        """The shape of ``game`` (the current table's by default)."""
        return _SPECS[game or self.game]

    def _has_blind(self, game: str | None = None) -> bool:
        """Whether the table has a blind second position (C8)."""
        return self.spec(game).blind_play is not None

    def _has_shoe(self, game: str | None = None) -> bool:
        """Whether the table deals from a shoe, coup after coup, to its cut card (B1)."""
        return self.spec(game).shoe is not None

    def _room(self) -> bool:
        """Whether the footer has room for Crazy 4's blind key or Baccarat's new shoe at
        80 columns: not while it lists the top-up."""
        return not self.check_action("top_up", ())

    # ------------------------------------------------------------- the felt
    def action_game(self, name: str) -> None:
        if name != self.game:
            self.game = name
            self._load(name)
            self._show()

    def action_spot(self, step: int) -> None:
        spots = self.spots[self.game]
        self.spot_index[self.game] = (self.spot_index[self.game] + step) % len(spots)
        self._show()

    def action_chip(self, step: int) -> None:
        index = self.chip_index[self.game] + step
        self.chip_index[self.game] = max(0, min(index, len(self.chips[self.game]) - 1))
        self._show()

    def action_tap(self) -> None:
        """Add the selected chip to the selected spot (R2): capped at the maximum, and a
        spot already at its maximum goes back to zero; the Bonus follows the Ante."""
        spot = self.spot()
        self._felt(lambda w: tap(w, spot.name, self.chip_value(self.game), self.spots[self.game]))

    def action_hold(self) -> None:
        """Clear the selected spot, as pressing and holding it does (R2)."""
        spot = self.spot()
        self._felt(lambda w: hold(w, spot.name, self.spots[self.game]))

    def _felt(self, change: Callable[[dict[str, Cents]], dict[str, Cents]]) -> None:
        try:
            self.wagers[self.game] = change(self.wagers[self.game])
        except IllegalAction as error:
            self._say(str(error), error=True)
        else:
            spot = self.spot()
            on = self.wagers[self.game].get(spot.name, 0)
            self._say(f"{spot.label}: {format_money(on)}. {self._felt_total()}")
        self._show()

    def _felt_total(self) -> str:
        total = self._staked()
        two = " on two hands" if self._blind_on() else ""
        return f"On the felt: {format_money(total)}{two}; d deals." if total else ""

    def _blind_on(self) -> bool:
        return self.blind and self._has_blind()

    def _staked(self) -> Cents:
        """What the deal takes: the wagers, and with the blind second position the same
        again plus its 1x Play (C8)."""
        wagers, spec = self.wagers[self.game], self.spec()
        total = spec.position_stake(wagers)
        if self._blind_on():
            total += spec.position_stake(wagers, blind=True)
        return total

    def action_blind(self) -> None:
        """Crazy 4: a blind second position with the same wagers, on or off (C8)."""
        self.blind = not self.blind
        if self.blind:
            self._say(
                "Blind second hand on: the same wagers again on a second position, "
                "played unseen with a 1x Play and shown at the showdown (C8). "
                + self._felt_total()
            )
        else:
            self._say("Blind second hand off: one position. " + self._felt_total())
        self._show()

    def action_blind_unlisted(self) -> None:
        """``b`` while the footer has no room to list it (the felt lists it)."""
        self.action_blind()

    # -------------------------------------------------------------- rounds
    def action_deal(self) -> None:
        placed = {name: amount for name, amount in self.wagers[self.game].items() if amount}
        game = self.game
        second = placed if self._blind_on() else None  # C8
        self._deal(
            lambda seed: self.service.start_round(self.player, game, placed, seed, second=second)
        )

    def action_replay(self) -> None:
        """Quick Replay (R10): the last round's wagers at this table, checked as new ones,
        its blind second position included (C8)."""
        game = self.game
        self._deal(lambda seed: self.service.quick_replay(self.player, game, client_seed=seed))

    def _deal(self, deal: Callable[[str], RoundView]) -> None:
        """Deal from the seed whose commitment the table shows: the client seed is drawn
        now, after it was shown (the one given, if any); the round must carry that
        commitment, or the table says it does not. Then the next round's is shown."""
        game = self.game
        with self._asking():
            shown = self.commitments[game] or self._commit(game)
            seed = self.client_seed or new_client_seed()
            view = deal(seed)
            self._showing(view)
            if view.commitment != shown:
                self.unexpected.add(view.id)
                warning = (
                    f"Warning: round #{view.id} was dealt from the commitment "
                    f"{short_commitment(view.commitment)}, not from "
                    f"{short_commitment(shown)} shown before the deal."
                )
                self._say(f"{warning} {self.message.plain}", error=True)
        with self._asking():
            self._commit(game)
        self._show()

    def _commit(self, game: str) -> str:
        """Fetch the commitment to the next round's server seed at ``game``'s table (at
        Baccarat, the shoe's while one is in play, B1)."""
        shown = self.service.next_commitment(self.player, game)
        self.commitments[game] = shown
        if self._has_shoe(game):
            self.shoe_in_play = self.service.shoe_in_play(self.player)
        return shown

    def action_new_shoe(self) -> None:
        """Baccarat: end the shoe in play before its cut card (B1). Its seed shows in the
        history at once, and the next coup starts a new shoe, with a new commitment."""
        with self._asking():
            ended = self.service.end_shoe(self.player)
            self._say(_SHOE_DONE if ended else "No shoe in play: the next coup starts a new one.")
            self._commit(self.game)
        self._show()

    def action_new_shoe_unlisted(self) -> None:
        """``n`` while the footer has no room to list it (the felt lists it)."""
        self.action_new_shoe()

    def action_decide(self, action: str, amount: Cents | None = None) -> None:
        view = self.round_view()
        if view is not None:
            self._play(lambda: self.service.act(self.player, view.id, action, amount))

    def action_most(self) -> None:
        choice = self._ranged()
        if choice is not None:
            self.action_decide(choice.action, choice.maximum)

    def action_amount(self) -> None:
        choice = self._ranged()
        if choice is None:
            return

        def chosen(amount: Cents | None) -> None:
            if amount is not None:
                self.action_decide(choice.action, amount)

        asking = AmountScreen(choice.label, choice.minimum, choice.maximum)
        self.push_screen(asking, chosen)

    @contextmanager
    def _asking(self) -> Iterator[None]:
        """Around calls to the service: a refusal (limits, balance, a round played on
        elsewhere) is said and the table catches up with the database; a database that
        does not answer (away, or locked by another program) is said. Neither changes
        anything, and what follows the refused call in the block does not run."""
        try:
            try:
                yield
            except (IllegalAction, RulesError) as error:
                self._say(str(error), error=True)
                self._refresh(self.game)
        except DBAPIError as error:
            self._say(f"the database did not answer: {error.orig}", error=True)

    def _play(self, call: Callable[[], RoundView]) -> None:
        """One call to the service: the round it returns is shown."""
        with self._asking():
            self._showing(call())
        self._show()

    def _showing(self, view: RoundView) -> None:
        """A round the service returned, at its table, with what to do next or its result."""
        self._take(view)
        self.balance = view.balance
        if view.status == "open":
            self._say(self._decision_prompt(view))
        else:
            self._finished(view)
            self._load_road(view.game)

    def _take(self, view: RoundView) -> None:
        """Show ``view`` at its table: its wagers on the felt, and at Crazy 4 whether it
        has a blind second position (Quick Replay keeps one, a resumed round has one)."""
        game = view.game
        self.rounds[game] = view
        self.wagers[game] = {k: v for k, v in view.wagers.items() if v}
        if self._has_blind(game):
            self.blind = view.second is not None

    def _refresh(self, game: str) -> RoundView | None:
        """The balance and ``game``'s table as the database has them: the same player
        may have played on in another window (or at the web table) meanwhile. The round
        waiting for a decision there, if any."""
        self.balance = self.service.balance(self.player)
        waiting = self.service.open_round(self.player, game)
        shown = self.rounds[game]
        if waiting is not None:
            self._take(waiting)
        elif shown is not None and shown.status == "open":  # finished elsewhere
            self._take(self.service.round(self.player, shown.id))
        self._commit(game)  # another round may have been dealt there meanwhile
        return waiting

    def _decision_prompt(self, view: RoundView) -> str:
        hint = "" if not self.spec(view.game).options else " h shows each option's expected value."
        return f"Round #{view.id}: your decision.{hint}"

    def _finished(self, view: RoundView) -> None:
        text = result_text(view)
        if view.status == "settled":
            self.session_rounds += 1
            self.session_net += round_net(view)
        if self.balance < TOP_UP_BELOW:
            text += f" Below {format_money(TOP_UP_BELOW)}: u tops the play money up."
        self._say(text)

    def _load_road(self, game: str) -> None:
        """The winners of the last coups, from the history, as the web's bead plate."""
        if not self._has_shoe(game):
            return
        with suppress(DBAPIError):  # the road waits for the next round
            rounds = self.service.history(self.player, 60)
            coups = [r.winner for r in reversed(rounds) if r.game == game and r.winner]
            self.road = "".join(side[0] for side in coups)  # P, B or T

    def _load(self, game: str) -> None:
        """Show ``game``'s table as the database has it: a round left open there resumes
        (G7); one finished elsewhere meanwhile is shown finished."""
        self._load_road(game)
        with self._asking():
            waiting = self._refresh(game)
            last = self.rounds[game]
            if waiting is not None:
                self._say(f"Your round is still open. {self._decision_prompt(waiting)}")
            elif last is not None:
                self._say(result_text(last))
            else:
                self._say(f"{find_game(game).title}. {_WELCOME}")

    # ----------------------------------------------------------- hint, pages
    def action_hint(self) -> None:
        """Each legal option's expected value in Antes, from the analyzer; worked out
        in the background (the first Rabbit Hunter hand of a run takes seconds)."""
        view = self.round_view()
        if view is None or self.hinting:
            return
        if view.id in self.hints:
            self._say(self.hints[view.id])
            self._show()
            return
        self.hinting = True
        # a decision that deals a hand (the rabbit, R4) makes the analyzer's first tables slow
        slow = any(option.deals for option in self.spec(view.game).options)
        self._say("Working out the hint" + (" (the first takes seconds)..." if slow else "..."))
        self._show()
        threading.Thread(target=self._hint, args=(view,), daemon=True, name="hint").start()

    def _hint(self, view: RoundView) -> None:
        from riverboat.analysis import best_action, wagers_in_units

        spec = self.spec(view.game)
        units = wagers_in_units(view.wagers, spec.decides_with)
        try:
            options = best_action(view.game, " ".join(view.cards[_mine(spec).name]), units)
            text = (
                "Expected value per Ante: "
                + ", ".join(f"{o.label} {float(o.expected):+.4f}" for o in options)
                + f". Best: {options[0].label}."
            )
        except Exception as error:  # said on the table, never a traceback over it
            text = f"No hint: {error}"
        with suppress(RuntimeError):  # the app closed meanwhile
            self.call_from_thread(self._hinted, view.id, text)

    def _hinted(self, round_id: int, text: str) -> None:
        self.hinting = False
        self.hints[round_id] = text
        view = self.round_view()
        if view is not None and view.id == round_id and view.status == "open":
            self._say(text)
            self._show()

    def action_top_up(self) -> None:
        with self._asking():
            self.balance = self.service.top_up(self.player)
            self._say(f"Topped up: the balance is {format_money(self.balance)}.")
        self._show()

    def action_rules(self) -> None:
        """The pay table and rules, viewable at any time without betting (R11)."""
        self.push_screen(RulesScreen(self.game, self.house_edges))

    def action_history(self) -> None:
        with self._asking():
            rounds = self.service.history(self.player, 20)
            shown = self.commitments[self.game]
            upcoming = (find_game(self.game).title, shown) if shown else None
            self.push_screen(HistoryScreen(rounds, upcoming))
        self._show()

    # ------------------------------------------------------------- drawing
    def _say(self, text: str, error: bool = False) -> None:
        self.message = Text(("! " if error else "") + text)
        self.message_is_error = error

    def _show(self) -> None:
        """Redraw every part of the table from the state, and the footer's keys."""
        self.query_one("#games", Static).update(self._games_bar())
        self.query_one("#balance", Static).update(f"Balance {format_money(self.balance)} ")
        dealer, player = self._hands()
        self.query_one("#dealer", Static).update(dealer)
        self.query_one("#player", Static).update(player)
        self.query_one("#spots", Static).update(self._spots_text())
        self.query_one("#chips", Static).update(self._chips_text())
        road = self.query_one("#road", Static)
        road.display = self._has_shoe()
        road.update(self._road_text())
        self.query_one("#choices", Static).update(self._choices_text())
        message = self.query_one("#message", Static)
        message.update(self.message)
        message.set_class(self.message_is_error, "-error")
        self.query_one("#status", Static).update(self._status_text())
        self.refresh_bindings()
        self.call_after_refresh(self._fit_message)

    def _fit_message(self) -> None:
        """Give the message as many of the blank lines between the parts of the table
        as it needs to be read whole, the nearest first, and give them back when it is
        shorter. At 80x24 a Crazy 4 result over two hands (C8) with the top-up note
        takes five or six lines; the message has four of its own at that table."""
        message = self.query_one("#message", Static)
        width, rows = message.size
        if not width:
            return
        spaced = [self.query_one(part) for part in _SPACED]
        taken = sum(1 for part in spaced if not part.styles.margin.top)
        needed = message.get_content_height(message.size, self.size, width)
        short = needed - (rows - taken)  # lines missing with every blank line in place
        for index, part in enumerate(spaced):
            part.styles.margin = (0 if index < short else 1, 1, 0, 1)

    def _games_bar(self) -> Text:
        """The tables and their keys; the current one in brackets (and reversed)."""
        text = Text(" ")
        for key, name in GAME_KEYS.items():
            current = name == self.game
            text.append(f" {key} ", "bold reverse")
            text.append(f"[{_SHORT[name]}]" if current else f" {_SHORT[name]} ",
                        "bold underline" if current else "")  # fmt: skip
            text.append(" ")
        return text

    def _hands(self) -> tuple[Text, Text]:
        view, spec = self.round_view(), self.spec()
        player, other = _mine(spec), _theirs(spec)
        drawn_on = next((hand.name for hand in spec.hands if hand.dealt_on), "")
        cards = view.cards if view else {}
        named = [hand.name for hand in spec.hands]  # totals come in the hands' order (B7)
        totals = dict(zip(named, (view.totals if view else None) or [], strict=False))
        player_label, dealer_label = (
            f"{hand.title} {totals[hand.name]}" if hand.name in totals else hand.title
            for hand in (player, other)
        )
        blind = cards.get(f"{player.name}:blind", [])
        dealer_down, blind_down = _face_down(view, player.name)
        dealer = self._hand(dealer_label, cards.get(other.name, []), dealer_down)
        mine = self._hand(player_label, cards.get(player.name, []), 0, cards.get(drawn_on, []))
        if blind or blind_down:
            drawn = draw(blind, blind_down, self.ascii_cards).split("\n")
            heads = ("Your", "blind", "hand")
            lines = mine.split("\n")
            for line, head, more in zip(lines, heads, drawn, strict=True):
                line.append(f"  {head:<6}", "bold")
                line.append_text(more)
            mine = Text("\n").join(lines)
        return dealer, mine

    def _hand(
        self, label: str, cards: list[str], face_down: int, rabbit: list[str] | None = None
    ) -> Text:
        drawn = draw(cards, face_down, self.ascii_cards)
        lines = drawn.split("\n") if cards or face_down else [Text(), Text(), Text()]
        if rabbit:
            extra = draw(rabbit, 0, self.ascii_cards).split("\n")
            notes = ["", " the rabbit", ""]
            for line, more, note in zip(lines, extra, notes, strict=True):
                line.append("  ")
                line.append_text(more)
                line.append(note, "italic")
        heads = ["", f"{label:<10}", ""]
        out = [Text(f"{head:<10}", "bold") + line for head, line in zip(heads, lines, strict=True)]
        return Text("\n").join(out)

    def _spots_text(self) -> Text:
        text = Text()
        betting = not self.is_open()
        wagers = self.wagers[self.game]
        for index, spot in enumerate(self.spots[self.game]):
            chosen = betting and index == self.spot_index[self.game]
            notes = "required" if spot.required else ""
            if spot.equal_to:
                leader = next(s for s in self.spots[self.game] if s.name == spot.equal_to)
                notes = f"equals the {leader.label}" + (", required" if spot.required else "")
            amount = format_money(wagers.get(spot.name, 0))
            mark = ">" if chosen else " "
            line = f"{mark} {spot.label:<12}{amount:>8}   {spot.limits():<15} {notes}"
            if index:
                text.append("\n")
            text.append(line, "bold reverse" if chosen else "")
        if self._has_blind():
            text.append("\n")
            text.append_text(self._blind_text())
        if self._has_shoe():
            text.append("\n")
            text.append_text(self._shoe_text())
        return text

    def _blind_text(self) -> Text:
        """Crazy 4's blind second position (C8): whether it is on, and its result."""
        view = self.round_view()
        text = Text("  ")
        if self.is_open():
            text.append("   ")
        else:  # the key that turns it on or off
            text.append(" b ", "bold reverse")
        text.append(" Blind second hand: ")
        text.append("on " if self.blind else "off", "bold")
        if view is not None and view.status != "open" and view.second_result:
            result = sum(view.second_result.values())
            text.append(f"   last round's blind hand {format_money(result, signed=True)}")
        elif self.is_open():
            text.append("   face down until the showdown" if self.blind else "")
        else:
            text.append("   the same wagers again, unseen, with a 1x Play")
        return text

    def _shoe_text(self) -> Text:
        """Baccarat's shoe (B1): dealing on from its seed, or a new one at the next coup;
        while one is in play, the key that ends it between coups."""
        text = Text("  ")
        if self.shoe_in_play and not self.is_open():
            text.append(" n ", "bold reverse")
        else:
            text.append("   ")
        text.append(" Shoe: ")
        if self.shoe_in_play:
            text.append("in play", "bold")
            text.append("   deals on to its cut card; n ends it now, its seed shows")
        else:
            text.append("new", "bold")
            text.append("   shuffled at the next coup; its seed shows at the cut card")
        return text

    def _chips_text(self) -> Text:
        text = Text("  Chip        ")
        for index, chip in enumerate(self.chips[self.game]):
            label = format_money(chip)
            chosen = index == self.chip_index[self.game]
            text.append(f"[{label}]" if chosen else f" {label} ", "bold reverse" if chosen else "")
            text.append(" ")
        return text

    def _road_text(self) -> Text:
        text = Text("  Road        ")
        if not self.road:
            return text.append("no coups yet", "italic")
        for coup in self.road[-30:]:
            text.append(coup, _ROAD_STYLES[coup])
            text.append(" ")
        return text

    def _choices_text(self) -> Text:
        choices = self.choices()
        if not choices:
            staked = format_money(self._staked())
            if self._blind_on():  # within the 78 columns at the most, $2,700
                return Text(f"On the felt: {staked} on two hands. d deals it; g is Quick Replay.")
            return Text(
                f"On the felt: {staked}. d deals it; g is Quick Replay (the last round's wagers)."
            )
        text = Text("Your decision: ", "bold")
        for action, choice in choices.items():
            key = DECISION_KEYS.get(action, "?")
            cost = f" {format_money(choice.minimum)}" if choice.minimum else ""
            text.append(f" {key} ", "bold reverse")
            text.append(f" {choice.label}{cost}  ")
            if choice.maximum > choice.minimum:
                text.append(" m ", "bold reverse")
                text.append(f" {choice.label} {format_money(choice.maximum)}  ")
                text.append(" a ", "bold reverse")
                text.append(" other amount ")
        return text

    def _status_text(self) -> Text:
        """The round shown, the commitment to the next deal's seed (the open round's
        own while it is open), and the session; shorter forms where 80 columns need."""
        view, upcoming = self.round_view(), self.commitments[self.game]
        commitment = Text()
        if self.is_open() and view is not None:
            commitment.append(f"commitment {short_commitment(view.commitment)}")
        elif upcoming:
            commitment.append(f"next deal {short_commitment(upcoming)}")
        if view is not None and view.id in self.unexpected:
            commitment = Text("! commitment not the one shown", "bold reverse")
        rounds = "1 round" if self.session_rounds == 1 else f"{self.session_rounds} rounds"
        session = f"{rounds}, {format_money(self.session_net, signed=True)}"
        title = "" if view is None else f"Round #{view.id} {view.status}"
        heads = [(title, f"this session: {session}")]
        if view is not None:
            heads.append((f"#{view.id} {view.status}", f"session {session}"))
            heads.append(("", f"session {session}"))
        lines = []
        for head, tail in heads:
            parts = [Text(part) for part in (head,) if part]
            parts += [commitment] if commitment else []
            parts += [Text(tail)] if self.session_rounds else []
            lines.append(Text(" ") + Text(" · ").join(parts))
        return next((line for line in lines if line.cell_len <= self.size.width), lines[-1])


def short_commitment(commitment: str) -> str:
    """A commitment as the status line shows it: its first 16 hex digits.

    >>> short_commitment("0123456789abcdef" * 4)
    '0123456789abcdef…'
    """
    return f"{commitment[:16]}…"


def _mine(spec: GameSpec) -> HandSpec:
    """The player's hand: a position's own, else the first dealt (Baccarat's Player)."""
    return next((hand for hand in spec.hands if hand.each_position), spec.hands[0])


def _theirs(spec: GameSpec) -> HandSpec:
    """The hand shown across the felt: the house's, else the other one dealt (the Banker)."""
    mine = _mine(spec)
    return spec.house or next(h for h in spec.hands if h is not mine and h.dealt_on is None)


def _face_down(view: RoundView | None, mine: str = "player") -> tuple[int, int]:
    """The cards face down while the round is open: (the dealer's, the blind hand's).

    The service counts every card it keeps back in ``face_down``: the dealer's (or the
    banker's) and, with a blind second position (C8), the blind hand's, which has as
    many cards as the player's own.
    """
    if view is None or view.status != "open":
        return 0, 0
    blind = len(view.cards[mine]) if view.second is not None else 0
    return view.face_down - blind, blind
