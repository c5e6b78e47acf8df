"""The table's bars and lines as widgets: the games bar, the balance, the decisions,
the message and the status line.

Like the felt's (:mod:`riverboat.terminal.felt`), each holds what it shows in reactive
attributes and draws itself again in their watchers; the app only sets them.

>>> short_commitment("0123456789abcdef" * 4)
'0123456789abcdef…'
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import var
from textual.widgets import Static

from riverboat.money import Cents, format_money
from riverboat.table.states import RoundStatus
from riverboat.table.views import ChoiceView, RoundView
from riverboat.terminal.felt import GAME_KEYS, SHORT

__all__ = [
    "DECISION_KEYS",
    "WELCOME",
    "Balance",
    "Choices",
    "GamesBar",
    "MessageLine",
    "Status",
    "short_commitment",
]

#: the key of each decision the engine may offer
DECISION_KEYS = {"fold": "f", "play": "p", "buy": "b", "raise": "r"}
WELCOME = "↑↓ picks a spot, ←→ a chip; ⏎ adds the chip, ⌫ clears the spot; d deals."
#: the parts with a blank line above them, which a long message may take, nearest first
_SPACED = ("#message", "#choices", "#spots", "#player", "#dealer")


def short_commitment(commitment: str) -> str:
    """A commitment as the status line shows it: its first 16 hex digits."""
    return f"{commitment[:16]}…"


class GamesBar(Static):
    """The tables and their keys; the current one in brackets (and reversed). Where
    every name does not fit (many games at 80 columns), the others show their key
    alone."""

    game: var[str] = var("")

    def watch_game(self, game: str) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        text = self._text(names=True)
        if self.size.width and text.cell_len > self.size.width:
            text = self._text(names=False)
        self.update(text)

    def _text(self, names: bool) -> Text:
        text = Text(" ")
        for key, name in GAME_KEYS.items():
            current = name == self.game
            text.append(f" {key} ", "bold reverse")
            if current:
                text.append(f"[{SHORT[name]}]", "bold underline")
            elif names:
                text.append(f" {SHORT[name]} ")
            text.append(" ")
        return text


class Balance(Static):
    """The player's balance."""

    balance: var[Cents] = var(0)

    def watch_balance(self, balance: Cents) -> None:
        self.update(f"Balance {format_money(balance)} ")


class Choices(Static):
    """The decisions the round allows, each with its key and what it stakes; between
    rounds, what is on the felt and the keys that deal it."""

    view: var[RoundView | None] = var(None)
    #: what the next deal takes, and whether on two hands (C8)
    staked: var[Cents] = var(0)
    two_hands: var[bool] = var(False)

    def redraw(self) -> None:
        view = self.view
        if view is None or view.status != RoundStatus.OPEN or not view.choices:
            self.update(self._felt())
            return
        text = Text("Your decision: ", "bold")
        for choice in view.choices:
            self._choice(text, choice)
        self.update(text)

    watch_view = watch_staked = watch_two_hands = redraw

    def _felt(self) -> Text:
        staked = format_money(self.staked)
        if self.two_hands:  # within the 78 columns at the most, $2,700
            return Text(f"On the felt: {staked} on two hands. d deals it; g is Quick Replay.")
        return Text(
            f"On the felt: {staked}. d deals it; g is Quick Replay (the last round's wagers)."
        )

    @staticmethod
    def _choice(text: Text, choice: ChoiceView) -> None:
        key = DECISION_KEYS.get(choice.action, "?")
        cost = f" {format_money(choice.minimum)}" if choice.minimum else ""
        text.append(f" {key} ", "bold reverse")
        text.append(f" {choice.label}{cost}  ")
        if choice.maximum > choice.minimum:
            text.append(" m ", "bold reverse")
            text.append(f" {choice.label} {format_money(choice.maximum)}  ")
            text.append(" a ", "bold reverse")
            text.append(" other amount ")


class MessageLine(Static):
    """What just happened or what to do next (an error marked ``!``). It takes as many
    of the blank lines between the parts of the table as it needs to be read whole."""

    text: var[Text] = var(lambda: Text(WELCOME), always_update=True)
    error: var[bool] = var(False)

    def say(self, text: str, error: bool = False) -> None:
        self.error = error
        self.text = Text(("! " if error else "") + text)

    def watch_text(self, text: Text) -> None:
        self.update(text)
        self.call_after_refresh(self.fit)

    def watch_error(self, error: bool) -> None:
        self.set_class(error, "-error")

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit)

    def fit(self) -> None:
        """Take the blank lines above the parts, the nearest first, as far as the message
        needs them, and give them back when it is shorter. At 80x24 a Crazy 4 result over
        two hands (C8) with the top-up note takes five or six lines; the message has four
        of its own at that table."""
        width, rows = self.size
        if not width or not self.is_attached:
            return
        spaced = [self.screen.query_one(part) for part in _SPACED]
        taken = sum(1 for part in spaced if not part.styles.margin.top)
        needed = self.get_content_height(self.size, self.app.size, width)
        short = needed - (rows - taken)  # lines missing with every blank line in place
        for index, part in enumerate(spaced):
            part.styles.margin = (0 if index < short else 1, 1, 0, 1)


class Status(Static):
    """The round shown, the commitment to the next deal's seed (the open round's own
    while it is open), and the session; shorter forms where 80 columns need."""

    game: var[str] = var("")
    view: var[RoundView | None] = var(None)
    #: per table: the commitment to the next round's server seed, as shown
    commitments: var[dict[str, str | None]] = var(dict)
    #: the rounds dealt with another commitment than the one shown before the deal
    unexpected: var[frozenset[int]] = var(frozenset())
    #: the rounds settled this session, and their net
    rounds: var[int] = var(0)
    net: var[Cents] = var(0)

    def redraw(self) -> None:
        view, upcoming = self.view, self.commitments.get(self.game)
        is_open = view is not None and view.status == RoundStatus.OPEN
        commitment = Text()
        if is_open and view is not None:
            commitment.append(f"commitment {short_commitment(view.commitment)}")
        elif upcoming:
            commitment.append(f"next deal {short_commitment(upcoming)}")
        if view is not None and view.id in self.unexpected:
            commitment = Text("! commitment not the one shown", "bold reverse")
        rounds = "1 round" if self.rounds == 1 else f"{self.rounds} rounds"
        session = f"{rounds}, {format_money(self.net, signed=True)}"
        title = "" if view is None else f"Round #{view.id} {view.status}"
        heads = [(title, f"this session: {session}")]
        if view is not None:
            heads.append((f"#{view.id} {view.status}", f"session {session}"))
            heads.append(("", f"session {session}"))
        lines = []
        for head, tail in heads:
            parts = [Text(part) for part in (head,) if part]
            parts += [commitment] if commitment else []
            parts += [Text(tail)] if self.rounds else []
            lines.append(Text(" ") + Text(" · ").join(parts))
        width = self.size.width or self.app.size.width
        self.update(next((line for line in lines if line.cell_len <= width), lines[-1]))

    watch_game = watch_view = watch_commitments = watch_unexpected = redraw
    watch_rounds = watch_net = redraw

    def on_resize(self) -> None:
        self.redraw()
