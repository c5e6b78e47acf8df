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

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

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


def exposition() -> tuple[bytes, str]:
    """Every metric in Prometheus's text format, and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
