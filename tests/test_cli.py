"""The riverboat command: version, demo deal, deck re-derivation, hand names, clear errors."""

import json
import re

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
        ("name", "As Ad"): "a hand here has 3, 5, 6 or 7 cards",
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
    from pathlib import Path

    text = runner.invoke(app, ["analyze", "tri-card", "--wagers", "ante"])
    assert text.exit_code == 0, text.output
    assert "3.3730%" in text.output
    assert "Raise with Q-6-4 or better" in text.output
    data = json.loads(
        runner.invoke(app, ["analyze", "baccarat", "--wagers", "banker", "--format", "json"]).output
    )
    assert round(data["house_edge"], 6) == 0.010579
    table = runner.invoke(app, ["analyze", "baccarat", "--wagers", "tie", "--format", "csv"]).output
    assert table.splitlines()[0] == "wager,event,pays,combinations,probability,contribution"
    assert "tie,Tie,8.0,475627426473216" in table
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
    assert round(data["house_edge"] * 100, 4) == 7.2760
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
    assert round(six["house_edge"] * 100, 4) == 1.2374  # Wizard of Odds, "Baccarat", 6 decks


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
    from pathlib import Path

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
    from pathlib import Path

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
    from pathlib import Path

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
