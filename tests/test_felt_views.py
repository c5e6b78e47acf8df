"""What the felts read from the server: each line's stake, the made cards and the
hands' names, the betting circles, the pay tables in words and the house edges."""

import re
import time
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from riverboat.cards import Card
from riverboat.deck import Deck
from riverboat.games import GAMES, find_game
from riverboat.games.baccarat import BaccaratRound
from riverboat.games.tri_card import ANTE_BONUS_TABLES, PAIR_PLUS_TABLES, TriCardRules
from riverboat.hands import FIVE_CARD, FOUR_CARD, THREE_CARD, evaluate3, evaluate4of5, evaluate5
from riverboat.rng import SeededSource
from riverboat.settings import amended
from riverboat.store.models import LedgerEntry
from riverboat.table.edges import edge_lines, edges, figures_of
from riverboat.table.felt_rounds import (
    dealer_qualifies,
    hand_names,
    hand_outcome,
    made_cards,
    round_lines,
)
from riverboat.table.paytables import felt_lines, pay_sections
from riverboat.table.views import GameInfo
from riverboat.web.app import create_app

from reference import CRAZY4, POKER, reference_keys

ROUNDS = 300


def _key(cards: list[Card], order: list[str]) -> int:
    return int(reference_keys(np.array([[int(c) for c in cards]]), order)[0])


def _best_key(cards: list[Card], size: int, order: list[str]) -> int:
    return max(_key(list(kept), order) for kept in combinations(cards, size))


def _played(game: str, seed: int, **wagers: int) -> Any:
    """A round of ``game`` dealt from a seeded deck, decided at random, settled."""
    rng = SeededSource(seed)
    game_round = find_game(game).new_round()
    game_round.place_wagers(wagers)
    if game == "crazy4":
        game_round.place_wagers(wagers, blind=True)  # C8: a blind second position
    game_round.deal(Deck(rng))
    choices = game_round.legal_actions()
    if choices:
        choice = choices[rng.randbelow(len(choices))]
        game_round.act(choice.action, choice.maximum)
    assert game_round.phase == "settled"
    return game_round


# ------------------------------------------------------------- made cards
def test_rabbit_hunter_made_cards_are_the_best_five_of_six_r4() -> None:
    bought = 0
    for seed in range(ROUNDS):
        game_round = _played("rabbit-hunter", seed, ante=500)
        cards = game_round.cards
        made = made_cards(game_round, cards)
        assert made["dealer"] == [0, 1, 2, 3, 4]
        if "rabbit" in cards:
            bought += 1
            six = cards["player"] + cards["rabbit"]
            kept = [cards["player"][i] for i in made["player"]]
            kept += [cards["rabbit"][i] for i in made["rabbit"]]
            assert len(kept) == 5
            assert evaluate5(kept) == game_round._player_value()  # the settled rank
            assert _key(kept, POKER) == _best_key(six, 5, POKER)  # an independent ranking
        else:
            assert made["player"] == [0, 1, 2, 3, 4]
            assert "rabbit" not in made
        names = hand_names(game_round, cards)
        assert names["player"] == FIVE_CARD.describe(game_round._player_value())
        assert names["player"] in game_round.describe()  # as the description says it
        assert names["dealer"] in game_round.describe()
    assert bought > ROUNDS // 4


def test_crazy4_made_cards_are_the_best_four_of_five_c2() -> None:
    for seed in range(ROUNDS):
        game_round = _played("crazy4", seed, ante=500, super_bonus=500)
        cards = game_round.cards
        made = made_cards(game_round, cards)
        assert set(made) == {"player", "player:blind", "dealer"}
        for hand, indices in made.items():
            assert len(indices) == 4 == len(set(indices))
            kept = [cards[hand][i] for i in indices]
            assert _key(kept, CRAZY4) == _best_key(cards[hand], 4, CRAZY4)
        names = hand_names(game_round, cards)
        assert names["player:blind"] == FOUR_CARD.describe(evaluate4of5(cards["player:blind"]))
        assert names["dealer"] in game_round.describe()


def test_tri_card_made_cards_are_all_three_and_the_dealer_qualifies_t4() -> None:
    seen = set()
    for seed in range(ROUNDS // 3):
        game_round = _played("tri-card", seed, ante=500)
        cards = game_round.cards
        assert made_cards(game_round, cards) == {"player": [0, 1, 2], "dealer": [0, 1, 2]}
        assert hand_names(game_round, cards)["dealer"] in game_round.describe()
        qualifies = dealer_qualifies(game_round)
        seen.add(qualifies)
        assert qualifies == (evaluate3(cards["dealer"]) >= THREE_CARD.lowest(0, 10))  # Q-high
        assert ("does not qualify" in game_round.describe()) == (not qualifies)
    assert seen == {True, False}


@pytest.mark.parametrize("game", ["rabbit-hunter", "tri-card", "crazy4"])
def test_the_hands_outcome_is_the_descriptions_verdict(game: str) -> None:
    """The banner's hand line (hand_outcome) says what the round's description says of
    the first position: folds, or against a dealer who qualified wins, loses or ties;
    a dealer who did not qualify, whatever the hands."""
    verdicts = {"wins": "won", "loses": "lost", "ties": "tied", "folds": "folded"}
    seen = set()
    for seed in range(ROUNDS // 3):
        wagers = {"ante": 500, **({"super_bonus": 500} if game == "crazy4" else {})}
        game_round = _played(game, seed, **wagers)
        outcome = hand_outcome(game_round)
        seen.add(outcome)
        said = game_round.describe()
        first = said.split("Your", 1)[-1] if game != "crazy4" else said.split("You:", 1)[1]
        verdict = re.search(r"\b(wins|loses|ties|folds)\b", first)
        assert verdict, said
        if outcome == "not_qualified":
            assert dealer_qualifies(game_round) is False
            assert verdict.group(1) != "folds", said
        else:
            assert verdicts[verdict.group(1)] == outcome, said
    assert {"won", "lost", "folded", "not_qualified"} <= seen


def test_no_hand_outcome_at_baccarat_or_before_the_end() -> None:
    coup = _played("baccarat", 1, player=500)
    assert hand_outcome(coup) is None
    game_round = find_game("tri-card").new_round()
    game_round.place_wagers({"ante": 500})
    game_round.deal(Deck(SeededSource(3)))
    assert hand_outcome(game_round) is None  # still to decide
    pair_plus = find_game("tri-card").new_round()
    pair_plus.place_wagers({"pair_plus": 500})
    pair_plus.deal(Deck(SeededSource(3)))
    assert hand_outcome(pair_plus) == "no_play"  # nothing to decide (T3)


def test_baccarat_has_no_made_cards_and_names_its_totals_b3() -> None:
    for seed in range(50):
        game_round = _played("baccarat", seed, banker=500)
        assert isinstance(game_round, BaccaratRound)
        assert made_cards(game_round, game_round.cards) == {}
        assert dealer_qualifies(game_round) is None
        player, banker = game_round.totals()
        assert hand_names(game_round, game_round.cards) == {
            "player": str(player),
            "banker": str(banker),
        }


def test_an_open_round_has_no_made_cards_nor_a_dealer_verdict() -> None:
    game_round = find_game("tri-card").new_round()
    game_round.place_wagers({"ante": 500})
    game_round.deal(Deck(SeededSource(3)))
    shown = {"player": game_round.cards["player"]}
    assert made_cards(game_round, shown) == {}
    assert dealer_qualifies(game_round) is None
    assert set(hand_names(game_round, shown)) == {"player"}  # never the dealer's yet


# ---------------------------------------------------------- over the web
@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    url = f"sqlite:///{tmp_path / 'felt.db'}"
    app = create_app(
        amended(database_url=url, local_player=True, rate_limit=1000, house_edges=False)
    )
    with TestClient(app) as client:
        client.get("/")  # the page sets the CSRF cookie
        yield client, url


def _post(client: TestClient, path: str, body: dict[str, object]) -> Any:
    return client.post(
        path, json=body, headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]}
    ).json()


def _ledger_took(url: str, round_id: int) -> int:
    """What the ledger moved into the round's account: every stake of it."""
    engine = create_engine(url)
    with Session(engine) as session:
        took = session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.account == f"round:{round_id}", LedgerEntry.amount > 0
            )
        )
    engine.dispose()
    return int(took or 0)


@pytest.mark.parametrize(
    ("game", "wagers", "second", "action", "multiple"),
    [
        ("rabbit-hunter", {"ante": 1000, "bonus": 1000, "bad_beat": 500}, None, "buy", 2),
        ("tri-card", {"ante": 1000, "pair_plus": 500}, None, "raise", 1),
        ("crazy4", {"ante": 1000, "super_bonus": 1000}, None, "play", 3),
        (
            "crazy4",
            {"ante": 1000, "super_bonus": 1000},
            {"ante": 500, "super_bonus": 500},
            "play",
            1,
        ),
        ("baccarat", {"banker": 1000, "tie": 500}, None, None, 0),
    ],
)
def test_stakes_add_up_to_what_the_ledger_took(
    web: tuple[TestClient, str],
    game: str,
    wagers: dict[str, int],
    second: dict[str, int] | None,
    action: str | None,
    multiple: int,
) -> None:
    client, url = web
    for _ in range(200):  # Crazy 4's 3x needs a pair of aces or better (C3)
        view = _post(client, "/api/rounds", {"game": game, "wagers": wagers, "second": second})
        choices = {c["action"]: c for c in view["choices"]}
        if action is None or choices[action]["maximum"] == multiple * wagers["ante"]:
            break
        _post(client, f"/api/rounds/{view['id']}/actions", {"action": "fold"})
    lines = [line["name"] for line in _games(client)[game]["lines"]]
    assert list(view["stakes"]) == lines
    assert view["stakes"] == {name: wagers.get(name, 0) for name in lines}  # before deciding
    if action is not None:
        amount = multiple * wagers["ante"] if game == "crazy4" else None
        view = _post(
            client, f"/api/rounds/{view['id']}/actions", {"action": action, "amount": amount}
        )
    assert view["status"] == "settled"
    extra = (second or {}) and view["second_stakes"]
    total = sum(view["stakes"].values()) + sum(extra.values() if extra else [])
    assert total == _ledger_took(url, view["id"])
    assert set(view["result"]) - {"cap"} == set(view["stakes"])  # keyed like the result
    if game == "rabbit-hunter":  # R4: a Play equal to the Ante and a fee equal to it
        assert (view["stakes"]["play"], view["stakes"]["fee"]) == (1000, 1000)
    if game == "crazy4":
        assert view["stakes"]["play"] == multiple * 1000
        assert view["dealer_qualifies"] in (True, False)
    if second:  # C8: the blind position always plays 1x
        assert view["second_stakes"]["play"] == 500
        assert view["made"]["player:blind"]
        assert view["hand_names"]["player:blind"]
    if game == "baccarat":
        assert view["made"] == {}
        assert view["dealer_qualifies"] is None
        assert view["hand_names"] == {
            "player": str(view["totals"][0]),
            "banker": str(view["totals"][1]),
        }
    for hand in view["made"]:
        assert hand in view["cards"]
    for hand, name in view["hand_names"].items():
        assert name in view["description"], (hand, name)


def test_an_open_round_shows_only_the_players_own_hand_name_c8(
    web: tuple[TestClient, str],
) -> None:
    client, _ = web
    ante = {"ante": 500, "super_bonus": 500}
    view = _post(client, "/api/rounds", {"game": "crazy4", "wagers": ante, "second": ante})
    assert view["status"] == "open"
    assert set(view["hand_names"]) == {"player"}  # never the dealer's nor the blind hand's
    assert (view["made"], view["dealer_qualifies"]) == ({}, None)
    assert view["second_stakes"] == {"ante": 500, "super_bonus": 500, "queens_up": 0, "play": 500}


def _games(client: TestClient) -> dict[str, Any]:
    return {g["game"]: g for g in client.get("/api/games").json()}


# ----------------------------------------------------------------- lines
@pytest.mark.parametrize("name", list(GAMES))
def test_the_lines_cover_every_result_and_every_placed_line(name: str) -> None:
    game = GAMES[name]
    for variant in game.variants:
        rules = game.rules(variant)
        lines = felt_lines(game, rules)
        names = [line.name for line in lines]
        spots = [spot.name for spot in game.spec(rules).spots]
        assert names[: len(spots)] == spots
        assert all(line.placed_by is None for line in lines[: len(spots)])
        actions = {option.action for option in game.spec(rules).options}
        assert all(line.placed_by in actions for line in lines[len(spots) :])
        for option in game.spec(rules).options:
            assert option.line is None or option.line in names
        settled = _played(
            name, 7, **{spots[0]: 500} if name != "crazy4" else {"ante": 500, "super_bonus": 500}
        )
        assert set(settled.positions[0].result) - {"cap"} == set(names)
        assert names == round_lines(settled)
        for line in lines:
            assert line.label
            assert line.pays
            assert "_" not in line.label + line.pays


def test_the_lines_say_what_they_pay_r4_r8_t4_b7() -> None:
    lines = {g: {line.name: line for line in felt_lines(GAMES[g])} for g in GAMES}
    assert lines["rabbit-hunter"]["fee"].placed_by == "buy"  # R4
    assert lines["rabbit-hunter"]["fee"].label == "Rabbit fee"
    assert lines["rabbit-hunter"]["play"].placed_by == "play"
    assert lines["rabbit-hunter"]["bad_beat"].pays == "10 to 1 both ways"  # R8
    assert (lines["tri-card"]["raise"].label, lines["tri-card"]["raise"].pays) == (
        "Raise",
        "1 to 1",
    )
    assert lines["baccarat"]["banker"].pays == "95 to 100 (5% commission)"  # B7
    assert lines["baccarat"]["tie"].pays == "8 to 1"


# ------------------------------------------------------------ pay tables
def _variants() -> Iterator[tuple[str, Any]]:
    for name, game in GAMES.items():
        for variant in game.variants:
            yield name, game.rules(variant)
    for table in ANTE_BONUS_TABLES:
        yield "tri-card", TriCardRules().with_tables(ante_bonus=table)
    for table in PAIR_PLUS_TABLES:
        yield "tri-card", TriCardRules().with_tables(pair_plus=table)


@pytest.mark.parametrize(("name", "rules"), list(_variants()))
def test_every_pay_table_reads_as_words(name: str, rules: Any) -> None:
    sections = pay_sections(GAMES[name], rules)
    text = " ".join(
        [s.title for s in sections]
        + [cell for s in sections for row in s.rows for cell in row]
        + [note for s in sections for note in s.notes]
    )
    assert "_" not in text
    assert not re.search(r"\w (Of|A|Or|And|Higher|Better) ", text), text
    assert all(len(row) == 2 for s in sections for row in s.rows)
    titles = {s.title: s for s in sections}
    if name != "baccarat":
        ante = next(s for s in sections if s.title.startswith("Ante and"))
        assert "1 to 1" in " ".join(cell for row in ante.rows for cell in row)
    if name == "rabbit-hunter":
        assert titles["2-Way Bad Beat"].rows == [
            ["The losing hand is a Pair of Tens or better", "10 to 1"]
        ]  # R8
        assert ["Royal Flush", "500 to 1"] in titles["Bonus"].rows  # R7
        assert "$50,000" in " ".join(titles["Maximum payout"].notes)  # R9
    if name == "tri-card":  # T7, T8: each table shows its own figures
        flush = dict(map(tuple, titles["Pair Plus"].rows))["Flush"]
        assert flush == f"{rules.pair_plus_table.name.split('-')[1]} to 1"
        trips = dict(map(tuple, titles["Ante Bonus"].rows))["Three of a Kind"]
        assert trips == f"{rules.ante_bonus_table.name.split('-')[1]} to 1"
    if name == "crazy4":
        assert ["Flush", "3 to 2"] in titles["Super Bonus"].rows  # C6
        ties = dict(map(tuple, titles["Ante and Play"].rows))["Equal hands, the dealer qualifies"]
        assert ties == ("Ante and Play push" if rules.ties_push else "Ante and Play lose")  # C5
    if name == "baccarat":
        assert ["Banker wins", "95 to 100 (5% commission)"] in titles["Banker"].rows  # B7
        assert ["Tie", "push"] in titles["Player"].rows
        assert f"{rules.decks} decks" in " ".join(titles["Drawing rules"].notes)  # B1


def test_the_games_endpoint_serves_lines_and_pay_tables(web: tuple[TestClient, str]) -> None:
    client, _ = web
    for name, info in _games(client).items():
        assert info["lines"] == [line.model_dump() for line in felt_lines(GAMES[name])]
        assert info["pay_table"] == [s.model_dump() for s in pay_sections(GAMES[name])]
        # none while being worked out (another app in this process may have started
        # them), else the process' own, which never change once known
        known = edges(name)
        assert info["edges"] is None or info["edges"] == [e.model_dump() for e in known or []]


# ----------------------------------------------------------------- edges
def _edges(game: str, variant: str | None = None) -> dict[str, float]:
    return {line.label: line.value for line in edge_lines(game, variant)}


def test_tri_card_edges_match_the_published_figures() -> None:
    # Wizard of Odds, Three Card Poker: house edge 3.37% of the Ante, element of risk
    # 2.01%; Pair Plus 1-4-6-30-40: 2.32% (exact: 3.3730%, 2.0147%, 2.3167%).
    # The Ante is the only initial wager, so per initial wager is per Ante.
    edges = _edges("tri-card")
    assert list(edges) == [
        "House edge per Ante (as published)",
        "House edge per total initial wager",
        "Element of risk",
        "Pair Plus alone",
    ]
    assert round(edges["House edge per Ante (as published)"] * 100, 2) == 3.37
    per_ante = edges["House edge per Ante (as published)"]
    assert edges["House edge per total initial wager"] == per_ante
    assert round(edges["Element of risk"] * 100, 2) == 2.01
    assert round(edges["Pair Plus alone"] * 100, 2) == 2.32


def test_crazy4_standard_edges_match_the_published_figures_c9() -> None:
    # Wizard of Odds, Crazy 4 Poker: house edge 3.42% of the Ante, element of risk
    # 1.09%, under the common rules (ties push, Super Bonus pushes without a qualifier)
    edges = _edges("crazy4", "standard")
    assert round(edges["House edge per Ante (as published)"] * 100, 2) == 3.42
    assert edges["House edge per total initial wager"] == pytest.approx(
        edges["House edge per Ante (as published)"] / 2
    )  # Ante and Super Bonus: two Antes placed
    assert round(edges["Element of risk"] * 100, 2) == 1.09
    # the Queens Up's added loss: where it changes no decision, the analyzer's own
    # figure for the wager
    both = figures_of("crazy4", "standard", {"ante": 1, "super_bonus": 1, "queens_up": 1})
    queens_up = next(w.house_edge for w in both.per_wager if w.name == "queens_up")
    assert edges["Queens Up alone"] == pytest.approx(float(queens_up), abs=1e-12)


def test_baccarat_edges_match_the_published_figures_b7() -> None:
    # Wizard of Odds, Baccarat, 8 decks: Banker 1.06%, Player 1.24%, Tie 14.36%
    edges = _edges("baccarat")
    assert list(edges) == ["Player", "Banker", "Tie"]
    assert [round(edges[bet] * 100, 2) for bet in ("Banker", "Player", "Tie")] == [
        1.06,
        1.24,
        14.36,
    ]
    six = _edges("baccarat", "6 decks")  # Wizard of Odds, 6 decks: Banker 1.06%, Player 1.24%
    assert [round(six[bet] * 100, 2) for bet in ("Banker", "Player")] == [1.06, 1.24]


def test_the_games_endpoint_serves_the_edges_once_worked_out(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'edges.db'}", local_player=True, rate_limit=1000
        )
    )
    with TestClient(app) as client:
        deadline = time.monotonic() + 120
        while _games(client)["tri-card"]["edges"] is None:  # the quickest game's first
            assert time.monotonic() < deadline, "no Tri-Card edges after two minutes"
            time.sleep(0.5)
        for name, info in _games(client).items():
            if info["edges"] is not None:  # Rabbit Hunter's take the longest: if ready
                assert [e["label"] for e in info["edges"]][:1] in (
                    ["House edge per Ante (as published)"],
                    ["Player"],
                )
                assert all(-1 < e["value"] < 1 and e["basis"] for e in info["edges"]), name
                assert info["house_edge"] is not None
        tri = _games(client)["tri-card"]["edges"]
        assert tri == [line.model_dump() for line in edge_lines("tri-card")]


def test_game_info_carries_the_edges_with_their_basis() -> None:
    lines = edge_lines("tri-card")
    info = GameInfo.of(GAMES["tri-card"], edges=lines)
    assert info.edges == lines
    assert all(line.basis.endswith(".") and "_" not in line.basis for line in lines)
    assert "Ante and Raise together" in lines[0].basis
    assert GameInfo.of(GAMES["rabbit-hunter"]).edges is None  # while being worked out
