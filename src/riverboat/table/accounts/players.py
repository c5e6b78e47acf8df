"""Players: the local player, registered accounts and log-in.

A registered player's password is kept as an argon2 hash. Hashing is slow on purpose,
so it never runs inside a database transaction: log-in reads the stored hash in one
short transaction, checks it with none open, and writes (only to upgrade an old hash)
in another. A made-up name is checked against a fixed hash, so it takes as long as a
real one. Names and passwords follow :mod:`riverboat.table.accounts.names`: a log-in finds
the account of exactly the name typed, else the one whose name looks like it (its key),
so a name typed in another case, width or normalisation logs in. Failed log-ins are
throttled per address (:mod:`riverboat.admission.logins`), never by locking an account;
so are a public server's sign-ups (:meth:`Players.sign_up`), every one counted.

Hashes are a budget of the whole process (:attr:`Players.hashes`): at most
:data:`HASH_SLOTS` at once, :data:`HASH_QUEUE` waiting, one per address; any more is
refused at once (``Busy``), before the throttle or the database is read, and is not
counted as a failed try. However many log-ins arrive, they take one core's worth of
hashing and a handful of threads, never the players' share.
"""

from __future__ import annotations

import math
import os

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.admission.budgets import Budget, Busy
from riverboat.admission.logins import LoginThrottle, MemoryThrottle
from riverboat.errors import BadCredentials, Conflict, NotFound
from riverboat.settings import settings
from riverboat.store.models import Player
from riverboat.table.accounts import LOCAL_PLAYER
from riverboat.table.accounts.ledger import Ledger
from riverboat.table.accounts.names import (
    check_name,
    check_password,
    name_key,
    reserved,
    spellings,
)

__all__ = [
    "HASH_QUEUE",
    "HASH_SLOTS",
    "LOCAL_PLAYER",
    "PASSWORD_CHECKS",
    "SIGN_UPS",
    "WRONG",
    "Players",
    "Throttled",
    "TooManySignUps",
    "hashes",
]

#: the one answer to a wrong password and to a name nobody has
WRONG = "unknown name or wrong password"

_hasher = PasswordHasher()
#: what a name nobody has is checked against, so that its refusal takes as long as a
#: wrong password's: a hash made with :data:`_hasher`'s parameters (written out, not
#: made at each start: a hash costs what a log-in does; tests/test_accounts.py checks
#: they are still the parameters it was made with)
_DUMMY_HASH = (
    "$argon2id$v=19$m=65536,t=3,p=4$/nC/Hq/rZfOlmTAnX11G9A$"
    "UFy2QRiMCHXOX+rL/pkN/9TFjhHWIeVutzZZb6JIimo"
)


def _hash_slots() -> int:
    """``RIVERBOAT_HASH_SLOTS``, or half the cores (a hash works four lanes), at least one."""
    return settings().hash_slots or max(1, (os.cpu_count() or 2) // 2)


#: password hashes at once (:func:`_hash_slots`)
HASH_SLOTS = _hash_slots()
#: hashes that may wait their turn; about how long one takes, in seconds
HASH_QUEUE, HASH_SECONDS = 4, 0.3
#: the work a budget of hashes counts, in its refusal
PASSWORD_CHECKS = "password checks"
#: what a log-in throttle counts for sign-ups (its keys' kind)
SIGN_UPS = "signup"


def hashes(slots: int = HASH_SLOTS, queue: int = HASH_QUEUE) -> Budget:
    """A budget of password hashes: ``slots`` at once, ``queue`` waiting, one per
    address."""
    return Budget(PASSWORD_CHECKS, slots, queue, each=1, seconds=HASH_SECONDS)


class Throttled(BadCredentials):
    """Too many failed log-ins from one address: the same words whether the name
    exists or not, and the whole seconds to wait (``retry_after``)."""

    #: what the address did too often
    tried = "failed log-ins"

    def __init__(self, seconds: float) -> None:
        self.retry_after = max(1, math.ceil(seconds))
        wait = self.retry_after
        super().__init__(f"too many {self.tried} from this address; try again in {wait} s")

    def after(self, seconds: float) -> Throttled:
        """The same refusal ``seconds`` later: that much less to wait (1 s at least).

        >>> str(Throttled(8).after(5))
        'too many failed log-ins from this address; try again in 3 s'
        >>> str(TooManySignUps(8).after(5))
        'too many sign-ups from this address; try again in 3 s'
        """
        return type(self)(self.retry_after - seconds)


class TooManySignUps(Throttled):
    """Too many sign-ups from one address (:meth:`Players.sign_up`): the seconds to wait."""

    tried = "sign-ups"


def _matches(stored: str | None, password: str) -> bool:
    """Whether the password matches the stored hash; with no hash, as long as a real
    check takes and False. Never call this inside a transaction."""
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


class Players:
    """The players of one ledger's database."""

    def __init__(
        self, ledger: Ledger, throttle: LoginThrottle | None = None, budget: Budget | None = None
    ) -> None:
        self.ledger = ledger
        self.throttle = throttle or MemoryThrottle()
        self.hashes = budget or hashes()

    def local_player(self) -> int:
        """The local default player (no password), created with its starting credit."""
        return self._player(LOCAL_PLAYER, None)

    def register(self, name: str, password: str) -> int:
        """A named account for a shared server; the password is kept as an argon2 hash.
        A name that is, or looks like, one taken or reserved is a :class:`Conflict`;
        a name or password outside the rules is an ``IllegalAction`` saying them."""
        shown = _checked(name, password)
        if self._credentials(shown) is not None:
            raise _taken(shown)
        with self.hashes.spend():
            hashed = _hasher.hash(password)  # with no transaction open
        return self._player(shown, hashed)

    def sign_up(self, name: str, password: str, address: str = "local") -> int:
        """:meth:`register`, asked by someone at ``address`` (a public server's sign-up):
        a name or password outside the rules, or a reserved name, is refused first, at
        no cost. Then, within one of :attr:`hashes` (``Busy`` at once when they are
        spent, uncounted), the sign-up is counted against the address by
        :attr:`throttle`, as a failed log-in is but apart from them, and never taken
        back: an address that makes accounts, or asks after taken names, waits as one
        that guesses passwords does (:class:`TooManySignUps`)."""
        shown = _checked(name, password)
        key, address = name_key(shown), address[:64]
        with self.hashes.spend(address):
            wait = self.throttle.attempt(key, address, kind=SIGN_UPS)
            if wait > 0:
                raise TooManySignUps(wait)
            if self._credentials(shown) is not None:
                raise _taken(shown)
            hashed = _hasher.hash(password)  # with no transaction open
        return self._player(shown, hashed)

    def _player(self, name: str, password_hash: str | None) -> int:
        key = name_key(name)

        def work(session: Session) -> int:
            if password_hash is None:  # the local player: its own name, exactly
                found = session.scalar(
                    select(Player.id).where(Player.name == name, Player.password_hash.is_(None))
                )
            else:
                found = session.scalar(select(Player.id).where(Player.name_key == key))
            if found is not None:
                if password_hash is not None:  # registered meanwhile by someone else
                    raise _taken(name)
                return found
            player = Player(name=name, name_key=key, password_hash=password_hash)
            session.add(player)
            session.flush()
            self.ledger.credit(session, player.id)
            return player.id

        try:
            return self.ledger.write(work)
        except IntegrityError:
            return self.ledger.write(work)  # created concurrently: read it

    def _credentials(self, name: str) -> tuple[int, str | None] | None:
        """The id and password hash of the account ``name`` names, read in one short
        transaction: the account of exactly that name (as typed, or as names are
        stored: :func:`~riverboat.table.accounts.names.spellings`), else the one with
        its key."""
        exact = spellings(name)
        with Session(self.ledger.engine) as session:
            found = session.execute(
                select(Player.id, Player.name, Player.password_hash).where(
                    or_(Player.name.in_(exact), Player.name_key == name_key(name))
                )
            )
            rows = sorted(found, key=lambda row: (row.name not in exact, row.name != name))
        return (rows[0].id, rows[0].password_hash) if rows else None

    def login(self, name: str, password: str, address: str = "local") -> int:
        """The player's id, or :class:`BadCredentials` (:data:`WRONG` for a wrong
        password and an unknown name alike). A password outside the rules is refused
        as at creation. Failures from one address slow that address (:class:`Throttled`),
        at one account and over all; never the account's owner elsewhere. With
        :attr:`hashes` spent, ``Busy`` at once, before the throttle is asked: the try
        is not counted, and costs the throttle's store nothing."""
        check_password(password)
        key, address = name_key(name), address[:64]
        with self.hashes.spend(address):
            wait = self.throttle.attempt(key, address)
            if wait > 0:
                raise Throttled(wait)
            found = self._credentials(name)
            player_id, stored = found if found is not None else (None, None)
            matched = _matches(stored, password)  # a made-up name takes as long
        if player_id is None or not matched:
            raise BadCredentials(WRONG)
        self.throttle.succeeded(key, address)
        if stored is not None and _hasher.check_needs_rehash(stored):
            self._rehash(player_id, stored, password)
        return player_id

    def _rehash(self, player_id: int, stored: str, password: str) -> None:
        """An old hash replaced by one with today's parameters, hashed outside the
        short write (which changes nothing if the hash changed meanwhile); with the
        budget spent, left for the next log-in."""
        try:
            with self.hashes.spend():
                fresh = _hasher.hash(password)
        except Busy:
            return
        self.ledger.write(
            lambda session: session.execute(
                update(Player)
                .where(Player.id == player_id, Player.password_hash == stored)
                .values(password_hash=fresh)
            )
        )

    def name(self, player_id: int) -> str:
        """The player's name, as other players at a shared table see it."""
        with Session(self.ledger.engine) as session:
            name = session.scalar(select(Player.name).where(Player.id == player_id))
        if name is None:
            raise NotFound(f"there is no player {player_id}")
        return name


def _checked(name: str, password: str) -> str:
    """The name as it is stored, once it and the password keep to the rules and the
    name is not reserved; else the refusal that says why."""
    shown = check_name(name)
    reserved(shown)
    check_password(password)
    return shown


def _taken(name: str) -> Conflict:
    return Conflict(f"the name {name!r} is taken, or looks like one that is; choose another")
