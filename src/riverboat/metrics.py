"""What a running riverboat counts, for Prometheus (``GET /metrics``; docs/operations.md):
the process's own registry of the standard client library, each metric named
``riverboat_...`` and described there.

Each server process counts its own (``riverboat serve --workers N`` gives N series a
metric: scrape every process, or sum them in the query).

>>> ROUNDS_DEALT.labels(game="tri-card").inc()
>>> b"riverboat_rounds_dealt_total" in exposition()[0]
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

__all__ = [
    "DATABASE_ERRORS",
    "LATENCY",
    "REDIS_ERRORS",
    "REFUSED",
    "REGISTRY",
    "REQUESTS",
    "ROUNDS_DEALT",
    "ROUNDS_SETTLED",
    "SEATS",
    "exposition",
    "watch_budgets",
]

REGISTRY = CollectorRegistry(auto_describe=True)

REQUESTS = Counter(
    "riverboat_http_requests",
    "HTTP requests answered, by route (its template: /api/rounds/{round_id}), method and status",
    ["route", "method", "status"],
    registry=REGISTRY,
)
LATENCY = Histogram(
    "riverboat_http_request_seconds",
    "Seconds from a request's arrival to its answer's last byte, by route",
    ["route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
ROUNDS_DEALT = Counter(
    "riverboat_rounds_dealt",
    "Rounds dealt (own tables and every seat's round at a shared table), by game",
    ["game"],
    registry=REGISTRY,
)
ROUNDS_SETTLED = Counter(
    "riverboat_rounds_settled",
    "Rounds settled, by game (a void round is not settled)",
    ["game"],
    registry=REGISTRY,
)
SEATS = Gauge(
    "riverboat_websocket_seats",
    "WebSocket connections open at the shared tables",
    registry=REGISTRY,
)
REFUSED = Counter(
    "riverboat_refusals",
    "Refusals answered, by their code (illegal_action, rate_limited, unavailable...)",
    ["code"],
    registry=REGISTRY,
)
DATABASE_ERRORS = Counter(
    "riverboat_database_errors",
    "Requests the database did not answer (refused as unavailable, 503)",
    registry=REGISTRY,
)
REDIS_ERRORS = Counter(
    "riverboat_redis_errors",
    "Redis commands that failed (the readiness probe's included)",
    registry=REGISTRY,
)


class Queue(Protocol):
    """What a budget (:class:`riverboat.admission.budgets.Budget`) shows of itself."""

    @property
    def waiting(self) -> int: ...

    running: int


class _Budgets(Collector):
    """The admission budgets' calls running and waiting, read at each scrape."""

    def __init__(self) -> None:
        self.budgets: dict[str, Queue] = {}

    def collect(self) -> Iterator[GaugeMetricFamily]:
        waiting = GaugeMetricFamily(
            "riverboat_budget_waiting",
            "Calls waiting their turn in an admission budget (history pages, handshakes, "
            "password checks), by budget",
            labels=["budget"],
        )
        running = GaugeMetricFamily(
            "riverboat_budget_running",
            "Calls running in an admission budget, by budget",
            labels=["budget"],
        )
        for name, budget in sorted(self.budgets.items()):
            waiting.add_metric([name], budget.waiting)
            running.add_metric([name], budget.running)
        yield waiting
        yield running


_BUDGETS = _Budgets()
REGISTRY.register(_BUDGETS)


def watch_budgets(budgets: Mapping[str, Queue]) -> None:
    """Show these budgets' queues at each scrape (the app being served: the last one
    given wins, one app a process)."""
    _BUDGETS.budgets = dict(budgets)


def exposition() -> tuple[bytes, str]:
    """Every metric in Prometheus's text format, and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
