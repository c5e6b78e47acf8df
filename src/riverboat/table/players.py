"""Players: the local player, registered accounts, log-in and its lockout.

A registered player's password is kept as an argon2 hash. Failed log-ins are
throttled: five from one address lock that address out of the name for a while,
fifty from all addresses together lock the account.
"""

from __future__ import annotations

import threading
from contextlib import suppress
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from riverboat.errors import BadCredentials, Conflict, IllegalAction, NotFound
from riverboat.store.models import Player
from riverboat.table.ledger import Ledger

__all__ = ["ACCOUNT_LOCKOUT_AFTER", "LOCAL_PLAYER", "LOCKOUT", "LOCKOUT_AFTER", "Players"]

LOCAL_PLAYER = "local"
#: failed log-ins from one address before it is locked out of that name, failed
#: log-ins from all addresses before the account locks, and how long either lasts
LOCKOUT_AFTER = 5
ACCOUNT_LOCKOUT_AFTER = 50
LOCKOUT = timedelta(minutes=15)

_hasher = PasswordHasher()
_DUMMY_HASH = _hasher.hash("riverboat: a password nobody has")


def _spend_a_hash(password: str) -> None:
    """Take as long as checking a real password, so timing does not tell names apart."""
    with suppress(VerificationError):
        _hasher.verify(_DUMMY_HASH, password)


class Players:
    """The players of one ledger's database."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        # (name, address) -> (failed log-ins, locked until), in this process's memory
        self._failures: dict[tuple[str, str], tuple[int, datetime | None]] = {}
        self._failures_lock = threading.Lock()

    def local_player(self) -> int:
        """The local default player (no password), created with its starting credit."""
        return self._player(LOCAL_PLAYER, None)

    def register(self, name: str, password: str) -> int:
        """A named account for a shared server; the password is kept as an argon2 hash.
        A name already taken is a :class:`Conflict`."""
        if not name or len(name) > 64 or not name.replace("-", "").replace("_", "").isalnum():
            raise IllegalAction("a player name is 1 to 64 letters, digits, - or _")
        if name == LOCAL_PLAYER:
            raise Conflict(f"the name {LOCAL_PLAYER!r} belongs to the local player")
        if len(password) < 8:
            raise IllegalAction("a password has at least 8 characters")
        with Session(self.ledger.engine) as session:
            if session.scalar(select(Player.id).where(Player.name == name)) is not None:
                raise Conflict(f"the name {name!r} is taken")
        return self._player(name, _hasher.hash(password))

    def _player(self, name: str, password_hash: str | None) -> int:
        def work(session: Session) -> int:
            existing = session.scalar(select(Player).where(Player.name == name))
            if existing is not None:
                if password_hash is not None:  # registered meanwhile by someone else
                    raise Conflict(f"the name {name!r} is taken")
                return existing.id
            player = Player(name=name, password_hash=password_hash, failed_logins=0)
            session.add(player)
            session.flush()
            self.ledger.credit(session, player.id)
            return player.id

        try:
            return self.ledger.write(work)
        except IntegrityError:
            return self.ledger.write(work)  # created concurrently: read it

    def login(self, name: str, password: str, address: str = "local") -> int:
        """The player's id, or :class:`BadCredentials`. Five failures from one address
        lock that address out of the name for a while, whether the name exists or not;
        fifty from all addresses together lock the account. So a stranger can shut out
        their own address, not the player's, unless they guess from many."""
        key = (name, address[:64])
        now = datetime.now(UTC).replace(tzinfo=None)
        with self._failures_lock:  # count the attempt as failed until it succeeds, so
            failures, until = self._failures.get(key, (0, None))  # guesses at once count
            locked = until is not None and until > now
            if not locked:
                failures += 1
                until = now + LOCKOUT if failures >= LOCKOUT_AFTER else None
                self._failures[key] = (0, until) if until else (failures, None)
        if locked:
            _spend_a_hash(password)
            raise BadCredentials(
                f"{LOCKOUT_AFTER} failed log-ins from here: try again in a quarter of an hour"
            )

        def work(session: Session) -> tuple[int | None, str]:
            player = session.scalar(select(Player).where(Player.name == name).with_for_update())
            if player is None or player.password_hash is None:
                _spend_a_hash(password)
                return None, "unknown name or wrong password"
            if player.locked_until is not None and player.locked_until.replace(tzinfo=None) > now:
                _spend_a_hash(password)
                return None, "the account is locked after many failed log-ins; try later"
            try:
                _hasher.verify(player.password_hash, password)
            except VerificationError:
                player.failed_logins += 1
                if player.failed_logins >= ACCOUNT_LOCKOUT_AFTER:
                    player.locked_until = now + LOCKOUT
                    player.failed_logins = 0
                return None, "unknown name or wrong password"
            player.failed_logins = 0
            return player.id, ""

        player_id, problem = self.ledger.write(work)
        if player_id is not None:
            with self._failures_lock:
                self._failures.pop(key, None)
        if player_id is None:
            raise BadCredentials(problem)
        return player_id

    def name(self, player_id: int) -> str:
        """The player's name, as other players at a shared table see it."""
        with Session(self.ledger.engine) as session:
            name = session.scalar(select(Player.name).where(Player.id == player_id))
        if name is None:
            raise NotFound(f"there is no player {player_id}")
        return name
