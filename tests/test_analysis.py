"""Exact analysis: published figures (each cited), and the fast method against a direct
brute force through each game's settle function, exactly."""

import json
import re
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from riverboat.analysis import analyze, best_action, heads_up
from riverboat.analysis.headsup import option_index, unit_stake
from riverboat.cards import parse_cards
from riverboat.games import RulesError, crazy4, find_game, rabbit_hunter, tri_card
from riverboat.hands import evaluate3, evaluate4of5, evaluate5, evaluate6

from reference import all_hands


def rounded(value: Fraction, places: int) -> float:
    return round(float(value) * 100, places)


# ------------------------------------------------------------ published figures


def test_tri_card_ante_q64_published_figures() -> None:
    # Wizard of Odds, "Three Card Poker": Ante Bonus 1-4-5, optimal strategy Q-6-4:
    # house edge 3.3730% of the Ante, element of risk 2.0147%, cycle 407,170,400.
    result = analyze("tri-card", wagers={"ante": 1})
    assert rounded(result.figures.house_edge, 4) == 3.3730
    assert result.figures.house_edge_per_ante == result.figures.house_edge  # the Ante alone
    assert rounded(result.figures.element_of_risk, 4) == 2.0147
    assert result.figures.cycle == 407_170_400
    assert result.strategy is not None
    assert result.strategy.summary() == ["Raise with Q-6-4 or better (every hand); Fold below."]


@pytest.mark.parametrize(
    ("table", "edge"),
    [("1-4-6-30-40", Fraction(512, 22_100)), ("1-3-6-30-40", None)],
)
def test_pair_plus_published_figures(table: str, edge: Fraction | None) -> None:
    # Wizard of Odds, "Three Card Poker": Pair Plus 1-4-6-30-40 returns 512/22,100 =
    # 2.3167% to the house; 1-3-6-30-40 7.2760%.
    rules = tri_card.TriCardRules().with_tables(pair_plus=table)
    result = analyze("tri-card", rules, wagers={"pair_plus": 1})
    if edge is not None:
        assert result.figures.house_edge == edge
    else:
        assert rounded(result.figures.house_edge, 4) == 7.2760


@pytest.mark.parametrize(
    ("variant", "wager", "edge"),
    [
        ("8 decks", "banker", 1.0579),
        ("8 decks", "player", 1.2351),
        ("8 decks", "tie", 14.3596),
        ("6 decks", "banker", 1.0558),
        ("6 decks", "player", 1.2374),
    ],
)
def test_baccarat_published_figures(variant: str, wager: str, edge: float) -> None:
    # Wizard of Odds, "Baccarat": house edges with 5% commission and Tie 8 to 1.
    result = analyze("baccarat", variant=variant, wagers={wager: 1})
    assert rounded(result.figures.house_edge, 4) == edge


def test_crazy4_standard_rules_published_figures() -> None:
    # Wizard of Odds, "Crazy 4 Poker": house edge 3.42% per Ante (the Ante and the
    # required Super Bonus together), element of risk 1.09% without Queens Up under
    # the common rules (C9); cycle C(52,5) * C(47,5) = 3,986,646,103,440.
    result = analyze("crazy4", variant="standard")
    assert result.figures.house_edge_per_ante is not None
    assert round(float(result.figures.house_edge_per_ante) * 100, 2) == 3.42
    assert result.figures.house_edge == result.figures.house_edge_per_ante / 2  # Ante + SB
    assert round(float(result.figures.element_of_risk) * 100, 2) == 1.09
    assert result.figures.cycle == 3_986_646_103_440
    assert result.blind is not None
    assert result.blind.house_edge > result.figures.house_edge  # a blind 1x Play can't fold


# ---------------------------------------------------- brute force, exactly


def _remaining(cards: list[int]) -> np.ndarray:
    return np.setdiff1d(np.arange(52), cards)


def _dealer_hands(rest: np.ndarray, size: int) -> np.ndarray:
    return rest[all_hands(size)[: comb(len(rest), size)]]


def _brute_force(game: str, player: list[int], option: str, wagers: dict[str, int]) -> Fraction:
    """Settle every dealer hand (and every rabbit) through the game's settle: the
    expected result of one option for one hand, in antes."""
    rules = find_game(game).rules("standard") if game == "crazy4" else find_game(game).rules()
    unit = unit_stake(rules)  # stakes on which 3 to 2 pays whole cents (G8 rounds down)
    return (
        _settled_mean(game, rules, player, option, {k: v * unit for k, v in wagers.items()}) / unit
    )


def _settled_mean(
    game: str, rules: object, player: list[int], option: str, wagers: dict[str, int]
) -> Fraction:
    rest = _remaining(player)
    if game == "tri-card":
        dealers = _dealer_hands(rest, 3)
        code = {"fold": tri_card.FOLD, "raise": tri_card.RAISE}[option]
        lines = tri_card.settle(
            rules, evaluate3(player), evaluate3(dealers), code, wagers["ante"], wagers["pair_plus"]
        )
        return Fraction(
            int(sum(np.broadcast_to(v, len(dealers)).sum() for v in lines.values())), len(dealers)
        )
    if game == "crazy4":
        dealers = _dealer_hands(rest, 5)
        play = {"fold": 0, "play": 1, "play3x": 3}[option] * wagers["ante"]
        lines = crazy4.settle(
            rules,
            evaluate4of5(player),
            evaluate4of5(dealers),
            play,
            wagers["ante"],
            wagers["super_bonus"],
            wagers["queens_up"],
        )
        return Fraction(
            int(sum(np.broadcast_to(v, len(dealers)).sum() for v in lines.values())), len(dealers)
        )
    uncapped = rabbit_hunter.RabbitHunterRules(max_payout=None)
    args = (wagers["ante"], wagers["bonus"], wagers["bad_beat"])
    if option != "buy":
        dealers = _dealer_hands(rest, 5)
        code = {"fold": rabbit_hunter.FOLD, "play": rabbit_hunter.PLAY}[option]
        lines = rabbit_hunter.settle(uncapped, evaluate5(player), evaluate5(dealers), code, *args)
        return Fraction(
            int(sum(np.broadcast_to(v, len(dealers)).sum() for v in lines.values())), len(dealers)
        )
    total, deals = 0, 0
    for rabbit in rest:  # the rabbit, then every dealer hand from the 46 cards left
        dealers = _dealer_hands(np.setdiff1d(rest, [rabbit]), 5)
        lines = rabbit_hunter.settle(
            uncapped,
            evaluate6([*player, int(rabbit)]),
            evaluate5(dealers),
            rabbit_hunter.BUY,
            *args,
        )
        total += int(sum(np.broadcast_to(v, len(dealers)).sum() for v in lines.values()))
        deals += len(dealers)
    return Fraction(total, deals)


def _fast(game: str, player: list[int], wagers: dict[str, int]) -> dict[str, Fraction]:
    rules = find_game(game).rules("standard") if game == "crazy4" else find_game(game).rules()
    model = heads_up(game, rules)
    solution = model.solve(
        {k: Fraction(v) for k, v in wagers.items()}, np.array([player], dtype=np.uint8)
    )
    return {
        o.name: solution.expected(0, i)
        for i, o in enumerate(model.options)
        if solution.allowed[0, i]
    }


@pytest.mark.parametrize("hand", ["Qh 6d 4c", "Qh 6d 3c", "Ah Ad 2c", "Jh Th 9h"])
def test_tri_card_fast_equals_brute_force(hand: str) -> None:
    player = [int(c) for c in parse_cards(hand)]
    wagers = {"ante": 1, "pair_plus": 1}
    fast = _fast("tri-card", player, wagers)
    for option in ("fold", "raise"):
        assert fast[option] == _brute_force("tri-card", player, option, wagers)


@pytest.mark.parametrize("hand", ["Ac Ad 7s 5c 2d", "Kc Qd 8h 4s 3c", "9h Th Jh Qh 2s"])
def test_crazy4_fast_equals_brute_force(hand: str) -> None:
    player = [int(c) for c in parse_cards(hand)]
    wagers = {"ante": 1, "super_bonus": 1, "queens_up": 1}
    fast = _fast("crazy4", player, wagers)
    for option in fast:
        assert fast[option] == _brute_force("crazy4", player, option, wagers)


@pytest.mark.parametrize("hand", ["Ah Kh 8h 5h 2c", "Tc Td 7s 4h 2d"])
def test_rabbit_hunter_fast_equals_brute_force_with_every_rabbit(hand: str) -> None:
    player = [int(c) for c in parse_cards(hand)]
    wagers = {"ante": 1, "bonus": 1, "bad_beat": 1}
    fast = _fast("rabbit-hunter", player, wagers)
    for option in ("fold", "play", "buy"):
        assert fast[option] == _brute_force("rabbit-hunter", player, option, wagers)


def test_rabbit_hunter_whole_game_is_consistent() -> None:
    result = analyze("rabbit-hunter", wagers={"ante": 1, "bonus": 1})
    solution = result.strategy.solution  # type: ignore[union-attr]
    best = solution.values[np.arange(len(solution.hands)), solution.choice]
    mean = Fraction(
        int((best * solution.weights).sum()),
        result.figures.cycle * solution.game.unit * solution.scale,
    )
    # the expected value summed per hand equals the mean of the outcome distribution
    assert -mean / 2 == result.figures.house_edge
    assert result.figures.cycle == comb(52, 5) * comb(47, 5) * 42
    assert sum(result.figures.decisions.values()) == 1
    assert "R9" in result.notes[0]


# ------------------------------------------------------------------- API


def test_best_action_lists_every_legal_option_best_first() -> None:
    options = best_action("crazy4", "Ac Ad 7s 5c 2d", rules=crazy4.Crazy4Rules.standard())
    assert [o.option for o in options] == ["play3x", "play", "fold"]
    assert options[0].expected > options[1].expected > options[2].expected
    assert [o.option for o in best_action("crazy4", "Kc Qd 8h 4s 3c")] in (
        ["play", "fold"],
        ["fold", "play"],
    )
    tri = best_action("tri-card", "Qh 6d 4c", {"ante": 1})
    assert tri[0].option == "raise"
    assert tri[1].expected == -1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: best_action("tri-card", "Qh 6d", {"ante": 1}), "has 3 cards, not 2"),
        (lambda: best_action("baccarat", "Qh 6d"), "no decision"),
        (lambda: analyze("tri-card", wagers={"bonus": 1}), "no wager bonus"),
        (lambda: analyze("tri-card", wagers={"ante": -1}), "cannot be negative"),
        (lambda: analyze("rabbit-hunter", wagers={"ante": 1, "bonus": 2}), "must equal"),
        (lambda: analyze("tri-card", wagers={"ante": 0}), "at least one wager"),
    ],
)
def test_bad_requests_are_refused_clearly(call: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        call()  # type: ignore[operator]


def test_json_carries_the_documented_keys() -> None:
    data = json.loads(json.dumps(analyze("tri-card", wagers={"ante": 1, "pair_plus": 1}).to_json()))
    for key in (
        "game",
        "rules",
        "house_edge_per_total_initial_wager",
        "house_edge_per_ante",
        "element_of_risk",
        "average_total_bet",
        "std_dev_per_total_initial_wager",
        "cycle",
        "decisions",
        "wagers",
    ):
        assert key in data
    # a fraction of a unit, not a percentage
    assert 0.0 < data["house_edge_per_total_initial_wager"] < 0.1
    for wager in ("ante", "pair_plus"):
        assert {"lines_house_edge", "return_table"} <= set(data["wagers"][wager])
        row = data["wagers"][wager]["return_table"][0]
        assert {"event", "pays", "combinations", "probability", "contribution"} <= set(row)
    # Pair Plus's own edge as the wager alone (T1), with what it is a share of
    pair_plus = data["wagers"]["pair_plus"]
    assert round(pair_plus["own_house_edge"], 6) == 0.023167
    assert pair_plus["own_basis"] == "the Pair Plus placed alone, as a share of it"


def test_return_tables_add_up() -> None:
    figures = analyze("tri-card", wagers={"ante": 1, "pair_plus": 1}).figures
    for wager in figures.per_wager:
        assert sum(r.combinations for r in wager.return_table) == figures.cycle
        assert sum(r.probability for r in wager.return_table) == 1
        assert -sum(r.contribution for r in wager.return_table) == wager.house_edge
    assert figures.win + figures.push + figures.loss == 1


def test_pair_plus_leaves_the_tri_card_strategy_alone() -> None:
    # T3: a fold loses the Pair Plus too, but the Pair Plus pays only on a pair or
    # better, and those hands raise anyway: the best play is the same with it or not
    alone = analyze("tri-card", wagers={"ante": 1}).strategy
    both = analyze("tri-card", wagers={"ante": 1, "pair_plus": 1}).strategy
    assert alone is not None
    assert both is not None
    assert np.array_equal(alone.solution.choice, both.solution.choice)
    assert alone.solution.values.tolist() != both.solution.values.tolist()


# ---------------------------------------------------------- conventions


def test_every_output_states_both_conventions_and_what_each_wager_line_covers() -> None:
    # Wizard of Odds, "Crazy 4 Poker": 3.42% per Ante; half of it per total initial
    # wager (Ante and Super Bonus), element of risk 1.09%
    result = analyze("crazy4", variant="standard")
    text = result.to_text()
    assert re.search(r"\nHouse edge per Ante \(as published\) +3\.4189%", text)
    assert re.search(r"\nHouse edge per total initial wager +1\.7094%", text)
    assert re.search(r"\nElement of risk \(per average total wagered\) +1\.0901%", text)
    assert re.search(r"\nStandard deviation \(per total initial wager\) +\d", text)
    # the Ante and Play gain on their own; said so, never "ante: house edge -31.36%"
    assert "Ante and Play together under optimal strategy: they return 31.3607% of the Ante" in (
        text
    )
    # a required wager's own lines, not "alone": it cannot be placed alone (C1)
    assert "Super Bonus's own lines: house edge 34.7795% of the Super Bonus" in text
    assert "house edge -" not in text
    markdown = result.to_text(markdown=True)
    assert "| House edge per Ante (as published) | 3.4189% |" in markdown
    assert "**Super Bonus's own lines**: house edge 34.7795%" in markdown
    data = json.loads(json.dumps(result.to_json()))
    assert round(data["house_edge_per_ante"] * 100, 2) == 3.42
    assert Fraction(data["house_edge_per_ante_exact"]) == result.figures.house_edge_per_ante
    assert data["house_edge_labels"]["House edge per total initial wager"] == "1.7094%"
    assert data["wagers"]["ante"]["scope"] == "Ante and Play together under optimal strategy"
    assert data["wagers"]["super_bonus"]["scope"] == "Super Bonus's own lines"


@pytest.mark.parametrize(
    ("game", "wagers"),
    [("baccarat", {"banker": 1}), ("tri-card", {"pair_plus": 1})],
)
def test_no_ante_no_edge_per_ante(game: str, wagers: dict[str, int]) -> None:
    result = analyze(game, wagers=wagers)
    assert result.figures.house_edge_per_ante is None
    assert [label for label, _ in result.edge_lines()] == [
        "House edge per total initial wager",
        "Element of risk (per average total wagered)",
    ]
    assert result.to_json()["house_edge_per_ante"] is None


def test_unit_stake_makes_every_payout_whole() -> None:
    assert unit_stake(crazy4.Crazy4Rules()) == 2  # flush 3 to 2
    assert unit_stake(find_game("baccarat").rules()) == 20  # 5% commission
    assert unit_stake(tri_card.TriCardRules().with_tables(ante_bonus="1-10-12.5")) == 2


def test_plot_writes_a_chart(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "net.png"
    analyze("baccarat", wagers={"banker": 1}).plot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_option_index() -> None:
    model = heads_up("tri-card", tri_card.TriCardRules())
    assert option_index(model, "raise") == 1
