"""The riverboat command: version, demo deal, deck re-derivation, hand names, clear errors."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riverboat import __version__
from riverboat.cli import app
from riverboat.fairness import derive_order

# wide enough that no error message wraps inside its box
runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_version_and_help() -> None:
    assert runner.invoke(app, ["--version"]).output.strip() == f"riverboat {__version__}"
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "deal" in result.output
    assert "name" in result.output


def test_deal_names_every_hand_and_reveals_a_verifiable_seed() -> None:
    result = runner.invoke(app, ["deal", "--players", "2", "--client-seed", "me", "--no-unicode"])
    assert result.exit_code == 0, result.output
    server_seed = re.search(r"Server seed: ([0-9a-f]{64})", result.output)
    assert server_seed is not None
    hands = re.findall(r"(?:Player \d|Dealer): ((?:\S\S ){4}\S\S)", result.output)
    assert len(hands) == 3
    dealt = " ".join(hands).split()
    names = "23456789TJQKA"
    expected = derive_order(server_seed.group(1), "me", 0)[:15]
    assert [names.index(c[0]) * 4 + "cdhs".index(c[1]) for c in dealt] == expected


def test_deck_command_re_derives_an_order() -> None:
    seed = "ab" * 32
    result = runner.invoke(app, ["deck", seed, "client", "3"])
    assert result.exit_code == 0
    first = result.output.splitlines()[1].split()[0]
    top = derive_order(seed, "client", 3)[0]
    assert first == "23456789TJQKA"[top // 4] + "cdhs"[top % 4]


def test_name_a_hand_in_each_game() -> None:
    result = runner.invoke(app, ["name", "As Ad Ac Ah 2c"])
    assert result.exit_code == 0
    assert "Poker: Four Aces" in result.output
    assert "Crazy 4 Poker (best four): Four Aces" in result.output
    assert "Tri-Card Poker: Straight" not in result.output
    assert "Tri-Card Poker: Ace-high Straight" in runner.invoke(app, ["name", "Ah Kd Qc"]).output


def test_user_mistakes_get_clear_errors_not_tracebacks() -> None:
    cases = {
        ("name", "As Xd 2c"): "'Xd' is not a card",
        ("name", "As Ad"): "2 cards: a hand here has 3, 5, 6 or 7 cards",
        ("name", "As"): "1 card: a hand here has",  # one card, not "1 cards"
        ("name", "As As 2c"): "As appears twice",
        ("deal", "--cards", "4"): "no game here deals 4-card hands",
        ("deal", "--cards", "9"): "--cards",
        ("deck", "zz", "c", "1"): "must be a hexadecimal string",
    }
    for args, message in cases.items():
        result = runner.invoke(app, list(args))
        assert result.exit_code == 2, args
        assert message in " ".join(result.output.split()), (args, result.output)
        assert "Traceback" not in result.output


def test_analyze_prints_figures_in_each_format(tmp_path: object) -> None:
    text = runner.invoke(app, ["analyze", "tri-card", "--wagers", "ante"])
    assert text.exit_code == 0, text.output
    assert "3.3730%" in text.output
    assert "Raise with Q-6-4 or better" in text.output
    data = json.loads(
        runner.invoke(app, ["analyze", "baccarat", "--wagers", "banker", "--format", "json"]).output
    )
    assert round(data["house_edge_per_total_initial_wager"], 6) == 0.010579
    table = runner.invoke(app, ["analyze", "baccarat", "--wagers", "tie", "--format", "csv"]).output
    assert table.splitlines()[0] == (
        "wager,event,pays,combinations,probability,contribution,scope,"
        "round_house_edge_per_ante,round_house_edge_per_total_initial_wager,round_element_of_risk"
    )
    assert "tie,Tie,8.0,475627426473216" in table
    assert table.splitlines()[1].endswith(",Tie alone,,0.14359628778723826,0.14359628778723826")
    markdown = runner.invoke(
        app, ["analyze", "tri-card", "--wagers", "pair_plus", "--format", "markdown"]
    )
    assert "| Straight Flush | 40 |" in markdown.output
    folder = Path(str(tmp_path))
    done = runner.invoke(
        app,
        [
            "analyze",
            "tri-card",
            "--wagers",
            "ante",
            "--strategy",
            str(folder / "s.csv"),
            "--plot",
            str(folder / "p.png"),
        ],
    )
    assert done.exit_code == 0, done.output
    rows = (folder / "s.csv").read_text().splitlines()
    assert rows[0] == "cards,hands,hand,fold,raise,stand,best"
    assert len(rows) == 1 + 1_755  # one row per suit-symmetry class
    assert (folder / "p.png").stat().st_size > 0


def test_analyze_pay_tables_and_variants() -> None:
    data = json.loads(
        runner.invoke(
            app,
            [
                "analyze",
                "tri-card",
                "--wagers",
                "pair_plus",
                "--paytable",
                "pair-plus=1-3-6-30-40",
                "--format",
                "json",
            ],
        ).output
    )
    # Wizard of Odds, "Three Card Poker": Pair Plus 1-3-6-30-40, 7.2760%
    assert round(data["house_edge_per_total_initial_wager"] * 100, 4) == 7.2760
    six = json.loads(
        runner.invoke(
            app,
            [
                "analyze",
                "baccarat",
                "--variant",
                "6 decks",
                "--wagers",
                "player",
                "--format",
                "json",
            ],
        ).output
    )
    # Wizard of Odds, "Baccarat", 6 decks
    assert round(six["house_edge_per_total_initial_wager"] * 100, 4) == 1.2374


def test_analyze_refuses_bad_input_clearly() -> None:
    cases = {
        ("analyze", "poker"): "no game 'poker'",
        ("analyze", "tri-card", "--wagers", "bonus"): "no wager bonus",
        ("analyze", "tri-card", "--wagers", "ante=x"): "NAME=AMOUNT",
        ("analyze", "crazy4", "--variant", "house"): "no variant 'house'",
        ("analyze", "crazy4", "--paytable", "x=y"): "one pay table per variant",
        ("analyze", "tri-card", "--paytable", "pair-plus=9-9"): "no Pair Plus table '9-9'",
        ("analyze", "tri-card", "--format", "xml"): "xml",
        ("analyze", "tri-card", "--wagers", "ante,ante=2"): "ante is named twice",
        ("analyze", "tri-card", "--wagers", "ante=1e999"): "at most 1000",
        ("analyze", "tri-card", "--wagers", "ante,pair_plus=1/1001"): "no finer than 1/1000",
        ("bankroll", "tri-card", "--bankroll", "100", "--wagers", "ante=1e999"): (
            "the Ante takes $5 to $500"
        ),
        ("bankroll", "tri-card", "--bankroll", "100", "--wagers", "ante"): (
            "'ante': a wager is NAME=DOLLARS"
        ),
    }
    for args, message in cases.items():
        result = runner.invoke(app, list(args))
        assert result.exit_code == 2, (args, result.output)
        assert message in " ".join(result.output.split()), (args, result.output)
        assert len(result.output) < 1000, (args, result.output)


def test_output_paths_and_numbers_are_checked_before_the_work() -> None:
    cases = {
        (
            "bankroll",
            "baccarat",
            "--bankroll",
            "nan",
            "--wagers",
            "banker=10",
        ): "a positive number of dollars",
        (
            "bankroll",
            "baccarat",
            "--bankroll",
            "inf",
            "--wagers",
            "banker=10",
        ): "a positive number of dollars",
        ("analyze", "tri-card", "--plot", "chart.foo"): "a plot is .png, .svg, .pdf",
        ("analyze", "tri-card", "--strategy", "/no/such/folder/s.csv"): "does not exist",
    }
    for args, message in cases.items():
        result = runner.invoke(app, list(args))
        assert result.exit_code == 2, (args, result.output)
        assert message in " ".join(result.output.split()), (args, result.output)


def test_accounts_history_verify_and_audit_commands(tmp_path: object) -> None:
    folder = Path(str(tmp_path))
    url = f"sqlite:///{folder / 'cli.db'}"
    env = {"RIVERBOAT_DATABASE_URL": url}
    assert runner.invoke(app, ["accounts", "balance"], env=env).output.strip() == "$1,000"
    created = runner.invoke(
        app, ["accounts", "create", "ann"], input="a long password\na long password\n", env=env
    )
    assert created.exit_code == 0, created.output
    assert "Account ann created with $1,000" in created.output
    taken = runner.invoke(
        app, ["accounts", "create", "ann"], input="a long password\na long password\n", env=env
    )
    assert taken.exit_code == 2
    assert "taken" in taken.output
    wrong = runner.invoke(
        app, ["accounts", "balance", "--player", "ann"], input="nope nope\n", env=env
    )
    assert wrong.exit_code == 2
    assert "wrong password" in wrong.output

    from riverboat.table.service import TableService

    service = TableService(url)
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 1000})
    service.act(me, view.id, "raise")
    service.engine.dispose()
    listing = runner.invoke(app, ["history"], env=env)
    assert f"#{view.id}" in listing.output
    exported = runner.invoke(app, ["history", "--format", "json", "-n", "1"], env=env).output
    (folder / "round.json").write_text(exported)
    checked = runner.invoke(app, ["verify", str(folder / "round.json")])
    assert checked.exit_code == 0, checked.output
    assert "verified" in checked.output
    forged = json.loads(exported)
    forged[0]["server_seed"] = "11" * 32
    (folder / "forged.json").write_text(json.dumps(forged))
    refused = runner.invoke(app, ["verify", str(folder / "forged.json")])
    assert refused.exit_code == 1
    assert "commitment" in refused.output
    audited = runner.invoke(app, ["audit"], env=env)
    assert audited.exit_code == 0
    assert "audit clean" in audited.output


def test_history_gives_each_round_its_own_net(tmp_path: object) -> None:
    """Other rounds may be played between a round's balances: its net comes from its
    own record; a round still open has none yet."""
    from riverboat.money import format_money
    from riverboat.table.service import TableService

    url = f"sqlite:///{Path(str(tmp_path)) / 'history.db'}"
    service = TableService(url)
    me = service.local_player()
    waiting = service.start_round(me, "tri-card", {"ante": 1000})
    coup = service.start_round(me, "baccarat", {"banker": 5000, "tie": 500})
    assert coup.net  # never 0 with these two bets
    service.act(me, waiting.id, "fold")
    service.start_round(me, "crazy4", {"ante": 500, "super_bonus": 500})
    service.engine.dispose()
    listing = runner.invoke(app, ["history", "--database", url])
    assert listing.exit_code == 0, listing.output
    rows = [line.split() for line in listing.output.splitlines()]
    nets = {row[2]: (row[3], row[4], row[-1]) for row in rows}
    after = format_money(coup.balance)  # the fold cost nothing more
    assert nets == {
        "crazy4": ("open", "-", "-"),
        "baccarat": ("settled", format_money(coup.net, signed=True), after),
        "tri-card": ("settled", "-$10", after),
    }


def test_verify_checks_a_whole_baccarat_shoe_b1(tmp_path: object) -> None:
    from riverboat.table.service import TableService

    folder = Path(str(tmp_path))
    service = TableService(f"sqlite:///{folder / 'shoe.db'}")
    me = service.local_player()
    while not service.start_round(me, "baccarat", {"banker": 500}).server_seed:
        pass  # to the cut card, when the shoe's seed shows
    commitment = service.history(me, 1)[0].commitment
    shoe = [coup.model_dump(mode="json") for coup in service.history(me, 200, commitment)]
    (folder / "shoe.json").write_text(json.dumps(shoe))
    checked = runner.invoke(app, ["verify", str(folder / "shoe.json")])
    assert checked.exit_code == 0, checked.output
    assert f"shoe: verified: its {len(shoe)} coups run end to end" in checked.output
    (folder / "gap.json").write_text(json.dumps(shoe[:3] + shoe[4:]))  # one coup left out
    gap = runner.invoke(app, ["verify", str(folder / "gap.json")])
    assert gap.exit_code == 1
    assert "shoe: FAILED: coup" in gap.output


# ------------------------------------------------------------ a light start


def test_importing_the_command_loads_no_heavy_library() -> None:
    """`riverboat --help` and the commands that compute nothing start at once: the
    command line imports numpy, numba, SQLAlchemy and FastAPI only inside the commands
    that use them (a check of what is imported, not of a time)."""
    import subprocess
    import sys

    heavy = ("numpy", "numba", "sqlalchemy", "fastapi", "matplotlib", "textual")
    probe = (
        "import sys, riverboat.cli\n"
        f"print(','.join(m for m in {heavy!r} if m in sys.modules))"
    )
    src = str(Path(__file__).resolve().parents[1] / "src")
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
    )
    assert done.stdout.strip() == "", f"loaded at import: {done.stdout.strip()}"


#: what a command loads and what it must not (a check of what is imported, not of a time)
_LOADED_AT_EXIT = """
import atexit, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write("\\n".join(sorted(sys.modules))))
sys.argv = ["riverboat", *sys.argv[2:]]
from riverboat.cli import run
run()
"""
#: never loaded by a small command once its database is made
_FRONT_ENDS = ("alembic", "fastapi", "uvicorn", "textual", "matplotlib")
_SMALL_COMMANDS = [
    # each help: not even numpy or the database
    (["--help"], ("numpy", "numba", "sqlalchemy", "riverboat.games")),
    (["operator", "--help"], ("numpy", "numba", "sqlalchemy", "riverboat.games")),
    (["report", "--help"], ("numpy", "numba", "sqlalchemy", "riverboat.games")),
    (["play", "--help"], ("numpy", "numba", "sqlalchemy", "riverboat.games")),
    # a round's settlement and its view value one hand at a time, in plain Python;
    # optimal play reads the hand's row of the count kept by the first run; rich draws
    # only a help or an error, never a command's own output
    (
        ["play", "tri-card", "--auto", "optimal", "--rounds", "1"],
        ("numba", "scipy", "argon2", "rich"),
    ),
    # the history reads rounds and values no hand: no numpy, no evaluators
    (
        ["history", "-n", "3"],
        (
            "numpy",
            "riverboat.hands",
            "numba",
            "riverboat.analysis",
            "argon2",
            "prometheus_client",
            "icu",
            "rich",
        ),
    ),
    (["verify", "{round}"], ("numba", "sqlalchemy", "riverboat.analysis", "rich")),
    (["audit"], ("numba", "riverboat.analysis", "argon2", "prometheus_client", "icu", "rich")),
]


@pytest.mark.parametrize(
    ("command", "unused"), _SMALL_COMMANDS, ids=[" ".join(c) for c, _ in _SMALL_COMMANDS]
)
def test_a_small_command_imports_only_what_it_uses(
    command: list[str], unused: tuple[str, ...], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every --help, and play --auto (after its first run: the database made, the count
    kept), history, verify and audit on a small database load none of the heavy parts
    they do not use: no migrations for a database at the head, no front end, no numba
    for a round (issue 28: small commands start small)."""
    import subprocess
    import sys

    home = tmp_path_factory.getbasetemp() / "small-commands"
    first = not home.exists()
    home.mkdir(exist_ok=True)
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {
        "PYTHONPATH": src,
        "PATH": "/usr/bin:/bin",
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    if first:  # the database made, two rounds played, the count kept, a round kept
        for _ in range(2):
            play = ["-m", "riverboat", "play", "tri-card", "--auto", "optimal"]
            subprocess.run([sys.executable, *play], env=env, check=True, capture_output=True)
        kept = subprocess.run(
            [sys.executable, "-m", "riverboat", "history", "-n", "1", "--format", "json"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        (home / "round.json").write_text(kept.stdout)
    arguments = [a.replace("{round}", str(home / "round.json")) for a in command]
    loaded = home / "loaded.txt"
    done = subprocess.run(
        [sys.executable, "-c", _LOADED_AT_EXIT, str(loaded), *arguments],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    modules = set(loaded.read_text().split())
    found = [name for name in (*_FRONT_ENDS, *unused) if name in modules]
    assert found == [], f"riverboat {' '.join(command)} loaded {', '.join(found)}"


#: a command, then numpy imported at its exit: the threads the process has then
_THREADS_AT_EXIT = """
import atexit, os, sys
def threads():
    import numpy  # noqa: F401  OpenBLAS starts its threads here
    print(len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS"))
atexit.register(threads)
sys.argv = ["riverboat", "--version"]
from riverboat.cli import run
run()
"""


@pytest.mark.parametrize("given", [None, "2"])
def test_a_command_starts_one_blas_thread_unless_told_otherwise(given: str | None) -> None:
    """No command does linear algebra: numpy's OpenBLAS gets one thread (the main one),
    not one per core, unless the environment says how many."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1] / "src")
    if given:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run(
        [sys.executable, "-c", _THREADS_AT_EXIT], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    count, setting = done.stdout.split()[-2:]
    assert setting == (given or "1")  # the environment's own value kept
    if given is None:
        assert count == "1"  # the main thread alone


def test_the_package_still_exports_its_nouns_lazily() -> None:
    import riverboat

    for name in riverboat.__all__:
        assert getattr(riverboat, name) is not None, name
    assert set(riverboat.__all__) <= set(dir(riverboat))
    with pytest.raises(AttributeError, match="no_such_name"):
        riverboat.no_such_name  # type: ignore[attr-defined]  # noqa: B018


# ------------------------------------------------------------ every format


def _played_database(folder: Path) -> tuple[str, list[dict[str, object]]]:
    """A database with three rounds: one open, two settled; and its history."""
    from riverboat.table.service import TableService

    url = f"sqlite:///{folder / 'formats.db'}"
    service = TableService(url)
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 1000})
    service.act(me, view.id, "raise")
    service.start_round(me, "baccarat", {"player": 500})
    service.start_round(me, "crazy4", {"ante": 500, "super_bonus": 500})
    found = [item.model_dump(mode="json") for item in service.history(me, 20)]
    service.engine.dispose()
    return url, found


def test_history_honours_every_format(tmp_path: Path) -> None:
    import csv

    url, found = _played_database(tmp_path)
    ids = [str(item["id"]) for item in found]

    text = runner.invoke(app, ["history", "--database", url])
    assert text.exit_code == 0, text.output
    assert [line.split()[0] for line in text.output.splitlines()] == [f"#{i}" for i in ids]

    as_json = runner.invoke(app, ["history", "--database", url, "--format", "json"])
    assert [str(item["id"]) for item in json.loads(as_json.output)] == ids

    as_csv = runner.invoke(app, ["history", "--database", url, "--format", "csv"])
    assert as_csv.exit_code == 0, as_csv.output
    rows = list(csv.DictReader(as_csv.output.splitlines()))
    assert [row["id"] for row in rows] == ids
    assert list(rows[0]) == [
        "id", "played_at", "game", "status", "net_cents", "balance_after_cents",
    ]  # fmt: skip
    by_game = {row["game"]: row for row in rows}
    assert by_game["crazy4"]["status"] == "open"
    assert by_game["crazy4"]["net_cents"] == ""  # an open round has no net yet
    assert int(by_game["tri-card"]["net_cents"]) == next(
        item["net"] for item in found if item["game"] == "tri-card"
    )

    markdown = runner.invoke(app, ["history", "--database", url, "--format", "markdown"])
    assert markdown.exit_code == 0, markdown.output
    lines = markdown.output.splitlines()
    assert lines[0] == "| round | played at | game | status | net | balance after |"
    assert lines[1] == "|---|---|---|---|---|---|"
    assert [line.split("|")[1].strip() for line in lines[2:]] == [f"#{i}" for i in ids]
    assert all(line.count("|") == 7 for line in lines)


def test_simulate_honours_every_format() -> None:
    import csv

    base = ["simulate", "tri-card", "--rounds", "2000", "--strategy", "simple", "--seed", "3"]
    text = runner.invoke(app, base)
    assert text.exit_code == 0, text.output
    assert "whole game" in text.output
    data = json.loads(runner.invoke(app, [*base, "--format", "json"]).output)
    assert data["rounds"] == 2000
    as_csv = runner.invoke(app, [*base, "--format", "csv"])
    assert as_csv.exit_code == 0, as_csv.output
    rows = list(csv.DictReader(as_csv.output.splitlines()))
    assert list(rows[0]) == [
        "wager", "house_edge", "ci95_low", "ci95_high", "standard_error", "exact", "z",
    ]  # fmt: skip
    assert {row["wager"] for row in rows} == set(data["house_edge"])
    net = next(row for row in rows if row["wager"] == "net")
    # same seed, same run
    assert float(net["house_edge"]) == data["house_edge"]["net"]["simulated"]
    markdown = runner.invoke(app, [*base, "--format", "markdown"]).output
    assert "| wager | house_edge | ci95_low | ci95_high | standard_error | exact | z |" in markdown
    assert "|---|---|---|---|---|---|---|" in markdown
    assert "| net |" in markdown


def test_bankroll_honours_every_format() -> None:
    import csv

    base = [
        "bankroll", "tri-card", "--bankroll", "100", "--wagers", "ante=10",
        "--sessions", "50", "--rounds-per-session", "5", "--strategy", "simple", "--seed", "1",
    ]  # fmt: skip
    text = runner.invoke(app, base)
    assert text.exit_code == 0, text.output
    assert "probability of ruin" in text.output
    data = json.loads(runner.invoke(app, [*base, "--format", "json"]).output)
    assert data["sessions"] == 50
    as_csv = runner.invoke(app, [*base, "--format", "csv"])
    rows = dict(csv.reader(as_csv.output.splitlines()))
    assert rows.pop("measure") == "value"
    assert float(rows["probability_of_ruin"]) == data["probability_of_ruin"]
    assert float(rows["result_quantiles.50%"]) == data["result_quantiles"]["50%"]
    markdown = runner.invoke(app, [*base, "--format", "markdown"]).output.splitlines()
    assert markdown[:2] == ["| measure | value |", "|---|---|"]
    assert "| sessions | 50 |" in markdown


def test_analyze_csv_is_read_back_by_the_csv_module() -> None:
    import csv

    table = runner.invoke(app, ["analyze", "tri-card", "--wagers", "ante", "--format", "csv"])
    rows = list(csv.DictReader(table.output.splitlines()))
    assert rows
    assert {row["wager"] for row in rows} >= {"ante"}
    assert all(float(row["probability"]) >= 0 for row in rows)


def test_play_auto_honours_both_formats(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'auto.db'}"
    base = ["play", "tri-card", "--auto", "simple", "--rounds", "2", "--database", url]
    text = runner.invoke(app, base)
    assert text.exit_code == 0, text.output
    assert [line[:3] for line in text.output.splitlines()] == ["#1 ", "#2 "]
    lines = runner.invoke(app, [*base, "--format", "json"]).output.splitlines()
    assert len(lines) == 2
    assert all("net" in json.loads(line) for line in lines)


# ------------------------------------------------------------ extras checked first


def _without(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make the command believe ``modules`` are not installed (nothing is uninstalled)."""
    from riverboat.cli import _extras

    real = _extras.find_spec
    monkeypatch.setattr(
        _extras, "find_spec", lambda name, *a: None if name in modules else real(name, *a)
    )


def _refuse_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any real work fails the test: the extra must be checked before it."""
    import riverboat.analysis
    import riverboat.sim
    import riverboat.sim.bankroll
    import riverboat.table.service

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the extra was checked")

    monkeypatch.setattr(riverboat.sim.bankroll, "bankroll", started)
    monkeypatch.setattr(riverboat.analysis, "analyze", started)
    monkeypatch.setattr(riverboat.sim, "simulate", started)
    monkeypatch.setattr(riverboat.table.service, "TableService", started)


def test_a_missing_extra_stops_the_command_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = {
        ("matplotlib",): [
            (["bankroll", "rabbit-hunter", "--bankroll", "500", "--wagers", "ante=10",
              "--plot", "sessions.png"], "plot"),
            (["analyze", "tri-card", "--plot", "chart.png"], "plot"),
        ],
        ("fastapi",): [(["serve"], "web")],
        ("textual",): [(["play", "tri-card"], "terminal")],
        ("distributed",): [
            (["simulate", "baccarat", "--scheduler", "tcp://10.0.0.5:8786"], "cluster")
        ],
        ("psycopg",): [
            (["history", "--database", "postgresql+psycopg://u@h/db"], "postgres"),
            (["accounts", "balance", "--database", "postgresql+psycopg://u@h/db"], "postgres"),
            (["play", "tri-card", "--auto", "simple",
              "--database", "postgresql+psycopg://u@h/db"], "postgres"),
        ],
    }  # fmt: skip
    for missing, commands in cases.items():
        with pytest.MonkeyPatch.context() as patch:
            _without(patch, *missing)
            _refuse_work(patch)
            for args, extra in commands:
                result = runner.invoke(app, args)
                assert result.exit_code == 2, (args, result.output)
                lines = result.output.strip().splitlines()
                assert len(lines) == 1, (args, result.output)  # one line, no traceback
                assert f"pip install 'riverboat[{extra}]'" in lines[0], (args, lines)
                assert missing[0] in lines[0], (args, lines)


def test_the_terminal_extra_is_not_needed_with_auto(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _without(monkeypatch, "textual")
    url = f"sqlite:///{tmp_path / 'auto.db'}"
    result = runner.invoke(app, ["play", "tri-card", "--auto", "simple", "--database", url])
    assert result.exit_code == 0, result.output


# ------------------------------------------------------------ bad input, said plainly


def test_more_bad_input_names_what_is_wrong_and_what_is_allowed(tmp_path: Path) -> None:
    from importlib.util import find_spec

    folder = tmp_path
    (folder / "numbers.json").write_text("[1, 2]")
    cases = {
        ("simulate", "baccarat", "--scheduler", "nonsense"): (2, "is tcp://HOST:PORT"),
        ("history", "--database", "postgresql://u@h/db"): (2, "postgresql+psycopg://"),
        ("history", "--format", "xml"): (2, "'text', 'json', 'csv', 'markdown'"),
        ("verify", str(folder / "numbers.json")): (1, "item 2: FAILED: not a round record"),
        # a path is not a URL: the URL of that file is given, before anything starts
        ("serve", "--database", str(folder / "a.db")): (2, f"sqlite:///{folder / 'a.db'}"),
        ("history", "--database", "games.db"): (2, "is not a database URL"),
        ("serve", "--database", "mysql://u@h/db"): (2, "SQLite or PostgreSQL, not 'mysql'"),
        # a database that cannot be opened stops the server before it says it serves
        ("serve", "--database", f"sqlite:///{folder}/missing/a.db"): (
            2,
            "Invalid value for --database: cannot open the database",
        ),
    }
    for args, (code, message) in cases.items():
        if "postgresql://u@h/db" in args and find_spec("psycopg2") is not None:
            continue  # the driver is there: the URL is fine
        result = runner.invoke(app, list(args))
        assert result.exit_code == code, (args, result.output)
        assert message in " ".join(result.output.split()), (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), args
        assert "serving the tables" not in result.output


def test_history_with_credits_lists_the_starting_credit_and_each_top_up(tmp_path: object) -> None:
    from riverboat.table.service import TableService

    url = f"sqlite:///{Path(str(tmp_path)) / 'credits.db'}"
    service = TableService(url)
    me = service.local_player()
    for ante in (50_000, 49_750):
        service.act(me, service.start_round(me, "tri-card", {"ante": ante}).id, "fold")
    service.top_up(me)
    service.engine.dispose()
    listing = runner.invoke(app, ["history", "--credits", "--database", url])
    assert listing.exit_code == 0, listing.output
    rows = [line.split() for line in listing.output.splitlines()]
    assert [(r[3], r[-3], r[-1]) for r in rows] == [
        ("top-up", "+$997.50", "$1,000"),
        ("starting", "+$1,000", "$1,000"),
    ]
    newest = int(rows[0][0].lstrip("#"))
    older = runner.invoke(app, ["history", "--credits", "--before", str(newest), "--format",
                                "json", "--database", url])  # fmt: skip
    assert [(c["kind"], c["amount"]) for c in json.loads(older.output)] == [("start", 100_000)]
    rounds = runner.invoke(app, ["history", "--database", url])  # the rounds, as before
    assert [line.split()[2] for line in rounds.output.splitlines()] == ["tri-card", "tri-card"]
