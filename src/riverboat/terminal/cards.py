"""Cards drawn in text: a face such as ``A♠`` or ``10♥`` inside a small box.

>>> face("Th"), face("Th", ascii_only=True)
('10♥', '10h')
>>> print(draw(["As", "Kh"], face_down=1).plain)
╭───╮ ╭───╮ ╭───╮
│A♠ │ │K♥ │ │░░░│
╰───╯ ╰───╯ ╰───╯
>>> print(draw(["As"], ascii_only=True).plain)
+---+
|As |
+---+
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

__all__ = ["CARD_WIDTH", "draw", "face"]

#: columns one drawn card takes, the space after it included
CARD_WIDTH = 6

_SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_RED = frozenset("dh")
_UNICODE = ("╭───╮", "│", "╰───╯", "░░░")
_ASCII = ("+---+", "|", "+---+", "###")


def face(name: str, ascii_only: bool = False) -> str:
    """A card's face from its name (``"Th"``): rank (10 for ten) and suit symbol."""
    rank, suit = name[0].upper(), name[1].lower()
    rank = "10" if rank == "T" else rank
    return rank + (suit if ascii_only else _SUITS[suit])


def _style(name: str | None) -> str:
    if name is None:
        return "bold white on dark_red"
    return ("bold red" if name[1].lower() in _RED else "bold black") + " on white"


def draw(
    cards: Sequence[str], face_down: int = 0, ascii_only: bool = False, gap: str = " "
) -> Text:
    """Three lines of boxed cards, face-down ones last; red suits in red.

    Colour only repeats what the suit symbol already says, so the cards stay legible
    in monochrome (NO_COLOR) and in plain ASCII (hearts ``h``, spades ``s``).
    """
    top, side, bottom, back = _ASCII if ascii_only else _UNICODE
    shown: list[str | None] = [*cards, *([None] * face_down)]
    lines = [Text(), Text(), Text()]
    for index, name in enumerate(shown):
        style = _style(name)
        middle = back if name is None else f"{face(name, ascii_only):<3}"
        for line, part in zip(lines, (top, side + middle + side, bottom), strict=True):
            if index:
                line.append(gap)
            line.append(part, style)
    return Text("\n").join(lines)
