"""Player names and passwords: what is allowed, and the key that keeps names apart.

A name is read by RFC 8265's UsernameCasePreserved profile (``precis_i18n``): full-width
letters are narrowed and the name is NFC; spaces, control and invisible characters,
compatibility forms (``𝐚``, ``ﬁ``) and a name whose right-to-left letters break the
Bidi rule are refused. It is shown and stored so. It must then be 1 to 24 characters
(counted so) of letters and digits of one writing system, and ``_ - .``, beginning
with a letter or digit (:data:`NAME_RULE`). Letters are those of Unicode's General
Security Profile for identifiers (UTS #39: scripts and characters in modern use, so no
``ſ``, ``ǆ`` or Cherokee); one writing system is UTS #39's Highly Restrictive level:
one script, or Latin with the Han and kana of Japanese, the Han and Bopomofo of Chinese
or the Han and Hangul of Korean; never Latin with Cyrillic or Greek, where most
look-alikes hide. Digits are of one system too. ICU's spoof checker (``pyicu-wheels``)
tells scripts and look-alikes apart by Unicode's own data.

>>> check_name("José"), check_name("Zoë"), check_name("日本"), check_name("ａｎｎ")
('José', 'Zoë', '日本', 'ann')
>>> check_name("p\\u0430ypal")  # Latin with a Cyrillic а
Traceback (most recent call last):
...
riverboat.errors.IllegalAction: a player name is 1 to 24 characters: letters and digits ...

Two names that look alike share a *key*, and names are unique by key, so only the
first may have it; a reserved name's key is refused. The key is the name as RFC 8265's
UsernameCaseMapped profile compares names (lower case), with punctuation dropped, taken
through Unicode's confusable skeletons (UTS #39) of its capitals and then of its small
letters, case-folded, until it changes no more (:func:`name_key`). So punctuation,
case, width, ``I``/``l``/``1``, ``O``/``0``, ``rn``/``m`` and letters of other scripts
that look like Latin ones (a Cyrillic ``а``, a Greek ``Κ``) do not tell names apart:

>>> same = ("ann", "ANN", "ann.", "ann-", "a.nn", "a_n-n", "\\u0430nn", "\\u0410NN")
>>> {name_key(name) for name in same}
{'ann'}
>>> name_key("Iocal") == name_key("1ocal") == name_key("l0cal") == name_key("LOCAL")
True
>>> name_key("rnary") == name_key("mary"), name_key("b0b") == name_key("BOB")
(True, True)
>>> name_key("\\u039a\\u0391\\u03a4\\u0395") == name_key("kate")  # Greek capitals
True
>>> name_key("José") == name_key("JOSE\\u0301"), name_key("José") == name_key("Jose")
(True, False)
>>> check_password("x" * 300)
Traceback (most recent call last):
...
riverboat.errors.IllegalAction: a password is 8 to 128 characters

The key's data is Unicode's, as the installed ICU has it (:data:`KEY_UNICODE`): keys
stored by one version of the data are compared with keys made by the same one, so a
change of that version is a migration that makes every key again (as 0012 did).
"""

from __future__ import annotations

import unicodedata
from contextlib import suppress

import icu
import precis_i18n

from riverboat.errors import Conflict, IllegalAction

__all__ = [
    "KEY_LENGTH",
    "KEY_UNICODE",
    "NAME_LENGTH",
    "NAME_RULE",
    "PASSWORD_LENGTH",
    "PASSWORD_RULE",
    "RESERVED",
    "check_name",
    "check_password",
    "name_key",
    "reserved",
    "spellings",
]

NAME_LENGTH = (1, 24)
PASSWORD_LENGTH = (8, 128)
NAME_RULE = (
    f"a player name is {NAME_LENGTH[0]} to {NAME_LENGTH[1]} characters: letters and "
    "digits of one writing system, and _ - or ., beginning with a letter or digit"
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
#: the longest key the database keeps (players.name_key); a name of 24 characters
#: makes one of at most about 170
KEY_LENGTH = 200
#: the Unicode version of the confusables data the keys are made by (ICU's)
KEY_UNICODE = "16.0"

#: the punctuation a name may have besides its letters, marks and digits
_JOINERS = frozenset("_-.")
#: skeleton rounds before a key is taken as it is (two suffice for every character)
_ROUNDS = 4
_SHOWN = precis_i18n.get_profile("UsernameCasePreserved")
_COMPARED = precis_i18n.get_profile("UsernameCaseMapped")


def _checker() -> icu.SpoofChecker:
    """ICU's spoof checker as names use it: the General Security Profile's characters
    (recommended, and the few punctuation marks UTS #39 includes), Highly Restrictive,
    one system of digits, no mark twice over one letter. Configured once, then only
    read, so threads may share it."""
    checker = icu.SpoofChecker()
    allowed = icu.UnicodeSet()
    allowed.addAll(checker.getRecommendedUnicodeSet())
    allowed.addAll(checker.getInclusionUnicodeSet())
    checker.setAllowedUnicodeSet(allowed)
    checker.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
    checks = icu.USpoofChecks
    checker.setChecks(
        checks.CHAR_LIMIT | checks.RESTRICTION_LEVEL | checks.MIXED_NUMBERS | checks.INVISIBLE
    )
    return checker


_CHECKER = _checker()


def check_name(name: str) -> str:
    """The name as it is stored and shown (UsernameCasePreserved: narrowed, NFC), or
    :class:`IllegalAction` saying what a name may be (:data:`NAME_RULE`)."""
    try:
        shown = _SHOWN.enforce(name)
    except UnicodeError:
        raise IllegalAction(NAME_RULE) from None
    if (
        not NAME_LENGTH[0] <= len(shown) <= NAME_LENGTH[1]
        or not _letter_or_digit(shown[0])
        or not all(_letter_or_digit(c) or c in _JOINERS or _mark(c) for c in shown)
        or _CHECKER.check(shown)
        or not 0 < len(name_key(shown)) <= KEY_LENGTH
    ):
        raise IllegalAction(NAME_RULE)
    return shown


def _letter_or_digit(character: str) -> bool:
    category = unicodedata.category(character)
    return category[0] == "L" or category == "Nd"


def _mark(character: str) -> bool:
    return unicodedata.category(character)[0] == "M"


def name_key(name: str) -> str:
    """The key two names share when they look alike (names are unique by key): the
    name as UsernameCaseMapped compares it, punctuation dropped, then the confusable
    skeleton (UTS #39) of its capitals and of that, each case-folded, until it changes
    no more. Capitals first, since Greek and Cyrillic capitals are the ones most like
    Latin letters (so the few small Greek letters that look Latin only when small,
    ``ν`` and ``υ``, tell a wholly Greek name apart). Any text has a key: one the
    profile refuses (an old name, a log-in's typing) is NFKC and case-folded instead,
    so a log-in finds and throttles by key whatever is typed.

    >>> name_key("ANN"), name_key("Ｍａｒｙ"), name_key("Ελλάδα") == name_key("ελλαδα")
    ('ann', 'rnary', False)
    """
    try:
        mapped = _COMPARED.enforce(name)
    except UnicodeError:
        mapped = unicodedata.normalize("NFKC", name).casefold()
    key = _unpunctuated(mapped)
    for _ in range(_ROUNDS):
        again = _skeleton(_skeleton(key.upper()).casefold()).casefold()
        if again == key:
            break
        key = again
    return key


def _skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, default-ignorable characters dropped, each character
    mapped to the prototype it looks like (confusables.txt), NFD again."""
    return str(_CHECKER.getSkeleton(0, text))


def _unpunctuated(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c)[0] != "P")


def spellings(name: str) -> set[str]:
    """The stored names that ``name`` names exactly: as typed, as a name is stored now
    (:func:`check_name`'s profile, whatever its rule says) and NFKC (as names were
    stored before). A log-in tries these before the key, so an old name that shares
    its key with an older one still logs in by its own name.

    >>> sorted(spellings("ａｎｎ"))
    ['ann', 'ａｎｎ']
    """
    forms = {name, unicodedata.normalize("NFKC", name)}
    with suppress(UnicodeError):
        forms.add(_SHOWN.enforce(name))
    return forms


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
