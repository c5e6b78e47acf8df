"""The settings: one typed object read from the environment, every variable in
docs/settings.md, and no module of riverboat reading the environment itself."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from riverboat.settings import PREFIX, Settings, SettingsError, overridden, reload, settings

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTED = (ROOT / "docs" / "settings.md").read_text()


def test_every_setting_is_documented_and_every_documented_one_is_a_setting() -> None:
    names = {f"{PREFIX}{name.upper()}" for name in Settings.model_fields}
    rows = set(re.findall(r"^\| `(RIVERBOAT_[A-Z_]+)` \|", DOCUMENTED, flags=re.M))
    assert rows == names


def test_no_module_reads_the_environment_but_the_settings() -> None:
    readers = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "src" / "riverboat").rglob("*.py"))
        if path.name != "settings.py"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"os\.environ\.get|os\.getenv|environ\[[^\]]+\](?!\s*=)", line)
    ]
    assert readers == []


def test_the_environment_is_read_once_and_again_on_reload(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RIVERBOAT_RATE_LIMIT", "7")
    assert settings().rate_limit == 60  # read before the change: kept
    assert reload().rate_limit == 7
    assert settings() is settings()
    with overridden(rate_limit=9):
        assert settings().rate_limit == 9
    assert settings().rate_limit == 7
    monkeypatch.setenv("RIVERBOAT_RATE_LIMIT", "")  # empty: unset
    assert reload().rate_limit == 60


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("RIVERBOAT_RATE_LIMIT", "lots", "RIVERBOAT_RATE_LIMIT is 'lots': requests a second"),
        ("RIVERBOAT_BETTING_SECONDS", "-1", "RIVERBOAT_BETTING_SECONDS is '-1': seconds, a number"),
        ("RIVERBOAT_GROUP_COMMIT", "maybe", "RIVERBOAT_GROUP_COMMIT is 'maybe': 1 or 0"),
    ],
)
def test_a_setting_not_allowed_is_named_with_what_is_allowed(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, said: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError, match=re.escape(said)):
        reload()


def test_a_command_refuses_a_setting_not_allowed_in_one_line() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "riverboat", "history", "-n", "1"],
        env={**os.environ, "RIVERBOAT_DATABASE_URL": "sqlite://", "RIVERBOAT_RATE_LIMIT": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.returncode == 2
    assert shown.stderr.strip() == (
        "Error: RIVERBOAT_RATE_LIMIT is '0': requests a second, a whole number from 1 "
        "(docs/settings.md)"
    )
