"""The table service on SQLite and on PostgreSQL: ledger, rounds, fairness, accounts,
idempotency, concurrency and recovery (G1, G6, G7, R10)."""

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from riverboat.admission.budgets import Busy
from riverboat.admission.logins import MemoryThrottle
from riverboat.errors import BadCredentials, Conflict, NotFound, Unavailable
from riverboat.games import IllegalAction
from riverboat.store.models import LedgerEntry, RoundRow
from riverboat.table.rounds import records
from riverboat.table.service import STARTING_CREDIT, TableService, verify_round


@pytest.fixture
def service(database_url: str) -> Iterator[TableService]:
    table = TableService(database_url)
    yield table
    table.engine.dispose()


def ledger_total(service: TableService) -> int:
    with Session(service.engine) as session:
        return int(session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0))) or 0)


def test_a_round_moves_money_through_the_ledger_g1(service: TableService) -> None:
    me = service.local_player()
    assert service.local_player() == me
    assert service.balance(me) == STARTING_CREDIT
    view = service.start_round(me, "tri-card", {"ante": 1000, "pair_plus": 500})
    assert service.balance(me) == STARTING_CREDIT - 1500
    done = service.act(me, view.id, "raise")
    assert done.status == "settled"
    net = sum(done.result.values())
    assert service.balance(me) == STARTING_CREDIT + net
    assert done.balance == service.balance(me)
    assert ledger_total(service) == 0  # double entry: what the player wins, the house loses
    assert service.audit() == []


@pytest.mark.parametrize(
    ("game", "wagers", "action"),
    [
        ("rabbit-hunter", {"ante": 1000, "bonus": 1000, "bad_beat": 500}, "buy"),
        ("crazy4", {"ante": 1000, "super_bonus": 1000, "queens_up": 500}, "play"),
        ("baccarat", {"banker": 1000, "tie": 500}, None),
        ("tri-card", {"pair_plus": 500}, None),
    ],
)
def test_every_game_plays_through_the_service(
    service: TableService, game: str, wagers: dict[str, int], action: str | None
) -> None:
    me = service.local_player()
    view = service.start_round(me, game, wagers)
    if action is not None:
        assert view.status == "open"
        view = service.act(me, view.id, action)
    assert view.status == "settled"
    assert service.balance(me) == STARTING_CREDIT + sum(view.result.values())
    assert service.audit() == []


def test_provably_fair_commit_then_reveal_and_verify(service: TableService) -> None:
    me = service.local_player()
    view = service.start_round(me, "rabbit-hunter", {"ante": 1000}, client_seed="my-seed")
    assert view.server_seed is None  # committed, not revealed
    assert len(view.commitment) == 64
    assert set(view.cards) == {"player"}  # the dealer's cards stay hidden
    assert view.client_seed == "my-seed"
    service.act(me, view.id, "play")
    exported = service.history(me, 1)[0]
    assert exported.server_seed is not None
    assert verify_round(exported) == []
    tampered = exported.model_dump(mode="json")
    tampered["record"]["cards_drawn"][0] = (tampered["record"]["cards_drawn"][0] + 1) % 52
    assert "the cards dealt are not the ones the seeds give" in verify_round(tampered)
    wrong_seed = {**exported.model_dump(mode="json"), "server_seed": "00" * 32}
    assert any("commitment" in p for p in verify_round(wrong_seed))


def test_idempotency_keys(service: TableService) -> None:
    me = service.local_player()
    first = service.start_round(me, "tri-card", {"ante": 1000}, idempotency_key="k1")
    again = service.start_round(me, "tri-card", {"ante": 1000}, idempotency_key="k1")
    assert again == first
    assert service.balance(me) == STARTING_CREDIT - 1000  # debited once
    # a reused key refuses because of what is already so: a Conflict, not a rules refusal
    with pytest.raises(Conflict, match="idempotency key 'k1' was used for another request"):
        service.start_round(me, "tri-card", {"ante": 2000}, idempotency_key="k1")
    done = service.act(me, first.id, "fold", idempotency_key="k2")
    assert service.act(me, first.id, "fold", idempotency_key="k2") == done


def test_refusals_name_the_rule_and_change_nothing_g6_g7(service: TableService) -> None:
    me = service.local_player()
    with pytest.raises(IllegalAction, match=r"Ante of \$1,000 is outside the table limits"):
        service.start_round(me, "tri-card", {"ante": 100_000})
    view = service.start_round(me, "tri-card", {"ante": 1000})
    # an unfinished round at this table is a Conflict (G7), not a rules refusal
    with pytest.raises(Conflict, match=f"finish round {view.id} at this table first"):
        service.start_round(me, "tri-card", {"ante": 1000})
    with pytest.raises(IllegalAction, match="'play' is not allowed now"):
        service.act(me, view.id, "play")
    other = service.register("other", "correct horse")
    # another player's round is NotFound, and never says whose it is
    with pytest.raises(NotFound, match=f"there is no round {view.id} of yours"):
        service.act(other, view.id, "fold")
    with pytest.raises(NotFound, match=f"there is no round {view.id} of yours"):
        service.round(other, view.id)
    assert service.balance(me) == STARTING_CREDIT - 1000
    assert service.balance(other) == STARTING_CREDIT
    assert service.audit() == []


def test_the_balance_bounds_wagers_and_decisions(service: TableService) -> None:
    me = service.local_player()
    for _ in range(2):
        view = service.start_round(me, "tri-card", {"ante": 50_000})
        service.act(me, view.id, "fold")
    assert service.balance(me) == 0
    with pytest.raises(IllegalAction, match=r"the wagers come to \$5; the balance is \$0"):
        service.start_round(me, "baccarat", {"banker": 500})
    assert service.top_up(me) == STARTING_CREDIT
    with pytest.raises(IllegalAction, match="a top-up is for balances below"):
        service.top_up(me)
    view = service.start_round(me, "tri-card", {"ante": 50_000, "pair_plus": 10_000})
    # the balance is now $400: a $500 Raise cannot be paid
    with pytest.raises(IllegalAction, match=r"Raise needs \$500; the balance is \$400"):
        service.act(me, view.id, "raise")
    service.act(me, view.id, "fold")
    assert service.audit() == []


def test_two_simultaneous_wagers_beyond_the_balance_one_succeeds(service: TableService) -> None:
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 50_000})
    service.act(me, view.id, "fold")  # $500 left
    outcomes: list[str] = []

    def wager(game: str, wagers: dict[str, int]) -> None:
        try:
            service.start_round(me, game, wagers)
            outcomes.append("ok")
        except IllegalAction:
            outcomes.append("refused")

    threads = [
        threading.Thread(target=wager, args=("rabbit-hunter", {"ante": 50_000})),
        threading.Thread(target=wager, args=("crazy4", {"ante": 25_000, "super_bonus": 25_000})),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "refused"]
    assert service.balance(me) == 0
    assert ledger_total(service) == 0


def test_accounts_passwords_and_throttle(service: TableService) -> None:
    service.players.throttle = MemoryThrottle(clock=lambda: 0.0)  # no wait runs out here
    ann = service.register("ann", "a long password")
    assert service.login("ann", "a long password") == ann
    with pytest.raises(Conflict, match="the name 'ann' is taken"):  # taken: a Conflict
        service.register("ann", "another password")
    with pytest.raises(IllegalAction, match="a password is 8 to 128 characters"):
        service.register("bob", "short")
    with pytest.raises(IllegalAction, match="letters and digits of one writing system"):
        service.register("b o b", "a long password")
    # log-in refusals are BadCredentials: a wrong password, an unknown name, a throttle
    for _ in range(5):
        with pytest.raises(BadCredentials, match="unknown name or wrong password"):
            service.login("ann", "wrong password", "10.0.0.66")
    with pytest.raises(BadCredentials, match="too many failed log-ins from this address"):
        service.login("ann", "a long password", "10.0.0.66")
    # the stranger's address is slowed, not ann's own
    assert service.login("ann", "a long password", "10.0.0.1") == ann
    for _ in range(5):  # an unknown name is throttled the same way: no name is given away
        with pytest.raises(BadCredentials, match="unknown name or wrong password"):
            service.login("nobody", "a long password", "10.0.0.77")
    with pytest.raises(BadCredentials, match="from this address"):
        service.login("nobody", "a long password", "10.0.0.77")
    # guessing from many addresses no longer locks the account (the old lock let a
    # stranger shut its owner out): ann still logs in
    for attempt in range(50):
        with pytest.raises(BadCredentials, match="wrong password"):
            service.login("ann", "wrong password", f"10.1.{attempt // 4}.{attempt % 4}")
    assert service.login("ann", "a long password", "10.0.0.1") == ann


def test_recovery_voids_rounds_waiting_for_the_first_decision_g7(service: TableService) -> None:
    me = service.local_player()
    view = service.start_round(me, "rabbit-hunter", {"ante": 1000, "bonus": 1000})
    assert service.balance(me) == STARTING_CREDIT - 2000
    restarted = TableService(str(service.engine.url.render_as_string(hide_password=False)))
    assert restarted.recover() == [view.id]
    assert restarted.balance(me) == STARTING_CREDIT  # refunded
    assert restarted.history(me, 1)[0].status == "void"
    assert restarted.audit() == []
    restarted.engine.dispose()


def test_history_and_quick_replay_r10(service: TableService) -> None:
    me = service.local_player()
    with pytest.raises(IllegalAction, match="no previous round"):
        service.quick_replay(me, "baccarat")
    for _ in range(3):
        service.start_round(me, "baccarat", {"player": 1000})
    replayed = service.quick_replay(me, "baccarat")
    assert replayed.status == "settled"
    history = service.history(me, 10)
    assert [h.id for h in history] == sorted((h.id for h in history), reverse=True)
    assert len(history) == 4
    assert all(h.record.events[0]["wagers"]["player"] == 1000 for h in history)
    assert history[0].balance_after == service.balance(me)
    assert history[-1].balance_before == STARTING_CREDIT
    with pytest.raises(IllegalAction, match="1 to 1000 rounds"):
        service.history(me, 0)


def test_audit_compares_every_payout_with_its_record(service: TableService) -> None:
    from riverboat.store.models import Transaction

    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 500})
    service.act(me, view.id, "fold")
    with Session(service.engine) as session, session.begin():  # a forged, balanced payout
        txn = session.scalar(
            select(Transaction).where(
                Transaction.round_id == view.id, Transaction.kind == "settle"
            )
        )
        assert txn is not None
        session.add_all(
            [
                LedgerEntry(transaction_id=txn.id, account=f"player:{me}", amount=1_000_000),
                LedgerEntry(transaction_id=txn.id, account="house", amount=-1_000_000),
            ]
        )
    assert any("the record says -500" in problem for problem in service.audit())


def test_a_round_left_open_can_be_picked_up_again(service: TableService) -> None:
    me = service.local_player()
    assert service.open_round(me, "rabbit-hunter") is None
    view = service.start_round(me, "rabbit-hunter", {"ante": 500})
    again = service.open_round(me, "rabbit-hunter")
    assert again is not None
    assert again.id == view.id
    assert again.cards == view.cards  # the same cards, nothing more shown


@pytest.mark.production_password_hashes  # hashes as slow as production's: the two overlap
def test_a_name_registered_twice_at_once_is_refused_once(service: TableService) -> None:
    results: list[str] = []

    def register(password: str) -> None:
        try:
            service.register("alice", password)
            results.append("ok")
        except Conflict:  # a name already taken is a Conflict, not a rules refusal
            results.append("taken")

    threads = [
        threading.Thread(target=register, args=(p,)) for p in ("first password", "second password")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["ok", "taken"]


def test_a_blind_second_position_is_staked_hidden_and_replayed_c8(service: TableService) -> None:
    me = service.local_player()
    ante = {"ante": 1000, "super_bonus": 1000}
    view = service.start_round(me, "crazy4", ante, second=ante)
    # both positions' wagers, and the blind hand's 1x Play, are staked at the deal
    assert service.balance(me) == STARTING_CREDIT - 5000
    assert set(view.cards) == {"player"}  # the blind hand stays face down
    assert view.face_down == 10
    done = service.act(me, view.id, "fold")
    assert done.cards.keys() == {"player", "player:blind", "dealer"}
    assert done.second_result["play"] in (-1000, 0, 1000)  # the blind Play, settled
    assert service.balance(me) == STARTING_CREDIT + done.net
    again = service.quick_replay(me, "crazy4")  # R10: both positions again
    assert again.second == done.second
    assert service.audit() == []
    assert ledger_total(service) == 0
    assert verify_round(service.history(me, 2)[1]) == []


def test_history_nets_each_round_and_own_tables_ignore_shared_rounds(
    service: TableService,
) -> None:
    """A round's net comes from its record, whatever else moved the balance meanwhile;
    a shared table's round neither blocks nor replays at the player's own table (G7, R10)."""
    from riverboat.table.service import SharedCards

    me = service.local_player()
    ante = {"ante": 1000, "super_bonus": 1000}
    first = service.start_round(me, "crazy4", ante)
    service.act(me, service.start_round(me, "tri-card", {"ante": 5000}).id, "fold")
    done = service.act(me, first.id, "fold")
    crazy4 = next(r for r in service.history(me) if r.id == first.id)
    assert crazy4.net == done.net == -2000
    assert crazy4.balance_after - crazy4.balance_before == -7000  # the fold between
    deal = service.new_deal("crazy4")
    service.seal_deal(deal.id, "me")
    shared = service.start_round(
        me, "crazy4", {**ante, "queens_up": 500}, shared=SharedCards(deal.id, range(10))
    )
    assert service.open_round(me, "crazy4") is None  # it is the shared table's
    own = service.start_round(me, "crazy4", ante)  # the own table is free
    with pytest.raises(Conflict, match="G7"):  # an unfinished round here: a Conflict
        service.start_round(me, "crazy4", ante)
    service.act(me, own.id, "fold")
    assert service.quick_replay(me, "crazy4").wagers["queens_up"] == 0  # not the shared one
    assert shared.status == "open"


def test_the_server_seed_is_committed_before_the_client_seed_is_known(
    service: TableService,
) -> None:
    """Provably fair: the player sees the commitment, then chooses a client seed; the
    round must deal from the seed committed to, so the house cannot pick its seed
    after seeing the player's."""
    me = service.local_player()
    shown = service.next_commitment(me, "tri-card")
    assert service.next_commitment(me, "tri-card") == shown  # the same until used
    assert service.next_commitment(me, "crazy4") != shown  # one per table
    with pytest.raises(IllegalAction):  # a refused round leaves the seed where it was
        service.start_round(me, "tri-card", {"ante": 1}, client_seed="mine")
    service.recover()  # a restart keeps it secret and in place
    view = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="chosen after")
    assert view.commitment == shown
    assert view.client_seed == "chosen after"
    assert service.next_commitment(me, "tri-card") != shown  # a fresh seed for the next
    service.act(me, view.id, "fold")
    exported = service.history(me, 1)[0]
    assert exported.commitment == shown
    assert verify_round(exported) == []


@pytest.mark.production_password_hashes  # checks as slow as production's: guesses overlap
def test_guesses_at_once_count_each_one(service: TableService) -> None:
    """A burst of parallel wrong log-ins from one address is held to five checks: each
    counts from the moment it starts, the fifth makes the next wait a second, and one
    refused because a check of the address's is under way (``Busy``) is not counted."""
    service.players.throttle = MemoryThrottle(clock=lambda: 0.0)  # no wait runs out here
    service.register("ann", "a long password")
    answers: list[str] = []

    def guess() -> None:
        try:
            service.login("ann", "wrong password", "10.0.0.66")
        except (BadCredentials, Busy) as error:  # log-in refusals, and the budget's
            answers.append(str(error))

    bursts = 0
    while not any("failed log-ins from this address" in a for a in answers) and bursts < 20:
        bursts += 1  # bursts until the address has used its five
        threads = [threading.Thread(target=guess) for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    checked = sum("wrong password" in answer for answer in answers)
    throttled = sum("failed log-ins from this address" in answer for answer in answers)
    busy = sum("password checks under way" in answer for answer in answers)
    assert checked == 5  # never more, however the bursts fell
    assert throttled >= 1
    assert busy >= 1  # guesses refused while one of the address's was checked, uncounted
    assert checked + throttled + busy == 20 * bursts


def test_an_exported_record_is_the_stored_record_byte_for_byte(service: TableService) -> None:
    """The typed export keeps the record's JSON exactly as stored (it is what verifies)."""
    me = service.local_player()
    view = service.start_round(me, "crazy4", {"ante": 500, "super_bonus": 500}, second=None)
    service.act(me, view.id, "play", 500)
    exported = service.history(me, 1)[0]
    assert exported.record is not None
    with Session(service.engine) as session:
        stored = session.get(RoundRow, view.id)
        assert stored is not None
        # the record is stored as event rows now (records.py): compare with what they load
        assert json.dumps(exported.model_dump(mode="json")["record"]) == json.dumps(
            records.load(stored)
        )
    assert verify_round(exported) == verify_round(exported.model_dump(mode="json")) == []


def test_refusals_say_what_kind_they_are(service: TableService) -> None:
    """Each refusal is one kind (riverboat.errors), so a front end maps it once."""
    me = service.local_player()
    other = service.register("other", "correct horse")
    view = service.start_round(me, "tri-card", {"ante": 1000})
    for refused in (
        lambda: service.act(other, view.id, "fold"),
        lambda: service.check_decision(other, view.id, "fold"),
        lambda: service.round(other, 999_999),
        lambda: service.reveal_deal(999_999),
        lambda: service.name(999_999),
    ):
        with pytest.raises(NotFound) as caught:
            refused()
        assert "other" not in str(caught.value)  # never says whose it is
        assert "local" not in str(caught.value)
    with pytest.raises(Conflict):  # G7
        service.start_round(me, "tri-card", {"ante": 1000})
    with pytest.raises(Conflict):
        service.register("other", "another password")
    with pytest.raises(Conflict):
        service.register("local", "another password")
    service.act(me, view.id, "fold", idempotency_key="k")
    with pytest.raises(Conflict):
        service.start_round(me, "tri-card", {"ante": 1000}, idempotency_key="k")
    with pytest.raises(BadCredentials):
        service.login("other", "wrong horse")
    with pytest.raises(BadCredentials):
        service.login("nobody at all", "correct horse")
    # a limit outside 1..1000 is a bad value in the query, refused as IllegalAction (422)
    # at either end; TooLarge (413) is for content too large, which a query never is
    for limit in (0, 1001):
        with pytest.raises(IllegalAction, match="history shows 1 to 1000 rounds") as refused:
            service.history(me, limit)
        assert type(refused.value) is IllegalAction
    assert len(service.history(me, 1000)) == 1
    with pytest.raises(IllegalAction) as rules:  # the rules' refusals stay IllegalAction
        service.start_round(me, "tri-card", {"ante": 100_000})
    assert type(rules.value) is IllegalAction


def test_a_database_that_does_not_answer_is_unavailable(tmp_path: Path) -> None:
    """A database that cannot be reached refuses as Unavailable (try again later)."""
    from sqlalchemy import create_engine

    service = TableService(f"sqlite:///{tmp_path / 'riverboat.db'}")
    service.ledger.engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    with pytest.raises(Unavailable):  # nothing listens on port 1
        service.local_player()
    service.ledger.engine.dispose()
    service.engine.dispose()


def test_the_verifier_needs_no_database() -> None:
    """A player's verifier imports nothing of SQLAlchemy or the store."""
    code = (
        "import sys, riverboat.table.rounds.verify as v; "
        "assert v.verify_round({}) != []; "
        "print(sorted(m for m in sys.modules if m.startswith(('sqlalchemy', 'riverboat.store'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_a_shoe_is_ended_and_asked_about_at_its_own_game_b1(service: TableService) -> None:
    me = service.local_player()
    service.start_round(me, "baccarat", {"banker": 500}, "mine")
    assert service.shoe_in_play(me, "baccarat")
    assert not service.shoe_in_play(me, "tri-card")  # a fresh deck each round: no shoe
    assert service.end_shoe(me, "tri-card") is False  # another game's table ends nothing
    assert service.shoe_in_play(me, "baccarat")
    assert service.end_shoe(me, "baccarat") is True
    assert not service.shoe_in_play(me, "baccarat")
    assert service.end_shoe(me, "baccarat") is False


def test_an_open_round_shows_its_players_hands_by_the_spec_c8_r4() -> None:
    from riverboat.deck import Deck
    from riverboat.games import find_game
    from riverboat.table.rounds.exports import round_view

    row = RoundRow(
        id=1, game="crazy4", status="open", server_seed="s", commitment="c",
        client_seed="x", nonce=0, balance_before=0,
    )  # fmt: skip
    game_round = find_game("crazy4").new_round()
    game_round.place_wagers({"ante": 500, "super_bonus": 500}, seat="ann")
    game_round.place_wagers({"ante": 500, "super_bonus": 500}, seat="ann", blind=True)
    game_round.deal(Deck.stacked(range(15)))
    view = round_view(row, game_round, 0, revealed=False, shared=True)
    # the hand ann acts on, keyed by her seat; never the blind one's nor the dealer's (C8)
    assert list(view.cards) == ["ann"]
    assert view.face_down == 10

    row.game = "rabbit-hunter"
    game_round = find_game("rabbit-hunter").new_round()
    game_round.place_wagers({"ante": 500})
    game_round.deal(Deck.stacked(range(11)))
    assert list(round_view(row, game_round, 0, False, False).cards) == ["player"]
    game_round.act("buy")  # R4: the rabbit is dealt to the player, who sees it
    assert sorted(round_view(row, game_round, 0, False, False).cards) == ["player", "rabbit"]
