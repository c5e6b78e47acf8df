"""The registry of games loads each of riverboat's own games when it is first read: a
command on one game loads no other game's code, the games are listed in the same
order whichever was read first, and threads reading their first games at once all
get them (each test in a fresh process, where no game is loaded yet)."""

import json
import subprocess
import sys

OWN = ["rabbit-hunter", "tri-card", "crazy4", "baccarat"]


def fresh(script: str) -> object:
    """What ``script`` prints as JSON, run in a new Python process."""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_reading_one_game_loads_no_other() -> None:
    loaded = fresh(
        "import json, sys\n"
        "from riverboat.games import find_game\n"
        "find_game('tri-card')\n"
        "print(json.dumps(sorted(m.split('.')[2] for m in sys.modules\n"
        "    if m.startswith('riverboat.games.') and m.count('.') == 2\n"
        "    and m.split('.')[2] in ('baccarat', 'crazy4', 'rabbit_hunter', 'tri_card'))))\n"
    )
    assert loaded == ["tri_card"]


def test_the_games_keep_their_order_whichever_is_read_first() -> None:
    listed = fresh(
        "import json\n"
        "from riverboat.games import GAMES, find_game\n"
        "find_game('baccarat'); find_game('tri-card')\n"
        "print(json.dumps(list(GAMES)))\n"
    )
    assert isinstance(listed, list)
    assert listed[:4] == OWN


def test_threads_reading_their_first_games_at_once_all_get_them() -> None:
    found = fresh(
        "import json, threading\n"
        "from riverboat.games import GAMES, find_game\n"
        "errors, names = [], []\n"
        "def read(order):\n"
        "    try:\n"
        "        names.append([find_game(name).name for name in order])\n"
        "    except Exception as error:\n"
        "        errors.append(repr(error))\n"
        f"orders = [{OWN!r}, {OWN[::-1]!r}] * 8\n"
        "threads = [threading.Thread(target=read, args=(order,)) for order in orders]\n"
        "[thread.start() for thread in threads]; [thread.join() for thread in threads]\n"
        "print(json.dumps({'errors': errors, 'reads': len(names), 'games': list(GAMES)}))\n"
    )
    assert isinstance(found, dict)
    assert found["errors"] == []
    assert found["reads"] == 16
    assert found["games"][:4] == OWN
