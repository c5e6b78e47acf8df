"""A game's one definition: everything riverboat knows about a game, in one object.

Each game package (``riverboat.games.tri_card``, ...) builds one
:class:`GameDefinition` and names it ``GAME``; :mod:`riverboat.games` registers it.
A game in a package of its own registers the same way, through the
``riverboat.games`` entry-point group (docs/adding-a-game.md). The table service,
the felt, the pay tables, the analyzer, the simulator, the web and the terminal read
a game only through its definition and its spec.

>>> from riverboat.games import find_game
>>> game = find_game("tri-card")
>>> game.title, sorted(game.variants), game.spec().options[1].action
('Tri-Card Poker', ['standard'], 'raise')
>>> [section.title for section in game.pay_sections(game.rules())][:2]
['Ante and Raise', 'Raise']
>>> game.how_to_play(game.rules())[0]
'Place an Ante, a Pair Plus, or both. Three cards each.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from riverboat.games.codec import to_json
from riverboat.games.engine import Round
from riverboat.games.game_math import GameMath
from riverboat.games.rules import GameRules, PayTable, RulesError
from riverboat.games.spec import GameSpec
from riverboat.games.words import LineWords, Section
from riverboat.json_types import JsonObject

__all__ = ["GameDefinition", "GameRules", "SomeGame"]


RulesT = TypeVar("RulesT", bound=GameRules)


#: the variants loaded from files in this process, by game and name
_LOADED: dict[str, dict[str, Any]] = {}


@dataclass(frozen=True)
class GameDefinition(Generic[RulesT]):
    """A game: its name, rules type and named variants, its shape (spec), its round
    engine, its math and its pay tables in words.

    ``make_spec`` gives the spec under a set of rules; ``round_type`` plays a round
    and settles it with the game's own settle; ``math`` is how the analyzer and the
    simulator meet it; ``line_words`` and ``pay_sections`` say in words what each
    line pays and how (the felt's circles and the pay-table panel); ``how_to_play``
    gives the rules in brief, for people, from the rules they describe (R11).
    """

    name: str
    title: str
    rules_type: type[RulesT]
    round_type: type[Round[RulesT]]
    variants: Mapping[str, RulesT]
    make_spec: Callable[[RulesT], GameSpec]
    math: GameMath[RulesT]
    line_words: Callable[[RulesT], LineWords]
    pay_sections: Callable[[RulesT], list[Section]]
    how_to_play: Callable[[RulesT], tuple[str, ...]]

    def __post_init__(self) -> None:
        if not self.variants:
            raise RulesError(f"game {self.name!r} has no variant")
        if not callable(self.how_to_play):
            raise RulesError(
                f"{self.name}: how_to_play is a function of the rules giving its "
                f"sentences, not a {type(self.how_to_play).__name__}"
            )
        for name, rules in self.variants.items():
            if not isinstance(rules, self.rules_type):
                raise RulesError(f"variant {name!r} of {self.name!r} is not a {self.rules_type}")

    def spec(self, rules: RulesT | None = None) -> GameSpec:
        """The game's shape under ``rules`` (the default variant's if None)."""
        return self.make_spec(self.rules() if rules is None else rules)

    def rules(self, variant: str | None = None) -> RulesT:
        """The rules of a named variant (the first is the default), one of the game's
        own or one loaded from a variant file (:meth:`load_variant`)."""
        if variant is None:
            return next(iter(self.variants.values()))
        loaded: dict[str, RulesT] = _LOADED.get(self.name, {})
        found = self.variants.get(variant, loaded.get(variant))
        if found is None:
            raise RulesError(
                f"{self.title} has no variant {variant!r}; the variants are "
                + ", ".join([*self.variants, *loaded])
            )
        return found

    def load_variant(self, rules: RulesT) -> None:
        """Make ``rules`` (a variant file's) a variant of this game by its name, for this
        process: a table can be configured with it and rounds dealt by it. A name the
        game or an earlier file already gave other rules is refused."""
        known = self.variants.get(rules.variant, _LOADED.get(self.name, {}).get(rules.variant))
        if known is not None and known != rules:
            raise RulesError(
                f"{self.title} already has a variant {rules.variant!r} with other rules: "
                "give the file's variant a name of its own"
            )
        _LOADED.setdefault(self.name, {})[rules.variant] = rules

    def new_round(self, rules: RulesT | None = None) -> Round[RulesT]:
        return self.round_type(self.rules() if rules is None else rules)

    def table_info(self, rules: RulesT | None = None) -> JsonObject:
        """The wagers, chips, pay tables and rules in brief a front end shows without
        betting (R11), all under ``rules`` (the default variant's if None)."""
        rules = self.rules() if rules is None else rules
        spec = self.spec(rules)
        return {
            "game": self.name,
            "title": self.title,
            "variant": rules.variant,
            "wagers": [to_json(spot) for spot in spec.spots],
            "chips": list(rules.chips),
            "pay_tables": {
                name: [list(row) for row in table.describe()]
                for name, table in spec.pay_tables.items()
                if isinstance(table, PayTable)
            },
            "how_to_play": list(self.how_to_play(rules)),
            "rules": to_json(rules),
        }


#: a game whose rules type the code does not know (a registry's entry, a stored round's
#: game). Python has no existential types and a definition both takes and gives its
#: rules, so its parameter is erased here, in this one place.
SomeGame: TypeAlias = "GameDefinition[Any]"


def variants(*rules: RulesT) -> dict[str, RulesT]:
    """Named variants from rules objects, by each one's ``variant`` (the first is the
    default)."""
    return {r.variant: r for r in rules}
