"""Files spoiled the ways a disk or a killed writer spoils them, for the tests of what
reads them back (the kept tables and the kept reports)."""

from pathlib import Path

#: the kinds of damage :func:`spoil` does
SPOILS = ("flip a byte", "truncate", "empty")


def spoil(path: Path, how: str) -> None:
    """``path`` with one byte flipped, cut to half its length, or emptied."""
    data = bytearray(path.read_bytes())
    if how == "flip a byte":
        data[len(data) // 2] ^= 0x40
    elif how == "truncate":
        data = data[: len(data) // 2]
    elif how == "empty":
        data = bytearray()
    else:
        raise ValueError(f"no such damage {how!r}: one of {', '.join(SPOILS)}")
    path.write_bytes(bytes(data))
