"""Shared tables: Crazy 4 with up to six seats and blind second positions (C8), Baccarat
on one shoe across coups (B1); each player sees only their own cards, and every
player's part is a round of their own that verifies and audits."""

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from riverboat.games.rules import IllegalAction
from riverboat.table.live.snapshots import (
    COMPANY_AT_ONCE,
    COMPANY_MOST_SECONDS,
    COMPANY_SECONDS_PER_SEAT,
)
from riverboat.table.live.table import SharedTable
from riverboat.table.live.views import SEATS_SHOWN, TableMessage
from riverboat.table.lobby import TableConfig
from riverboat.table.service import SharedCards, TableService, verify_round, verify_shoe

Messages = list[dict[str, Any]]


Sent: TypeAdapter[TableMessage] = TypeAdapter(TableMessage)


def listener() -> tuple[Messages, Callable[[TableMessage], Awaitable[None]]]:
    """A connection's inbox: each message as the WebSocket sends it, in JSON form."""
    inbox: Messages = []

    async def send(message: TableMessage) -> None:
        inbox.append(Sent.dump_python(message, mode="json"))

    return inbox, send


def of_type(inbox: Messages, kind: str) -> Messages:
    return [m for m in inbox if m["type"] == kind]


@pytest.fixture
def service(tmp_path: Path) -> TableService:
    return TableService(f"sqlite:///{tmp_path / 'shared.db'}")


def players(service: TableService, *names: str) -> list[int]:
    return [service.register(name, "a long password") for name in names]


ANTE = {"ante": 1000, "super_bonus": 1000}


async def seat_everyone(table: SharedTable, names: list[int]) -> list[Messages]:
    """Seat each player at the table; their inboxes, in the same order."""
    inboxes = []
    for player in names:
        inbox, send = listener()
        inboxes.append(inbox)
        await table.sit(player, send)
    return inboxes


def test_crazy4_seats_deal_from_one_deck_and_show_down_together_c8(
    service: TableService,
) -> None:
    ann, bob, cy = players(service, "ann", "bob", "cy")

    async def play() -> tuple[Messages, Messages, Messages]:
        table = SharedTable(service, "crazy4", betting_seconds=60, decision_seconds=60)
        (a, send_a), (b, send_b), (c, send_c) = listener(), listener(), listener()
        await table.sit(ann, send_a)
        await table.sit(bob, send_b)
        await table.sit(cy, send_c)
        await table.bet(ann, ANTE, second=ANTE, client_seed="ann-seed")  # C8: a blind hand
        await table.bet(bob, {**ANTE, "queens_up": 500}, client_seed="bob-seed")
        assert not of_type(a, "dealt")  # cy has not bet yet
        await table.bet(cy, ANTE, client_seed="cy-seed")  # every seat has bet: the deal
        assert table.phase == "deciding"
        round_id = of_type(a, "dealt")[0]["round"]["id"]
        with pytest.raises(IllegalAction, match="shared table: decide there"):
            service.act(ann, round_id, "fold")  # not around the table's showdown
        await table.decide(ann, "play", 1000)
        await table.decide(bob, "fold")
        assert not of_type(a, "result")  # cy is still deciding: nothing shows yet
        with pytest.raises(IllegalAction, match="decided"):
            await table.decide(ann, "fold")
        await table.decide(cy, "play", 1000)
        assert table.phase == "betting"
        return a, b, c

    a, b, c = asyncio.run(play())
    inboxes = dict(zip("abc", (a, b, c), strict=True))
    dealt = {who: of_type(inbox, "dealt")[0]["round"] for who, inbox in inboxes.items()}
    results = {who: of_type(inbox, "result")[0]["round"] for who, inbox in inboxes.items()}
    for view in dealt.values():  # only your own hand while deciding (C8)
        assert set(view["cards"]) == {"player"}
        assert view["server_seed"] is None
    assert dealt["a"]["face_down"] == 10  # the blind hand and the dealer's
    # one dealer hand for everyone, from one deck: no card twice across the seats
    dealer = {tuple(r["cards"]["dealer"]) for r in results.values()}
    assert len(dealer) == 1
    hands = [
        c
        for r in results.values()
        for hand, cs in r["cards"].items()
        if hand != "dealer"
        for c in cs
    ]
    assert len(hands) == len(set(hands)) == 20
    assert results["a"]["cards"].keys() == {"player", "player:blind", "dealer"}
    assert results["a"]["second"] == {**ANTE, "queens_up": 0}
    # each player's round verifies against the shared deck's seed and its places
    history = {p: service.history(p, 1)[0] for p in (1, 2, 3)}
    assert len({h.server_seed for h in history.values()}) == 1
    # the seeds came with the bets, after the deck's commitment was shown
    assert {h.client_seed for h in history.values()} == {"ann-seed|bob-seed|cy-seed"}
    assert of_type(a, "table")[0]["commitment"] == history[1].commitment
    assert history[1].places == [*range(0, 10), *range(20, 25)]
    assert history[2].places == [*range(10, 15), *range(20, 25)]
    for exported in history.values():
        assert verify_round(exported) == []
    tampered = {**history[2].model_dump(mode="json"), "places": history[3].places}
    assert verify_round(tampered) == ["the cards dealt are not the ones the seeds give"]
    assert service.audit() == []
    # money: each player's balance moved by exactly their round's net
    for player, who in zip((1, 2, 3), "abc", strict=True):
        assert service.balance(player) == 100_000 + results[who]["net"]


def test_a_seat_that_does_not_decide_in_time_folds(service: TableService) -> None:
    ann, bob = players(service, "ann", "bob")

    async def play() -> Messages:
        table = SharedTable(service, "crazy4", betting_seconds=60, decision_seconds=0.2)
        (a, send_a), (_, send_b) = listener(), listener()
        await table.sit(ann, send_a)
        await table.sit(bob, send_b)
        await table.bet(ann, ANTE)
        await table.bet(bob, ANTE)
        await table.decide(bob, "play", 1000)
        await asyncio.sleep(0.5)
        return a

    a = asyncio.run(play())
    assert {"type": "error", "message": "time ran out: the hand folds"} in a
    result = of_type(a, "result")[0]["round"]
    assert result["status"] == "settled"
    assert result["net"] == -2000  # Ante and Super Bonus lost on the fold (C6)


def test_betting_closes_on_time_and_refusals_change_nothing_g6(service: TableService) -> None:
    ann, bob = players(service, "ann", "bob")

    async def play() -> tuple[SharedTable, Messages]:
        table = SharedTable(service, "crazy4", betting_seconds=0.2, decision_seconds=60)
        (a, send_a), (_, send_b) = listener(), listener()
        await table.sit(ann, send_a)
        await table.sit(bob, send_b)
        await table.bet(ann, ANTE)
        with pytest.raises(IllegalAction, match="Super Bonus"):  # C1: must equal the Ante
            await table.bet(ann, {"ante": 2000, "super_bonus": 1000})
        with pytest.raises(IllegalAction, match="balance"):
            await table.bet(ann, {"ante": 50_000, "super_bonus": 50_000}, second=ANTE)
        with pytest.raises(IllegalAction, match="no hand of yours"):
            await table.decide(ann, "play")
        await asyncio.sleep(0.5)  # bob never bets: the deal goes ahead without him
        return table, a

    table, a = asyncio.run(play())
    assert table.phase == "deciding"
    view = of_type(a, "dealt")[0]["round"]
    assert view["wagers"] == {**ANTE, "queens_up": 0}  # as first bet: the refusals changed nothing
    assert [s.in_round for s in table.snapshot(ann).seats] == [True, False]
    assert [s.state for s in table.snapshot(ann).seats] == ["deciding", "out"]


def test_six_betting_positions_at_most_c8(service: TableService) -> None:
    names = players(service, *"abcdef")

    async def play() -> None:
        table = SharedTable(service, "crazy4", betting_seconds=60)
        for player in names:
            await table.sit(player, listener()[1])
        await table.bet(names[0], ANTE, second=ANTE)
        await table.bet(names[1], ANTE, second=ANTE)
        await table.bet(names[2], ANTE)
        with pytest.raises(IllegalAction, match="1 of the table's 6 betting positions"):
            await table.bet(names[3], ANTE, second=ANTE)
        seventh = service.register("g", "a long password")
        with pytest.raises(IllegalAction, match="all 6 seats"):
            await table.sit(seventh, listener()[1])

    asyncio.run(play())


def test_baccarat_deals_coups_from_one_shoe_and_shows_its_seed_at_the_end_b1(
    service: TableService,
) -> None:
    ann, bob = players(service, "ann", "bob")

    async def play() -> Messages:
        table = SharedTable(service, "baccarat", betting_seconds=60)
        (a, send_a), (_, send_b) = listener(), listener()
        await table.sit(ann, send_a)
        await table.sit(bob, send_b)
        for coup in range(5):
            await table.bet(ann, {"banker": 1000})
            await table.bet(bob, {"player": 500, "tie": 500})
            assert len(table.road) == coup + 1
        rounds, bobs = service.history(ann, 5), service.history(bob, 5)
        cards = [r.record.cards_drawn for r in rounds]
        assert cards == [r.record.cards_drawn for r in bobs]  # the same coups
        assert len({tuple(c) for c in cards}) == 5
        assert all(r.server_seed is None for r in rounds)  # the shoe is still in play
        assert all(r.places is None for r in rounds)
        while table.road:  # on to the cut card, which ends the shoe (B1)
            await table.bet(ann, {"banker": 500})
            await table.bet(bob, {"player": 500})
        return a

    a = asyncio.run(play())
    coups = of_type(a, "coup")
    shoe = service.history(ann, 1000)[::-1]
    assert len(coups) == len(shoe) > 60
    assert [c["totals"] for c in coups] == [r.totals for r in shoe]
    assert len({r.server_seed for r in shoe}) == 1
    assert all(verify_round(r) == [] for r in shoe)
    places = [p for r in shoe for p in r.places]
    assert places == list(range(places[0], places[0] + len(places)))  # none skipped or reused
    assert places[-1] + 1 >= 416 - 14  # dealt up to the cut card
    assert service.audit() == []


def test_shared_deals_refuse_misuse(service: TableService) -> None:
    (ann,) = players(service, "ann")
    deal = service.new_deal("crazy4")
    with pytest.raises(IllegalAction, match="not a sealed"):  # no client seed yet
        service.start_round(ann, "crazy4", ANTE, shared=SharedCards(deal.id, range(10)))
    service.seal_deal(deal.id, "ann")
    with pytest.raises(IllegalAction, match="no such places"):
        service.start_round(ann, "crazy4", ANTE, shared=SharedCards(deal.id, [60] * 10))
    service.reveal_deal(deal.id)
    with pytest.raises(IllegalAction, match="not open"):
        service.start_round(ann, "crazy4", ANTE, shared=SharedCards(deal.id, range(10)))
    assert service.balance(ann) == 100_000


def test_recover_reveals_the_deals_of_a_stopped_server(service: TableService) -> None:
    (ann,) = players(service, "ann")
    deal = service.new_deal("baccarat")
    layout = service.seal_deal(deal.id, "ann")
    shoe = SharedCards(deal.id, range(layout.first, layout.first + 6))  # after the burn
    view = service.start_round(ann, "baccarat", {"banker": 1000}, shared=shoe)
    assert view.server_seed is None
    service.recover()  # the table that dealt from this shoe is gone
    assert service.round(ann, view.id).server_seed is not None
    assert verify_round(service.history(ann, 1)[0]) == []


def test_a_forged_layout_does_not_verify(service: TableService) -> None:
    """Places must follow the table's layout (docs/fairness.md), or any hand in the deck
    could be claimed: a seat's blocks of five in a row, then the dealer's after them."""
    (ann,) = players(service, "ann")
    solo = service.start_round(ann, "crazy4", ANTE)
    service.act(ann, solo.id, "fold")
    honest = service.history(ann, 1)[0]
    order = list(range(0, 15))
    forged = {**honest.model_dump(mode="json"), "shared": True}
    for places, problem in [
        (order[:10], None),  # the round of its own: its hand, then the dealer's
        ([*order[:5], 60, 61, 62, 63, 64], "outside the deal"),
        ([*order[:5], *order[:5]], "repeated"),
        ([*order[5:10], *order[:5]], "blocks of five"),  # the dealer's block before
        ([1, 2, 3, 4, 5, *order[10:15]], "blocks of five"),  # not on a block
    ]:
        found = verify_round({**forged, "places": places})
        assert (problem is None and found == []) or problem in " ".join(found), (places, found)
    for _ in range(120):  # an own shoe's seed shows at its cut card (B1)
        service.start_round(ann, "baccarat", {"banker": 1000})
        if service.history(ann, 1)[0].server_seed:
            break
    first = [r for r in service.history(ann, 200) if r.game == "baccarat"][-1]
    assert verify_round(first) == []
    burned = first.places[0]
    backwards = [burned - 1, *first.places[:-1]]
    forged_coup = {**first.model_dump(mode="json"), "places": backwards}
    assert "after the shoe's burn" in verify_round(forged_coup)[0]


def test_an_own_baccarat_shoe_deals_coup_after_coup_to_its_cut_card_b1(
    service: TableService,
) -> None:
    (ann,) = players(service, "ann")
    shown = service.next_commitment(ann, "baccarat")
    coups = []
    while not coups or not coups[-1].server_seed:
        coups.append(service.start_round(ann, "baccarat", {"banker": 500}, client_seed="ann"))
        if not coups[-1].server_seed:  # the shoe deals on: its commitment stands
            assert service.next_commitment(ann, "baccarat") == shown
        assert len(coups) < 120
    assert {c.commitment for c in coups} == {shown}  # one shoe, committed before
    shoe = service.history(ann, 200)[::-1]
    assert all(r.server_seed for r in shoe)  # shown together, at the cut card
    places = [p for r in shoe for p in r.places]
    assert places == list(range(places[0], places[0] + len(places)))  # none skipped or reused
    assert places[-1] + 1 >= 416 - 14
    assert all(verify_round(r) == [] for r in shoe)
    assert verify_shoe(shoe) == []  # end to end: the house chose no coup's start
    gap = verify_shoe(shoe[:5] + shoe[6:])  # each coup verifies, but one is missing
    assert gap == [f"coup {shoe[6].id} starts at place {shoe[6].places[0]}, "
                   f"not {shoe[5].places[0]}"]  # fmt: skip
    assert verify_shoe(shoe[1:])[0].startswith(f"coup {shoe[1].id} starts at place")
    assert service.next_commitment(ann, "baccarat") != shown  # a new shoe next
    assert service.audit() == []


def test_a_showdown_after_recover_skips_the_voided_rounds_and_the_table_goes_on(
    service: TableService,
) -> None:
    ann, bob = players(service, "ann", "bob")

    async def play() -> Messages:
        table = SharedTable(service, "crazy4", betting_seconds=60, decision_seconds=0.3)
        (a, send_a), (_, send_b) = listener(), listener()
        await table.sit(ann, send_a)
        await table.sit(bob, send_b)
        await table.bet(ann, ANTE)
        await table.bet(bob, ANTE)
        service.recover()  # wrongly, while the table runs: both rounds are void
        with pytest.raises(IllegalAction, match="void"):
            await table.decide(ann, "play", 1000)
        await asyncio.sleep(0.6)  # the time runs out: the showdown finds them void
        assert table.phase == "betting"
        await table.bet(ann, ANTE)  # the table deals again, from a fresh deck
        await table.bet(bob, ANTE)
        assert table.phase == "deciding"
        return a

    a = asyncio.run(play())
    assert any("before the showdown" in m.get("message", "") for m in a)
    assert service.balance(ann) == 100_000 - 2000  # refunded once, staked again
    assert service.audit() == []


def test_seven_seats_of_long_seeds_still_deal(service: TableService) -> None:
    names = players(service, *"abcdefg")

    async def play() -> SharedTable:
        table = SharedTable(service, "baccarat", betting_seconds=60)
        for player in names:
            await table.sit(player, listener()[1])
        for player in names:
            await table.bet(player, {"banker": 500}, client_seed="x" * 16)
        with pytest.raises(IllegalAction, match="1 to 16 printable"):
            await table.bet(names[0], {"banker": 500}, client_seed="x" * 17)
        return table

    assert len(asyncio.run(play()).road) == 1


def test_a_seat_stakes_what_the_spec_says_its_positions_stake_c8(service: TableService) -> None:
    ann, bob = players(service, "ann", "bob")

    async def play() -> Messages:
        table = SharedTable(service, "crazy4", betting_seconds=60)
        inbox, send = listener()
        await table.sit(ann, send)
        await table.sit(bob, listener()[1])  # bob has not bet: betting stays open
        await table.bet(ann, ANTE, second=ANTE)
        await table.close()
        return inbox

    seats = of_type(asyncio.run(play()), "table")[-1]["seats"]
    # C8: 2000 on the first position, 2000 on the blind one and its 1x Play of 1000
    assert [seat["staked"] for seat in seats] == [5000, None]


def test_the_shared_shoe_sends_its_roads_and_clears_them_at_a_new_shoe(
    service: TableService,
) -> None:
    ann, bob = players(service, "ann", "bob")

    async def play() -> Messages:
        table = SharedTable(service, "baccarat", betting_seconds=60)
        inbox, send = listener()
        await table.sit(ann, send)
        await table.sit(bob, listener()[1])
        for _ in range(3):
            await table.bet(ann, {"banker": 500})
            await table.bet(bob, {"player": 500})
        roads = of_type(inbox, "table")[-1]["shoe"]["roads"]
        assert [b["winner"] for b in roads["bead_plate"]] == table.road
        assert [(b["column"], b["row"]) for b in roads["bead_plate"]] == [(0, 0), (0, 1), (0, 2)]
        assert [e["winner"] for e in roads["big_road"]] == [w for w in table.road if w != "Tie"]
        while table.road:  # on to the cut card: a new shoe, its roads empty
            await table.bet(ann, {"banker": 500})
            await table.bet(bob, {"player": 500})
        return inbox

    last = of_type(asyncio.run(play()), "table")[-1]["shoe"]
    assert (last["road"], last["roads"]["bead_plate"], last["roads"]["big_road"]) == ([], [], [])
    assert last["roads"]["big_eye_boy"] == last["roads"]["cockroach_pig"] == []


def _keys(value: Any) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


SEAT_KEYS = {
    "seat",
    "name",
    "you",
    "staked",
    "second",
    "in_round",
    "decided",
    "state",
    "wagers",
    "second_wagers",
}


def test_every_seat_sees_the_others_wagers_by_line_never_their_cards_c8(
    service: TableService,
) -> None:
    ann, bob, cy = players(service, "ann", "bob", "cy")

    async def play() -> tuple[Messages, list[dict[str, Any]]]:
        table = SharedTable(service, "crazy4", betting_seconds=60, decision_seconds=60)
        (_, send_a), (b, send_b), (_, send_c) = listener(), listener(), listener()
        for player, send in ((ann, send_a), (bob, send_b), (cy, send_c)):
            await table.sit(player, send)
        await table.bet(ann, {**ANTE, "queens_up": 500}, second=ANTE, client_seed="a")
        seen = [of_type(b, "table")[-1]]  # bob, before he bets: ann's chips
        await table.bet(bob, ANTE, client_seed="b")
        await table.bet(cy, ANTE, client_seed="c")  # the deal
        seen.append(of_type(b, "table")[-1])  # in play, no one decided
        await table.decide(ann, "play", 1000)
        seen.append(of_type(b, "table")[-1])  # ann decided, bob and cy deciding
        await table.decide(bob, "fold")
        await table.decide(cy, "play", 1000)  # the showdown: the chips are settled
        seen.append(of_type(b, "table")[-1])
        return b, seen

    b, (before, dealt, decided, after) = asyncio.run(play())
    anns = before["seats"][0]
    assert (anns["seat"], anns["name"], anns["you"]) == (1, "ann", False)
    assert anns["wagers"] == {"ante": 1000, "super_bonus": 1000, "queens_up": 500}
    # the blind second position's wagers and its 1x Play (C8), none on Queens Up
    assert anns["second_wagers"] == {"ante": 1000, "super_bonus": 1000, "play": 1000}
    assert anns["staked"] == 2500 + 3000
    assert before["seats"][1]["wagers"] is None  # bob has not bet
    assert before["seats"][1]["you"] is True
    # in play: every seat's chips stay on the felt until the showdown
    assert [s["wagers"] for s in dealt["seats"]] == [anns["wagers"], ANTE, ANTE]
    assert dealt["seats"][0]["second_wagers"] == anns["second_wagers"]
    assert [s["decided"] for s in dealt["seats"]] == [False, False, False]
    assert [s["decided"] for s in decided["seats"]] == [True, False, False]
    # each seat's state by name: what the page words
    assert [s["state"] for s in before["seats"]] == ["bet", "waiting", "waiting"]
    assert [s["state"] for s in dealt["seats"]] == ["deciding"] * 3
    assert [s["state"] for s in decided["seats"]] == ["decided", "deciding", "deciding"]
    assert [s["state"] for s in after["seats"]] == ["waiting"] * 3
    # that ann decided shows; not what she decided (her Play is not on her seat)
    assert decided["seats"][0]["wagers"] == anns["wagers"]
    assert [s["wagers"] for s in after["seats"]] == [None, None, None]
    assert [s["in_round"] for s in after["seats"]] == [False, False, False]
    for snapshot in (before, dealt, decided, after):
        assert all(set(seat) == SEAT_KEYS for seat in snapshot["seats"])
        assert "cards" not in _keys(snapshot)
        assert "server_seed" not in _keys(snapshot)
    # the only cards bob was sent are his own round's
    for message in b:
        if message["type"] != "table":
            assert message["type"] in {"dealt", "decided", "result"}
    assert of_type(b, "dealt")[0]["round"]["cards"].keys() == {"player"}
    assert dealt["phase"] == "deciding"
    assert dealt["seconds_total"] == 60
    assert before["seconds_total"] == 60
    assert 0 < before["seconds_left"] <= 60


def test_seat_numbers_stay_as_players_come_and_go(service: TableService) -> None:
    ann, bob, cy, dan = players(service, "ann", "bob", "cy", "dan")

    async def play() -> list[list[tuple[int, str]]]:
        table = SharedTable(service, "crazy4", betting_seconds=60)
        sends = {player: listener()[1] for player in (ann, bob, cy, dan)}
        places: list[list[tuple[int, str]]] = []

        def look() -> None:
            places.append([(s.seat, s.name) for s in table.snapshot(ann).seats])

        for player in (ann, bob, cy):
            await table.sit(player, sends[player])
        look()
        await table.leave(bob, sends[bob])
        look()
        await table.sit(dan, sends[dan])  # the lowest free seat: bob's
        look()
        await table.sit(bob, sends[bob])  # bob comes back to the next free one
        look()
        await table.leave(ann, sends[ann])
        look()
        assert table.snapshot(cy).seats_free == 3
        return places

    assert asyncio.run(play()) == [
        [(1, "ann"), (2, "bob"), (3, "cy")],
        [(1, "ann"), (3, "cy")],
        [(1, "ann"), (2, "dan"), (3, "cy")],
        [(1, "ann"), (2, "dan"), (3, "cy"), (4, "bob")],
        [(2, "dan"), (3, "cy"), (4, "bob")],
    ]


def test_a_baccarat_seat_shows_its_bets_until_the_coup_b2(service: TableService) -> None:
    ann, bob = players(service, "ann", "bob")

    async def play() -> tuple[dict[str, Any], Messages]:
        table = SharedTable(service, "baccarat", betting_seconds=60)
        (a, send_a), (b, send_b) = listener(), listener()
        await table.sit(ann, send_a)
        await table.sit(bob, send_b)
        await table.bet(ann, {"banker": 1000, "tie": 500})
        seen = of_type(b, "table")[-1]
        await table.bet(bob, {"player": 500})  # every seat has bet: the coup
        return seen, of_type(a, "table")

    seen, anns = asyncio.run(play())
    assert seen["seats"][0]["wagers"] == {"banker": 1000, "tie": 500}
    assert seen["seats"][0]["second_wagers"] is None  # Baccarat has no blind position
    assert [s["wagers"] for s in anns[-1]["seats"]] == [None, None]  # settled at once


# ------------------------------------------------------- a shoe with no seat limit
def test_a_baccarat_shoe_seats_any_number_each_seeing_itself_and_a_summary(
    service: TableService,
) -> None:
    """More players than the felt's seven places sit at one shoe and bet on one coup;
    each snapshot shows your own seat and the first SEATS_SHOWN others, counts everyone
    and sums everyone's chips by line; the coup's client seed is the SHA-256 of all
    their seeds, which each exported round carries (verified), each seed among them."""
    names = players(service, *(f"p{n:02}" for n in range(SEATS_SHOWN + 30)))
    last = names[-1]

    async def play() -> tuple[Messages, SharedTable]:
        table = SharedTable(service, "baccarat", betting_seconds=60)
        assert table.max_seats is None
        inboxes = await seat_everyone(table, names)
        for player in names[:-1]:
            await table.bet(player, {"banker": 500}, client_seed=f"seed-{player}")
        before = table.snapshot(last)
        assert (before.players, before.seats_free) == (len(names), None)
        assert before.on_spots == {"banker": 500 * (len(names) - 1)}
        shown = [seat.name for seat in before.seats]
        assert shown == [*(f"p{n:02}" for n in range(SEATS_SHOWN)), f"p{len(names) - 1:02}"]
        assert [seat.you for seat in before.seats] == [False] * SEATS_SHOWN + [True]
        await table.bet(last, {"player": 1000}, client_seed=f"seed-{last}")  # the coup
        return inboxes[-1], table

    mine, table = asyncio.run(play())
    assert len(table.road) == 1
    assert of_type(mine, "result")[0]["round"]["wagers"]["player"] == 1000
    assert table.deal is not None
    service.reveal_deal(table.deal.id)  # as at the shoe's end: its seed shows
    for player in (names[0], last):
        (coup,) = service.history(player, 1)
        assert verify_round(coup) == []
        assert coup.seeds is not None
        assert f"seed-{player}" in coup.seeds.split("|")
        assert coup.client_seed == hashlib.sha256(coup.seeds.encode()).hexdigest()
    forged = service.history(last, 1)[0].model_copy(update={"seeds": "seed-x|seed-y"})
    assert "the SHA-256 of the seated players' seeds" in " ".join(verify_round(forged))
    assert service.audit() == []


def test_a_big_table_shows_the_others_one_snapshot_for_many_bets(service: TableService) -> None:
    """At COMPANY_AT_ONCE seats or more, the bettor sees their bet at once and the others
    one snapshot a little later for all the bets meanwhile, not one per bet."""
    names = players(service, *(f"q{n:02}" for n in range(COMPANY_AT_ONCE + 5)))

    async def play() -> None:
        table = SharedTable(service, "baccarat", betting_seconds=60)
        inboxes = await seat_everyone(table, names)
        await asyncio.sleep(COMPANY_MOST_SECONDS)  # every sight of the sitting down is in
        watcher = inboxes[-1]
        seen = len(of_type(watcher, "table"))
        for player, inbox in zip(names[:10], inboxes, strict=False):
            await table.bet(player, {"tie": 500})
            mine = next(s for s in of_type(inbox, "table")[-1]["seats"] if s["you"])
            assert mine["wagers"] == {"tie": 500}  # at once
        assert len(of_type(watcher, "table")) == seen  # not yet
        await asyncio.sleep(COMPANY_SECONDS_PER_SEAT * len(names) + 0.2)
        told = of_type(watcher, "table")[seen:]
        assert len(told) == 1
        assert told[0]["on_spots"] == {"tie": 5000}
        assert told[0]["players"] == len(names)

    asyncio.run(play())


def test_a_table_of_set_seats_refuses_one_more_and_crazy4_keeps_its_six(
    service: TableService,
) -> None:
    ann, bob, cy = players(service, "ann", "bob", "cy")
    config = TableConfig(id="small-shoe", game="baccarat", name="Small shoe", seats=2)

    async def play() -> None:
        table = SharedTable(service, "baccarat", config=config)
        await table.sit(ann, listener()[1])
        await table.sit(bob, listener()[1])
        with pytest.raises(IllegalAction, match="all 2 seats at this table are taken"):
            await table.sit(cy, listener()[1])
        assert table.snapshot(ann).seats_free == 0

    asyncio.run(play())
    assert SharedTable(service, "crazy4").max_seats == 6  # a deck deals six hands (C8)


def test_a_batch_shows_no_one_its_bets_before_its_end(service: TableService) -> None:
    """Messages carried out together are shown once the batch is done (its state
    written first): a sight of the table due meanwhile waits for the batch's end."""
    names = players(service, *(f"r{n:02}" for n in range(COMPANY_AT_ONCE + 5)))

    async def play() -> None:
        table = SharedTable(service, "baccarat", betting_seconds=60)
        inboxes = await seat_everyone(table, names)
        await asyncio.sleep(COMPANY_MOST_SECONDS)
        bettor, watcher = inboxes[0], inboxes[-1]
        await table.bet(names[5], {"tie": 500})  # the others' sight of it is due soon
        seen = len(of_type(bettor, "table")), len(of_type(watcher, "table"))
        async with table.together(names[:3]):
            for player in names[:3]:
                await table.bet(player, {"tie": 500})
            await asyncio.sleep(COMPANY_MOST_SECONDS)  # that sight comes due meanwhile
            assert (len(of_type(bettor, "table")), len(of_type(watcher, "table"))) == seen
        mine = next(s for s in of_type(bettor, "table")[-1]["seats"] if s["you"])
        assert mine["wagers"] == {"tie": 500}  # the batch is done: shown at once
        await asyncio.sleep(COMPANY_SECONDS_PER_SEAT * len(names) + 0.2)
        assert of_type(watcher, "table")[-1]["on_spots"] == {"tie": 2000}

    asyncio.run(play())
