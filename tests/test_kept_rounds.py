"""Open rounds a process keeps rebuilt (riverboat.table.rounds.own.KeptRounds): a decision
uses the kept round only while the database still stores it as kept; anything else
rebuilds it from what is stored, and the money and records come out the same."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from riverboat.errors import IllegalAction
from riverboat.table.accounts.ledger import STARTING_CREDIT
from riverboat.table.rounds import own as rounds
from riverboat.table.rounds.own import KeptRounds
from riverboat.table.service import SharedCards, TableService


@pytest.fixture
def service(database_url: str) -> Iterator[TableService]:
    found = TableService(database_url)
    yield found
    found.engine.dispose()


def test_a_decision_uses_the_round_kept_at_its_deal(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="kept")
    assert service.rounds.kept.take(view.id) is not None  # kept once the deal committed
    again = service.start_round(me, "crazy4", {"ante": 500, "super_bonus": 500})

    def no_replay(*_: object) -> None:
        raise AssertionError("the kept round is used: nothing is replayed")

    monkeypatch.setattr(rounds, "resume", no_replay)
    monkeypatch.setattr(service.rounds, "_resumed_ahead", no_replay)
    done = service.act(me, again.id, "play")
    assert done.status == "settled"
    assert service.rounds.kept.take(again.id) is None  # a finished round is not kept
    monkeypatch.undo()
    assert service.audit() == []  # the settlement replays to what was stored


def test_a_round_played_on_since_it_was_kept_is_rebuilt(service: TableService) -> None:
    """A kept round with more events than stored (as if it were played on and that
    transaction rolled back, or another process's copy) is not used: the decision
    rebuilds the round from the database."""
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="stale")
    kept = service.rounds.kept.take(view.id)
    assert kept is not None
    cards, stale = kept
    stale.act("raise")  # two events more than the database stores
    service.rounds.kept.keep(view.id, cards, stale)
    done = service.act(me, view.id, "fold")
    assert (done.status, done.net) == ("settled", -1000)  # the fold, not the raise
    assert service.balance(me) == STARTING_CREDIT - 1000
    assert service.audit() == []


def test_a_kept_round_whose_cards_differ_from_the_stored_ones_is_rebuilt(
    service: TableService,
) -> None:
    me = service.local_player()
    first = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="one")
    kept = service.rounds.kept.take(first.id)
    assert kept is not None
    service.act(me, first.id, "fold")
    second = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="two")
    service.rounds.kept.keep(second.id, kept[0], kept[1])  # another round's cards
    done = service.act(me, second.id, "raise")
    assert sorted(done.cards["player"]) == sorted(second.cards["player"])  # its own cards
    assert service.audit() == []


def test_a_decision_in_another_process_is_seen(database_url: str) -> None:
    """Two services on one database stand for two processes: the round one dealt and
    kept, the other decides; the first's kept round is then refused, not replayed."""
    one, other = TableService(database_url), TableService(database_url)
    try:
        me = one.local_player()
        view = one.start_round(me, "rabbit-hunter", {"ante": 1000})
        assert other.act(me, view.id, "fold").status == "settled"
        with pytest.raises(IllegalAction, match="is settled"):
            one.act(me, view.id, "play")
        assert one.balance(me) == STARTING_CREDIT - 1000
        assert one.audit() == []
    finally:
        one.engine.dispose()
        other.engine.dispose()


def test_a_refused_decision_leaves_the_round_to_be_rebuilt(service: TableService) -> None:
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 50_000, "pair_plus": 10_000})
    with pytest.raises(IllegalAction, match="needs"):  # 50,000 more: the balance is 40,000
        service.act(me, view.id, "raise")
    assert service.rounds.kept.take(view.id) is None  # taken, not put back
    done = service.act(me, view.id, "fold")
    assert done.status == "settled"
    assert service.balance(me) == STARTING_CREDIT + done.net
    assert service.audit() == []


def test_an_idempotent_repeat_answers_as_before_and_keeps_nothing(service: TableService) -> None:
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 1000}, idempotency_key="deal")
    assert service.rounds.kept.take(view.id) is not None
    again = service.start_round(me, "tri-card", {"ante": 1000}, idempotency_key="deal")
    assert again == view
    assert service.rounds.kept.take(view.id) is None  # the stored answer: nothing kept
    assert service.act(me, view.id, "raise").status == "settled"  # rebuilt
    assert service.audit() == []


def test_the_oldest_kept_rounds_make_way() -> None:
    kept = KeptRounds(size=2)
    for round_id in (1, 2, 3):
        kept.keep(round_id, f"[{round_id}]", None)  # type: ignore[arg-type]
    assert kept.take(1) is None
    assert kept.take(3) == ("[3]", None)


def test_a_shared_tables_round_is_not_kept(service: TableService) -> None:
    """It is decided at its table's showdown, which rebuilds it: keeping it would only
    hold memory."""
    me = service.local_player()
    deal = service.new_deal("crazy4")
    service.seal_deal(deal.id, "me")
    ante = {"ante": 500, "super_bonus": 500}
    view = service.start_round(me, "crazy4", ante, shared=SharedCards(deal.id, range(10)))
    assert view.shared
    assert service.rounds.kept.take(view.id) is None
    assert service.showdown([(me, view.id, "play", None)]) == {}
    assert service.audit() == []
