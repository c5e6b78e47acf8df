"""Every seat of a shared table's deal in one transaction: the seats refused say why
and write nothing, the others are dealt as a round alone would be, a coup of many
seats costs the statements of a coup of few, and a lost lease writes nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from riverboat.errors import Conflict, IllegalAction, NotFound
from riverboat.table.live.across.live_state import LeaseLostError, claim
from riverboat.table.rounds.shared import Stake
from riverboat.table.service import SharedCards, TableService
from riverboat.table.views import RoundView


def _players(service: TableService, count: int) -> list[int]:
    return [service.register(f"p{n}", "a long password") for n in range(count)]


def _drain(service: TableService, player: int, left: int) -> None:
    """The player's balance folded down to ``left`` at their own Tri-Card table."""
    while (balance := service.balance(player)) > left:
        view = service.start_round(player, "tri-card", {"ante": min(50_000, balance - left)})
        service.act(player, view.id, "fold")


@contextmanager
def _statements(service: TableService) -> Iterator[Counter[str]]:
    """How many statements the service's engine sends while the block runs."""
    sent: Counter[str] = Counter()

    def count(*_: object) -> None:
        sent["statements"] += 1

    event.listen(service.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(service.engine, "before_cursor_execute", count)


def test_a_coup_deals_every_seat_but_those_refused(database_url: str) -> None:
    service = TableService(database_url)
    ann, bob, cy, *others = _players(service, 12)
    _drain(service, bob, 300)
    deal = service.new_deal("baccarat")
    layout = service.seal_deal(deal.id, "seeds")
    places = range(layout.first, layout.first + 6)
    starts = {p: service.balance(p) for p in (ann, bob, cy, *others)}
    stakes = [
        Stake(ann, {"banker": 500}, places),
        Stake(bob, {"player": 500}, places),  # more than bob has
        Stake(9999, {"banker": 500}, places),  # no such player
        Stake(cy, {"tie": 0}, places),  # nothing staked
        *(Stake(p, {"player": 1000, "tie": 500}, places) for p in others),
    ]
    answers = service.start_shared("baccarat", deal.id, stakes)
    assert isinstance(answers[1], IllegalAction)
    assert "the wagers come to" in str(answers[1])
    assert isinstance(answers[2], NotFound)
    assert isinstance(answers[3], IllegalAction)
    dealt = [answers[0], *answers[4:]]
    assert all(isinstance(view, RoundView) and view.status == "settled" for view in dealt)
    assert len({view.id for view in dealt if isinstance(view, RoundView)}) == len(dealt)
    # one coup: the same cards for everyone
    assert len({str(view.cards) for view in dealt if isinstance(view, RoundView)}) == 1
    for player, view in zip((ann, *others), dealt, strict=True):
        assert isinstance(view, RoundView)
        assert service.balance(player) == starts[player] + view.net == view.balance
    assert service.balance(bob) == starts[bob]
    assert service.balance(cy) == starts[cy]
    assert service.audit() == []
    # each round is in its player's history, as one dealt alone would be
    (latest,) = service.history(ann, limit=1)
    assert latest.id == dealt[0].id
    assert latest.record is not None


def test_a_hundred_seats_cost_the_statements_of_five(database_url: str) -> None:
    """On PostgreSQL the rows of each kind go in one statement; SQLite, in the process,
    hands back the ids of a round and its two transactions one row at a time."""
    service = TableService(database_url)
    players = _players(service, 105)
    deal = service.new_deal("baccarat")
    layout = service.seal_deal(deal.id, "seeds")
    sent = []
    for coup, seats in enumerate((players[:5], players[5:])):
        places = range(layout.first + 6 * coup, layout.first + 6 * coup + 6)
        with _statements(service) as count:
            answers = service.start_shared(
                "baccarat", deal.id, [Stake(p, {"banker": 500}, places) for p in seats]
            )
        assert all(isinstance(a, RoundView) for a in answers)
        sent.append(count["statements"])
    per_seat = 0 if database_url.startswith("postgresql") else 3
    assert sent[1] - sent[0] == per_seat * 95
    assert sent[0] - per_seat * 5 <= 12
    assert service.audit() == []


def test_a_seat_at_crazy4_keeps_one_round_open(database_url: str) -> None:
    """An open round waits for the showdown (G7): the same player twice in one deal, or
    again in the next before it, is refused."""
    service = TableService(database_url)
    (ann,) = _players(service, 1)
    deal = service.new_deal("crazy4")
    service.seal_deal(deal.id, "seeds")
    ante = {"ante": 500, "super_bonus": 500}
    first, twice = service.start_shared(
        "crazy4", deal.id, [Stake(ann, ante, range(10)), Stake(ann, ante, range(10, 20))]
    )
    assert isinstance(first, RoundView)
    assert first.status == "open"
    assert isinstance(twice, Conflict)
    assert "this deal has dealt yours" in str(twice)
    with pytest.raises(Conflict, match=f"finish round {first.id}"):
        service.start_round(ann, "crazy4", ante, shared=SharedCards(deal.id, range(20, 30)))
    assert service.showdown([(ann, first.id, "play", None)]) == {}
    assert service.audit() == []


def test_a_lost_lease_deals_no_seat(database_url: str) -> None:
    service = TableService(database_url)
    ann, bob = _players(service, 2)
    old, _ = claim(service.engine, "shoe")
    deal = service.new_deal("baccarat", None, old)
    layout = service.seal_deal(deal.id, "seeds", old)
    claim(service.engine, "shoe")  # a successor
    places = range(layout.first, layout.first + 6)
    stakes = [Stake(p, {"banker": 500}, places) for p in (ann, bob)]
    with pytest.raises(LeaseLostError):
        service.start_shared("baccarat", deal.id, stakes, old)
    assert service.history(ann) == service.history(bob) == []
    assert service.balance(ann) == service.balance(bob) == 100_000
