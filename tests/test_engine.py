"""What every game shares: guards (G6), misdeals (G7), money (G1, G2, G5), records and replay.

Hypothesis plays random legal rounds of every game: no legal sequence crashes, every
illegal action is refused with the round unchanged, money is conserved, and every
round's record replays to the same settlement.
"""

import copy
import json
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverboat.cards import parse_cards
from riverboat.deck import Deck
from riverboat.games import (
    GAMES,
    IllegalAction,
    Phase,
    ReplayMismatch,
    Round,
    RulesError,
    find_game,
    replay,
)
from riverboat.games.events import BLIND_PLAY, NO_CHOICE
from riverboat.games.rabbit_hunter import RabbitHunterRound, RabbitHunterRules
from riverboat.games.rules import PayLine, PayTable, Spot
from riverboat.games.tri_card import TriCardRound, TriCardRules
from riverboat.rng import SeededSource


def test_g1_wagers_are_whole_cents() -> None:
    game = TriCardRound(TriCardRules())
    with pytest.raises(IllegalAction, match=r"whole number of cents, not 5\.5"):
        game.place_wagers({"ante": 5.5})  # type: ignore[dict-item]
    game.place_wagers({"ante": 505})
    game.deal(Deck(SeededSource(1)))
    game.act("raise")
    assert all(type(v) is int for v in game.positions[0].result.values())


def test_g2_cards_never_depend_on_wager_sizes() -> None:
    dealt = []
    for ante in (500, 50_000):
        game = TriCardRound(TriCardRules())
        game.place_wagers({"ante": ante})
        game.deal(Deck(SeededSource(42)))
        dealt.append(game.cards)
    assert dealt[0] == dealt[1]


def test_g2_each_round_a_fresh_deck_by_default() -> None:
    hands = set()
    for _ in range(5):
        game = TriCardRound(TriCardRules())
        game.place_wagers({"ante": 500})
        game.deal()
        hands.add(tuple(game.cards["player"] + game.cards["dealer"]))
    assert len(hands) == 5


def test_g5_rules_are_data_with_other_limits() -> None:
    high_limit = replace(TriCardRules(), ante=Spot("ante", "Ante", 10_000, 1_000_000))
    game = TriCardRound(high_limit)
    with pytest.raises(IllegalAction, match=r"\$100 to \$10,000"):
        game.place_wagers({"ante": 5_000})
    game.place_wagers({"ante": 1_000_000})


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Spot("ante", "Ante", 50_000, 500), "minimum <= maximum"),
        (lambda: Spot("ante", "Ante", 0, 500), "0 < minimum"),
        (lambda: PayLine("Flush", (5,), Fraction(-1)), "cannot be negative"),
        (
            lambda: PayTable(
                "x", (PayLine("Pair", (1,), Fraction(1)), PayLine("Flush", (5,), Fraction(2)))
            ),
            "strongest first",
        ),
        (lambda: RabbitHunterRules(max_payout=0), "maximum payout must be positive"),
        (lambda: find_game("baccarat").rules_type(commission=Fraction(3, 2)), "commission"),
        (
            lambda: find_game("crazy4").rules("house"),
            "no variant 'house'; the variants are rule-card, standard",
        ),
    ],
)
def test_rules_that_make_no_sense_are_refused(make: Any, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        make()


def test_g6_order_of_play_refusals_name_the_rule() -> None:
    game = RabbitHunterRound(RabbitHunterRules())
    with pytest.raises(IllegalAction, match="place a wager before the deal"):
        game.deal()
    with pytest.raises(IllegalAction, match="cannot decide now: the round is betting"):
        game.act("play")
    game.place_wagers({"ante": 500})
    with pytest.raises(IllegalAction, match="1 betting position"):
        game.place_wagers({"ante": 500})
    game.deal(Deck(SeededSource(2)))
    with pytest.raises(
        IllegalAction, match="'raise' is not allowed now; the choices are fold, play, buy"
    ):
        game.act("raise")
    with pytest.raises(IllegalAction, match="cannot place wagers now"):
        game.place_wagers({"ante": 500})
    game.act("fold")
    with pytest.raises(IllegalAction, match="the round is settled"):
        game.act("play")


def test_g7_a_card_dealt_twice_voids_the_round_and_returns_every_wager() -> None:
    game = RabbitHunterRound(RabbitHunterRules())
    game.place_wagers({"ante": 1000, "bonus": 1000})
    game.deal(Deck.stacked(parse_cards("As Kd Qh Jc 9s As 2c 3c 4c 5c", allow_duplicates=True)))
    assert game.phase is Phase.VOID
    assert game.positions[0].result == {"ante": 0, "bonus": 0, "bad_beat": 0}
    assert "As was dealt twice" in game.describe()


def test_g7_a_short_deck_voids_the_round() -> None:
    game = TriCardRound(TriCardRules())
    game.place_wagers({"ante": 1000})
    game.deal(Deck.stacked(parse_cards("As Kd Qh")))
    assert game.phase is Phase.VOID
    assert game.net() == 0


def test_g7_void_before_the_first_decision_only() -> None:
    game = RabbitHunterRound(RabbitHunterRules())
    game.place_wagers({"ante": 1000})
    game.deal(Deck(SeededSource(5)))
    before = copy.deepcopy(game.record())
    game.void("the server stopped before the player decided")
    assert game.phase is Phase.VOID
    other = RabbitHunterRound(RabbitHunterRules())
    other.place_wagers({"ante": 1000})
    other.deal(Deck(SeededSource(5)))
    other.act("play")
    with pytest.raises(IllegalAction, match="only before the first decision"):
        other.void("too late")
    assert before["events"][-1]["kind"] == "deal"


def test_record_is_json_and_replays_to_the_same_settlement() -> None:
    game = RabbitHunterRound(RabbitHunterRules())
    game.place_wagers({"ante": 1000, "bonus": 1000, "bad_beat": 500})
    game.deal(Deck(SeededSource(9)))
    game.act("buy")
    record = json.loads(json.dumps(game.record()))
    assert [e["kind"] for e in record["events"]] == ["wagers", "deal", "decision", "draw", "settle"]
    assert record["rules"]["bonus_table"]["lines"][0]["pays"] == "500"
    again = replay(record)
    assert again.positions[0].result == game.positions[0].result
    assert again.describe() == game.describe()


def test_a_tampered_record_does_not_replay() -> None:
    game = TriCardRound(TriCardRules())
    game.place_wagers({"ante": 1000})
    game.deal(Deck(SeededSource(9)))
    game.act("raise")
    record = json.loads(json.dumps(game.record()))
    record["events"][-1]["results"][0]["ante"] += 100
    with pytest.raises(ReplayMismatch, match="does not replay"):
        replay(record)


# ------------------------------------------------------------------ properties

WAGERS = {
    "rabbit-hunter": st.fixed_dictionaries(
        {"ante": st.integers(500, 50_000)},
        optional={"bonus": st.just(-1), "bad_beat": st.integers(500, 10_000)},
    ),
    "tri-card": st.one_of(
        st.fixed_dictionaries(
            {"ante": st.integers(500, 50_000)}, optional={"pair_plus": st.integers(500, 10_000)}
        ),
        st.fixed_dictionaries({"pair_plus": st.integers(500, 10_000)}),
    ),
    "crazy4": st.fixed_dictionaries(
        {"ante": st.integers(500, 50_000), "super_bonus": st.just(-1)},
        optional={"queens_up": st.integers(500, 10_000)},
    ),
    "baccarat": st.fixed_dictionaries(
        {},
        optional={
            "player": st.integers(500, 50_000),
            "banker": st.integers(500, 50_000),
            "tie": st.integers(500, 10_000),
        },
    ).filter(bool),
}


def _legal(wagers: dict[str, int]) -> dict[str, int]:
    return {k: (wagers["ante"] if v == -1 else v) for k, v in wagers.items()}


def _stakes(game: Round, index: int) -> dict[str, int]:  # type: ignore[type-arg]
    position = game.positions[index]
    stakes = dict(position.wagers)
    if position.decision in ("play", BLIND_PLAY):
        stakes["play"] = position.amount
    elif position.decision == "raise":
        stakes["raise"] = position.amount
    elif position.decision == "buy":
        stakes["play"] = stakes["fee"] = position.amount // 2
    return stakes


def _assert_money_conserved(game: Round) -> None:  # type: ignore[type-arg]
    for index, position in enumerate(game.positions):
        stakes = _stakes(game, index)
        for line, result in position.result.items():
            if line == "cap":
                assert result <= 0
            else:
                assert result >= -stakes.get(line, 0), (line, result, stakes)
        assert sum(stakes.values()) == position.staked
        returned = position.staked + position.net  # what the house pays back
        assert returned >= 0
        # what the player wins, the house loses: the house keeps staked - returned
        assert position.staked - returned == -position.net


def _illegal_moves(game: Round) -> list[tuple[str, Any]]:  # type: ignore[type-arg]
    moves: list[tuple[str, Any]] = [("act", ("surrender", None)), ("wagers", {"ante": 10**9})]
    if game.phase is not Phase.BETTING:
        moves += [("deal", None), ("wagers", {"ante": 500})]
    for choice in game.legal_actions():
        if choice.maximum:
            moves.append(("act", (choice.action, choice.maximum + choice.step)))
    return moves


def _try_illegal(game: Round, move: tuple[str, Any]) -> None:  # type: ignore[type-arg]
    before = json.dumps(game.record()), game.phase, copy.deepcopy(game.positions)
    kind, argument = move
    attempt = {
        "act": lambda: game.act(*argument),
        "deal": lambda: game.deal(Deck(SeededSource(0))),
        "wagers": lambda: game.place_wagers(argument),
    }[kind]
    with pytest.raises(IllegalAction):
        attempt()
    assert (json.dumps(game.record()), game.phase, game.positions) == before


@given(
    st.sampled_from(sorted(GAMES)),
    st.data(),
    st.integers(0, 2**32),
)
def test_random_legal_rounds_never_crash_conserve_money_and_replay(
    name: str, data: st.DataObject, seed: int
) -> None:
    game_type = find_game(name)
    rules = data.draw(st.sampled_from(list(game_type.variants.values())))
    game = game_type.new_round(rules)
    game.place_wagers(_legal(data.draw(WAGERS[name])))
    for move in _illegal_moves(game):
        _try_illegal(game, move)
    game.deal(Deck(SeededSource(seed)) if name != "baccarat" else None)
    while not game.settled:
        for move in _illegal_moves(game):
            _try_illegal(game, move)
        choice = data.draw(st.sampled_from(game.legal_actions()))
        amount = (
            data.draw(st.sampled_from(range(choice.minimum, choice.maximum + 1, choice.step)))
            if choice.maximum
            else None
        )
        game.act(choice.action, amount)
    _assert_money_conserved(game)
    assert replay(json.loads(json.dumps(game.record()))).record() == game.record()
    assert game.describe()


def test_only_a_players_decision_counts_as_the_first_decision_g7() -> None:
    from riverboat.games.crazy4 import Crazy4Round, Crazy4Rules

    crazy4 = Crazy4Round(Crazy4Rules())
    crazy4.place_wagers({"ante": 500, "super_bonus": 500})
    crazy4.place_wagers({"ante": 500, "super_bonus": 500}, blind=True)
    crazy4.deal(Deck.stacked(range(15)))
    assert crazy4.positions[1].decision == BLIND_PLAY  # the engine's Play (C8)
    assert not crazy4.player_decided
    crazy4.act("fold")
    assert crazy4.player_decided

    tri_card = TriCardRound(TriCardRules())
    tri_card.place_wagers({"pair_plus": 500})
    tri_card.deal(Deck.stacked(range(6)))
    assert tri_card.positions[0].decision == NO_CHOICE  # Pair Plus alone (T3)
    assert tri_card.settled
    assert not tri_card.player_decided


def test_spec_and_rules_json_are_kept_per_rules_object() -> None:
    from riverboat.games.codec import to_json

    rules = TriCardRules()
    twin = replace(rules)  # equal, an object of its own
    assert twin == rules
    assert twin is not rules
    assert TriCardRound(rules).spec is TriCardRound(rules).spec
    assert TriCardRound(twin).spec == TriCardRound(rules).spec
    first = to_json(rules)
    first["variant"] = "changed"  # the caller's own copy
    assert to_json(rules)["variant"] == to_json(twin)["variant"] == "standard"
    other = rules.with_tables(pair_plus="1-3-6-30-40")
    assert to_json(other)["pair_plus_table"]["name"] == "1-3-6-30-40"
    assert TriCardRound(other).spec.pay_tables["pair_plus_table"].name == "1-3-6-30-40"
    flush = parse_cards("Ah 9h 4h")
    for kept in (rules, other, rules):  # each table pays by its own lines
        game_round = TriCardRound(kept)
        game_round.place_wagers({"ante": 500, "pair_plus": 1000})
        game_round.deal(Deck.stacked([*flush, *parse_cards("Ks Qd 2c")]))
        game_round.act("raise")
        paid = 4000 if kept is rules else 3000  # T8: flush 4 to 1, or 3 to 1
        assert game_round.positions[0].result["pair_plus"] == paid
