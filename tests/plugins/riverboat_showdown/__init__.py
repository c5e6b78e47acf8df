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
    how_to_play=(
        "Place an Ante; the Pair Up is optional. Two cards each.",
        "Fold (every wager lost) or Play an amount equal to the Ante.",
        "The dealer qualifies with jack-high or better; if not, the Ante wins 1 to 1 and "
        "the Play pushes. Otherwise the higher hand wins both 1 to 1; a pair beats two "
        "different cards.",
        "Pair Up pays 15 to 1 on a pair.",
    ),
)
