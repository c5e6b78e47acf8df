"""How a game meets the analyzer and the simulator: its :class:`GameMath`.

Every payout comes from the game's own ``settle``; a :class:`GameMath` only says
which arguments it takes, how a hand is valued and which settlement line belongs to
which wager. The game's shape (hands, decisions and their stakes) comes from its
spec (:mod:`riverboat.games.spec`), so the analyzer's options carry the engine's own
actions. Each game package builds one, in its ``analysis`` module, and its
:class:`~riverboat.games.definition.GameDefinition` carries it.

>>> from riverboat.games import find_game
>>> math = find_game("tri-card").math
>>> sorted(set(math.line_wagers.values())), math.code("raise", 1)
(['ante', 'pair_plus'], 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Generic, TypeAlias, TypeVar

from riverboat.games.rules import PayTable

if TYPE_CHECKING:  # a game's math is arrays, made by the functions it names: no numpy here
    import numpy as np
    import numpy.typing as npt

    from riverboat.analysis.report import Outcomes
    from riverboat.hands import HandRanking
    from riverboat.hands.evaluate import Values

__all__ = ["Cards", "GameMath", "Ints", "Lines", "Settle", "Threshold", "ranking_keys"]

Cards: TypeAlias = "npt.NDArray[np.uint8]"
Ints: TypeAlias = "npt.NDArray[np.int64]"
#: a settle function's results: each settlement line's net result per round
Lines: TypeAlias = "Mapping[str, Ints]"
RulesT = TypeVar("RulesT")
#: ``settle(rules, first, second, code, stakes)``: the game's settle with a hand's (or
#: coup's) two values, the decision code (scalar or array) and the wagers by name
Settle: TypeAlias = (
    "Callable[[RulesT, npt.ArrayLike, npt.ArrayLike, npt.ArrayLike, "
    "Mapping[str, npt.ArrayLike]], Lines]"
)


@dataclass(frozen=True)
class Threshold:
    """A rule of thumb: take ``action`` (its largest stake if ``most``) with a hand at
    least as good as the ranking key ``at_least``."""

    action: str
    at_least: tuple[int, ...]
    most: bool = False


def ranking_keys(rules: object) -> list[tuple[int, ...]]:
    """Every hand-ranking key a rules dataclass names: each pay line's, and each rule a
    hand must reach (a qualifier, a Bad Beat's least losing hand: a field declared with
    ``hand=``, :func:`~riverboat.games.variant_model.rule`).

    >>> from riverboat.games import find_game
    >>> sorted(tuple(map(int, key)) for key in ranking_keys(find_game("tri-card").rules()))[:3]
    [(0,), (0, 10), (1,)]
    """
    assert dataclasses.is_dataclass(rules)
    keys: list[tuple[int, ...]] = []
    for field in dataclasses.fields(rules):
        value = getattr(rules, field.name)
        if isinstance(value, PayTable):
            keys.extend(line.at_least for line in value.lines)
        elif field.metadata.get("hand") is not None:
            keys.append(tuple(value))
    return keys


def _no_pay_tables(rules: object) -> Mapping[str, PayTable]:
    return {}


def _same_rules(rules: RulesT) -> RulesT:
    return rules


def _no_code(action: str, bet: Fraction) -> int:
    return 0


@dataclass(frozen=True)
class GameMath(Generic[RulesT]):
    """What the analyzer and the simulator need of a game beyond its spec.

    The game's shape is its definition's spec (``make_spec``). ``settle`` maps a code and
    named wagers to the game's own settle; ``code`` is the code of a decision (an
    action and its stake in Antes). ``ranking`` and ``table`` value a position's
    hand (``table()``: every hand by colex index), ``evaluate`` values dealt hands in
    bulk and ``evaluate_with`` a hand with the cards a decision deals (the rabbit,
    R4). ``dealer_qualifies`` is the ranking key the dealer's hand must reach.
    ``per_unit`` gives the rules the analyzer counts with (R9's cap left out);
    ``simple`` is the rule of thumb. A game without decisions has ``outcomes`` (its
    exact distribution) and, dealt from a shoe, ``card_values`` and ``coup`` (the
    drawing rules: values of the next cards -> totals and cards used).

    ``settle_keys``, where a game gives it, says that its settle reads the two values
    only by comparing them and by these ranking keys (pay lines, qualifiers): two rounds
    whose values lie between the same keys, in the same order, with the same decision,
    settle alike. The simulator counts rounds so and settles one of each kind
    (:mod:`riverboat.sim.batches`); :func:`ranking_keys` gives every key the rules name.
    """

    line_wagers: Mapping[str, str]
    settle: Settle[RulesT]
    code: Callable[[str, Fraction], int] = _no_code
    ranking: HandRanking | None = None
    table: Callable[[], npt.NDArray[np.int16]] | None = None
    evaluate: Callable[[Cards], Values] | None = None
    evaluate_with: Callable[[Cards], Values] | None = None
    dealer_qualifies: Callable[[RulesT], tuple[int, ...]] | None = None
    pay_tables: Callable[[RulesT], Mapping[str, PayTable]] = _no_pay_tables
    per_unit: Callable[[RulesT], RulesT] = _same_rules
    simple: tuple[Threshold, ...] = ()
    no_decision: int = 0  # the code when the deciding wager is absent (Pair Plus alone)
    outcomes: Callable[[RulesT], Outcomes] | None = None
    card_values: Callable[[npt.ArrayLike], Ints] | None = None
    coup: Callable[[npt.ArrayLike], tuple[Ints, Ints, Ints]] | None = None
    settle_keys: Callable[[RulesT], Iterable[tuple[int, ...]]] | None = None
