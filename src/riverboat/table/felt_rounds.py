"""What a felt shows of a round beyond its cards: each line's stake, the cards that
make each ranked hand, the hands' names, whether the dealer qualified, and a coup's
totals and the side they favour (Baccarat's roads; its export and its check read
them too).

Every rank comes from the evaluator the game settles with (:mod:`riverboat.hands`):
the made cards are a subset whose value in that evaluator's own table equals the
value of the whole hand.

>>> from riverboat.cards import parse_cards
>>> from riverboat.hands import evaluate4of5
>>> best_cards(parse_cards("Ah Ac Kd 7s 2c"), 4, evaluate4of5)
[0, 1, 2, 3]
>>> from riverboat.games import find_game
>>> print(totals(find_game("tri-card").new_round()))
None
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Literal

from riverboat.cards import Card
from riverboat.games import GameRules, GameSpec, Phase, Position, Round
from riverboat.games.events import BLIND_PLAY, NO_CHOICE
from riverboat.money import Cents

if TYPE_CHECKING:  # the evaluators (numpy) load when a hand is valued, not with the views
    from riverboat.hands import Evaluator

__all__ = [
    "HandOutcome",
    "best_cards",
    "dealer_qualifies",
    "hand_names",
    "hand_outcome",
    "line_names",
    "made_cards",
    "position_stakes",
    "round_lines",
    "settled_felt",
    "totals",
    "winner",
]


def line_names(spec: GameSpec) -> list[str]:
    """A game's betting lines, in order: its spots, then the lines decisions place (a
    wager's, then a fee's), then the lines settlement adds with no stake of their own.

    >>> from riverboat.games import find_game
    >>> line_names(find_game("tri-card").spec())
    ['ante', 'pair_plus', 'raise', 'ante_bonus']
    >>> line_names(find_game("rabbit-hunter").spec())
    ['ante', 'bonus', 'bad_beat', 'play', 'fee']
    """
    placed = [line for o in spec.options for line in (o.line, o.fee_line) if line]
    return list(dict.fromkeys([*(spot.name for spot in spec.spots), *placed, *spec.settled_lines]))


def round_lines(game_round: Round[GameRules]) -> list[str]:
    """The betting lines of a round's game (:func:`line_names` of its spec)."""
    return line_names(game_round.spec)


def position_stakes(
    game_round: Round[GameRules], position: Position, lines: Sequence[str]
) -> dict[str, Cents]:
    """Every line's stake for one position now, 0 where nothing is staked: its wagers
    and what its decision placed (a blind position's 1x Play too, C8); the sum is
    what the position put in play (:attr:`Position.staked`).

    >>> from riverboat.games import find_game
    >>> from riverboat.deck import Deck
    >>> from riverboat.cards import parse_cards
    >>> game_round = find_game("rabbit-hunter").new_round()
    >>> _ = game_round.place_wagers({"ante": 1000})
    >>> game_round.deal(Deck.stacked(parse_cards("Kh Kc 7d 7s 2c  Ks Qd 9h 4c 3d  Ah")))
    >>> game_round.act("buy")
    >>> lines = ["ante", "bonus", "bad_beat", "play", "fee"]
    >>> position_stakes(game_round, game_round.positions[0], lines)
    {'ante': 1000, 'bonus': 0, 'bad_beat': 0, 'play': 1000, 'fee': 1000}
    """
    stakes = dict.fromkeys(lines, 0)
    stakes.update(position.wagers)
    decision, amount = position.decision, position.amount
    if decision is None or not amount:
        return stakes
    spec = game_round.spec
    if decision == BLIND_PLAY:
        line = next(o.line for o in spec.options if o.line and o.stake)
        stakes[line] = stakes.get(line, 0) + amount
        return stakes
    option = spec.option(decision)
    if option.line is not None and option.fee_line is not None:  # R4: a wager and a fee
        ante = position.wagers.get(spec.decides_with or "", 0)
        played = int(spec.option(option.line).stake * ante)
        stakes[option.line] = stakes.get(option.line, 0) + played
        stakes[option.fee_line] = stakes.get(option.fee_line, 0) + amount - played
    elif option.line is not None:
        stakes[option.line] = stakes.get(option.line, 0) + amount
    return stakes


def best_cards(cards: Sequence[Card], size: int, evaluator: Evaluator) -> list[int]:
    """The indices of ``size`` of ``cards`` that make the hand ``evaluator`` ranks them
    as: the subset whose value in the ranking's own table equals the whole hand's
    (among equals, the one keeping the highest cards)."""
    from riverboat.hands import hand_table

    value = evaluator(list(cards))
    table = hand_table(evaluator.ranking)
    if len(table) != comb(52, size):
        raise ValueError(f"{evaluator.ranking.name} ranks hands of {evaluator.ranking.size}")
    kept_sets = sorted(
        combinations(range(len(cards)), size),
        key=lambda kept: sorted((int(cards[i]) // 4 for i in kept), reverse=True),
        reverse=True,
    )
    for kept in kept_sets:
        ordered = sorted(int(cards[i]) for i in kept)
        if int(table[sum(comb(card, place + 1) for place, card in enumerate(ordered))]) == value:
            return list(kept)
    raise AssertionError(f"no {size} of {cards} make their own hand")  # pragma: no cover


def made_cards(
    game_round: Round[GameRules], visible: Mapping[str, Sequence[Card]]
) -> dict[str, list[int]]:
    """For a settled round, per visible hand, the indices of the cards its ranked hand
    uses: Rabbit Hunter's best five of the player's five and the rabbit (split between
    ``player`` and ``rabbit``), Crazy 4's best four of five, Tri-Card's three; none at
    Baccarat, where every card counts, nor while a round is open or void."""
    evaluator = game_round.spec.evaluator
    if game_round.phase is not Phase.SETTLED or evaluator is None:
        return {}
    size = evaluator.ranking.size
    first = game_round.spec.hands[0].name
    drawn = [h.name for h in game_round.spec.hands if h.dealt_on and h.name in visible]
    made: dict[str, list[int]] = {}
    for hand, cards in visible.items():
        if hand in drawn:  # counted with the first hand, below
            continue
        if hand == first and drawn:  # the best of the hand and what a decision drew (R4)
            extra = [card for name in drawn for card in visible[name]]
            with_drawn = _with_drawn(len(cards) + len(extra))
            if with_drawn is None:
                continue
            kept = best_cards([*cards, *extra], size, with_drawn)
            made[first] = [i for i in kept if i < len(cards)]
            made[drawn[0]] = [i - len(cards) for i in kept if i >= len(cards)]
            continue
        if len(cards) != evaluator.size:
            continue
        made[hand] = (
            best_cards(cards, size, evaluator) if size < len(cards) else list(range(len(cards)))
        )
    return made


def settled_felt(game_round: Round[GameRules]) -> None:
    """Work out, and drop, what the felt shows of ``game_round`` settled with every hand
    face up: the made cards, the hands' names and how the hand ended. A server does it
    for one round of each game before it listens (:func:`riverboat.web.app.warm_up_server`):
    the first settled round of a poker game builds its hand tables (numba's kernels
    loaded with them), some 0.6 s that its player would otherwise wait. The calls are
    those of :func:`riverboat.table.rounds.exports.round_view`: a view that works out
    something new from a settled round adds it here too (``tests/test_warm_up.py``).
    """
    made_cards(game_round, game_round.cards)
    hand_names(game_round, game_round.cards)
    dealer_qualifies(game_round)
    hand_outcome(game_round)


def hand_names(
    game_round: Round[GameRules], visible: Mapping[str, Sequence[Card]]
) -> dict[str, str]:
    """The name of each visible hand as the description says it ("Pair of Sevens",
    "Ace-high"; a Baccarat hand its total, "9"); Rabbit Hunter's ``player`` names the
    best five with the rabbit once bought."""
    found = game_round.totals()
    if found is not None:  # hands with totals are named by them, once all show
        hands = [hand.name for hand in game_round.spec.hands]
        return dict(zip(hands, map(str, found), strict=True)) if set(hands) <= set(visible) else {}
    if game_round.spec.evaluator is None:
        return {}
    ranking = game_round.spec.evaluator.ranking
    names: dict[str, str] = {}
    for hand in visible:
        value = _hand_value(game_round, hand, visible)
        if value is not None:
            names[hand] = ranking.describe(value)
    return names


def dealer_qualifies(game_round: Round[GameRules]) -> bool | None:
    """Whether the dealer's hand qualified, once a poker round is settled; else None."""
    key: tuple[int, ...] | None = getattr(game_round.rules, "dealer_qualifies", None)
    evaluator = game_round.spec.evaluator
    if key is None or game_round.phase is not Phase.SETTLED or evaluator is None:
        return None
    return bool(evaluator(game_round.cards["dealer"]) >= evaluator.ranking.lowest(*key))


#: how a poker round's hand ended for its player, for the felt's banner
HandOutcome = Literal["won", "lost", "tied", "folded", "not_qualified", "no_play"]


def hand_outcome(game_round: Round[GameRules]) -> HandOutcome | None:
    """How the first position's hand ended against the dealer's, once a poker round is
    settled: ``folded``, ``no_play`` (nothing to decide: Pair Plus alone, T3),
    ``not_qualified`` (the dealer did not qualify) or the hands compared, ``won``,
    ``lost`` or ``tied``. None before settlement and where no hand is the house's. The
    money is the result's to say: a hand won can still lose money (a rabbit fee, a
    side wager).

    >>> from riverboat import parse_cards
    >>> from riverboat.deck import Deck
    >>> from riverboat.games import find_game
    >>> game_round = find_game("tri-card").new_round()
    >>> _ = game_round.place_wagers({"ante": 500})
    >>> game_round.deal(Deck.stacked(parse_cards("As Ad 2c Kh Qh 9s")))
    >>> _ = game_round.act("raise")
    >>> hand_outcome(game_round)
    'won'
    """
    evaluator = game_round.spec.evaluator
    if game_round.phase is not Phase.SETTLED or evaluator is None:
        return None
    position = game_round.positions[0]
    if position.decision == "fold":
        return "folded"
    if position.decision == NO_CHOICE:
        return "no_play"
    if dealer_qualifies(game_round) is False:
        return "not_qualified"
    mine = _hand_value(game_round, game_round.hand_name(0), game_round.cards)
    dealer = _value(evaluator, game_round.cards["dealer"])
    if mine is None or dealer is None:
        return None
    return "won" if mine > dealer else "lost" if mine < dealer else "tied"


def _with_drawn(size: int) -> Evaluator | None:
    """The evaluator of the best five of a hand of ``size`` cards with the cards a
    decision dealt to it (a hand the spec deals ``dealt_on`` a decision), or None."""
    from riverboat.hands import evaluate6

    return {6: evaluate6}.get(size)


def _hand_value(
    game_round: Round[GameRules], hand: str, visible: Mapping[str, Sequence[Card]]
) -> int | None:
    """A visible poker hand's value in its game's evaluator. A hand a decision deals
    (the spec's ``dealt_on``) counts with the first hand, not alone: the first hand's
    value takes it in once it shows (the best five of six), and its own is None."""
    drawn = [spec.name for spec in game_round.spec.hands if spec.dealt_on]
    if hand in drawn:
        return None
    extra = [card for name in drawn if name in visible for card in visible[name]]
    if extra and hand == game_round.spec.hands[0].name:
        cards = [*visible[hand], *extra]
        evaluator = _with_drawn(len(cards))
        return _value(evaluator, cards) if evaluator else None
    evaluator = game_round.spec.evaluator
    return None if evaluator is None else _value(evaluator, visible[hand])


def _value(evaluator: Callable[[list[Card]], int], cards: Sequence[Card]) -> int | None:
    size = getattr(evaluator, "size", len(cards))
    return evaluator(list(cards)) if len(cards) == size else None


def totals(game_round: Round[GameRules]) -> list[int] | None:
    """The hands' totals, for a round whose hands have totals (a Baccarat coup's
    Player and Banker, for the bead plate and big road), once dealt; else None."""
    found = game_round.totals()
    return None if found is None else [int(total) for total in found]


def winner(game_round: Round[GameRules]) -> str | None:
    """The side a round's totals favour (for the bead plate and big road), else None."""
    return game_round.winner()
