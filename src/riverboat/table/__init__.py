"""The table service's typed views: what crosses from the service to a front end
(see :mod:`riverboat.table.views`).

They load on first use, so that a part of the service that needs none of them (a
command reading the history, say) does not build every view's model at import.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from riverboat.table.live.views import (
        Bet,
        CoupMessage,
        DealtMessage,
        Decide,
        DecidedMessage,
        ErrorMessage,
        PlayerMessage,
        ResultMessage,
        SeatView,
        ShoeView,
        TableMessage,
        TableSnapshot,
    )
    from riverboat.table.views import (
        SEED_CHARACTERS,
        BalanceView,
        ChoiceView,
        ExportedRound,
        GameInfo,
        HintOption,
        HintView,
        LoginView,
        MeView,
        NewDeal,
        NextCommitment,
        OkView,
        RoundRecord,
        RoundView,
        ShoeEnded,
        SpotInfo,
        Wagers,
    )

#: the live tables' messages and views; the others are in riverboat.table.views
_LIVE = frozenset(
    (
        "Bet",
        "CoupMessage",
        "DealtMessage",
        "Decide",
        "DecidedMessage",
        "ErrorMessage",
        "PlayerMessage",
        "ResultMessage",
        "SeatView",
        "ShoeView",
        "TableMessage",
        "TableSnapshot",
    )
)


def __getattr__(name: str) -> object:
    """Load an exported view from its module on first use (PEP 562)."""
    if name not in __all__:
        raise AttributeError(f"module 'riverboat.table' has no attribute {name!r}")
    home = "riverboat.table.live.views" if name in _LIVE else "riverboat.table.views"
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "SEED_CHARACTERS",
    "BalanceView",
    "Bet",
    "ChoiceView",
    "CoupMessage",
    "DealtMessage",
    "Decide",
    "DecidedMessage",
    "ErrorMessage",
    "ExportedRound",
    "GameInfo",
    "HintOption",
    "HintView",
    "LoginView",
    "MeView",
    "NewDeal",
    "NextCommitment",
    "OkView",
    "PlayerMessage",
    "ResultMessage",
    "RoundRecord",
    "RoundView",
    "SeatView",
    "ShoeEnded",
    "ShoeView",
    "SpotInfo",
    "TableMessage",
    "TableSnapshot",
    "Wagers",
]
