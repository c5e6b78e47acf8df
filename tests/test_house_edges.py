"""The pay tables' house edges, worked out apart from play (riverboat.table.edges and
riverboat.table.edge_work): in a process of their own at the lowest priority, read
back as they come, the same figures as worked out here; a server answers at once
meanwhile, says they are pending and loads none of the analyzer; a variant file's
rules reach the worker; a game this process alone knows is worked out here; the worker
stops with its server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from riverboat.games import definition, find_game
from riverboat.games.codec import rules_json
from riverboat.games.variant_files import read_variant, variant_text
from riverboat.table import edges as edges_module
from riverboat.table.edges import card_info, edge_lines, headline
from riverboat.table.states import EdgesState
from riverboat.table.views import GameInfo

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = ROOT / "tests" / "plugins"


def worked_apart(jobs: list[dict[str, Any]], cache: Path) -> list[dict[str, Any]]:
    """The worker process's answers to ``jobs``, one a line, as a server reads them."""
    env = {**os.environ, "RIVERBOAT_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "riverboat.table.edge_work", json.dumps(jobs)]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env) as run:
        assert run.stdout is not None
        out = run.stdout.read()  # its input held open until it has answered (it stops on EOF)
    assert run.returncode == 0
    return [json.loads(line) for line in out.splitlines()]


def here(game: str, variant: str | None = None) -> dict[str, Any]:
    """The figures worked out in this process, as the worker writes them."""
    card = card_info(game, variant)
    return {
        "game": game,
        "variant": variant,
        "house_edge": headline(game, variant),
        "edges": [line.model_dump(mode="json") for line in edge_lines(game, variant)],
        "card": None if card is None else card.model_dump(mode="json"),
    }


def jack_high(tmp_path: Path) -> Any:
    """Tri-Card whose dealer qualifies with Jack-high, as a variant file's rules."""
    text = variant_text("tri-card").replace('variant = "standard"', 'variant = "jack-high"')
    text = text.replace('dealer_qualifies = "Queen-high"', 'dealer_qualifies = "Jack-high"')
    path = tmp_path / "jack.toml"
    path.write_text(text, encoding="utf-8")
    return read_variant(path)[1]


def test_the_worker_gives_the_figures_worked_out_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tri-Card's own figures, a variant file's (its rules sent: the worker has no such
    file), and a game it has never heard of."""
    monkeypatch.setattr(definition, "_LOADED", {})
    rules = jack_high(tmp_path)
    jobs = [
        {"game": "tri-card", "variant": None},
        {"game": "tri-card", "variant": "jack-high", "rules": rules_json(rules)},
        {"game": "no-such-game", "variant": None},
    ]
    answers = worked_apart(jobs, tmp_path / "cache")
    assert answers[0] == here("tri-card")
    find_game("tri-card").load_variant(rules)
    assert answers[1] == here("tri-card", "jack-high")
    assert answers[1]["house_edge"] != answers[0]["house_edge"]  # the variant's own
    assert answers[2] == {"game": "no-such-game", "variant": None, "unknown": True}


def test_what_a_games_code_prints_never_mixes_with_the_answers(tmp_path: Path) -> None:
    code = (
        "import riverboat.table.edges as edges; told = edges.headline\n"
        "edges.headline = lambda *asked: (print('a plug-in says hello'), told(*asked))[1]\n"
        "from riverboat.table.edge_work import main; import sys; main(sys.argv[1:])"
    )
    jobs = json.dumps([{"game": "tri-card", "variant": None}])
    env = {**os.environ, "RIVERBOAT_CACHE_DIR": str(tmp_path)}
    with (
        (tmp_path / "said").open("wb") as said,
        subprocess.Popen(
            [sys.executable, "-c", code, jobs],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=said,
            env=env,
        ) as run,
    ):
        assert run.stdout is not None
        out = run.stdout.read()
    assert [json.loads(line)["game"] for line in out.splitlines()] == ["tri-card"]
    assert "a plug-in says hello" in (tmp_path / "said").read_text()


def test_the_worker_runs_at_the_lowest_priority() -> None:
    if not hasattr(os, "nice"):
        pytest.skip("no nice here")
    code = "from riverboat.table.edge_work import lower_priority; lower_priority(); "
    code += "import os; print(os.nice(0))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "19"


def test_a_game_the_worker_cannot_find_is_worked_out_here(
    showdown: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game registered in this process, which a new process does not find (here: the
    plug-in's folder taken off the path once it is loaded), is worked out by the
    reading thread instead."""
    monkeypatch.setattr(sys, "path", [path for path in sys.path if path != str(PLUGINS)])
    for kept in ("_EDGES", "_LINES", "_CARDS"):  # this test's figures are its own
        monkeypatch.setattr(edges_module, kept, {})
    monkeypatch.setattr(edges_module, "_BEGUN", {showdown})
    done_here: list[str] = []
    work_here = edges_module._work_here
    monkeypatch.setattr(
        edges_module,
        "_work_here",
        lambda game, rules: (done_here.append(game), work_here(game, rules)),
    )
    edges_module._work_apart([(showdown, None), ("tri-card", None)])
    assert done_here == [showdown]  # Tri-Card's came from the worker
    assert edges_module.edges_state(showdown) is EdgesState.KNOWN
    assert edges_module.edges(showdown) == edge_lines(showdown)
    assert edges_module.house_edge(showdown) == headline(showdown)


SERVER = """
import json, os, sys, time
from pathlib import Path
from fastapi.testclient import TestClient
from riverboat.settings import amended
from riverboat.web.app import create_app

settings = amended(database_url="sqlite://", house_edges=True)
with TestClient(create_app(settings)) as client:
    began = time.monotonic()
    first = client.get("/api/games").json()
    answered = time.monotonic() - began
    while True:
        games = {g["game"]: g for g in client.get("/api/games").json()}
        if games["tri-card"]["edges_state"] != "pending":
            break
        time.sleep(0.1)
    children = [
        int(pid)
        for task in Path("/proc/self/task").iterdir()
        for pid in (task / "children").read_text().split()
    ]
    print(json.dumps({
        "first": {g["game"]: g["edges_state"] for g in first},
        "answered": answered,
        "tri-card": games["tri-card"],
        "loaded": sorted(
            m for m in sys.modules if m == "numba" or m.startswith("riverboat.analysis")
        ),
        "children": children,
    }))
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_a_server_answers_at_once_and_works_the_edges_out_elsewhere(tmp_path: Path) -> None:
    """With an empty cache the games are listed at once, their figures to come; Tri-Card's
    come (the same as worked out here) without the server loading the analyzer or numba;
    its worker is a child of the server and is gone once the server is."""
    env = {**os.environ, "RIVERBOAT_CACHE_DIR": str(tmp_path / "cache")}
    code = textwrap.dedent(SERVER)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    # listed before the figures: Rabbit Hunter's, the longest to work out, still to come
    # (a quick game's may be known by then on a slow machine: the worker runs meanwhile)
    assert seen["first"]["rabbit-hunter"] == "pending"
    assert set(seen["first"].values()) <= {"pending", "known"}
    assert seen["answered"] < 2.0  # 0.02 s here: nothing waits for the analyzer
    assert seen["tri-card"]["edges_state"] == "known"
    assert seen["tri-card"]["edges"] == here("tri-card")["edges"]
    assert seen["tri-card"]["strategy_card"] == here("tri-card")["card"]
    assert seen["loaded"] == []
    (worker,) = seen["children"]
    for _ in range(100):  # its standard input closed with the server: it stops
        if not Path(f"/proc/{worker}").exists() or _zombie(worker):
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"the worker {worker} outlived its server")


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


def test_a_game_info_says_where_its_edges_stand() -> None:
    game = find_game("tri-card")
    assert GameInfo.of(game).edges_state is EdgesState.PENDING
    lines = edge_lines("tri-card")
    assert GameInfo.of(game, 0.03, lines).edges_state is EdgesState.KNOWN
    gone = GameInfo.of(game, edges_state=EdgesState.UNAVAILABLE)
    assert gone.edges_state is EdgesState.UNAVAILABLE
    # figures given are known whatever was said; none given are never "known"
    assert GameInfo.of(game, 0.03, lines, edges_state=EdgesState.UNAVAILABLE).edges_state == "known"
    assert GameInfo.of(game, edges_state=EdgesState.KNOWN).edges_state is EdgesState.PENDING


def test_a_server_that_works_no_edges_out_says_so() -> None:
    from fastapi.testclient import TestClient

    from riverboat.settings import amended
    from riverboat.web.app import create_app

    app = create_app(amended(database_url="sqlite://", house_edges=False))
    with TestClient(app) as client:
        for game in client.get("/api/games").json():
            # known where another app of this process worked them out, never pending
            assert game["edges_state"] in ("unavailable", "known")
            assert (game["edges"] is None) == (game["edges_state"] == "unavailable")
