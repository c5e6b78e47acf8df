"""The pay tables' house edges and strategy cards, worked out in a process of their own.

:mod:`riverboat.table.edges` starts this module's :func:`main` for a server, on the
server's own import path, as ``python -m riverboat.table.edge_work JOBS`` would:

    python -m riverboat.table.edge_work '[{"game": "tri-card", "variant": null}, ...]'

with its standard input a pipe the server holds. It lowers its own priority first
(``nice`` 19), so that the server and the player's browser come first: a round never
waits behind this work, and no lock, compiler or interpreter is shared with the
server. Then it works out each job in turn (a game's figures under its default rules,
or a shared table's ``variant`` under its ``rules``, as
:func:`~riverboat.games.codec.rules_json` writes them: a variant file's are known to
the server alone) and writes each result as one line of JSON on its standard output
(:func:`result`). It stops when its standard input closes: when the server stops,
however it stops.

The figures are the analyzer's (:mod:`riverboat.table.edges`), and what the analyzer
counts is kept on disk as always (``RIVERBOAT_CACHE_DIR``), so a later start reads them.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
from typing import Any

from riverboat.games import RulesError, find_game
from riverboat.games.codec import from_json
from riverboat.json_types import JsonObject

__all__ = ["lower_priority", "main", "result"]

_log = logging.getLogger(__name__)


def lower_priority() -> None:
    """This process at the lowest priority, ``nice`` 19 (where the system has it): the
    server and the browser get the CPU whenever they want it (Linux gives a task of
    nice 19 a sixty-eighth of a nice 0 one's share), and the edges still come on a
    machine that is never idle."""
    if hasattr(os, "nice"):
        os.nice(19)


def _stop_with_the_server() -> None:
    """End this process once its standard input closes (the server stopped)."""

    def wait() -> None:
        while os.read(0, 4096):  # the file descriptor: no lock held at exit
            pass
        os._exit(0)

    threading.Thread(target=wait, daemon=True, name="server-watch").start()


def result(job: dict[str, Any]) -> JsonObject:
    """One job's figures: ``house_edge``, ``edges`` and ``card`` (None for a game
    without decisions), with its ``game`` and ``variant`` (None: the default rules);
    ``unknown`` where no such game is installed here (registered in the server's
    process alone), ``failed`` with why where the analysis failed."""
    from riverboat.table.edges import card_info, edge_lines, headline

    game, variant = str(job["game"]), job.get("variant")
    answer: dict[str, Any] = {"game": game, "variant": variant}
    try:
        kind = find_game(game)
    except RulesError:
        return {**answer, "unknown": True}
    try:
        if variant is not None:
            rules = from_json(kind.rules_type, job["rules"])
            if kind.variants.get(rules.variant) != rules:  # a variant file's rules
                kind.load_variant(rules)
            variant = rules.variant
        card = card_info(game, variant)
        return {
            **answer,
            "house_edge": headline(game, variant),
            "edges": [line.model_dump(mode="json") for line in edge_lines(game, variant)],
            "card": None if card is None else card.model_dump(mode="json"),
        }
    except Exception as error:  # one game's math (a plug-in's) never stops the others'
        _log.exception("the house edges of %r (%s) could not be worked out", game, variant)
        return {**answer, "failed": str(error) or type(error).__name__}


def main(arguments: list[str] | None = None) -> None:
    """Work out the jobs given as a JSON list, one result a line on standard output,
    which nothing else writes to (what a game's code prints goes to standard error)."""
    jobs = json.loads((sys.argv[1:] if arguments is None else arguments)[0])
    lower_priority()
    _stop_with_the_server()
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    for job in jobs:
        answers.write(json.dumps(result(job)) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
