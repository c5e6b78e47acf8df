"""The felt: the hands, the wager spots, the chips and Baccarat's road, as widgets.

Each holds what it shows in reactive attributes and draws itself again in their
watchers; the app only sets them. Every table's shape comes from its
:class:`~riverboat.games.spec.GameSpec`: which hands it deals and their titles, its
spots and chips, whether it has a blind second position (C8) or a shoe (B1).

>>> [SHORT[name] for name in GAME_KEYS.values()]
['Rabbit Hunter', 'Tri-Card', 'Crazy 4', 'Baccarat']
>>> player_hand(SPECS["baccarat"]).title, across_hand(SPECS["baccarat"]).title
('Player', 'Banker')
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import var
from textual.widgets import Static

from riverboat.games import GAMES, GameRules, find_game
from riverboat.games.rules import Spot
from riverboat.games.spec import GameSpec, HandSpec
from riverboat.money import Cents, format_money
from riverboat.table.states import RoundStatus
from riverboat.table.views import RoundView
from riverboat.terminal.cards import draw

__all__ = [
    "DEALT",
    "GAME_KEYS",
    "SHORT",
    "SPECS",
    "Chips",
    "Hand",
    "Road",
    "Spots",
    "across_hand",
    "deal_variant",
    "player_hand",
]

#: the games in the registry's order, keyed 1, 2, 3...
GAME_KEYS = {str(number): name for number, name in enumerate(GAMES, 1)}
SPECS: dict[str, GameSpec] = {name: find_game(name).spec() for name in GAMES}
#: the variant a table deals where it is not the game's default (``riverboat play FILE``)
DEALT: dict[str, str] = {}


def deal_variant(game: str, rules: GameRules) -> None:
    """Let ``game``'s table deal ``rules`` (a variant the game knows, a variant file's
    loaded into it) in this process: its spots, limits and chips on the felt, its pay
    table and edges on the rules page, its rules in every round dealt."""
    SPECS[game] = find_game(game).spec(rules)
    DEALT[game] = str(getattr(rules, "variant", ""))
#: the short names the games bar shows: the titles without "Poker", to fit 80 columns
SHORT = {name: spec.title.removesuffix(" Poker") for name, spec in SPECS.items()}
_ROAD_STYLES = {"P": "bold #7ab0ff", "B": "bold #ff7a7a", "T": "bold #8be08b"}


def player_hand(spec: GameSpec) -> HandSpec:
    """The player's hand: a position's own, else the first dealt (Baccarat's Player)."""
    return next((hand for hand in spec.hands if hand.each_position), spec.hands[0])


def across_hand(spec: GameSpec) -> HandSpec:
    """The hand across the felt: the house's, else the other one dealt (the Banker)."""
    mine = player_hand(spec)
    return spec.house or next(h for h in spec.hands if h is not mine and h.dealt_on is None)


def _face_down(view: RoundView | None, mine: str) -> tuple[int, int]:
    """The cards face down while the round is open: (the dealer's, the blind hand's).

    The service counts every card it keeps back in ``face_down``: the dealer's (or the
    banker's) and, with a blind second position (C8), the blind hand's, which has as
    many cards as the player's own.
    """
    if view is None or view.status != RoundStatus.OPEN:
        return 0, 0
    blind = len(view.cards[mine]) if view.second is not None else 0
    return view.face_down - blind, blind


def _shown(game: str, view: RoundView | None) -> RoundView | None:
    """The round if it is ``game``'s (while the app moves to another table, the two are
    set one after the other)."""
    return view if view is not None and view.game == game else None


def _is_open(view: RoundView | None) -> bool:
    return view is not None and view.status == RoundStatus.OPEN


class Hand(Static):
    """A hand with its title (and total at Baccarat): the one across the felt, or the
    player's with the rabbit (R4) or the blind second hand (C8) beside it."""

    game: var[str] = var("")
    view: var[RoundView | None] = var(None)

    def __init__(self, across: bool, ascii_cards: bool, id: str) -> None:
        super().__init__(id=id, classes="hand")
        self.across, self.ascii_cards = across, ascii_cards

    def redraw(self) -> None:
        if not self.game:
            return
        spec, view = SPECS[self.game], _shown(self.game, self.view)
        mine = player_hand(spec)
        hand = across_hand(spec) if self.across else mine
        cards = view.cards if view else {}
        named = [h.name for h in spec.hands]  # totals come in the hands' order (B7)
        totals = dict(zip(named, (view.totals if view else None) or [], strict=False))
        title = f"{hand.title} {totals[hand.name]}" if hand.name in totals else hand.title
        across_down, blind_down = _face_down(view, mine.name)
        if self.across:
            self.update(self._hand(title, cards.get(hand.name, []), across_down))
            return
        drawn_on = next((h.name for h in spec.hands if h.dealt_on), "")
        shown = self._hand(title, cards.get(hand.name, []), 0, cards.get(drawn_on, []))
        blind = cards.get(f"{hand.name}:blind", [])
        if blind or blind_down:
            drawn = draw(blind, blind_down, self.ascii_cards).split("\n")
            lines = shown.split("\n")
            for line, head, more in zip(lines, ("Your", "blind", "hand"), drawn, strict=True):
                line.append(f"  {head:<6}", "bold")
                line.append_text(more)
            shown = Text("\n").join(lines)
        self.update(shown)

    watch_game = watch_view = redraw

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


class Spots(Static):
    """The wager spots of the table, the selected one marked while betting; below them
    Crazy 4's blind second position (C8) and Baccarat's shoe (B1). It keeps each
    table's wagers and selected spot."""

    game: var[str] = var("")
    view: var[RoundView | None] = var(None)
    #: per table: the wagers on the felt, and the selected spot
    wagers: var[dict[str, dict[str, Cents]]] = var(dict)
    index: var[dict[str, int]] = var(dict)
    #: deal a blind second position with the same wagers (C8)
    blind: var[bool] = var(False, bindings=True)
    #: Baccarat: the player's own shoe has coups dealt and more to come (B1)
    shoe_in_play: var[bool] = var(False, bindings=True)

    def __init__(self, wagers: dict[str, dict[str, Cents]], blind: bool) -> None:
        super().__init__(id="spots")
        self.set_reactive(Spots.wagers, wagers)
        self.set_reactive(Spots.blind, blind)

    def on_table(self) -> dict[str, Cents]:
        """The wagers on the current table's felt."""
        return self.wagers.get(self.game, {})

    def place(self, wagers: dict[str, Cents], game: str | None = None) -> None:
        """Put ``wagers`` on the felt of ``game``'s table (the current one's)."""
        self.wagers = {**self.wagers, (game or self.game): wagers}

    def two_hands(self) -> bool:
        """Whether the next deal has a blind second position (C8)."""
        return self.blind and bool(self.game) and SPECS[self.game].blind_play is not None

    def staked(self) -> Cents:
        """What the deal takes: the wagers, and with the blind second position the same
        again plus its Play (C8)."""
        spec, wagers = SPECS[self.game], self.on_table()
        total = spec.position_stake(wagers)
        if self.two_hands():
            total += spec.position_stake(wagers, blind=True)
        return total

    def selected(self) -> Spot:
        return SPECS[self.game].spots[self.index.get(self.game, 0)]

    def move(self, step: int) -> None:
        count = len(SPECS[self.game].spots)
        self.index = {**self.index, self.game: (self.index.get(self.game, 0) + step) % count}

    def redraw(self) -> None:
        if not self.game:
            return
        spec, view = SPECS[self.game], _shown(self.game, self.view)
        text, betting, wagers = Text(), not _is_open(view), self.on_table()
        for index, spot in enumerate(spec.spots):
            chosen = betting and index == self.index.get(self.game, 0)
            notes = "required" if spot.required else ""
            if spot.equal_to:
                leader = next(s for s in spec.spots if s.name == spot.equal_to)
                notes = f"equals the {leader.label}" + (", required" if spot.required else "")
            amount = format_money(wagers.get(spot.name, 0))
            mark = ">" if chosen else " "
            line = f"{mark} {spot.label:<12}{amount:>8}   {spot.limits():<15} {notes}"
            if index:
                text.append("\n")
            text.append(line, "bold reverse" if chosen else "")
        if spec.blind_play is not None:
            text.append("\n")
            text.append_text(self._blind_text(view))
        if spec.shoe is not None:
            text.append("\n")
            text.append_text(self._shoe_text(view))
        self.update(text)

    watch_game = watch_view = watch_wagers = watch_index = redraw
    watch_blind = watch_shoe_in_play = redraw

    def _blind_text(self, view: RoundView | None) -> Text:
        """Crazy 4's blind second position (C8): whether it is on, and its result."""
        text, is_open = Text("  "), _is_open(view)
        if is_open:
            text.append("   ")
        else:  # the key that turns it on or off
            text.append(" b ", "bold reverse")
        text.append(" Blind second hand: ")
        text.append("on " if self.blind else "off", "bold")
        if view is not None and not is_open and view.second_result:
            result = sum(view.second_result.values())
            text.append(f"   last round's blind hand {format_money(result, signed=True)}")
        elif is_open:
            text.append("   face down until the showdown" if self.blind else "")
        else:
            text.append("   the same wagers again, unseen, with a 1x Play")
        return text

    def _shoe_text(self, view: RoundView | None) -> Text:
        """Baccarat's shoe (B1): dealing on from its seed, or a new one at the next coup;
        while one is in play, the key that ends it between coups."""
        text = Text("  ")
        if self.shoe_in_play and not _is_open(view):
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


class Chips(Static):
    """The table's chips, the selected one in brackets; it keeps each table's choice."""

    game: var[str] = var("")
    #: per table: the selected chip (the second smallest to start)
    index: var[dict[str, int]] = var(dict)

    def value(self) -> Cents:
        """The selected chip at the current table, in cents."""
        return SPECS[self.game].chips[self.index.get(self.game, 1)]

    def move(self, step: int) -> None:
        last = len(SPECS[self.game].chips) - 1
        index = max(0, min(self.index.get(self.game, 1) + step, last))
        self.index = {**self.index, self.game: index}

    def redraw(self) -> None:
        if not self.game:
            return
        text = Text("  Chip        ")
        for index, chip in enumerate(SPECS[self.game].chips):
            label = format_money(chip)
            chosen = index == self.index.get(self.game, 1)
            text.append(f"[{label}]" if chosen else f" {label} ", "bold reverse" if chosen else "")
            text.append(" ")
        self.update(text)

    watch_game = watch_index = redraw


class Road(Static):
    """A shoe's bead road (B1): P, B or T for each recent coup, oldest first; shown only
    at a table dealt from a shoe."""

    game: var[str] = var("")
    road: var[str] = var("")

    def redraw(self) -> None:
        self.display = bool(self.game) and SPECS[self.game].shoe is not None
        text = Text("  Road        ")
        if not self.road:
            self.update(text.append("no coups yet", "italic"))
            return
        for coup in self.road[-30:]:
            text.append(coup, _ROAD_STYLES[coup])
            text.append(" ")
        self.update(text)

    watch_game = watch_road = redraw
