"""The coach: a decision weighed against the best option with the instant hint, in the
analysis, at the table service, over HTTP and in plain mode's JSON lines; its verdict
and the hint in words, in the round's money, with the exact figures behind them."""

import json
import re
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from riverboat.analysis import best_action
from riverboat.analysis.coach import coach
from riverboat.cards import parse_cards
from riverboat.deck import Deck
from riverboat.games import RulesError, find_game
from riverboat.money import readable_cents
from riverboat.store.models import RoundRow
from riverboat.table.advice import Stakes, about, figure, outcome, verdict_words
from riverboat.table.coach import CoachTally, coach_round, hint_round
from riverboat.table.rounds.exports import round_view
from riverboat.table.service import TableService
from riverboat.table.views import RoundView
from riverboat.terminal.plain import AutoPlayer, play_rounds, round_json

ACES = "Ac Ad 7s 5c 2d"  # C3: a pair of aces may Play up to 3x


def test_the_best_option_costs_nothing_and_another_costs_the_difference() -> None:
    options = best_action("crazy4", ACES)
    best, worst = options[0], options[-1]
    assert coach("crazy4", ACES, None, "play", best.bet).is_best
    fold = coach("crazy4", ACES, None, "fold")
    assert not fold.is_best
    assert fold.cost == best.expected - worst.expected
    assert fold.best == best


def test_a_play_between_1x_and_3x_is_worth_the_straight_line_between_them() -> None:
    # C3: only the Play line depends on the Play's amount, in proportion to it
    values = {o.option: o.expected for o in best_action("crazy4", ACES)}
    two = coach("crazy4", ACES, None, "play", Fraction(2))
    assert two.expected == (values["play"] + values["play3x"]) / 2
    assert two.label == "Play 2x"
    assert coach("crazy4", ACES, None, "play", Fraction(5, 2)).label == "Play 2.5x"


def test_wagers_without_a_decision_leave_nothing_to_weigh() -> None:
    with pytest.raises(RulesError, match="these wagers leave no decision to weigh"):
        coach("tri-card", "Qh 6d 4c", {"ante": 0, "pair_plus": 1}, "fold")  # T3


@pytest.mark.parametrize(
    ("action", "bet", "message"),
    [
        ("raise", None, "'raise' is not a decision for this hand: the decisions are fold, play"),
        ("play", Fraction(4), "a Play of 4x the Ante is not allowed: 1x to 3x"),
    ],
)
def test_a_decision_the_hand_does_not_have_is_refused_by_name(
    action: str, bet: Fraction | None, message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        coach("crazy4", ACES, None, action, bet)


def test_a_round_at_the_table_is_weighed_on_its_own_hand_and_wagers() -> None:
    service = TableService("sqlite://")
    me = service.local_player()
    tally = CoachTally()
    for seed in ("a", "b", "c", "d"):
        view = service.start_round(me, "rabbit-hunter", {"ante": 1000, "bonus": 1000}, seed)
        cards = " ".join(view.cards["player"])
        options = best_action("rabbit-hunter", cards, {"ante": 1, "bonus": 1})
        for option in options:
            verdict = coach_round(view, str(option.action))
            assert verdict.best_action == options[0].option
            assert verdict.best == (option.expected == options[0].expected)
            assert verdict.ev_cost == float(options[0].expected - option.expected)
            assert verdict.ev_cost_cents == pytest.approx(verdict.ev_cost * 1000)
            assert verdict.amount == int(option.bet * 1000)  # Buy & Play: fee and Play
            tally.add(verdict)
            if verdict.best:
                assert verdict.text == f"Coach: {option.label} was the best play."
            else:
                assert verdict.text.startswith(f"Coach: {options[0].label} was better: ")
                said = r" (loses|wins|comes out) (about )?\$[\d.,]+ (less than|more than|ahead of) "
                assert re.search(said + re.escape(option.label) + r"\.$", verdict.text)
            assert "Ante" in verdict.details
        service.act(me, view.id, "fold")
    assert tally.decisions == 12  # three options a hand
    assert tally.best == 4
    assert tally.summary().startswith("12 decisions, 33% best; on average the others cost about $")
    assert tally.summary().endswith(" in all.")


def test_an_empty_tally_says_so() -> None:
    assert CoachTally().summary() == "no decisions yet."


# ------------------------------------------------- in words, in the round's money


def _dealt(game: str, wagers: dict[str, int], cards: str) -> RoundView:
    """An open round dealt from a stacked deck: ``cards`` in dealing order."""
    row = RoundRow(
        id=11, game=game, status="open", server_seed="s", commitment="c",
        client_seed="x", nonce=0, balance_before=0,
    )  # fmt: skip
    game_round = find_game(game).new_round()
    game_round.place_wagers(wagers)
    game_round.deal(Deck.stacked(parse_cards(cards)))
    return round_view(row, game_round, 0, revealed=False, shared=False)


PAIR_OF_EIGHTS = "8s Qh 8h Th 3d  2c 4c 6c 9d Jd  Ks"  # player, dealer, the rabbit (R3, R4)


def _shown_words(text: str) -> None:
    """What a player reads: no analyzer's units, no round numbers."""
    assert "Antes" not in text
    assert "#" not in text
    assert "expected value" not in text.lower()


def test_a_verdict_in_words_for_the_best_and_a_worse_decision() -> None:
    # R4: a pair of eights with only the Ante: Play wins on average, Buy & Play loses
    view = _dealt("rabbit-hunter", {"ante": 1000}, PAIR_OF_EIGHTS)
    options = best_action("rabbit-hunter", "8s Qh 8h Th 3d", {"ante": 1})
    values = {o.option: o.expected for o in options}
    best = coach_round(view, "play")
    assert best.best
    assert best.text == "Coach: Play was the best play."
    assert best.details == (
        f"Expected value per $1 of Ante: Play {figure(values['play'])}, the best."
    )
    worse = coach_round(view, "buy")
    assert not worse.best
    # +$5.88 against -$1.94: $7.82 apart on average, rounded to 10 cents for reading
    assert worse.text == (
        "Coach: Play was better: on average, with your $10 Ante, it comes out about $7.80 "
        "ahead of Buy & Play."
    )
    assert worse.details == (
        f"Expected value per $1 of Ante: Buy & Play {figure(values['buy'])}, "
        f"Play {figure(values['play'])} (the best); "
        f"Buy & Play gave up {float(values['play'] - values['buy']):.4f} per $1, "
        "$7.82 with your $10 Ante."
    )
    # the exact figures are still the fields they were
    assert worse.expected == float(values["buy"])
    assert worse.best_expected == float(values["play"])
    assert worse.ev_cost_cents == pytest.approx(782.05, abs=0.01)
    for verdict in (best, worse):
        _shown_words(verdict.text)
    assert figure(values["buy"]) == "\N{MINUS SIGN}0.1938"


def test_a_verdict_where_both_lose_says_how_much_less_and_names_every_wager() -> None:
    # with the Bonus (R7) Buy & Play is best, and both it and Play lose on average
    view = _dealt("rabbit-hunter", {"ante": 1000, "bonus": 1000}, PAIR_OF_EIGHTS)
    played = coach_round(view, "play")
    assert played.best_label == "Buy & Play"
    assert played.text == (
        "Coach: Buy & Play was better: on average, with your $20 in wagers, it loses "
        "about $0.48 less than Play."
    )
    assert played.details.startswith(
        "Expected value per $1 of Ante (your other wagers in proportion): Play −0.4118, "
        "Buy & Play −0.3640 (the best)"
    )
    _shown_words(played.text)


def test_a_verdict_where_both_win_says_how_much_more() -> None:
    view = _dealt("crazy4", {"ante": 1000, "super_bonus": 1000}, ACES + " 3h 4h 6h 9c Jc")
    once = coach_round(view, "play", 1000)  # C3: the aces may Play 3x
    assert once.text == (
        "Coach: Play 3x was better: on average, with your $20 in wagers, it wins about $13 "
        "more than Play 1x."
    )


def test_a_small_cost_reads_in_cents() -> None:
    # T4/T5: Queen-six-four, the weakest hand worth a Raise: Fold gives up 0.66 cents a dollar
    view = _dealt("tri-card", {"ante": 500}, "Qh 6d 4c  2s 3s 5h")
    folded = coach_round(view, "fold")
    assert folded.text == (
        "Coach: Raise was better: on average, with your $5 Ante, it loses about $0.03 less "
        "than Fold."
    )
    assert folded.ev_cost_cents == pytest.approx(3.31, abs=0.01)


def test_a_cost_under_a_cent_is_said_so_not_rounded_to_nothing() -> None:
    stakes = Stakes(500, "your $5 Ante", False)
    words = verdict_words("Fold", Fraction(-1), "Raise", Fraction(-9999, 10000), stakes)
    assert words.text == (
        "Coach: Raise was better than Fold, by less than $0.01 on average with your $5 Ante."
    )
    assert "gave up 0.0001 per $1, $0 with your $5 Ante" in words.details


@pytest.mark.parametrize(
    ("cents", "shown"),
    [
        (Fraction(1, 3), 0),  # under a cent: nothing, said "less than $0.01"
        (Fraction(66, 10), 7),  # below $1: to the cent
        (Fraction(995, 10), 100),  # $0.995: $1
        (Fraction(-845), -850),  # below $10: to 10 cents, halves away from zero
        (Fraction(9996, 10), 1000),  # $9.996 is in the 10-cent band: $10
        (Fraction(12499, 10), 1200),  # from $10: to the dollar
        (Fraction(-163_60), -164_00),
    ],
)
def test_expected_amounts_are_rounded_for_reading(cents: Fraction, shown: int) -> None:
    assert readable_cents(cents) == shown


def test_about_says_whole_cents_exactly_and_the_rest_about() -> None:
    assert about(Fraction(-1000)) == "$10"  # a Fold's loss is exact
    assert about(Fraction(-8275, 10)) == "about $8.30"
    assert about(Fraction(1, 1000)) == "less than $0.01"
    assert outcome(Fraction(0)) == "breaks even"


def test_the_hint_in_words_best_first_with_the_figures_behind() -> None:
    view = _dealt("rabbit-hunter", {"ante": 1000}, PAIR_OF_EIGHTS)
    hinted = hint_round(view)
    assert [o.action for o in hinted.options] == ["play", "buy", "fold"]
    assert hinted.text == (
        "Best: Play. On average, with your $10 Ante, it wins about $5.90; "
        "Buy & Play loses about $1.90 (about $7.80 worse); Fold loses $10 (about $16 worse)."
    )
    values = [figure(Fraction(o.expected)) for o in hinted.options]
    assert hinted.details == (
        f"Expected value per $1 of Ante: Play {values[0]}, Buy & Play {values[1]}, "
        f"Fold {values[2]}."
    )
    _shown_words(hinted.text)


def test_the_tally_in_dollars() -> None:
    assert CoachTally(4, 3, 250.0, 0.5).summary() == (
        "4 decisions, 75% best; on average the others cost about $2.50 in all."
    )
    assert CoachTally(3, 3, 0.0, 0.0).summary() == "3 decisions, all the best play."
    assert CoachTally(1, 1, 0.0, 0.0).summary() == "1 decision, the best play."
    assert CoachTally(2, 1, 0.4, 0.0004).summary().endswith("cost less than $0.01 in all.")
    # the share rounds halves up, as the page's Math.round: 1 in 8 is 13%
    assert CoachTally(8, 1, 1234.0, 0.0).summary().startswith("8 decisions, 13% best; ")
    assert CoachTally(8, 1, 1234.0, 0.0).summary().endswith("cost about $12 in all.")


def _deal(client: TestClient, game: str, wagers: dict[str, int]) -> dict[str, object]:
    headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
    body = {"game": game, "wagers": wagers, "client_seed": "coach"}
    view: dict[str, object] = client.post("/api/rounds", json=body, headers=headers).json()
    return view


def test_the_coach_over_http_after_the_decision(client: TestClient) -> None:
    view = _deal(client, "crazy4", {"ante": 1000, "super_bonus": 1000})
    headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
    client.post(f"/api/rounds/{view['id']}/actions", json={"action": "fold"}, headers=headers)
    verdict = client.get(f"/api/rounds/{view['id']}/coach", params={"action": "fold"})
    assert verdict.status_code == 200
    data = verdict.json()
    assert data["action"] == "fold"
    assert data["amount"] == 0
    assert data["ev_cost"] >= 0
    assert data["best"] == (data["ev_cost"] == 0)
    played = client.get(
        f"/api/rounds/{view['id']}/coach", params={"action": "play", "amount": 1000}
    ).json()
    assert played["label"] == "Play 1x"
    assert played["best_action"] == data["best_action"]
    for said in (data, played):
        assert said["text"].startswith("Coach: ")
        assert said["details"].startswith("Expected value per $1 of Ante")
        assert "Antes" not in said["text"]


def test_the_hint_over_http_in_words_and_figures(client: TestClient) -> None:
    view = _deal(client, "tri-card", {"ante": 1000, "pair_plus": 500})
    answer = client.get(f"/api/rounds/{view['id']}/hint")
    assert answer.status_code == 200
    hint = answer.json()
    assert set(hint) == {"options", "text", "details"}
    options = hint["options"]
    assert [o["action"] for o in options] in (["raise", "fold"], ["fold", "raise"])
    text = hint["text"]
    assert text.startswith(f"Best: {options[0]['label']}. On average, with your $15 in wagers, it ")
    # T3: a Fold loses the Ante and the Pair Plus, exactly, so with no "about"
    fold_best = text.startswith("Best: Fold. ") and "it loses $15;" in text
    assert fold_best or "Fold loses $15 (about $" in text
    for option in options:
        shown = f"{option['expected']:+.4f}".replace("-", "\N{MINUS SIGN}")
        assert f"{option['label']} {shown}" in hint["details"]


@pytest.mark.parametrize(
    ("game", "wagers", "params", "message"),
    [
        ("crazy4", {"ante": 1000, "super_bonus": 1000}, {"action": "raise"}, "not a decision"),
        ("baccarat", {"banker": 1000}, {"action": "fold"}, "has none"),
    ],
)
def test_the_coach_over_http_refuses_clearly(
    client: TestClient, game: str, wagers: dict[str, int], params: dict[str, str], message: str
) -> None:
    view = _deal(client, game, wagers)
    answer = client.get(f"/api/rounds/{view['id']}/coach", params=params)
    assert answer.status_code == 422
    assert message in answer.text
    assert client.get("/api/rounds/999/coach", params={"action": "fold"}).status_code == 404


def test_plain_mode_json_lines_carry_the_best_action_and_its_cost() -> None:
    service = TableService("sqlite://")
    me = service.local_player()
    records = list(
        play_rounds(
            service, me, "tri-card", {"ante": 500}, AutoPlayer("tri-card", "always-play"), 30
        )
    )
    lines = [json.loads(round_json(r)) for r in records]
    assert all(line["best_action"] in ("fold", "raise") for line in lines)
    for line in lines:
        best = line["best_action"] == line["decision"]["action"]
        assert (line["ev_cost"] == 0) == best
        assert line["ev_cost_cents"] == pytest.approx(line["ev_cost"] * 500)
    assert any(line["ev_cost"] > 0 for line in lines)  # always raising folds no hand
