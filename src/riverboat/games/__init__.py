"""The four games: rules as data, round engines, one settlement function each.

>>> game = find_game("tri-card")
>>> game.title, sorted(game.variants)
('Tri-Card Poker', ['standard'])
>>> find_game("poker")
Traceback (most recent call last):
...
riverboat.games.rules.RulesError: no game 'poker'; the games are rabbit-hunter, tri-card, ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from riverboat.deck import CardSource, Deck
from riverboat.games import baccarat, crazy4, rabbit_hunter, tri_card
from riverboat.games.codec import from_json, to_json
from riverboat.games.engine import Choice, Phase, Position, Round
from riverboat.games.events import Dealt, Decision, Event, Voided, Wagered, event_from_json
from riverboat.games.rules import IllegalAction, PayTable, RulesError, Spot
from riverboat.games.spec import GameSpec, HandSpec, OptionSpec, ShoeSpec

__all__ = [
    "GAMES",
    "Choice",
    "Event",
    "Game",
    "GameRules",
    "GameSpec",
    "HandSpec",
    "IllegalAction",
    "OptionSpec",
    "Phase",
    "Position",
    "ReplayMismatch",
    "Round",
    "RulesError",
    "ShoeSpec",
    "Spot",
    "find_game",
    "replay",
]

RulesT = TypeVar("RulesT")

#: the rules of some game: one of the four games' rules types
GameRules: TypeAlias = (
    tri_card.TriCardRules
    | rabbit_hunter.RabbitHunterRules
    | crazy4.Crazy4Rules
    | baccarat.BaccaratRules
)


@dataclass(frozen=True)
class Game(Generic[RulesT]):
    """A game: its name, its rules type and named variants, its shape (spec), its
    round engine and its settlement."""

    name: str
    title: str
    rules_type: type[RulesT]
    round_type: type[Round[RulesT]]
    variants: Mapping[str, RulesT]
    settle: Callable[..., dict[str, Any]]
    make_spec: Callable[[RulesT], GameSpec]
    how_to_play: tuple[str, ...] = ()  # the rules in brief, for people (R11)

    def spec(self, rules: RulesT | None = None) -> GameSpec:
        """The game's shape under ``rules`` (the default variant's if None)."""
        return self.make_spec(self.rules() if rules is None else rules)

    def rules(self, variant: str | None = None) -> RulesT:
        """The rules of a named variant (the first is the default)."""
        if variant is None:
            return next(iter(self.variants.values()))
        if variant not in self.variants:
            raise RulesError(
                f"{self.title} has no variant {variant!r}; the variants are "
                + ", ".join(self.variants)
            )
        return self.variants[variant]

    def new_round(self, rules: RulesT | None = None) -> Round[RulesT]:
        return self.round_type(self.rules() if rules is None else rules)

    def table_info(self, rules: RulesT | None = None) -> dict[str, Any]:
        """The wagers, chips and pay tables a front end shows without betting (R11)."""
        rules = self.rules() if rules is None else rules
        spots = self.spec(rules).spots
        tables = self.spec(rules).pay_tables
        return {
            "game": self.name,
            "title": self.title,
            "variant": getattr(rules, "variant", ""),
            "wagers": [to_json(spot) for spot in spots],
            "chips": list(getattr(rules, "chips", ())),
            "pay_tables": {
                name: [list(row) for row in table.describe()]
                for name, table in tables.items()
                if isinstance(table, PayTable)
            },
            "how_to_play": list(self.how_to_play),
            "rules": to_json(rules),
        }


def _variants(*rules: Any) -> dict[str, Any]:
    return {r.variant: r for r in rules}


GAMES: dict[str, Game[Any]] = {
    game.name: game
    for game in (
        Game(
            "rabbit-hunter",
            "Rabbit Hunter",
            rabbit_hunter.RabbitHunterRules,
            rabbit_hunter.RabbitHunterRound,
            _variants(rabbit_hunter.RabbitHunterRules()),
            rabbit_hunter.settle,
            rabbit_hunter.spec,
            (
                "Place an Ante; the Bonus (equal to the Ante) and the 2-Way Bad Beat are optional.",
                "You and the dealer get five cards. Fold (every wager lost), Play (a Play wager "
                "equal to the Ante) or Buy & Play: pay a fee equal to the Ante for a sixth card, "
                "the rabbit, and play the best five of six.",
                "The dealer qualifies with ace-high or better; if not, the Ante pushes. The Play "
                "wager always meets the dealer's hand: higher wins 1 to 1, equal pushes.",
                "The Bonus pays on your final hand, from a pair of tens up, win or lose.",
                "Bad Beat pays 10 to 1 when the losing hand, yours or the dealer's, is a pair of "
                "tens or better; a tie is not a loss.",
                "A round's winnings are capped at $50,000.",
            ),
        ),
        Game(
            "tri-card",
            "Tri-Card Poker",
            tri_card.TriCardRules,
            tri_card.TriCardRound,
            _variants(tri_card.TriCardRules()),
            tri_card.settle,
            tri_card.spec,
            (
                "Place an Ante, a Pair Plus, or both. Three cards each.",
                "With an Ante, fold (Ante and Pair Plus lost) or raise an amount equal to "
                "the Ante.",
                "The dealer qualifies with queen-high or better; if not, the Ante wins 1 to 1 "
                "and the Raise pushes. Otherwise the higher hand wins both at 1 to 1.",
                "Straights beat flushes. The Ante Bonus pays on a straight or better when you "
                "raise; Pair Plus pays on your hand alone.",
            ),
        ),
        Game(
            "crazy4",
            "Crazy 4 Poker",
            crazy4.Crazy4Rules,
            crazy4.Crazy4Round,
            _variants(crazy4.Crazy4Rules(), crazy4.Crazy4Rules.standard()),
            crazy4.settle,
            crazy4.spec,
            (
                "Ante and Super Bonus (equal) are required; Queens Up is optional.",
                "Five cards each; the best four count. Four Aces top the ranking, and a flush "
                "beats a straight.",
                "Fold, or play 1x the Ante; with a pair of aces or better, up to 3x.",
                "The dealer qualifies with king-high or better; if not, the Ante pushes and "
                "the Play wins. A hand that does not beat a qualifying dealer loses.",
                "The Super Bonus pays on a straight or better, win or lose; below that it pushes "
                "unless the dealer's hand is higher.",
            ),
        ),
        Game(
            "baccarat",
            "Baccarat",
            baccarat.BaccaratRules,
            baccarat.BaccaratRound,
            _variants(baccarat.BaccaratRules(), baccarat.BaccaratRules.six_decks()),
            baccarat.settle,
            baccarat.spec,
            (
                "Bet on Player, Banker or Tie, in any combination. Tens and pictures count "
                "0, aces 1; a total is the sum's last digit.",
                "Eight or nine on two cards is a natural: both stand. Otherwise the Player "
                "draws on 0 to 5 and the Banker draws by the third-card table.",
                "Player pays 1 to 1, Banker 1 to 1 less 5% commission, Tie 8 to 1 (Player "
                "and Banker push on a tie).",
            ),
        ),
    )
}


def find_game(name: str) -> Game[Any]:
    """The game called ``name``: rabbit-hunter, tri-card, crazy4 or baccarat."""
    if name not in GAMES:
        raise RulesError(f"no game {name!r}; the games are {', '.join(GAMES)}")
    return GAMES[name]


class ReplayMismatch(ValueError):  # noqa: N818 - a finding, not a failure of the code
    """A round record whose replay does not reach the settlement it records."""


def replay(record: Mapping[str, Any], source: CardSource | None = None) -> Round[Any]:
    """Play a round record again from its rules, cards and decisions.

    ``source`` deals the cards (by default exactly the recorded ones); a round still
    in play continues from it. Raises :class:`ReplayMismatch` when the replay differs
    from the record.
    """
    game = find_game(record["game"])
    rules = from_json(game.rules_type, record["rules"])
    game_round = game.round_type(rules)
    source = source or Deck.stacked(record["cards_drawn"])
    try:
        _apply_events(game_round, record["events"], source)
    except ValueError as error:  # an illegal step or too few cards: not this round
        raise ReplayMismatch(f"the {game.title} round does not replay: {error}") from None
    replayed = game_round.record()
    if replayed["events"] != [dict(e) for e in record["events"]]:
        raise ReplayMismatch(
            f"the {game.title} round does not replay to its record: "
            f"recorded {record['events'][-1]}, replayed {replayed['events'][-1]}"
        )
    return game_round


def _apply_events(game_round: Round[Any], events: list[Any], source: CardSource) -> None:
    for event in map(event_from_json, events):
        match event:
            case Wagered(seat=seat, blind=blind, wagers=wagers):
                game_round.place_wagers(wagers, seat, blind)
            case Dealt():
                game_round.deal(source)
            case Decision(seat=seat, action=action, amount=amount) if event.by_player:
                game_round.act(action, amount, seat)
            case Voided(reason=reason) if game_round.phase is not Phase.VOID:
                game_round.void(reason)
