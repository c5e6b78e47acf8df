"""Names by RFC 8265's UsernameCaseMapped profile and Unicode's confusable skeletons
(UTS #39): every player's name key is made again by the new rule, so that ``ann.``,
``a.nn``, ``ANN`` and a Cyrillic ``аnn`` share ``ann``'s key, ``Iocal`` ``local``'s.

Every account keeps its name and logs in by it, whether or not the new rule would let
it in today. Keys are given in order of age, the local player's first. An account
whose new key an older one already has (two old names that now look alike), or a
reserved word's, or that is empty or too long, gets its key followed by ``#`` and its
id: a key no name makes (a name's punctuation is dropped before its key is made, and
no letter's skeleton is ``#``), so nobody new can take it, and the account logs in by
its exact name (a log-in tries the exact name before the key).

The key is written out here as it was when this revision was made
(riverboat.table.accounts.names.name_key), on the data of the precis-i18n and ICU
(pyicu-wheels, Unicode 16.0) pinned then: a later rule, or other data, is a revision
of its own. The downgrade makes the keys of 0005 again (the older name keeps a key,
a look-alike gets none).

Revision ID: 0012_username_profile
Revises: 0011_deal_seeds
"""

import unicodedata
from collections.abc import Callable, Iterable

import icu
import precis_i18n
import sqlalchemy as sa
from alembic import op

revision = "0012_username_profile"
down_revision = "0011_deal_seeds"
branch_labels = None
depends_on = None

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
LOCAL = "local"
LONGEST = 200

players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("password_hash", sa.String),
)


def _new_keys() -> Callable[[str], str]:
    """names.name_key as of this revision."""
    compared = precis_i18n.get_profile("UsernameCaseMapped")
    checker = icu.SpoofChecker()

    def skeleton(text: str) -> str:
        return str(checker.getSkeleton(0, text))

    def key(name: str) -> str:
        try:
            mapped = compared.enforce(name)
        except UnicodeError:
            mapped = unicodedata.normalize("NFKC", name).casefold()
        made = "".join(c for c in mapped if unicodedata.category(c)[0] != "P")
        for _ in range(4):
            again = skeleton(skeleton(made.upper()).casefold()).casefold()
            if again == made:
                break
            made = again
        return made

    return key


def _old_key(name: str) -> str:
    """0005's fold: NFKC, case-folded, ASCII look-alikes folded."""
    key = unicodedata.normalize("NFKC", name).casefold()
    key = key.translate(str.maketrans("01i|", "olll"))
    return key.replace("rn", "m").replace("vv", "w")


def _keys(
    rows: Iterable[tuple[int, str, str | None]], key: Callable[[str], str], suffix: bool
) -> list[dict[str, object]]:
    """Each player's key, the local player's first, then the oldest: one an older
    player (or a reserved word) has is suffixed by the id, or with ``suffix`` False
    left None (0005's way)."""
    ordered = sorted(rows, key=lambda row: (row[1] != LOCAL or row[2] is not None, row[0]))
    taken = {key(word) for word in RESERVED if word != LOCAL}
    keys: list[dict[str, object]] = []
    for player_id, name, password_hash in ordered:
        made: str | None = key(name)
        local = name == LOCAL and password_hash is None
        if made in taken or not made or len(made) > LONGEST or (made == key(LOCAL) and not local):
            mark = f"#{player_id}"
            made = f"{(made or '')[: LONGEST - len(mark)]}{mark}" if suffix else None
        if made is not None:
            taken.add(made)
        keys.append({"player": player_id, "key": made})
    return keys


def _rekey(key: Callable[[str], str], suffix: bool) -> None:
    bind = op.get_bind()
    found = bind.execute(sa.select(players.c.id, players.c.name, players.c.password_hash))
    rows = [(int(row.id), str(row.name), row.password_hash) for row in found]
    # every key cleared first: a new key may be another player's old one until it too moves
    bind.execute(players.update().values(name_key=None))
    keys = _keys(rows, key, suffix)
    if keys:
        bind.execute(
            players.update()
            .where(players.c.id == sa.bindparam("player"))
            .values(name_key=sa.bindparam("key")),
            keys,
        )


def upgrade() -> None:
    _rekey(_new_keys(), suffix=True)


def downgrade() -> None:
    _rekey(_old_key, suffix=False)
