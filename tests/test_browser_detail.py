"""What sits beside play, in a real browser: the fairness drawer, the history of rounds
(dates, titles, mini cards, results, More), a round replayed step by step, and the
Baccarat roads drawn cell for cell from the server's view, in their own box on a phone.
Screenshots at 390 and 1440 px wide go to test-artifacts/screenshots/."""

import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from browser_support import choose, new_tab, shoot

RANKS = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]
RANKS += ["Jack", "Queen", "King", "Ace"]
SUITS = ["clubs", "diamonds", "hearts", "spades"]
WIDTHS = (390, 1440)


def _card_name(index: int) -> str:
    """A card index of the round record (4 * rank + suit, docs/round-record.md) in words."""
    return f"{RANKS[(index % 52) // 4]} of {SUITS[index % 4]}"


def _post(page: Page, server: str, path: str, body: dict[str, Any]) -> Any:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "riverboat_csrf")
    response = page.request.post(server + path, data=body, headers={"X-CSRF-Token": csrf})
    assert response.ok, response.text()
    return response.json()


def _get(page: Page, server: str, path: str) -> Any:
    response = page.request.get(server + path)
    assert response.ok, response.text()
    return response.json()


def _play(page: Page, server: str, game: str, action: str | None = None) -> dict[str, Any]:
    """One round of `game` at its smallest required wagers (and the Bonus at Rabbit
    Hunter), decided by `action` or else by the last choice offered."""
    info = next(g for g in _get(page, server, "api/games") if g["game"] == game)
    wagers = {w["name"]: w["minimum"] for w in info["wagers"] if w["required"] or w["equal_to"]}
    if not wagers:  # Baccarat: a bet on Banker
        wagers = {info["wagers"][1]["name"]: info["wagers"][1]["minimum"]}
    if game == "rabbit-hunter":
        wagers["bonus"] = 500
    round_ = _post(page, server, "api/rounds", {"game": game, "wagers": wagers})
    while round_["status"] == "open":
        choice = action or round_["choices"][-1]["action"]
        round_ = _post(page, server, f"api/rounds/{round_['id']}/actions", {"action": choice})
    return dict(round_)


def _shots(page: Page, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
        page.wait_for_timeout(300)
        shoot(page, f"{name}-{width}")
    page.set_viewport_size({"width": 1100, "height": 800})


def _accessible(page: Page) -> None:
    """axe-core finds no serious or critical violation on the page as it stands."""
    violations = Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"]) for v in violations if v["impact"] in ("serious", "critical")]
    assert not bad


def _signed(cents: int) -> str:
    """A net as the history shows it: +$5, −$12.50 or $0."""
    amount = abs(cents) / 100
    text = f"${amount:,.0f}" if cents % 100 == 0 else f"${amount:,.2f}"
    return ("+" if cents > 0 else "−" if cents < 0 else "") + text


def _dealt(record: dict[str, Any]) -> list[int]:
    """Every card the round's deal and draws put on the table, in event order."""
    cards: list[int] = []
    for event in record["events"]:
        if event["kind"] == "deal":
            cards += [c for hand in event["cards"].values() for c in hand]
        elif event["kind"] == "draw":
            cards += event["cards"]
    return cards


def test_a_drawer_opened_again_as_it_closes_stays_shown(page: Page) -> None:
    """A dialog's close event comes a task after it closed: a drawer opened again in
    between (Escape, then its key at once) is shown, not left open and hidden, which
    would swallow every key after it."""
    choose(page, "Tri-Card Poker")
    page.locator("#fairness-toggle").click()
    drawer = page.locator("#fairness")
    expect(drawer).to_be_visible()
    page.evaluate(
        """() => { document.getElementById("fairness").close();
        document.getElementById("fairness-toggle").click(); }"""
    )
    page.wait_for_timeout(100)  # the close event's task has run
    expect(drawer).to_be_visible()
    page.keyboard.press("Escape")
    expect(drawer).to_be_hidden()


def test_the_fairness_drawer_shows_the_commitment_and_verifies(page: Page, server: str) -> None:
    choose(page, "Tri-Card Poker")
    page.wait_for_load_state("networkidle")
    indicator = page.locator("#fair-line")
    expect(indicator).to_contain_text("SHA-256")
    committed = _get(page, server, "api/games/tri-card/commitment")["commitment"]
    expect(indicator).to_have_attribute("data-commitment", committed)
    # the table shows one short line; the drawer the whole commitment
    assert committed not in (indicator.text_content() or "")
    box = indicator.bounding_box()
    assert box
    assert box["height"] < 60
    indicator.locator("button").click()
    drawer = page.locator("#fairness")
    expect(drawer).to_be_visible()
    expect(page.locator("#fair-commitment")).to_have_text(committed)
    page.keyboard.press("Escape")
    expect(drawer).to_be_hidden()
    page.keyboard.press("v")  # the drawer's key
    expect(drawer).to_be_visible()
    page.keyboard.press("Escape")
    # after a round, its Verify in the drawer checks it in the browser
    page.click("[data-spot=ante]")
    page.click("#deal")
    page.click("[data-action=fold]")
    expect(page.locator("#message")).to_contain_text("folds")
    expect(indicator).not_to_have_attribute("data-commitment", committed)
    page.keyboard.press("v")
    first = page.locator("#fair-rounds li").first
    expect(first).to_contain_text("Tri-Card Poker")
    first.locator(".verify").click()
    expect(first.locator(".verdict")).to_contain_text("verified in your browser")
    expect(page.locator("#fair-last")).to_contain_text("The last seed revealed")
    _accessible(page)
    _shots(page, "detail-fairness")
    for width in WIDTHS:  # the drawer fits the screen at either width
        page.set_viewport_size({"width": width, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.set_viewport_size({"width": 1100, "height": 800})
    page.keyboard.press("Escape")


def test_history_rows_show_titles_mini_cards_results_and_nets(page: Page, server: str) -> None:
    games = {g["game"]: g["title"] for g in _get(page, server, "api/games")}
    for game in games:
        _play(page, server, game)
    page.reload()
    page.wait_for_selector(".spot")
    page.keyboard.press("y")
    expect(page.locator("#history")).to_be_visible()
    expect(page.locator("#rounds")).to_have_attribute("aria-busy", "false")
    for exported in _get(page, server, f"api/history?limit={len(games)}"):
        row = page.locator(f"#rounds li[data-round='{exported['id']}']")
        expect(row.locator(".row-title strong")).to_have_text(games[exported["game"]])
        expect(row.locator(".row-title")).not_to_contain_text(exported["game"])
        expect(row.locator(".card--mini")).to_have_count(len(_dealt(exported["record"])))
        shown = [
            row.locator(".card--mini").nth(i).get_attribute("aria-label")
            for i in range(len(_dealt(exported["record"])))
        ]
        assert sorted(shown) == sorted(_card_name(c) for c in _dealt(exported["record"]))
        expect(row.locator(".net")).to_have_text(_signed(exported["net"]))
        expect(row.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-"))
        expect(row.locator(".row-lines")).to_contain_text(re.compile(r"(\+|−)\$\d|push"))
        expect(row.locator(".row-fair")).to_contain_text(exported["commitment"])
        assert not row.locator(".row-fair .verify").is_visible()  # hashes folded away
    page.locator("#rounds .row-fair summary").first.click()
    _accessible(page)
    _shots(page, "detail-history")
    page.keyboard.press("Escape")
    expect(page.locator("#history")).to_be_hidden()


def test_each_drawer_lies_whole_on_the_screen_from_the_right(page: Page, server: str) -> None:
    """History, a round's replay and Fairness: a full-screen sheet on a phone, a panel
    along the right edge on a desktop, wholly on the screen and with its header the
    drawer's whole width (the hint's floating sheet is styled apart from them)."""
    round_ = _play(page, server, "tri-card")
    replay = f"#rounds li[data-round='{round_['id']}'] .replay-round"
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 800 else 900})
        for opener in ("#history-toggle", replay, "#fairness-toggle"):
            if opener == replay:
                page.click("#history-toggle")
                expect(page.locator("#rounds")).to_have_attribute("aria-busy", "false")
            page.click(opener)
            drawer = page.locator("dialog.sheet[open]").last
            expect(drawer).to_be_visible()
            page.wait_for_timeout(300)  # the sheet's slide in
            box, head = drawer.bounding_box(), drawer.locator(".sheet-head").bounding_box()
            assert box
            assert head
            where = (opener, width, box)
            assert box["x"] >= -0.5, where
            assert abs(box["x"] + box["width"] - width) <= 0.5, where  # at the right edge
            assert box["width"] == (width if width < 800 else min(width, 544)), where
            assert abs(head["width"] - box["width"]) <= 2.5, (*where, head)
            for opened in range(page.locator("dialog.sheet[open]").count(), 0, -1):
                page.keyboard.press("Escape")  # the replay closes first, then the history
                expect(page.locator("dialog.sheet[open]")).to_have_count(opened - 1)
    page.set_viewport_size({"width": 1100, "height": 800})


def test_more_loads_older_rounds_without_repeats(page: Page, server: str) -> None:
    for _ in range(22):
        _post(page, server, "api/rounds", {"game": "baccarat", "wagers": {"banker": 500}})
    every = [r["id"] for r in _get(page, server, "api/history?limit=200")]
    assert len(every) > 20
    page.click("#history-toggle")
    expect(page.locator("#rounds")).to_have_attribute("aria-busy", "false")
    rows = page.locator("#rounds > li[data-round]")  # the rounds (credits sit among them)
    expect(rows).to_have_count(20)
    page.click("#history-more")
    expect(rows).to_have_count(min(len(every), 40))
    shown = [int(r) for r in rows.evaluate_all("rows => rows.map(r => r.dataset.round)")]
    assert len(set(shown)) == len(shown)  # no round twice
    assert shown == every[: len(shown)]  # newest first, in order
    page.keyboard.press("Escape")


def test_a_rabbit_hunter_round_replays_step_by_step(page: Page, server: str) -> None:
    round_ = _play(page, server, "rabbit-hunter", "buy")
    exported = next(r for r in _get(page, server, "api/history?limit=5") if r["id"] == round_["id"])
    page.click("#history-toggle")
    expect(page.locator("#rounds")).to_have_attribute("aria-busy", "false")
    page.locator(f"#rounds li[data-round='{round_['id']}'] .replay-round").click()
    replay = page.locator("#round-replay")
    expect(replay).to_be_visible()
    kinds = ["wagers", "deal", "decision", "draw", "settle"]
    expect(page.locator("#replay-steps li")).to_have_count(len(kinds))
    step = page.locator("#replay-step")
    expect(step).to_have_attribute("data-kind", "wagers")
    expect(step).to_contain_text("Ante $5")
    expect(page.locator("#replay-felt .card")).to_have_count(0)
    _shots(page, "detail-replay-wagers")
    for kind in kinds[1:]:
        page.click("#replay-next")
        expect(step).to_have_attribute("data-kind", kind)
        if kind == "deal":  # the dealer's hand lies face down until the showdown
            expect(page.locator("#replay-felt [data-hand=dealer] .card--down")).to_have_count(5)
            expect(page.locator("#replay-money")).to_contain_text("In play $10")
        if kind == "decision":
            expect(step).to_contain_text("Buy & Play")
            expect(page.locator("#replay-money")).to_contain_text("In play $20")
            _shots(page, "detail-replay-decision")
        if kind == "draw":
            expect(page.locator("#replay-felt [data-hand=rabbit] .card")).to_have_count(1)
    expect(page.locator("#replay-next")).to_be_disabled()
    cards = {
        hand: [_card_name(c) for c in cards]
        for event in exported["record"]["events"]
        if event["kind"] in ("deal", "draw")
        for hand, cards in (
            event["cards"].items() if event["kind"] == "deal" else [(event["hand"], event["cards"])]
        )
    }
    for hand, names in cards.items():
        shown = page.locator(f"#replay-felt [data-hand={hand}] .card")
        assert shown.evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))") == names
    expect(page.locator("#replay-money")).to_contain_text(
        f"Net {_signed(round_['net'])}".replace("Net $0", "Net push")
    )
    _accessible(page)
    _shots(page, "detail-replay-settlement")
    page.keyboard.press("ArrowLeft")  # back a step by keyboard, and by the button
    expect(step).to_have_attribute("data-kind", "draw")
    page.click("#replay-prev")
    expect(step).to_have_attribute("data-kind", "decision")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_attribute("data-kind", "draw")
    page.keyboard.press("Escape")
    expect(replay).to_be_hidden()
    page.keyboard.press("Escape")


def _cells(page: Page, road: str) -> list[tuple[int, int, str]]:
    """A drawn road's marks: where the browser laid each out, and its colour or side."""
    return [
        (int(row) - 1, int(column) - 1, kind)
        for row, column, kind in page.locator(f"#{road} > span").evaluate_all(
            "cs => cs.map(c => { const s = getComputedStyle(c);"
            " return [s.gridRowStart, s.gridColumnStart, c.className]; })"
        )
    ]


def _expected(view: dict[str, Any], road: str) -> list[tuple[int, int, str]]:
    side = {"Banker": "B", "Player": "P", "Tie": "T"}
    if road == "bead":
        return [(m["row"], m["column"], f"bead {side[m['winner']]}") for m in view["bead_plate"]]
    if road == "big":
        return [
            (
                m["row"],
                m["column"],
                f"ring {side[m['winner']]}" + (" tied" if m["ties"] + m["leading_ties"] else ""),
            )
            for m in view["big_road"]
        ]
    return [(m["row"], m["column"], f"{road} {m['colour']}") for m in view[road.replace("-", "_")]]


def test_the_roads_are_the_servers_cells_in_their_own_box(
    page: Page, server: str, browser: Browser
) -> None:
    _post(page, server, "api/games/baccarat/shoe/end", {})  # a fresh shoe
    choose(page, "Baccarat")
    for coups in (3, 6, 40):
        while len(_get(page, server, "api/games/baccarat/roads")["bead_plate"]) < coups:
            _post(page, server, "api/rounds", {"game": "baccarat", "wagers": {"banker": 500}})
        view = _get(page, server, "api/games/baccarat/roads")
        page.reload()
        page.wait_for_selector(".spot")
        # the roads are drawn when the table is chosen and again with the history: read
        # them once every request is answered
        page.wait_for_load_state("networkidle")
        expect(page.locator("#bead > span")).to_have_count(coups)
        for road in ("bead", "big", "big-eye-boy", "small-road", "cockroach-pig"):
            assert _cells(page, road) == _expected(view, road), road
        ties = sum(m["ties"] + m["leading_ties"] for m in view["big_road"])
        expect(page.locator("#big .tie")).to_have_count(
            sum(1 for m in view["big_road"] if m["ties"] + m["leading_ties"])
        )
        if ties:
            expect(page.locator("#roads-tally")).to_contain_text("Tie")
    expect(page.locator("#bead")).to_be_visible()  # beside the felt, nothing to open
    expect(page.locator("#big-eye-boy")).to_be_hidden()  # the derived roads: More roads
    page.click("#roads-more")
    expect(page.locator("#ask")).to_contain_text("Banker next")
    expect(page.locator("#big-eye-boy")).to_be_visible()
    page.keyboard.press("Escape")
    # the Content-Security-Policy allows no style attribute in markup: these modules
    # place and size through the DOM's style properties instead
    for module in ("roads", "history", "replay", "fairness", "fairness-drawer", "minicards"):
        source = page.request.get(server + f"static/js/{module}.js").text()
        assert "style=" not in source, module
    # a phone at 320 px with a long shoe: the bead plate and big road in a strip under
    # the felt, inside the screen
    phone = new_tab(browser, viewport={"width": 320, "height": 640})
    phone.goto(server)
    phone.wait_for_selector(".spot")
    choose(phone, "Baccarat")
    expect(phone.locator("#bead > span")).to_have_count(40)
    expect(phone.locator("#bead")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 320
    big = phone.evaluate(
        "(() => { const b = document.getElementById('big');"
        " return [b.scrollWidth, b.clientWidth]; })()"
    )
    assert big[0] > big[1]  # the big road's 40 coups scroll inside its own box
    shoot(phone.locator("#roads"), "detail-roads-320")
    phone.close()


# the Rabbit Hunter record of docs/round-record.md, with its settlement worked by hand
DOCUMENTED = {
    "events": [
        {"kind": "wagers", "seat": "player", "blind": False,
         "wagers": {"ante": 1000, "bonus": 1000, "bad_beat": 0}},
        {"kind": "deal", "cards": {"player": [46, 44, 21, 23, 0], "dealer": [47, 41, 30, 8, 5]}},
        {"kind": "decision", "seat": "player", "blind": False, "action": "buy", "amount": 2000},
        {"kind": "draw", "hand": "rabbit", "cards": [50]},
        {"kind": "settle", "results": [{"seat": "player", "blind": False, "ante": 0, "play": 1000,
                                        "fee": -1000, "bonus": 2000, "bad_beat": 0, "cap": 0}]},
    ]
}  # fmt: skip


def test_a_documented_record_reads_in_words(page: Page) -> None:
    """record.js on the record in docs/round-record.md: cards as codes, each line's
    result (the Bad Beat and cap, not staked and not paid, left out), and the replay's
    money: $20 staked, $20 more on Buy (Play and rabbit fee), a net of +$20."""
    read = page.evaluate(
        """async (record) => {
          const r = await import("/static/js/record.js"), s = await import("/static/js/state.js");
          const game = s.gameOf("rabbit-hunter");
          return [r.handsAfter(record.events),
                  r.settlement(game, record.events).map((p) => [r.linesInWords(p.lines), p.net]),
                  r.replaySteps(game, record).map((x) => [x.kind, x.staked, x.change, x.faceDown])];
        }""",
        DOCUMENTED,
    )
    hands, lines, steps = read
    assert hands == {
        "player": ["Kh", "Kc", "7d", "7s", "2c"],
        "dealer": ["Ks", "Qd", "9h", "4c", "3d"],
        "rabbit": ["Ah"],
    }
    assert lines == [["Ante push, Play +$10, Rabbit fee −$10, Bonus +$20", 2000]]
    assert steps == [
        ["wagers", 2000, -2000, ["dealer"]],
        ["deal", 2000, -2000, ["dealer"]],
        ["decision", 4000, -4000, ["dealer"]],
        ["draw", 4000, -4000, ["dealer"]],
        ["settle", 0, 2000, []],
    ]
