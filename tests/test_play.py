"""`riverboat play`: the terminal table driven by key presses in Textual's headless
pilot at 80x24, and the plain mode for scripts through the command line."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import Awaitable, Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey
from typer.testing import CliRunner

import riverboat.rng
from riverboat.analysis import best_action
from riverboat.cli import app as cli
from riverboat.fairness import commitment as commit_to
from riverboat.games.rules import RulesError
from riverboat.money import format_money
from riverboat.table.service import TableService
from riverboat.table.views import ChoiceView, RoundView
from riverboat.terminal.app import TableApp
from riverboat.terminal.cards import face
from riverboat.terminal.plain import COMMITMENT_WARNING, AutoPlayer, Decision
from riverboat.terminal.screens import AmountScreen, HistoryScreen, RulesScreen

# wide enough that no error message wraps; never the player's own database
runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "RIVERBOAT_DATABASE_URL": "sqlite://"})
SCREEN = Region(0, 0, 80, 24)
START = 100_000  # a new player's play money, in cents

Scenario = Callable[[Pilot[None], TableApp], Awaitable[None]]


def play(scenario: Scenario, service: TableService | None = None, **options: Any) -> TableApp:
    """Run ``scenario`` against a fresh table at 80x24; the app, for checks after."""
    app = TableApp(service or TableService("sqlite://"), house_edges=False, **options)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await scenario(pilot, app)

    asyncio.run(run())
    return app


def text(app: TableApp, widget: str) -> str:
    return " ".join(str(app.query_one(f"#{widget}", Static).content).split())


def footer(app: TableApp) -> dict[str, str]:
    """The keys the footer lists (key -> description); each must be on the screen."""
    keys = {}
    for key in app.screen.query(FooterKey):
        assert SCREEN.contains_region(key.region), (key.key, key.region)
        keys[key.key] = key.description
    return keys


def on_screen(app: TableApp) -> None:
    """Every part of the table is inside the 80x24 screen, and the message is there
    whole: none of it is cut off at the bottom of its box."""
    for widget in ("top", "dealer", "player", "spots", "chips", "choices", "message", "status"):
        region = app.query_one(f"#{widget}").region
        assert region.height, widget
        assert SCREEN.contains_region(region), (widget, region)
    assert SCREEN.contains_region(app.query_one(Footer).region)
    assert shown(app, "message") == " ".join(app.message.plain.split())


def screen_rows(app: TableApp) -> list[Strip]:
    """The screen as the terminal gets it: one strip of styled text per row."""
    return app.screen._compositor.render_strips()


def shown(app: TableApp, widget: str) -> str:
    """The text the screen shows inside a widget's box, its rows joined."""
    region = app.query_one(f"#{widget}").region
    rows = [strip.text[region.x : region.right] for strip in screen_rows(app)]
    return " ".join(" ".join(rows[region.y : region.bottom]).split())


def net(view: RoundView) -> int:
    assert view.result is not None
    return sum(view.result.values())


def decision(app: TableApp) -> dict[str, Any]:
    """The last decision as the round's stored record has it."""
    record = app.service.history(app.player, 1)[0].record
    assert record is not None
    decisions = [event for event in record.events if event["kind"] == "decision"]
    return {"action": decisions[-1]["action"], "amount": decisions[-1]["amount"]}


@pytest.fixture
def fixed_server_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal's server seed is the same, so a client seed picks the cards."""
    monkeypatch.setattr(riverboat.rng, "new_server_seed", lambda: "5e" * 32)


def seed_for(
    game: str,
    wagers: dict[str, int],
    wanted: Callable[[dict[str, Any]], bool],
    before: tuple[str, ...] = (),
) -> str:
    """A client seed whose deal satisfies ``wanted`` after the rounds ``before`` (played
    with those seeds and folded) in a fresh database: found through the service itself."""
    for candidate in range(2000):
        service = TableService("sqlite://")
        me = service.local_player()
        for seed in before:
            view = service.start_round(me, game, wagers, seed)
            service.act(me, view.id, "fold")
        view = service.start_round(me, game, wagers, f"seed-{candidate}")
        if wanted(view):
            return f"seed-{candidate}"
    raise AssertionError("no seed found")


# ------------------------------------------------------------------ the table


def test_rabbit_hunter_chips_deal_buy_quick_replay_and_fold_by_keys() -> None:
    """R2 taps and holds, R1 the Bonus follows the Ante, R4 Buy & Play and Fold, R10."""
    seen: dict[str, Any] = {}

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        on_screen(app)
        keys = footer(app)
        assert {"up", "left", "enter", "backspace", "d", "g", "t", "y", "q"} <= set(keys)
        assert keys["g"] == "Replay"
        assert not {"f", "p", "b", "h"} & set(keys)
        assert "1" in text(app, "games")
        assert "4 Baccarat" in text(app, "games")
        # a Bonus before the Ante is refused with a reason, and changes nothing
        await pilot.press("down", "enter")
        assert "place the Ante first" in text(app, "message")
        assert not any(app.wagers["rabbit-hunter"].values())
        await pilot.press("up", "right", "enter")  # $25 on the Ante
        await pilot.press("down", "enter")  # the Bonus takes the Ante's amount
        await pilot.press("up", "enter")  # the Ante grows, the Bonus follows (R1)
        assert app.wagers["rabbit-hunter"] == {"ante": 5000, "bonus": 5000, "bad_beat": 0}
        await pilot.press("right", "right", "enter")  # a $500 chip: capped at the maximum
        assert app.wagers["rabbit-hunter"]["ante"] == 50000
        await pilot.press("enter")  # a tap at the maximum resets the spot (R2)
        assert app.wagers["rabbit-hunter"] == {"ante": 0, "bonus": 0, "bad_beat": 0}
        await pilot.press("left", "left", "enter", "enter", "down", "enter")  # $50 and Bonus
        await pilot.press("down", "left", "enter", "backspace")  # hold clears Bad Beat (R2)
        assert app.wagers["rabbit-hunter"] == {"ante": 5000, "bonus": 5000, "bad_beat": 0}
        assert "$50" in text(app, "spots")

        await pilot.press("d")
        view = app.round_view()
        assert view is not None
        assert view.status == "open"
        assert app.balance == START - 10_000
        assert text(app, "choices") == "Your decision: f Fold p Play $50 b Buy & Play $100"
        keys = footer(app)
        assert {"f", "p", "b", "h"} <= set(keys)
        assert not {"d", "up", "enter"} & set(keys)
        assert len(view.cards["player"]) == 5
        assert view.face_down == 5
        on_screen(app)
        await pilot.press("d", "enter")  # no deal and no chip while deciding
        assert app.round_view() is view

        await pilot.press("b")  # Buy & Play: fee and Play, each equal to the Ante (R4)
        bought = app.round_view()
        assert bought is not None
        assert bought.status == "settled"
        assert bought.result["fee"] == -5000
        assert len(bought.cards["rabbit"]) == 1
        assert app.balance == START + net(bought) == app.service.balance(app.player)
        assert text(app, "message").startswith("Dealer:")
        assert "the rabbit" in text(app, "player")
        seen["bought"] = bought

        await pilot.press("g")  # Quick Replay: the same wagers, dealt again (R10)
        again = app.round_view()
        assert again is not None
        assert again.id == bought.id + 1
        assert again.wagers == {"ante": 5000, "bonus": 5000, "bad_beat": 0}
        assert app.balance == START + net(bought) - 10_000
        await pilot.press("f")  # Fold: Ante and Bonus lost (R4)
        folded = app.round_view()
        assert folded is not None
        assert folded.result["ante"] == folded.result["bonus"] == -5000
        assert app.balance == START + net(bought) - 10_000
        assert "2 rounds" in text(app, "status")
        on_screen(app)

    app = play(scenario)
    assert app.service.audit() == []


def test_quick_replay_twice_never_decides_and_raise_never_deals() -> None:
    """Quick Replay and Raise have keys of their own: Quick Replay pressed twice deals
    one round and leaves it open, undecided; the Raise key between rounds deals nothing."""
    service = TableService("sqlite://")
    me = service.local_player()

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("enter", "d", "f")
        folded = app.round_view()
        assert folded is not None
        assert folded.status == "settled"
        await pilot.press("r")  # Raise with no round open: nothing is dealt
        assert app.round_view() == folded
        assert service.history(me, 1)[0].id == folded.id
        assert app.balance == START - 500
        await pilot.press("g", "g")  # Quick Replay, twice in a row
        again = app.round_view()
        assert again is not None
        assert again.id == folded.id + 1
        assert again.status == "open"
        assert service.history(me, 1)[0].id == again.id
        record = service.history(me, 1)[0].record
        decided = [e for e in record.events if e["kind"] == "decision"] if record else []
        assert not decided
        assert service.open_round(me, "tri-card") == again
        assert {"f", "r"} <= set(footer(app))
        assert "g" not in footer(app)

    play(scenario, service, game="tri-card")


def test_tri_card_hint_raise_and_pair_plus_alone(fixed_server_seed: None) -> None:
    """The hint gives the analyzer's value of each option; Raise equals the Ante (T3);
    Pair Plus alone has no decision."""

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("2", "enter", "down", "enter", "d")  # $5 Ante and Pair Plus
        view = app.round_view()
        assert view is not None
        assert view.game == "tri-card"
        keys = footer(app)
        assert keys["r"] == "Raise"
        assert keys["f"] == "Fold"
        assert "b" not in keys
        await pilot.press("h")
        for _ in range(2400):  # the first hint of a run may compile code
            if not app.hinting:
                break
            await pilot.pause(0.05)
        expected = best_action(
            "tri-card", " ".join(view.cards["player"]), {"ante": 1, "pair_plus": 1}
        )
        hint = text(app, "message")
        # in words and dollars first, the same as the page's: $10 in wagers, on average
        best = expected[0].label
        assert hint.startswith(f"Best: {best}. On average, with your $10 in wagers, it ")
        assert "Fold loses $10" in hint or hint.startswith("Best: Fold.")
        assert hint.endswith("h again: the figures.")
        await pilot.press("h")  # the figures behind the words, per $1 of Ante
        figures = text(app, "message")
        assert figures.startswith("Expected value per $1 of Ante (your other wagers")
        for option in expected:
            shown = f"{float(option.expected):+.4f}".replace("-", "\N{MINUS SIGN}")
            assert f"{option.label} {shown}" in figures
        await pilot.press("h")  # and back to the words
        assert text(app, "message") == hint
        await pilot.press("r")
        raised = app.round_view()
        assert raised is not None
        assert raised.status == "settled"
        assert decision(app) == {"action": "raise", "amount": 500}
        assert app.balance == START + net(raised)
        await pilot.press("up", "backspace", "d")  # Pair Plus alone: settled at once
        alone = app.round_view()
        assert alone is not None
        assert alone.status == "settled"
        assert set(alone.result) >= {"pair_plus"}
        assert alone.wagers["ante"] == 0
        assert app.balance == START + net(raised) + net(alone)
        assert "f" not in footer(app)

    play(scenario, client_seed="fixed")


def test_crazy4_play_up_to_three_times_with_aces(fixed_server_seed: None) -> None:
    """C3: with a pair of aces or better, Play any whole-dollar amount from 1x to 3x;
    a bad amount is refused and changes nothing."""
    wagers = {"ante": 500, "super_bonus": 500}

    def ranged(view: dict[str, Any]) -> bool:
        return any(c.maximum > c.minimum for c in view.choices)

    first = seed_for("crazy4", wagers, ranged)
    second = seed_for("crazy4", wagers, ranged, before=(first,))

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("3", "enter", "d")  # the Super Bonus is required and follows
        view = app.round_view()
        assert view is not None
        assert view.wagers == {**wagers, "queens_up": 0}
        assert {"f", "p", "m", "a"} <= set(footer(app))
        assert "m Play $15" in text(app, "choices")
        await pilot.press("a")
        assert isinstance(app.screen, AmountScreen)
        await pilot.press("2", "0", "enter")  # $20: above 3x
        assert isinstance(app.screen, AmountScreen)
        assert "$20 is outside $5 to $15" in str(app.screen.query_one("#amount-error").content)
        await pilot.press("backspace", "backspace", "x", "enter")
        assert "x: type a whole number of dollars, $5 to $15" in str(
            app.screen.query_one("#amount-error").content
        )
        await pilot.press("backspace", "²", "enter")  # a digit to str.isdigit(), not to int()
        assert isinstance(app.screen, AmountScreen)
        assert "²: type a whole number of dollars, $5 to $15" in str(
            app.screen.query_one("#amount-error").content
        )
        await pilot.press("backspace", "1", "0", "enter")
        assert not isinstance(app.screen, AmountScreen)
        played = app.round_view()
        assert played is not None
        assert decision(app) == {"action": "play", "amount": 1000}
        assert app.balance == START + net(played)
        app.client_seed = second
        await pilot.press("d", "m")  # the most: 3x the Ante
        most = app.round_view()
        assert most is not None
        assert decision(app) == {"action": "play", "amount": 1500}
        assert app.balance == START + net(played) + net(most)

    play(scenario, client_seed=first)


def hand_lines(app: TableApp) -> list[str]:
    return str(app.query_one("#player", Static).content).split("\n")


def test_crazy4_blind_second_position_by_keys(fixed_server_seed: None) -> None:
    """C8: b adds a blind second position with the same wagers and its 1x Play; its
    cards stay face down until the showdown; the balance and the session move by the
    whole round's net; Quick Replay deals both positions again."""
    wagers = {"ante": 500, "super_bonus": 500, "queens_up": 0}

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("3", "enter")
        keys = footer(app)  # every key inside the 80 columns
        assert keys["b"] == "Blind"
        assert "Blind second hand: off" in text(app, "spots")
        await pilot.press("b", "b", "b")  # on, off, on
        assert app.blind
        assert "Blind second hand: on" in text(app, "spots")
        assert "On the felt: $25 on two hands" in text(app, "choices")  # with its 1x Play
        await pilot.press("right", "right", "right", "enter", "down", "down", "enter")
        felt = "On the felt: $2,700 on two hands. d deals it; g is Quick Replay."
        assert text(app, "choices") == felt  # the most there can be, on one line
        assert app.query_one("#choices").region.width >= len(felt)
        await pilot.press("up", "up", "backspace", "down", "down", "backspace")
        await pilot.press("up", "up", "left", "left", "left", "enter")
        assert "On the felt: $25 on two hands" in text(app, "choices")
        on_screen(app)

        await pilot.press("d")
        view = app.round_view()
        assert view is not None
        assert view.status == "open"
        assert view.second == wagers
        assert "player:blind" not in view.cards
        assert app.balance == START - 2500 == app.service.balance(app.player)
        lines = hand_lines(app)
        assert [line[41:47].strip() for line in lines] == ["Your", "blind", "hand"]
        assert lines[1][47:].count("░░░") == 5  # the blind hand, face down
        assert text(app, "dealer").count("░░░") == 5  # and the dealer's, not ten
        assert "b" not in footer(app)
        await pilot.press("b")  # no toggling while the round is open
        assert app.blind
        on_screen(app)

        await pilot.press("p")
        played = app.round_view()
        assert played is not None
        assert played.status == "settled"
        blind = played.cards["player:blind"]
        assert len(blind) == 5
        assert "░" not in text(app, "player")
        for card in blind:
            assert face(card) in text(app, "player")
        whole = net(played) + sum(played.second_result.values())
        assert played.net == whole
        assert app.balance == START + whole == app.service.balance(app.player)
        assert app.session_net == whole
        assert f"1 round, {format_money(whole, signed=True)}" in text(app, "status")
        assert f"Both hands: {format_money(whole, signed=True)}." in text(app, "message")

        await pilot.press("b")  # off; Quick Replay still replays the last round's positions
        assert not app.blind
        await pilot.press("g")
        again = app.round_view()
        assert again is not None
        assert again.id == played.id + 1
        assert again.second == wagers
        assert app.blind
        assert "player:blind" not in again.cards
        assert hand_lines(app)[1].count("░░░") == 5
        assert app.balance == START + whole - 2500
        await pilot.press("f")  # the first position folds; the blind one plays 1x
        folded = app.round_view()
        assert folded is not None
        assert app.balance == START + whole + folded.net == app.service.balance(app.player)
        assert app.session_net == whole + folded.net
        on_screen(app)

    app = play(scenario, client_seed="blind")
    assert app.service.audit() == []


def short_of_money() -> TableService:
    """A fresh table whose player has $80 left (two $460 Antes folded)."""
    service = TableService("sqlite://")
    me = service.local_player()
    for seed in ("first", "second"):
        view = service.start_round(me, "rabbit-hunter", {"ante": 46_000}, seed)
        service.act(me, view.id, "fold")
    return service


def test_a_long_result_is_read_whole_at_80x24(fixed_server_seed: None) -> None:
    """Crazy 4 with its blind hand, Queens Up and a 3x Play, below $100: the result
    over both hands and the top-up note take five lines, and every word is on the
    screen; the blank lines the message took come back with a short one."""
    wagers = {"ante": 500, "super_bonus": 500, "queens_up": 500}
    me = short_of_money().local_player()
    for candidate in range(2000):
        table = short_of_money()
        view = table.start_round(me, "crazy4", wagers, f"seed-{candidate}", second=wagers)
        if any(c.maximum > c.minimum for c in view.choices):
            break

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("d", "m")  # the most: 3x the Ante
        await pilot.pause()
        played = app.round_view()
        assert played is not None
        assert played.result["play"] in (-1500, 0, 1500)
        assert played.second_result["queens_up"]
        assert app.balance < 10_000
        said = " ".join(app.message.plain.split())
        assert said.endswith(f"Both hands: {format_money(played.net, signed=True)}. "
                             "Below $100: u tops the play money up.")  # fmt: skip
        assert app.query_one("#message").region.height >= 5
        on_screen(app)
        await pilot.press("enter")  # a short message: the blank lines come back
        await pilot.pause()
        assert app.query_one("#message").styles.margin.top == 1
        on_screen(app)

    play(
        scenario,
        short_of_money(),
        game="crazy4",
        wagers=wagers,
        blind=True,
        client_seed=f"seed-{candidate}",
    )


def test_crazy4_blind_key_with_a_top_up_in_the_footer() -> None:
    """Below $100 the footer lists the top-up; b still works, listed on the felt."""
    service = TableService("sqlite://")
    me = service.local_player()
    for _ in range(2):  # $80 left
        view = service.start_round(me, "rabbit-hunter", {"ante": 46_000})
        service.act(me, view.id, "fold")

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        keys = footer(app)
        assert keys["u"] == "Top up"
        assert "b" not in keys
        assert "b Blind second hand: off" in text(app, "spots")
        await pilot.press("enter", "b", "d")
        view = app.round_view()
        assert view is not None
        assert view.second is not None
        assert app.balance == 8000 - 2500
        await pilot.press("f")
        done = app.round_view()
        assert done is not None
        assert app.balance == 8000 + done.net == service.balance(me)

    play(scenario, service, game="crazy4")


def test_baccarat_coup_and_no_hint() -> None:
    """B2: Player, Banker, Tie in any combination; no decision, so no hint key."""

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("4", "down", "enter", "down", "enter", "d")
        view = app.round_view()
        assert view is not None
        assert view.status == "settled"
        assert view.wagers == {"player": 0, "banker": 500, "tie": 500}
        assert app.balance == START + net(view)
        player, banker = view.totals
        assert f"Player {player}" in text(app, "player")
        assert f"Banker {banker}" in text(app, "dealer")
        winner = "P" if player > banker else "B" if banker > player else "T"
        assert text(app, "road") == f"Road {winner}"  # the bead road, as on the web
        assert SCREEN.contains_region(app.query_one("#road").region)
        assert "h" not in footer(app)
        said = text(app, "message")
        await pilot.press("h")  # no hint is worked out: the coup's result stays
        assert text(app, "message") == said
        assert not app.hinting
        assert not app.hints
        on_screen(app)
        await pilot.press("2")
        assert not app.query_one("#road").display

    play(scenario)


def test_baccarat_shoe_deals_on_until_n_ends_it() -> None:
    """B1: coup after coup from one shoe, the same commitment shown before each; between
    coups n ends the shoe: its seed shows in the history, and a new one is committed."""
    service = TableService("sqlite://")
    me = service.local_player()

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("4", "down", "enter")
        assert "n" not in footer(app)  # no shoe yet
        first = next_deal(app)
        await pilot.press("d")
        assert next_deal(app) == first  # the shoe deals on from its seed
        assert footer(app)["n"] == "Shuffle"  # inside the 80 columns
        assert "n Shoe: in play" in text(app, "spots")
        await pilot.press("g")
        assert next_deal(app) == first
        coups = service.history(me, 2)
        assert [coup.commitment[:16] for coup in coups] == [first, first]
        assert coups[0].server_seed is None
        on_screen(app)

        await pilot.press("n")
        assert text(app, "message") == (
            "The shoe is done: its seed shows in history; the next coup starts a new shoe."
        )
        assert not service.shoe_in_play(me, "baccarat")
        latest = service.history(me, 1)[0]
        assert commit_to(latest.server_seed) == latest.commitment
        assert next_deal(app) != first
        assert next_deal(app) == service.next_commitment(me, "baccarat")[:16]
        assert "n" not in footer(app)
        assert "Shoe: new" in text(app, "spots")
        on_screen(app)

    play(scenario, service)


def test_pay_table_history_and_top_up_without_betting() -> None:
    """R11: the pay table and rules at any time without betting; history; a top-up
    below $100 of play money."""
    service = TableService("sqlite://")
    me = service.local_player()
    for _ in range(2):  # two folded $500 Antes leave nothing
        view = service.start_round(me, "rabbit-hunter", {"ante": 50_000})
        service.act(me, view.id, "fold")

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("t")
        assert isinstance(app.screen, RulesScreen)
        page = " ".join(str(app.screen.query_one("#page", Static).content).split())
        assert "Royal Flush 500 to 1" in page
        assert "Pair of 10s or Higher 1 to 1" in page
        assert "Bad Beat $5 to $100" in page
        assert "Bonus $5 to $500, equal to the Ante" in page
        assert {"escape", "up", "down"} <= set(footer(app))
        await pilot.press("down", "escape")
        assert app.balance == 0
        assert app.round_view() is None
        await pilot.press("y")
        assert isinstance(app.screen, HistoryScreen)
        page = " ".join(str(app.screen.query_one("#page", Static).content).split())
        assert page.count("Rabbit Hunter settled -$500") == 2
        await pilot.press("escape")
        keys = footer(app)
        assert keys["u"] == "Top up"  # every key still fits on the 80 columns
        await pilot.press("u")
        assert app.balance == START == app.service.balance(app.player)
        assert "u" not in footer(app)

    play(scenario, service)


def test_history_gives_each_round_its_own_net() -> None:
    """A round's balances may have other rounds between them: a Baccarat coup played
    while a Tri-Card round waited is not part of the Tri-Card round's net."""
    service = TableService("sqlite://")
    me = service.local_player()
    waiting = service.start_round(me, "tri-card", {"ante": 1000})
    coup = service.start_round(me, "baccarat", {"banker": 5000, "tie": 500})
    assert coup.net  # never 0 with these two bets
    service.act(me, waiting.id, "fold")

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("y")
        page = " ".join(str(app.screen.query_one("#page", Static).content).split())
        assert f"Tri-Card Poker settled -$10 {format_money(service.balance(me))}" in page
        assert f"Baccarat settled {format_money(coup.net, signed=True)}" in page

    play(scenario, service)


def test_the_house_edge_on_the_pay_table() -> None:
    """R11 beside the analyzer: the pay table shows each Baccarat bet's house edge."""
    app = TableApp(TableService("sqlite://"), game="baccarat")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("t")
            for _ in range(2400):
                page = " ".join(str(app.screen.query_one("#page", Static).content).split())
                if "Banker 1.0579%" in page:
                    break
                await pilot.pause(0.05)
            assert "Player 1.2351% Banker 1.0579% Tie 14.3596%" in page  # Wizard of Odds

    asyncio.run(run())


def test_the_pay_table_shows_both_conventions_and_the_strategy_card() -> None:
    """The pay table's house edge per Ante and per total initial wager, the element of
    risk, then the strategy card with its cost (Wizard of Odds, "Three Card Poker":
    3.37% per Ante, element of risk 2.01%, raise with Q-6-4 or better)."""
    app = TableApp(TableService("sqlite://"), game="tri-card")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("t")
            for _ in range(2400):
                page = " ".join(str(app.screen.query_one("#page", Static).content).split())
                if "Following this card" in page:
                    break
                await pilot.pause(0.05)
            assert "House edge per Ante (as published) 3.3730%" in page
            assert "House edge per total initial wager 3.3730%" in page
            assert "Element of risk 2.0147%" in page
            assert "1. Raise with Q-6-4 or better. 2. Fold every other hand." in page
            assert "(cost 0.0000% of the Ante)" in page
            shots = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"
            shots.mkdir(parents=True, exist_ok=True)
            app.save_screenshot("pay-table-80x24.svg", str(shots))

    asyncio.run(run())


def test_a_round_left_open_resumes_g7() -> None:
    service = TableService("sqlite://")
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 1000})

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        assert app.round_view() == view
        assert "still open" in text(app, "message")
        await pilot.press("1", "2")  # away and back: still the same round
        assert app.round_view() == view
        await pilot.press("f")
        assert app.balance == START - 1000

    play(scenario, service, game="tri-card")


def test_a_round_played_elsewhere_meanwhile_is_picked_up() -> None:
    """The same player at the web table (or another terminal) on the same database."""
    service = TableService("sqlite://")
    me = service.local_player()

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("enter", "d")
        view = app.round_view()
        assert view is not None
        service.act(me, view.id, "fold")  # elsewhere
        await pilot.press("r")  # Raise here: refused, and the table catches up
        assert f"round {view.id} is settled" in text(app, "message")
        assert not app.is_open()
        assert app.balance == START - 500
        elsewhere = service.start_round(me, "tri-card", {"ante": 1000})
        await pilot.press("d")  # refused (G7): that round is shown, waiting for a decision
        assert app.round_view() == elsewhere
        assert "f" in footer(app)

    play(scenario, service, game="tri-card")


def test_a_round_finished_elsewhere_shows_finished_on_coming_back() -> None:
    """Away at another table while the round is finished at the web table (and another
    round moves the balance): back at its table, the round is settled and d deals."""
    service = TableService("sqlite://")
    me = service.local_player()

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("enter", "d")
        view = app.round_view()
        assert view is not None
        assert view.status == "open"
        await pilot.press("1")
        finished = service.act(me, view.id, "raise")  # elsewhere
        coup = service.start_round(me, "baccarat", {"banker": 1000})
        await pilot.press("2")
        shown = app.round_view()
        assert shown is not None
        assert (shown.id, shown.status) == (view.id, "settled")
        assert app.balance == service.balance(me) == finished.balance + coup.net
        assert text(app, "message") == " ".join(finished.description.split())
        assert not app.choices()
        assert "d" in footer(app)
        await pilot.press("d")
        dealt = app.round_view()
        assert dealt is not None
        assert (dealt.id, dealt.status) == (coup.id + 1, "open")

    play(scenario, service, game="tri-card")


def impatient(path: Path) -> TableService:
    """A table on an SQLite file that waits a tenth of a second for a lock, not 30."""
    service = TableService(f"sqlite:///{path}")

    def wait_briefly(connection: sqlite3.Connection, _: object) -> None:
        connection.execute("PRAGMA busy_timeout = 100")

    event.listen(service.engine, "connect", wait_briefly)
    service.engine.dispose()
    return service


def lock(path: Path) -> sqlite3.Connection:
    """Another program writing to the database: it holds the write lock until it ends."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_a_database_that_does_not_answer_is_said(tmp_path: Path) -> None:
    """A locked database (another program writing) is said on the table at a deal, a
    top-up and a change of table, while the history, a read, still opens; the table
    goes on once it answers."""
    path = tmp_path / "table.db"
    service = impatient(path)
    me = service.local_player()
    for seed in ("first", "second"):  # $80 left
        view = service.start_round(me, "rabbit-hunter", {"ante": 46_000}, seed)
        service.act(me, view.id, "fold")
    locked = "! the database did not answer: database is locked"

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        other = lock(path)
        try:
            await pilot.press("2", "enter", "d")
            assert text(app, "message") == locked
            assert app.round_view() is None
            await pilot.press("u")
            assert text(app, "message") == locked
            await pilot.press("y")  # reads do not wait for a writer (WAL): history opens
            await pilot.pause()
            assert isinstance(app.screen, HistoryScreen)
            await pilot.press("escape")
            await pilot.press("1")
            assert text(app, "message") == locked
        finally:
            other.close()
        await pilot.press("2", "u", "d")
        assert app.balance == START - 500 == service.balance(me)
        assert app.is_open()

    play(scenario, service)


def test_monochrome_and_ascii_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR turns colour off; --ascii draws cards with letters."""
    monkeypatch.setenv("NO_COLOR", "1")

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("2", "enter", "d")
        cards = app.round_view().cards["player"]  # type: ignore[union-attr]
        drawn = text(app, "player")
        assert "+---+" in drawn
        assert "♠" not in drawn
        for card in cards:
            assert card.replace("T", "10") in drawn
        # what reaches the terminal: greys at most, the red suits and the felt included
        for row in screen_rows(app):
            for segment in row:
                style = segment.style
                for color in (style.color, style.bgcolor) if style else ():
                    if color is not None and not color.is_default:
                        red, green, blue = color.get_truecolor()
                        assert red == green == blue, (segment.text, style)

    play(scenario, ascii_cards=True)


def next_deal(app: TableApp) -> str:
    """The commitment to the next deal's seed as the status line shows it: 16 digits."""
    found = re.search(r"next deal ([0-9a-f]{16})…", shown(app, "status"))
    assert found, shown(app, "status")
    return found[1]


def test_each_deal_comes_from_the_commitment_shown_before_it() -> None:
    """The status line shows the next deal's commitment before the app draws its own
    client seed, a fresh one per deal; the round dealt carries that commitment, and
    the next one is shown after each deal and on coming to a table."""
    service = TableService("sqlite://")
    me = service.local_player()
    dealt: list[RoundView] = []

    async def deal(pilot: Pilot[None], app: TableApp, key: str) -> None:
        """Deal with ``key`` from the commitment on the screen, and check the round."""
        full = app.commitments[app.game]
        assert full is not None
        assert full == service.next_commitment(me, app.game)
        assert next_deal(app) == full[:16]
        await pilot.press(key)
        view = app.round_view()
        assert view is not None
        assert view.id not in [d.id for d in dealt]
        assert view.commitment == full
        assert "Warning" not in text(app, "message")
        assert "not the one shown" not in text(app, "status")
        if view.status == "open":  # the round's own, beside its number
            assert f"commitment {full[:16]}…" in shown(app, "status")
        else:  # a fresh seed next; but a Baccarat shoe deals on until its cut card (B1)
            shoe_deals_on = app.game == "baccarat" and not view.server_seed
            assert (next_deal(app) == full[:16]) == shoe_deals_on
        dealt.append(view)

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        on_screen(app)
        await pilot.press("2", "enter")
        await deal(pilot, app, "d")
        await pilot.press("f")
        after = next_deal(app)  # shown once the round is over, and the same until a deal
        assert service.next_commitment(me, "tri-card")[:16] == after
        await deal(pilot, app, "g")  # Quick Replay
        await pilot.press("f")
        await pilot.press("4", "enter")
        await deal(pilot, app, "d")  # a coup, settled at once
        await deal(pilot, app, "g")
        elsewhere = service.start_round(me, "tri-card", {"ante": 500})  # takes the seed
        service.act(me, elsewhere.id, "fold")
        await pilot.press("2")
        await deal(pilot, app, "d")
        on_screen(app)
        await pilot.press("y")  # the history has it in full
        page = " ".join(str(app.screen.query_one("#page", Static).content).split())
        full = service.next_commitment(me, "tri-card")
        assert "Next round at Tri-Card Poker: the house has committed to its server" in page
        assert f"SHA-256 {full}" in page
        await pilot.press("escape", "f")
        app.client_seed = "mine"  # --client-seed: the one given, every deal
        await deal(pilot, app, "g")

    play(scenario, service)
    # one shoe for the two coups: its client seed is the first coup's, as its commitment
    coups = [view for view in dealt if view.game == "baccarat"]
    assert len(coups) == 2
    assert coups[0].client_seed == coups[1].client_seed
    assert coups[0].commitment == coups[1].commitment
    seeds = [view.client_seed for view in dealt if view is not coups[1]]
    assert all(re.fullmatch("[0-9a-f]{16}", seed) for seed in seeds[:-1]), seeds
    assert len(set(seeds[:-1])) == len(seeds) - 1  # a fresh one for each deal
    assert seeds[-1] == "mine"
    assert len({view.commitment for view in dealt}) == len(dealt) - 1
    assert service.audit() == []


def test_a_round_dealt_from_another_commitment_is_said() -> None:
    """The commitment shown no longer deals (a round dealt at the web table meanwhile
    took its seed): the round is dealt from another, and the table says so plainly."""
    service = TableService("sqlite://")
    me = service.local_player()

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("enter")
        before = app.commitments["tri-card"]
        assert before is not None
        elsewhere = service.start_round(me, "tri-card", {"ante": 500})
        service.act(me, elsewhere.id, "fold")
        await pilot.press("d")
        view = app.round_view()
        assert view is not None
        assert view.commitment != before
        assert text(app, "message").startswith(
            f"! Warning: round #{view.id} was dealt from the commitment "
            f"{view.commitment[:16]}…, not from {before[:16]}… shown before the deal. "
            f"Round #{view.id}: your decision."
        )
        assert app.message_is_error
        assert "! commitment not the one shown" in text(app, "status")
        on_screen(app)
        await pilot.press("f")  # said of that round while it is shown
        assert "! commitment not the one shown" in text(app, "status")
        await pilot.press("g")  # the next deal is from the commitment shown after it
        assert "Warning" not in text(app, "message")
        assert "not the one shown" not in text(app, "status")

    play(scenario, service, game="tri-card")


# ----------------------------------------------------------- the command line


def lines(*args: str) -> list[str]:
    result = runner.invoke(cli, ["play", *args])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_plain_text_lines_on_the_shared_database(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'table.db'}"
    out = lines("tri-card", "--auto", "always-play", "--rounds", "3", "--database", database)
    assert len(out) == 3
    assert all(line.startswith(f"#{n} Raise: Dealer:") for n, line in enumerate(out, 1))
    balance = runner.invoke(cli, ["accounts", "balance", "--database", database]).output.strip()
    assert out[-1].endswith(f"Balance {balance}.")
    history = runner.invoke(cli, ["history", "--database", database, "--format", "json"])
    assert [r["game"] for r in json.loads(history.output)] == ["tri-card"] * 3


def test_plain_json_lines_follow_the_optimal_strategy() -> None:
    out = lines(
        "tri-card",
        "--auto",
        "optimal",
        "--rounds",
        "6",
        "--wagers",
        "ante=10,pair_plus=5",
        "--format",
        "json",
        "--database",
        "sqlite://",
    )
    balance = START
    for line in out:
        record = json.loads(line)
        assert record["wagers"] == {"ante": 1000, "pair_plus": 500}
        assert record["net"] == sum(record["result"].values())
        balance += record["net"]
        assert record["balance"] == balance
        units = {"ante": Fraction(1), "pair_plus": Fraction(1, 2)}
        best = best_action("tri-card", " ".join(record["cards"]["player"]), units)[0]
        assert record["decision"]["action"] == best.option
        assert len(record["server_seed"]) == 64


def test_plain_rabbit_hunter_crazy4_and_baccarat() -> None:
    rabbit = [
        json.loads(x)
        for x in lines(
            "rabbit-hunter",
            "--auto",
            "simple",
            "--rounds",
            "4",
            "--wagers",
            "ante=10,bonus=10",
            "--format",
            "json",
            "--database",
            "sqlite://",
        )
    ]
    assert all(r["decision"]["action"] in ("fold", "play") for r in rabbit)  # simple never buys
    crazy = [
        json.loads(x)
        for x in lines(
            "crazy4",
            "--auto",
            "always-play",
            "--rounds",
            "3",
            "--format",
            "json",
            "--database",
            "sqlite://",
        )
    ]
    assert all(r["decision"]["action"] == "play" for r in crazy)
    assert all(r["result"]["play"] in (-500, 0, 500) for r in crazy)  # the minimums, Play 1x
    coups = lines(
        "baccarat",
        "--auto",
        "optimal",
        "--rounds",
        "3",
        "--wagers",
        "banker=25",
        "--database",
        "sqlite://",
    )
    for line in coups:  # the Banker bet's own result is in the line
        assert " Banker: " in line
        assert re.search(r": Banker (\+\$23\.75|-\$25|push)\. Net ", line), line


def test_plain_crazy4_with_a_blind_second_position() -> None:
    out = lines(
        "crazy4",
        "--auto",
        "always-play",
        "--blind",
        "--rounds",
        "3",
        "--format",
        "json",
        "--database",
        "sqlite://",
    )
    balance = START
    for line in out:
        record = json.loads(line)
        assert (
            record["second"]
            == record["wagers"]
            == {
                "ante": 500,
                "super_bonus": 500,
                "queens_up": 0,
            }
        )
        assert len(record["cards"]["player:blind"]) == 5
        assert record["second_result"]["play"] in (-500, 0, 500)  # always 1x (C8)
        whole = sum(record["result"].values()) + sum(record["second_result"].values())
        assert record["net"] == whole
        balance += whole
        assert record["balance"] == balance
    text_line = lines("crazy4", "--auto", "always-play", "--blind", "--database", "sqlite://")
    assert "Your blind hand:" in text_line[0]
    assert " Both hands: " in text_line[0]


def test_plain_json_lines_carry_the_commitment_shown_before_each_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each round's commitment is fetched before its client seed is drawn, a fresh one
    per round unless --client-seed gives one; the round must carry it, or the line
    says it does not."""
    # Tri-Card: a fresh seed each round (a Baccarat shoe keeps one to its cut card)
    args = ["tri-card", "--auto", "optimal", "--rounds", "3", "--format", "json"]
    drawn = [json.loads(line) for line in lines(*args, "--database", "sqlite://")]
    given = [json.loads(line) for line in lines(*args, "--client-seed", "mine")]
    for record in drawn + given:
        assert record["commitment_before_deal"] == record["commitment"]
        assert commit_to(record["server_seed"]) == record["commitment"]
    seeds = [record["client_seed"] for record in drawn]
    assert all(re.fullmatch("[0-9a-f]{16}", seed) for seed in seeds)
    assert len(set(seeds)) == 3
    assert [record["client_seed"] for record in given] == ["mine"] * 3
    assert len({record["commitment"] for record in drawn}) == 3

    service = TableService("sqlite://")  # shows one commitment, deals from another
    monkeypatch.setattr(service, "next_commitment", lambda player, game: "0" * 64)
    monkeypatch.setattr("riverboat.cli._database._service", lambda database: service)
    (line,) = lines("tri-card", "--auto", "optimal")
    balance = format_money(service.balance(service.local_player()))
    assert line.endswith(f"Balance {balance}. {COMMITMENT_WARNING}")
    (record,) = [json.loads(x) for x in lines(*args[:3], "--format", "json")]
    assert record["commitment_before_deal"] == "0" * 64 != record["commitment"]


def test_plain_mode_resumes_a_round_left_open(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'table.db'}"
    service = TableService(database)
    service.start_round(service.local_player(), "tri-card", {"ante": 2000})
    first, second = (
        json.loads(x)
        for x in lines(
            "tri-card",
            "--auto",
            "always-play",
            "--rounds",
            "2",
            "--format",
            "json",
            "--database",
            database,
        )
    )
    assert first["resumed"]
    assert first["wagers"]["ante"] == 2000
    assert first["commitment_before_deal"] is None  # dealt before: nothing fetched for it
    assert not second["resumed"]
    assert second["commitment_before_deal"] == second["commitment"]
    assert second["wagers"]["ante"] == 500


def test_plain_mode_stops_when_the_money_runs_out() -> None:
    """A Raise the balance cannot pay becomes a Fold, said in the line; then the next
    deal is refused (G6) and the command stops with a clear message."""
    result = runner.invoke(
        cli,
        [
            "play",
            "tri-card",
            "--auto",
            "always-play",
            "--rounds",
            "3",
            "--wagers",
            "ante=500,pair_plus=100",
            "--database",
            "sqlite://",
        ],
    )
    assert result.exit_code == 1
    out = result.output.splitlines()
    assert out[0].startswith("#1 Fold (Raise needs $500; the balance is $400): ")
    assert "Stopped after 1 of 3 rounds: the wagers come to $600; the balance is $400" in out[1]
    assert "Traceback" not in result.output


def test_plain_mode_says_when_the_database_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A locked database: one line on standard error and exit code 1, no traceback;
    rounds already played stand."""
    path = tmp_path / "table.db"
    service = impatient(path)
    monkeypatch.setattr("riverboat.cli._database._service", lambda database: service)
    args = ["play", "tri-card", "--auto", "always-play", "--rounds", "3"]
    other = lock(path)
    refused = runner.invoke(cli, args)
    other.close()
    assert refused.exit_code == 1, refused.output
    assert refused.output == "the database did not answer: database is locked\n"

    deal = service.start_round
    others: list[sqlite3.Connection] = []

    def locked_from_the_second(*args: Any, **kwargs: Any) -> RoundView:
        if not others:
            others.append(sqlite3.connect(":memory:"))
        else:
            others.append(lock(path))
        return deal(*args, **kwargs)

    monkeypatch.setattr(service, "start_round", locked_from_the_second)
    stopped = runner.invoke(cli, args)
    for connection in others:
        connection.close()
    assert stopped.exit_code == 1, stopped.output
    first, said = stopped.output.splitlines()
    assert first.startswith("#1 Raise: ")
    assert said == "Stopped after 1 of 3 rounds: the database did not answer: database is locked"
    assert [r.status for r in service.history(service.local_player())] == ["settled"]


def test_a_strategy_option_is_matched_to_a_choice_exactly() -> None:
    """Crazy 4's Play 3x is the Play choice for three Antes (C3); a round whose choices
    do not include the option's action is refused, not matched by a prefix."""
    auto = AutoPlayer("crazy4", "optimal")
    fold = ChoiceView(action="fold", label="Fold", minimum=0, maximum=0)
    view = RoundView(
        id=1,
        game="crazy4",
        status="open",
        shared=False,
        commitment="0" * 64,
        client_seed="seed",
        nonce=0,
        server_seed=None,
        cards={"player": ["As", "Ad", "Ac", "Kh", "Qh"]},
        face_down=5,
        totals=None,
        winner=None,
        choices=[fold, ChoiceView(action="play", label="Play", minimum=500, maximum=1500)],
        wagers={"ante": 500, "super_bonus": 500, "queens_up": 0},
        second=None,
        result=None,
        second_result=None,
        net=None,
        description=None,
        balance=START,
    )
    assert auto.decide(view) == Decision("play", 1500, "Play 3x")
    renamed = ChoiceView(action="p", label="Play", minimum=500, maximum=1500)
    with pytest.raises(RulesError, match="Play 3x is not a choice"):
        auto.decide(view.model_copy(update={"choices": [fold, renamed]}))


def test_plain_mode_with_a_strategy_file(tmp_path: Path) -> None:
    table = tmp_path / "strategy.csv"
    made = runner.invoke(cli, ["analyze", "tri-card", "--strategy", str(table)])
    assert made.exit_code == 0, made.output
    best = {row.split(",")[0]: row.split(",")[-1] for row in table.read_text().splitlines()[1:]}
    assert set(best.values()) == {"fold", "raise"}
    for line in lines(
        "tri-card",
        "--auto",
        str(table),
        "--rounds",
        "3",
        "--format",
        "json",
        "--database",
        "sqlite://",
    ):
        assert json.loads(line)["decision"]["action"] in ("fold", "raise")


def test_play_mistakes_get_clear_errors() -> None:
    cases = {
        ("poker", "--auto", "optimal"): "no game 'poker'",
        ("rabbit-hunter", "--auto", "optimal", "--wagers", "ante=10,bonus=5"): (
            "Bonus must equal the Ante ($10), not $5"
        ),
        ("tri-card", "--auto", "optimal", "--wagers", "ante=1000"): "outside the table limits",
        ("tri-card", "--auto", "best"): "no strategy 'best'",
        ("baccarat", "--auto", "missing.csv"): "no strategy 'missing.csv'",
        ("--auto", "optimal"): "--auto plays one game",
        ("tri-card", "--rounds", "5"): "--rounds goes with --auto",
        ("tri-card", "--auto", "optimal", "--blind"): "--blind goes with crazy4",
        ("tri-card",): "the table needs a terminal",
        ("tri-card", "--auto", "simple", "--database", "nosuch://x"): "SQLite or PostgreSQL, not",
        ("tri-card", "--auto", "simple", "--database", "sqlite:////no/such/dir/a.db"): (
            "cannot open the database"
        ),
        # --wagers: dollars, each wager once, an amount with each
        ("tri-card", "--auto", "optimal", "--wagers", "ante=ten"): (
            "'ante=ten': a wager is NAME=DOLLARS in whole cents, e.g. ante=10 or ante=12.50; "
            "the Ante takes $5 to $500"
        ),
        ("tri-card", "--auto", "optimal", "--wagers", "ante=5,ante=10"): "ante is named twice",
        ("rabbit-hunter", "--auto", "optimal", "--wagers", "ante=10,bonus"): (
            "'bonus': a wager is NAME=DOLLARS in whole cents"
        ),
        ("tri-card", "--auto", "optimal", "--wagers", "ante=1e999"): (
            "'ante=1e999': a wager is NAME=DOLLARS in whole cents, e.g. ante=10 or "
            "ante=12.50; the Ante takes $5 to $500"
        ),
        ("tri-card", "--wagers", "ante=12345678"): "the Ante takes $5 to $500",
        ("tri-card", "--wagers", "ante=10.001"): "whole cents",
    }
    for args, message in cases.items():
        result = runner.invoke(cli, ["play", *args])
        assert result.exit_code == 2, (args, result.output)
        assert message in " ".join(result.output.split()), (args, result.output)
        assert "Traceback" not in result.output
        assert "base units" not in result.output
        assert len(result.output) < 1000, (args, result.output)


def test_play_opens_the_table_in_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal `riverboat play` runs the app: --no-color sets NO_COLOR for it."""
    started: list[TableApp] = []
    monkeypatch.setattr("riverboat.cli.tables._is_terminal", lambda: True)
    monkeypatch.setattr(TableApp, "run", lambda self, **_: started.append(self))
    monkeypatch.setenv("NO_COLOR", "")  # restored after the test ...
    monkeypatch.delenv("NO_COLOR")  # ... and absent during it
    result = CliRunner(env={"RIVERBOAT_DATABASE_URL": "sqlite://"}).invoke(
        cli,
        [
            "play",
            "crazy4",
            "--no-color",
            "--blind",
            "--wagers",
            "ante=25,super_bonus=25",
            "--database",
            "sqlite://",
        ],
    )
    assert result.exit_code == 0, result.output
    (table,) = started
    assert table.game == "crazy4"
    assert table.no_color
    assert table.blind
    assert table.wagers["crazy4"] == {"ante": 2500, "super_bonus": 2500}


# ------------------------------------------------------------ a variant file
def _pair_plus_variant(tmp_path: Path, name: str) -> Path:
    """A Tri-Card variant file whose Pair Plus pays 3 to 1 on a flush, 5 on a straight."""
    from riverboat.games.variant_files import variant_text

    text = variant_text("tri-card").replace('variant = "standard"', f'variant = "{name}"')
    start = text.index("[pair_plus_table]")
    table = text[start:].replace("Straight = 6", "Straight = 5").replace("Flush = 4", "Flush = 3")
    path = tmp_path / f"{name}.toml"
    path.write_text(text[:start] + table, encoding="utf-8")
    return path


@pytest.fixture
def variants_of_this_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """The variants a test loads, and the table it deals them at, are its own."""
    from riverboat.games import definition
    from riverboat.terminal import felt

    monkeypatch.setattr(definition, "_LOADED", {})
    monkeypatch.setitem(felt.SPECS, "tri-card", felt.SPECS["tri-card"])
    monkeypatch.setitem(felt.DEALT, "tri-card", "")


def test_a_variant_file_plays_with_auto_and_its_rounds_keep_its_rules(
    tmp_path: Path, variants_of_this_test: None
) -> None:
    path = _pair_plus_variant(tmp_path, "pp-135")
    database = f"sqlite:///{tmp_path / 'own.db'}"
    played = runner.invoke(
        cli,
        ["play", str(path), "--auto", "optimal", "--rounds", "3", "--wagers",
         "ante=10,pair_plus=5", "--format", "json", "--database", database],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    history = runner.invoke(cli, ["history", "-n", "3", "--format", "json", "--database", database])
    rounds = json.loads(history.output)
    assert [r["variant"] for r in rounds] == ["pp-135"] * 3
    pays = {
        line["label"]: line["pays"]
        for line in rounds[0]["record"]["rules"]["pair_plus_table"]["lines"]
    }
    assert (pays["Straight"], pays["Flush"]) == ("5", "3")
    kept = tmp_path / "rounds.json"
    kept.write_text(history.output, encoding="utf-8")
    verified = runner.invoke(cli, ["verify", str(kept)])
    assert verified.exit_code == 0, verified.output
    assert verified.output.count(": verified:") == 3
    clash = _pair_plus_variant(tmp_path, "standard")  # a name the game gives other rules
    refused = runner.invoke(cli, ["play", str(clash), "--auto", "optimal", "--database", database])
    assert refused.exit_code == 2
    assert "already has a variant 'standard' with other rules" in " ".join(refused.output.split())


def test_a_variant_file_at_the_terminal_table_shows_its_pays_and_deals_by_them(
    tmp_path: Path, variants_of_this_test: None
) -> None:
    from riverboat.games.variant_files import read_variant

    _, rules = read_variant(_pair_plus_variant(tmp_path, "pp-135"))
    from riverboat.games import find_game

    find_game("tri-card").load_variant(rules)

    async def scenario(pilot: Pilot[None], app: TableApp) -> None:
        await pilot.press("t")
        page = " ".join(str(app.screen.query_one("#page", Static).content).split())
        assert "Tri-Card Poker (pp-135): pay table and rules" in page
        assert "Straight 5 to 1" in page
        assert "Flush 3 to 1" in page
        await pilot.press("escape", "enter", "down", "enter", "d")  # $5 Ante and Pair Plus
        view = app.round_view()
        assert view is not None
        assert view.variant == "pp-135"
        if view.status == "open":  # the hint weighs the hand by the file's rules
            await pilot.press("h")
            cards = " ".join(view.cards["player"])
            best = best_action("tri-card", cards, {"ante": 1, "pair_plus": 1}, rules)[0]
            assert best.label in app.message.plain
            await pilot.press("f")

    app = play(scenario, game="tri-card", rules=rules)
    record = app.service.history(app.player, 1)[0].record
    assert record is not None
    assert record.rules["variant"] == "pp-135"
