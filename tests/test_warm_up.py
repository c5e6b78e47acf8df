"""A server deals a round of each game in memory before it listens
(riverboat.games.warm), so that its first player's deal loads nothing."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from riverboat.games.warm import warm_up


def test_warm_up_deals_every_game_and_a_failing_one_is_only_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="riverboat.games.warm"):
        warm_up()
        assert caplog.records == []

        def broken() -> None:
            raise RuntimeError("no deck")

        warm_up([SimpleNamespace(name="broken", new_round=broken)])  # type: ignore[list-item]
    assert "a round of 'broken' could not be dealt in advance" in caplog.text
