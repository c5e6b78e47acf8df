"""Player names and passwords: what is allowed, and the key that keeps names apart.

A name is NFKC-normalised (so full-width ``ａｎｎ`` is ``ann``), then must be 1 to 24
characters of the letters a-z (either case), digits, ``_``, ``-`` and ``.``, beginning
with a letter or digit. Keeping to ASCII removes every look-alike from another script
(Cyrillic ``а``, Greek ``ο``) at the door, with no confusables table to keep current.
The ASCII look-alikes that remain (``I``/``l``/``1``, ``O``/``0``, ``rn``/``m``,
``vv``/``w``) and case are folded into the name's *key*: two names with one key look
alike at a table, so only the first may have it; a reserved name's key is refused.

>>> check_name("ａｎｎ")
'ann'
>>> name_key("ANN"), name_key("Iocal"), name_key("rnary"), name_key("b0b")
('ann', 'local', 'mary', 'bob')
>>> check_name("аnn")  # a Cyrillic а
Traceback (most recent call last):
...
riverboat.errors.IllegalAction: a player name is 1 to 24 characters: letters a-z, ...
>>> check_password("x" * 300)
Traceback (most recent call last):
...
riverboat.errors.IllegalAction: a password is 8 to 128 characters
"""

from __future__ import annotations

import re
import unicodedata

from riverboat.errors import Conflict, IllegalAction

__all__ = [
    "NAME_LENGTH",
    "NAME_RULE",
    "PASSWORD_LENGTH",
    "PASSWORD_RULE",
    "RESERVED",
    "check_name",
    "check_password",
    "name_key",
    "reserved",
]

NAME_LENGTH = (1, 24)
PASSWORD_LENGTH = (8, 128)
NAME_RULE = (
    f"a player name is {NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters: letters a-z, "
    "digits, _ - or ., beginning with a letter or digit"
)
PASSWORD_RULE = f"a password is {PASSWORD_LENGTH[0]} to {PASSWORD_LENGTH[1]} characters"
#: names nobody may register, nor any name that looks like one: the local player's and
#: those a player could mistake for the table's own words
RESERVED = (
    "local",
    "admin",
    "administrator",
    "root",
    "system",
    "house",
    "dealer",
    "banker",
    "player",
    "riverboat",
    "moderator",
    "support",
)

_ALLOWED = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
#: ASCII look-alikes after case folding, one character (Unicode's confusables, UTS #39)
_SAME_SHAPE = str.maketrans("01i|", "olll")
#: and pairs of letters that read as one
_PAIRS = (("rn", "m"), ("vv", "w"))


def check_name(name: str) -> str:
    """The name as it is stored and shown (NFKC), or :class:`IllegalAction` saying
    what a name may be."""
    normal = unicodedata.normalize("NFKC", name)
    if not NAME_LENGTH[0] <= len(normal) <= NAME_LENGTH[1] or not _ALLOWED.fullmatch(normal):
        raise IllegalAction(NAME_RULE)
    return normal


def name_key(name: str) -> str:
    """The key two names share when they look alike: NFKC, case-folded, ASCII
    look-alikes folded. Names are unique by key."""
    key = unicodedata.normalize("NFKC", name).casefold().translate(_SAME_SHAPE)
    for pair, single in _PAIRS:
        key = key.replace(pair, single)
    return key


_RESERVED_KEYS = {name_key(name): name for name in RESERVED}


def reserved(name: str) -> None:
    """A :class:`Conflict` if the name is, or looks like, a reserved one."""
    word = _RESERVED_KEYS.get(name_key(name))
    if word is not None:
        raise Conflict(f"the name {name!r} is reserved (it reads as {word!r}); choose another")


def check_password(password: str) -> None:
    """The same limits when an account is made and at every log-in."""
    if not PASSWORD_LENGTH[0] <= len(password) <= PASSWORD_LENGTH[1]:
        raise IllegalAction(PASSWORD_RULE)
