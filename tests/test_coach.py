"""The coach: a decision weighed against the best option with the instant hint, in the
analysis, at the table service, over HTTP and in plain mode's JSON lines."""

import json
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from riverboat.analysis import best_action
from riverboat.analysis.coach import coach
from riverboat.games import RulesError
from riverboat.table.coach import CoachTally, coach_round
from riverboat.table.service import TableService
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
                assert verdict.text.endswith(f"in expected value; {options[0].label} was best.")
        service.act(me, view.id, "fold")
    assert tally.decisions == 12  # three options a hand
    assert tally.best == 4
    assert tally.summary().startswith("12 decisions, 33% best; the others cost $")


def test_an_empty_tally_says_so() -> None:
    assert CoachTally().summary() == "no decisions yet."


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
