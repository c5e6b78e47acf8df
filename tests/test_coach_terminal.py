"""The coach at the terminal table: `c` turns it on or off (remembered), and after each
decision the message line says the verdict and the session's tally. A screenshot at
80x24 goes to test-artifacts/screenshots/."""

import asyncio
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from riverboat.table.coach import coach_round
from riverboat.table.service import TableService
from riverboat.terminal.app import TableApp
from riverboat.terminal.table import remembered_coach

SHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The settings file in a folder of the test's own, never the user's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return tmp_path


def message(app: TableApp) -> str:
    return " ".join(str(app.query_one("#message", Static).content).split())


async def verdict_said(pilot: Pilot[None], app: TableApp) -> str:
    for _ in range(600):  # the verdict is worked out beside the table
        await pilot.pause(0.05)
        if "Session:" in message(app):
            break
    return message(app)


def test_the_coach_is_off_at_first_and_c_turns_it_on_and_remembers() -> None:
    assert not remembered_coach()
    app = TableApp(TableService("sqlite://"), game="tri-card", house_edges=False)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert not app.coaching
            await pilot.press("c")
            assert app.coaching
            assert message(app).startswith("Coach on:")
            assert "no decisions yet" in message(app)

    asyncio.run(run())
    assert remembered_coach()
    assert TableApp(TableService("sqlite://"), house_edges=False).coaching


def test_after_each_decision_the_verdict_and_the_session_are_said() -> None:
    service = TableService("sqlite://")
    wagers = {"ante": 500, "super_bonus": 500}
    app = TableApp(service, game="crazy4", wagers=wagers, house_edges=False, coach=True)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("d")
            view = app.round_view()
            assert view is not None
            assert "c turns the coach off" in message(app)
            await pilot.press("f")  # Fold: the best play only for the weakest hands
            said = await verdict_said(pilot, app)
            assert app.tally.decisions == 1
            # the same words as the page's (riverboat.table.coach), then the session's
            verdict = coach_round(view, "fold")
            assert f"{verdict.text} Session: 1 decision, " in said
            if app.tally.best:
                assert "Coach: Fold was the best play. Session: 1 decision, the best play." in said
            else:  # the best play named first, what it does better in dollars, on average
                better = rf"Coach: {re.escape(verdict.best_label)} was better: on average, "
                assert re.search(better + r"with your \$10 in wagers, it .*\$.* Fold\.", said)
                assert "on average the others cost " in said
            assert "Antes" not in said
            await pilot.press("g", "p")  # Quick Replay, then Play 1x
            said = await verdict_said(pilot, app)
            assert "Coach: Play 1x was the best play." in said or " than Play 1x." in said
            assert app.tally.decisions == 2
            SHOTS.mkdir(parents=True, exist_ok=True)
            app.save_screenshot(str(SHOTS / "terminal-coach-80x24.svg"))

    asyncio.run(run())


def test_with_the_coach_off_nothing_is_weighed() -> None:
    service = TableService("sqlite://")
    app = TableApp(service, game="tri-card", wagers={"ante": 500}, house_edges=False, coach=False)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("d", "f")
            await pilot.pause(0.3)
            view = app.round_view()
            assert view is not None
            assert view.status == "settled"
            assert "Coach" not in message(app)
            assert app.tally.decisions == 0

    asyncio.run(run())
