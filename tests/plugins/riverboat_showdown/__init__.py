"""Two-Card Showdown, a game in a package of its own: riverboat finds it through the
``riverboat.games`` entry point its distribution declares
(``showdown = riverboat_showdown:GAME``), and nothing in riverboat names it.
"""

from __future__ import annotations

from riverboat.games import GameDefinition
from riverboat.games.definition import variants
from riverboat_showdown import analysis, words
from riverboat_showdown.play import ShowdownRound, ShowdownRules, spec

__all__ = ["GAME"]

GAME: GameDefinition[ShowdownRules] = GameDefinition(
    name="showdown",
    title="Two-Card Showdown",
    rules_type=ShowdownRules,
    round_type=ShowdownRound,
    variants=variants(ShowdownRules()),
    make_spec=spec,
    math=analysis.MATH,
    line_words=words.line_words,
    pay_sections=words.pay_sections,
    how_to_play=words.how_to_play,
)
