"""The database tables: players, an append-only double-entry ledger, rounds and their
append-only events.

Money moves only as a *transaction*: a set of ledger entries that sum to zero. A
player's balance is the sum of the entries of the account ``player:<id>``, kept as a
running total on the player's row by the same transaction as the entries; a round's
stakes sit in ``round:<id>`` while it is open; the house is ``house``. Entries are
never updated or deleted: a correction is a new transaction. A round's events are rows
of ``round_events``, likewise only ever added (:mod:`riverboat.table.rounds.records`).
"""

# No ``from __future__ import annotations`` here: the declarative mapping reads every
# ``Mapped[...]`` annotation, and one kept as a string is evaluated again at import
# (the tables took about twice as long to map).
from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    event,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "Base",
    "Deal",
    "KeptState",
    "LedgerEntry",
    "OperatorAction",
    "Player",
    "RoundEvent",
    "RoundRow",
    "SharedTableRow",
    "Transaction",
]


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (Index("players_name_key_unique", "name_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    #: what the name reads as (riverboat.table.accounts.names.name_key): unique, so no two names
    #: look alike; a look-alike made before 0012 keeps its key followed by # and its id
    name_key: Mapped[str | None] = mapped_column(String(200))
    password_hash: Mapped[str | None] = mapped_column(String(256))
    #: no longer used: failed log-ins are throttled per address, accounts never lock
    failed_logins: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=_now)
    #: the sum of the entries of ``player:<id>``, moved with them (the audit checks it)
    balance: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    #: how many rounds the player has been dealt: the nonce of their next own deck (G2)
    rounds_dealt: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: may use the back office (granted and revoked only from the command line, 0013)
    operator: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: locked by an operator: log-in is refused until an operator unlocks it
    locked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Transaction(Base):
    """One movement of money (its entries sum to zero), or one idempotent request.

    A request's idempotency key is the player's own: ``request_key`` is unique per
    player. (The column ``idempotency_key``, once unique across players, is gone: 0007.)
    """

    __tablename__ = "transactions"
    __table_args__ = (
        Index("transactions_player_key", "player_id", "request_key", unique=True),
        Index("transactions_round", "round_id"),
        #: a player's credits of a kind, newest first (riverboat.table.accounts.credits)
        Index("transactions_player_kind", "player_id", "kind", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"))
    request_key: Mapped[str | None] = mapped_column(String(128))
    request: Mapped[str | None] = mapped_column(Text)
    response: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=_now)


class LedgerEntry(Base):
    __tablename__ = "ledger"
    #: an account's entries, and its entry in one transaction (0010)
    __table_args__ = (Index("ledger_account_transaction", "account", "transaction_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("transactions.id"))
    account: Mapped[str] = mapped_column(String(64))
    amount: Mapped[int] = mapped_column(BigInteger)  # cents, positive in, negative out
    created_at: Mapped[datetime] = mapped_column(default=_now)


class RoundRow(Base):
    """A round: its provably fair seeds and what its record holds besides its events
    (those are :class:`RoundEvent` rows). ``rules`` and ``record_format`` are written
    once, with the first events; ``cards_drawn`` only ever grows."""

    __tablename__ = "rounds"
    __table_args__ = (
        Index("rounds_player_status", "player_id", "status"),
        Index("rounds_deal", "deal_id"),
        Index("rounds_player", "player_id", "id"),
        Index("rounds_player_commitment", "player_id", "commitment", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # open, settled, void
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    client_seed: Mapped[str] = mapped_column(String(128))
    nonce: Mapped[int] = mapped_column(Integer)
    balance_before: Mapped[int] = mapped_column(BigInteger)
    balance_after: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    updated_at: Mapped[datetime] = mapped_column(default=_now, onupdate=_now)
    #: at a shared table: the deal (deck or shoe) the cards came from, and their places in it
    deal_id: Mapped[int | None] = mapped_column(ForeignKey("deals.id"))
    deal_cards: Mapped[str | None] = mapped_column(Text)  # JSON list of places
    #: the record's format and rules (JSON) and the cards it drew (a JSON list, in the
    #: order drawn); None only until the round's first events are stored
    record_format: Mapped[int | None] = mapped_column(Integer)
    rules: Mapped[str | None] = mapped_column(Text)
    cards_drawn: Mapped[str | None] = mapped_column(Text)
    #: once finished, what history shows of its outcome without replaying it (JSON:
    #: net, totals, winner, places; see :func:`riverboat.table.rounds.records.outcome`)
    result: Mapped[str | None] = mapped_column(Text)


class RoundEvent(Base):
    """One event of a round, in its one JSON form (:meth:`Event.to_json`); ``seq`` runs
    0, 1, 2, ... in the order the events happened. Rows are only ever added."""

    __tablename__ = "round_events"

    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    body: Mapped[str] = mapped_column(Text)


@event.listens_for(RoundEvent, "before_update")
@event.listens_for(RoundEvent, "before_delete")
def _append_only(_mapper: object, _connection: object, target: RoundEvent) -> None:
    raise ValueError(
        f"round {target.round_id}'s event {target.seq} is stored: events are only added"
    )


class OperatorAction(Base):
    """One thing done from the back office (or to it, from the command line): who, when,
    what, to whom, why. Rows are only ever added; the audit checks every operator's
    movement of money has its row (:mod:`riverboat.table.office.actions`)."""

    __tablename__ = "operator_actions"
    __table_args__ = (
        Index("operator_actions_player", "player_id", "id"),
        Index("operator_actions_transaction", "transaction_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(default=_now)
    #: the operator who acted; None from the command line (``by`` says who ran it)
    operator_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    by: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    transaction_id: Mapped[int | None] = mapped_column(ForeignKey("transactions.id"))
    reason: Mapped[str] = mapped_column(Text)
    #: what else the action was (JSON): an amount, sessions ended, the balance after
    detail: Mapped[str | None] = mapped_column(Text)


@event.listens_for(OperatorAction, "before_update")
@event.listens_for(OperatorAction, "before_delete")
def _actions_append_only(_mapper: object, _connection: object, target: OperatorAction) -> None:
    raise ValueError(f"operator action {target.id} is stored: the log is only added to")


class Deal(Base):
    """A server seed committed to before the client seed that goes with it is known.

    A shared table's deck (Crazy 4) or shoe (Baccarat), dealt to several players: the
    client seed joins the bettors' seeds when the first cards are dealt, and the seed
    is revealed once nothing dealt from it is still in play (the end of a Crazy 4
    round, of a Baccarat shoe). Or, with ``player_id``, the seed of that player's next
    round at their own table of ``game``, shown as a commitment before they choose a
    client seed; the round copies it and the deal is deleted.
    """

    __tablename__ = "deals"
    __table_args__ = (Index("deals_player_game", "player_id", "game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[str] = mapped_column(Text)  # JSON, as in a round record
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    client_seed: Mapped[str | None] = mapped_column(String(128))
    #: the seated players' client seeds joined by ``|``, kept when there were more than
    #: ``client_seed`` holds: it is then their SHA-256 (:func:`riverboat.rng.joined_seed`)
    seeds: Mapped[str | None] = mapped_column(Text, default=None)
    revealed: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))


class KeptState(Base):
    """State every server process shares and a restart keeps: sessions (by their
    token's SHA-256, never the token), failed log-ins and rate-limit counts; each row
    gone at ``expires`` (seconds since the epoch). :mod:`riverboat.store.state`."""

    __tablename__ = "kept_state"
    __table_args__ = (Index("kept_state_expires", "expires"),)

    key: Mapped[str] = mapped_column(String(400), primary_key=True)
    value: Mapped[str | None] = mapped_column(Text)
    count: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    expires: Mapped[float] = mapped_column(Float)


class SharedTableRow(Base):
    """A shared table's live state, written by the server process that runs its clock
    (:mod:`riverboat.table.live.across.live_state`), so another can take the table over.

    ``token`` is the fencing token of the last claim: each claim adds one and hands it
    to its holder, and a write with any other token is refused. ``deadline`` is the pending
    step's time (seconds since the epoch), ``state`` the seats, bets, decisions and
    the shoe's progress (JSON).
    """

    __tablename__ = "shared_tables"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    token: Mapped[int] = mapped_column(BigInteger)
    phase: Mapped[str] = mapped_column(String(16))
    deadline: Mapped[float | None] = mapped_column(Float)
    deal_id: Mapped[int | None] = mapped_column(ForeignKey("deals.id"))
    state: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(default=_now, onupdate=_now)
