"""Strategy cards kept on disk (:mod:`riverboat.analysis.kept`): a card found once
is read back by every later process, its rules, words and exact figures as found.

>>> import tempfile
>>> from pathlib import Path
>>> from riverboat.settings import overridden
>>> with overridden(cache_dir=Path(tempfile.mkdtemp())):  # a folder of the example's
...     found = kept_card("tri-card", wagers={"ante": 1})
...     again = kept_card("tri-card", wagers={"ante": 1})   # read back: a KeptCard
>>> type(again).__name__, again.to_text() == found.to_text(), again.cost == found.cost
('KeptCard', True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from riverboat.analysis import GivenWagers, wager_units
from riverboat.analysis.kept import figures_data, figures_from, key, remember_report
from riverboat.analysis.strategy_cards import CardRule, StrategyCard, strategy_card
from riverboat.games import GameRules, find_game
from riverboat.json_types import JsonObject

__all__ = ["KeptCard", "kept_card"]


class KeptCard(StrategyCard):
    """A strategy card read back from disk: every rule, word and figure as found;
    its ``choice`` and ``solution`` (the counting tables) are found when first asked for."""

    _game_rules: GameRules

    @classmethod
    def of(cls, game_rules: GameRules, **fields: object) -> KeptCard:
        """A card of the game's rules ``game_rules`` with the kept ``fields``."""
        card = cls.__new__(cls)
        for name, value in {**fields, "_game_rules": game_rules}.items():
            object.__setattr__(card, name, value)  # frozen, as a StrategyCard
        return card

    def __getattr__(self, name: str) -> object:
        """``choice`` and ``solution``, found once (only missing attributes come here)."""
        if name not in ("choice", "solution"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        found = strategy_card(self.game, self._game_rules, self.wagers)
        for lazy in ("choice", "solution"):
            object.__setattr__(self, lazy, getattr(found, lazy))
        return getattr(found, name)


def kept_card(
    game: str,
    rules: GameRules | None = None,
    wagers: GivenWagers | None = None,
    variant: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StrategyCard:
    """:func:`~riverboat.analysis.strategy_cards.strategy_card` (same arguments, same
    card), read back from disk once found."""
    rules = find_game(game).rules(variant) if rules is None else rules
    placed = wager_units(game, wagers)

    def decode(data: Mapping[str, Any]) -> StrategyCard:
        return KeptCard.of(
            rules,
            game=game,
            variant=str(data["variant"]),
            wagers=placed,
            rules=tuple(CardRule(*map(str, rule)) for rule in data["rules"]),
            rule_costs=tuple(Fraction(cost) for cost in data["rule_costs"]),
            agreement=Fraction(data["agreement"]),
            card=figures_from(data["card"]),
            optimal=figures_from(data["optimal"]),
        )

    def encode(card: StrategyCard) -> JsonObject:
        return {
            "variant": card.variant,
            "rules": [[rule.option, rule.label, rule.hands] for rule in card.rules],
            "rule_costs": [str(cost) for cost in card.rule_costs],
            "agreement": str(card.agreement),
            "card": figures_data(card.card),
            "optimal": figures_data(card.optimal),
        }

    def build() -> StrategyCard:
        return strategy_card(game, rules, placed, progress=progress)

    return remember_report(key(game, "card", rules, placed), build, decode, encode)
