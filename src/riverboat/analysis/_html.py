"""HTML built from escaped parts: every string is escaped unless it is already
:class:`Markup`, so text from rules or labels can never become markup.

>>> tag("td", "Buy & Play <b>", class_="note")
'<td class="note">Buy &amp; Play &lt;b&gt;</td>'
>>> tag("p", tag("b", "bold"), " & plain")
'<p><b>bold</b> &amp; plain</p>'
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

__all__ = ["Markup", "escape", "join", "table", "tag"]


class Markup(str):
    """Text that is already HTML (built by :func:`tag`); never escaped again."""


def escape(value: object) -> Markup:
    """``value`` as HTML text: Markup as it is, anything else escaped."""
    return value if isinstance(value, Markup) else Markup(html.escape(str(value)))


def join(parts: Iterable[object]) -> Markup:
    return Markup("".join(escape(part) for part in parts))


def tag(name: str, *children: object, **attributes: object) -> Markup:
    """``<name attributes>children</name>``; ``class_`` is ``class``, ``aria_label``
    is ``aria-label``; an attribute set to None is left out."""
    words = "".join(
        f' {key.rstrip("_").replace("_", "-")}="{html.escape(str(value), quote=True)}"'
        for key, value in attributes.items()
        if value is not None
    )
    return Markup(f"<{name}{words}>{join(children)}</{name}>")


def table(
    header: Sequence[object],
    rows: Iterable[Sequence[object]],
    caption: object = None,
    numeric: Sequence[int] = (),
) -> Markup:
    """A table with a header row; the cells of columns ``numeric`` right-aligned."""

    def cell(kind: str, index: int, value: object) -> Markup:
        return tag(kind, value, class_="num" if index in numeric else None)

    head = tag("tr", *(cell("th", i, h) for i, h in enumerate(header)))
    body = join(tag("tr", *(cell("td", i, v) for i, v in enumerate(row))) for row in rows)
    return tag(
        "table",
        tag("caption", caption) if caption is not None else "",
        tag("thead", head),
        tag("tbody", body),
    )
