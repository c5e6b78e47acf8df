"""The table's pop-up screens: pay table and rules (R11), history, a Play amount.

Each closes with Escape and lists its keys in its own footer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import suppress
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from riverboat.games import find_game
from riverboat.money import Cents, format_money
from riverboat.table.views import ExportedRound, GameInfo
from riverboat.terminal.felt import DEALT

__all__ = ["AmountScreen", "HistoryScreen", "RulesScreen", "house_edge"]

_SCROLL = Binding.Group("Scroll", compact=True)


class Page(VerticalScroll, can_focus=False):
    """A scrolling page; its screen's keys scroll it, so the footer lists them."""


class _PageScreen(ModalScreen[None]):
    """A full-height page of text over the table."""

    DEFAULT_CSS = """
    _PageScreen { align: center middle; }
    _PageScreen Page { width: 100%; height: 1fr; padding: 0 1; background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("up", "scroll(-1)", "Up", group=_SCROLL),
        Binding("down", "scroll(1)", "Down", group=_SCROLL),
        Binding("pageup", "scroll(-10)", "Page up", show=False),
        Binding("pagedown", "scroll(10)", "Page down", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Page():
            yield Static(self.page(), id="page")
        yield Footer(compact=True, show_command_palette=False)

    def page(self) -> Text:
        raise NotImplementedError

    def action_scroll(self, lines: int) -> None:
        self.query_one(Page).scroll_relative(y=lines, animate=False)


_EDGES: dict[str, str] = {}
_PENDING: dict[str, list[Callable[[str], None]]] = {}
_EDGES_LOCK = threading.Lock()


def _edge_text(game: str, variant: str | None = None) -> str:
    """The felt's house-edge lines (:func:`riverboat.table.edges.edge_lines`), one a
    line: per Ante and per total initial wager, the element of risk, each side wager;
    then the strategy card for the required wagers, if the game has decisions."""
    from riverboat.table.edges import card_info, edge_lines

    lines = [f"  {line.label:<36} {line.value:.4%}" for line in edge_lines(game, variant)]
    card = card_info(game, variant)
    if card is not None:
        wagers = " and ".join(card.wagers)
        lines += ["", f"Strategy card ({wagers}): the first rule that matches wins"]
        lines += [f"  {n}. {rule.text}" for n, rule in enumerate(card.rules, 1)]
        lines += ["", card.summary]
    return "\n".join(lines)


def house_edge(game: str, then: Callable[[str], None]) -> str | None:
    """The house edge of the rules ``game``'s table deals as text if known; else work it
    out once per process in the background (Rabbit Hunter takes about half a minute)
    and call ``then`` with it."""
    variant = DEALT.get(game)
    key = f"{game}:{variant}" if variant else game
    with _EDGES_LOCK:
        if key in _EDGES:
            return _EDGES[key]
        if key in _PENDING:
            _PENDING[key].append(then)
            return None
        _PENDING[key] = [then]

    def work() -> None:
        try:
            text = _edge_text(game, variant)
        except Exception as error:  # shown on the page, never a traceback over the table
            text = f"not available ({error})"
        with _EDGES_LOCK:
            _EDGES[key] = text
            waiting = _PENDING.pop(key)
        for callback in waiting:
            callback(text)

    threading.Thread(target=work, daemon=True, name=f"house-edge-{game}").start()
    return None


class RulesScreen(_PageScreen):
    """The game's rules in brief, wagers with their limits, and pay tables (R11)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "dismiss", "Close", show=False),
    ]

    def __init__(self, game: str, edges: bool = True) -> None:
        super().__init__()
        self.game, self.edges = game, edges
        self.edge: str | None = None

    def on_mount(self) -> None:
        if self.edges:
            self.edge = house_edge(self.game, self._edge_ready)
            self.query_one("#page", Static).update(self.page())

    def _edge_ready(self, edge: str) -> None:
        with suppress(RuntimeError):  # the app has closed meanwhile
            self.app.call_from_thread(self._show_edge, edge)

    def _show_edge(self, edge: str) -> None:
        self.edge = edge
        if self.is_attached:
            self.query_one("#page", Static).update(self.page())

    def page(self) -> Text:
        kind = find_game(self.game)
        dealt = DEALT.get(self.game)
        info = GameInfo.of(kind, rules=kind.rules(dealt))
        text = Text()
        title = f"{info.title} ({dealt})" if dealt else info.title
        text.append(f"{title}: pay table and rules\n\n", "bold")
        for line in info.how_to_play:
            text.append(f" * {line}\n")
        edge = self.edge or ("  being worked out..." if self.edges else "")
        if edge:
            text.append("\nHouse edge (optimal play)\n", "bold")
            text.append(f"{edge}\n")
        text.append("\nWagers\n", "bold")
        for spot in info.wagers:
            notes = ", required" if spot.required else ""
            if spot.equal_to:
                notes += f", equal to the {spot.equal_to.replace('_', ' ').title()}"
            limits = f"{format_money(spot.minimum)} to {format_money(spot.maximum)}"
            text.append(f"  {spot.label:<12} {limits}{notes}\n")
        for name, rows in info.pay_tables.items():
            title = name.removesuffix("_table").replace("_", " ").title()
            text.append(f"\n{title} pays\n", "bold")
            for hand, pays in rows:
                text.append(f"  {hand:<28} {pays}\n")
        text.append(f"\nChips: {', '.join(format_money(c) for c in info.chips)}\n")
        return text


class HistoryScreen(_PageScreen):
    """The player's last rounds at every table, newest first, with their seeds; first,
    ``upcoming``: the table's title and the commitment to its next round's server seed,
    in full (the status line shows its first digits)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "dismiss", "Close", show=False),
    ]

    def __init__(
        self, rounds: list[ExportedRound], upcoming: tuple[str, str] | None = None
    ) -> None:
        super().__init__()
        self.rounds, self.upcoming = rounds, upcoming

    def page(self) -> Text:
        text = Text()
        text.append("History: your last rounds, newest first\n", "bold")
        text.append(
            "Full seeds and records: riverboat history --format json; "
            "check one with riverboat verify.\n\n"
        )
        if self.upcoming is not None:
            title, commitment = self.upcoming
            text.append(f"Next round at {title}: the house has committed to its server seed:\n")
            text.append(f"  SHA-256 {commitment}\n", "bold")
            text.append(
                "Your client seed for it is drawn when you deal; the seed shows once the "
                "round is over.\n\n"
            )
        if not self.rounds:
            text.append("No rounds yet.\n")
        for item in self.rounds:
            # the round's own net: other rounds may have been played between its balances
            net, after = item.net, item.balance_after
            change = "" if net is None else format_money(net, signed=True)
            balance = "" if after is None else format_money(after)
            title = find_game(item.game).title
            text.append(
                f"#{item.id:<5} {item.played_at[:16].replace('T', ' ')}  {title:<15}"
                f"{item.status:<8} {change:>9} {balance:>11}\n"
            )
            seed = (item.server_seed or "")[:16] or "shown when the round ends"
            text.append(
                f"       seed {seed}  client {str(item.client_seed)[:16]}  "
                f"nonce {item.nonce}\n",
                "dim",
            )
        return text


class AmountScreen(ModalScreen[Cents | None]):
    """Asks for a whole-dollar amount between a choice's minimum and maximum (C3),
    below the cards so that they stay in view."""

    DEFAULT_CSS = """
    AmountScreen { align: center bottom; }
    AmountScreen #dialog {
        width: 64; height: auto; margin-bottom: 2; padding: 0 1;
        border: heavy $accent; background: $surface;
    }
    AmountScreen #amount-error { color: $error; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, label: str, minimum: Cents, maximum: Cents) -> None:
        super().__init__()
        self.label, self.minimum, self.maximum = label, minimum, maximum

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(
                f"{self.label}: how many dollars? Whole dollars from "
                f"{format_money(self.minimum)} to {format_money(self.maximum)}; "
                "Enter plays, Escape goes back."
            )
            yield Input(placeholder=str(self.minimum // 100), id="amount", max_length=9)
            yield Static("", id="amount-error")
        yield Footer(compact=True, show_command_palette=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip().removeprefix("$").replace(",", "")
        error = self.query_one("#amount-error", Static)
        limits = f"{format_money(self.minimum)} to {format_money(self.maximum)}"
        # the digits 0 to 9 only: str.isdigit() also takes "²", which int() refuses
        if not (text.isascii() and text.isdecimal()):
            typed = event.value.strip() or "nothing"
            error.update(f"{typed}: type a whole number of dollars, {limits}")
            return
        cents = int(text) * 100
        if not self.minimum <= cents <= self.maximum:
            error.update(f"{format_money(cents)} is outside {limits}")
            return
        self.dismiss(cents)

    def action_cancel(self) -> None:
        self.dismiss(None)
