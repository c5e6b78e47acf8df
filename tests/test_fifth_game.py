"""A fifth game that plugs in: Two-Card Showdown (tests/plugins/riverboat_showdown), a
package of its own found through the ``riverboat.games`` entry point, with no line
of riverboat naming it. Installed, it is listed, dealt and settled with money and
history, verified, simulated, analysed exactly, and played at the terminal table;
tests/test_browser_fifth_game.py plays it in the browser."""

import doctest
import json
import subprocess
import sys
import time
import warnings
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from riverboat.analysis import analyze
from riverboat.games import GAMES, GameDefinition, RulesError, discover, find_game, register
from riverboat.money import format_money
from riverboat.settings import amended
from riverboat.sim import simulate
from riverboat.table.rounds.verify import verify_round
from riverboat.table.service import TableService
from riverboat.web.app import create_app


def post(client: TestClient, path: str, body: dict[str, object]) -> dict[str, object]:
    answer = client.post(
        path, json=body, headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]}
    )
    assert answer.status_code == 200, answer.text
    result: dict[str, object] = answer.json()
    return result


def test_it_is_found_only_once_installed(showdown: str) -> None:
    assert list(GAMES)[:4] == ["rabbit-hunter", "tri-card", "crazy4", "baccarat"]
    game = find_game(showdown)
    assert isinstance(game, GameDefinition)
    assert game.title == "Two-Card Showdown"
    assert discover() == []  # found once: nothing new the second time


def test_without_it_there_are_riverboats_four() -> None:
    assert "showdown" not in GAMES
    with pytest.raises(RulesError, match="no game 'showdown'"):
        find_game("showdown")


def test_a_name_or_rules_type_taken_is_refused(showdown: str) -> None:
    game = find_game(showdown)
    assert register(game) is game  # the same definition again: nothing changes
    from dataclasses import replace

    with pytest.raises(RulesError, match="already a game 'showdown'"):
        register(replace(game, title="Another"))
    with pytest.raises(RulesError, match="already the rules of 'showdown'"):
        register(replace(game, name="other"))
    with pytest.raises(RulesError, match="a game is a GameDefinition, not str"):
        register("showdown")  # type: ignore[arg-type]


def test_a_broken_plug_in_is_left_out_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "broken_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[riverboat.games]\nbroken = no_such_module:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert discover() == []
    assert any("'broken' (no_such_module:GAME) is left out" in str(w.message) for w in caught)
    assert list(GAMES) == ["rabbit-hunter", "tri-card", "crazy4", "baccarat"]


def test_its_own_examples_hold(showdown: str) -> None:
    import riverboat_showdown.play

    failed, tried = doctest.testmod(
        riverboat_showdown.play, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert (failed, tried) == (0, 8)


def test_it_is_listed_dealt_settled_and_in_the_history_over_http(
    showdown: str, tmp_path: Path
) -> None:
    app = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'web.db'}", local_player=True, rate_limit=1000)
    )
    with TestClient(app) as client:
        client.get("/")
        # the house edges are worked out apart from play, at the lowest priority: on a
        # busy machine they wait for a free CPU
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            games = {game["game"]: game for game in client.get("/api/games").json()}
            listed = games[showdown]
            if listed["house_edge"] is not None:
                break
            assert listed["edges_state"] == "pending"
            time.sleep(0.1)
        assert listed["edges_state"] == "known"
        assert listed["title"] == "Two-Card Showdown"
        assert [spot["name"] for spot in listed["wagers"]] == ["ante", "pair_up"]
        assert [line["name"] for line in listed["lines"]] == ["ante", "pair_up", "play"]
        assert [section["title"] for section in listed["pay_table"]] == ["Ante and Play", "Pair Up"]
        rules = find_game(showdown).rules()
        assert listed["how_to_play"] == list(find_game(showdown).how_to_play(rules))
        assert "The dealer qualifies with jack-high or better;" in listed["how_to_play"][2]
        assert listed["how_to_play"][3] == "Pair Up pays 15 to 1 on a pair."  # from its table
        edge, _ = _brute_force(find_game(showdown).rules())  # every deal counted, below
        assert listed["house_edge"] == pytest.approx(float(edge))
        balance = client.get("/api/me").json()["balance"]
        wagers = {"ante": 1000, "pair_up": 100}
        view = post(client, "/api/rounds", {"game": showdown, "wagers": wagers})
        assert view["status"] == "open"
        assert client.get("/api/me").json()["balance"] == balance - 1100
        hint = client.get(f"/api/rounds/{view['id']}/hint").json()
        assert {option["action"] for option in hint["options"]} == {"fold", "play"}
        view = post(client, f"/api/rounds/{view['id']}/actions", {"action": "play"})
        assert view["status"] == "settled"
        assert "Your " in str(view["description"])
        assert client.get("/api/me").json()["balance"] == balance + view["net"]
        (latest, *_) = client.get("/api/history").json()
        assert (latest["game"], latest["id"]) == (showdown, view["id"])
        replayed = post(client, f"/api/games/{showdown}/replay", {})
        assert replayed["wagers"] == view["wagers"]


def test_the_service_verifies_its_rounds_and_the_books_balance(showdown: str) -> None:
    service = TableService("sqlite://")
    player = service.local_player()
    nets = []
    for _ in range(20):
        view = service.start_round(player, showdown, {"ante": 500, "pair_up": 100})
        view = service.act(player, view.id, "play" if len(nets) % 2 else "fold")
        nets.append(view.net)
    assert service.balance(player) == 100_000 + sum(nets)
    assert service.audit() == []
    for exported in service.history(player, limit=20):
        assert exported.game == showdown
        assert verify_round(exported) == []  # seeds, cards and settlement replay
    folded = nets[0::2]
    assert all(net == -600 for net in folded)  # Fold loses the Ante and the Pair Up


def _brute_force(rules: object) -> tuple[Fraction, dict[int, str]]:
    """Every deal of two cards each, settled by the game's own settle: the house edge
    of the best choice for each hand, and that choice (an oracle for the analyzer)."""
    from riverboat_showdown.play import FOLD, PLAY, evaluate2, settle

    hands = np.array(list(combinations(range(52), 2)), dtype=np.uint8)
    values = evaluate2(hands)
    total, best = Fraction(0), {}
    for i, hand in enumerate(hands):
        others = ~np.isin(hands, hand).any(axis=1)
        dealer = values[others]
        player = np.full(len(dealer), values[i])
        results = {}
        for name, code in (("fold", FOLD), ("play", PLAY)):
            lines = settle(rules, player, dealer, np.full(len(dealer), code), 1, 0)  # type: ignore[arg-type]
            results[name] = int(sum(line.sum() for line in lines.values()))
        choice = max(results, key=lambda k: results[k])
        best[int(values[i])] = choice
        total += results[choice]
    return -total / (len(hands) * 1225), best


def test_the_exact_analysis_agrees_with_every_deal_counted(showdown: str) -> None:
    rules = find_game(showdown).rules()
    analysis = analyze(showdown, rules, {"ante": 1})
    edge, best = _brute_force(rules)
    assert analysis.figures.house_edge_per_ante == edge
    assert analysis.figures.cycle == 1326 * 1225
    assert set(best.values()) == {"play"}  # even 3-2 loses less by playing than folding
    assert analysis.figures.decisions == {"play": 1}


def test_the_simulator_meets_the_exact_figure(showdown: str) -> None:
    result = simulate(showdown, 200_000, wagers={"ante": 1, "pair_up": 1}, seed=7)
    for name, estimate in result.wagers.items():
        assert abs(estimate.z) < 4, (name, estimate)
    # a pair: 3 of the 51 cards left match the first; 15 to 1 pays back 16 units, so
    # the house keeps 1 - 16 x 3/51 (the house's side, as the exact figures are)
    assert result.wagers["pair_up"].exact == pytest.approx(1 - 16 * 3 / 51)


def test_the_command_line_analyses_and_simulates_it(showdown: str) -> None:
    analysed = subprocess.run(
        [
            sys.executable,
            "-m",
            "riverboat",
            "analyze",
            showdown,
            "--wagers",
            "ante",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(analysed.stdout)
    edge, _ = _brute_force(find_game(showdown).rules())
    assert figures["house_edge_per_ante"] == pytest.approx(float(edge), abs=1e-12)
    listed = subprocess.run(
        [sys.executable, "-m", "riverboat", "games", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    (found,) = [game for game in json.loads(listed.stdout) if game["name"] == showdown]
    assert found["distribution"] == "riverboat-showdown"
    command = ["simulate", showdown, "--rounds", "100000", "--wagers", "ante", "--seed", "3"]
    simulated = subprocess.run(
        [sys.executable, "-m", "riverboat", *command, "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(simulated.stdout)["rounds"] == 100_000


#: a terminal table in a process of its own, as `riverboat play` runs it, driven by keys
_AT_THE_TERMINAL = """
import asyncio, sys
from textual.widgets import Static
from riverboat.table.service import TableService
from riverboat.terminal.app import TableApp
from riverboat.terminal.widgets import GamesBar

service = TableService("sqlite://")
app = TableApp(service, game=sys.argv[1], house_edges=False)

async def run():
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = " ".join(str(app.query_one(GamesBar).content).split())
        await pilot.press("enter", "d")  # a chip on the Ante, then deal
        await pilot.pause()
        await pilot.press("p")  # Play
        for _ in range(200):
            await pilot.pause(0.05)
            said = " ".join(str(app.query_one("#message", Static).content).split())
            if "Net" in said:
                break
        print(bar)
        print(said)

asyncio.run(run())
(played,) = service.history(service.local_player(), limit=1)
print(played.game, played.net)
"""


def test_it_plays_at_the_terminal_table_by_keys(showdown: str) -> None:
    ran = subprocess.run(
        [sys.executable, "-c", _AT_THE_TERMINAL, showdown], capture_output=True, text=True
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    bar, said, played = ran.stdout.strip().splitlines()[-3:]
    assert "Two-Card Showdown" in bar
    assert "Net" in said, said
    game, net = played.split()
    assert game == showdown
    assert f"Net {format_money(int(net), signed=True)}" in said


def test_a_plug_in_whose_lines_have_no_words_is_left_out(
    showdown: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "wordless_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: wordless-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[riverboat.games]\nwordless = wordless_game:GAME\n")
    (tmp_path / "wordless_game.py").write_text(
        "from dataclasses import dataclass, replace\n"
        "from riverboat.games import find_game\n"
        "from riverboat.games.words import LineWords\n"
        "from riverboat_showdown.play import ShowdownRules\n"
        "@dataclass(frozen=True)\n"
        "class WordlessRules(ShowdownRules):\n"
        "    pass\n"
        "GAME = replace(find_game('showdown'), name='wordless', rules_type=WordlessRules,\n"
        "    variants={'standard': WordlessRules()}, line_words=lambda rules: LineWords({}, {}))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert discover() == []
    assert any("no label for the lines play" in str(w.message) for w in caught), caught
    assert "wordless" not in GAMES
