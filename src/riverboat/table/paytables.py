"""A game's betting circles and its pay tables in words, from its rules object: a
variant's figures are its own. Each game says them in its ``words`` module; this
puts them in the felt's shape.

>>> from riverboat.games import find_game
>>> game = find_game("baccarat")
>>> [(line.name, line.pays) for line in felt_lines(game)]
[('player', '1 to 1'), ('banker', '95 to 100 (5% commission)'), ('tie', '8 to 1')]
>>> [section.title for section in pay_sections(game)]
['Player', 'Banker', 'Tie', 'Drawing rules']
"""

from __future__ import annotations

from riverboat.games import GameRules, SomeGame
from riverboat.table.felt_rounds import line_names
from riverboat.table.felt_views import LineInfo, PaySection

__all__ = ["felt_lines", "pay_sections"]


# ------------------------------------------------------------------ lines
def felt_lines(game: SomeGame, rules: GameRules | None = None) -> list[LineInfo]:
    """Every betting circle of the game under ``rules`` (its default if None): the
    spots placed before the deal, then the lines a decision places."""
    rules = game.rules() if rules is None else rules
    spec = game.spec(rules)
    spots = {spot.name: spot for spot in spec.spots}
    placed_by: dict[str, str] = {}
    for option in spec.options:
        if option.line and option.line not in placed_by:
            placed_by[option.line] = option.action
    for option in spec.options:  # R4: a fee is first paid by the option that pays it
        if option.fee_line and option.fee_line not in placed_by:
            placed_by[option.fee_line] = option.action
    names = line_names(spec)
    words = game.line_words(rules)
    labels, pays = words.labels, words.pays
    for name in names:
        if name not in placed_by and name not in spots:
            placed_by[name] = next(o.action for o in spec.options if o.stake and o.line)
    return [
        LineInfo(
            name=name,
            label=spots[name].label if name in spots else labels[name],
            placed_by=None if name in spots else placed_by[name],
            pays=pays[name],
        )
        for name in names
    ]


# ------------------------------------------------------------- pay tables
def pay_sections(game: SomeGame, rules: GameRules | None = None) -> list[PaySection]:
    """The game's pay tables and rules in words, one section per wager, from ``rules``
    (the default variant's if None)."""
    rules = game.rules() if rules is None else rules
    return [
        PaySection(title=section.title, rows=section.rows, notes=section.notes)
        for section in game.pay_sections(rules)
    ]
