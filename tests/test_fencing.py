"""Fencing tokens for the shared tables across processes: drawn from the database as a
claim takes a table over (one more than the row's, in the claim's transaction), so they
never repeat whatever Redis forgets, and every write of the table's checks its token in
its own transaction: the state, a new deal, sealing and revealing its seed."""

from __future__ import annotations

import pytest

from riverboat.table.live.across.live_state import LeaseLostError, claim, save
from riverboat.table.service import TableService


def test_every_claim_draws_a_larger_token_than_any_before(database_url: str) -> None:
    """Three hundred take-overs: each token one more than the last, and the next claim
    is one step (a Redis counter restarted empty would have handed out 1 again)."""
    service = TableService(database_url)
    tokens = [claim(service.engine, "crazy4")[0].token for _ in range(300)]
    assert tokens == list(range(1, 301))
    assert claim(service.engine, "baccarat")[0].token == 1  # each table counts its own
    assert claim(service.engine, "crazy4")[0].token == 301


def test_a_superseded_holder_changes_nothing(database_url: str) -> None:
    """Once a successor has claimed the table, the old holder's state write, new deal,
    seal and reveal are each refused, and the deal stays as it was."""
    service = TableService(database_url)
    old, _ = claim(service.engine, "crazy4")
    deal = service.new_deal("crazy4", None, old)
    save(service.engine, old, "betting", None, deal.id, {"commitment": deal.commitment})
    new, stored = claim(service.engine, "crazy4")
    assert new.token > old.token
    assert stored is not None
    assert stored.deal_id == deal.id
    refused = [
        lambda: save(service.engine, old, "deciding", None, deal.id, {}),
        lambda: service.new_deal("crazy4", None, old),
        lambda: service.seal_deal(deal.id, "seed", old),
        lambda: service.reveal_deal(deal.id, old),
    ]
    for write in refused:
        with pytest.raises(LeaseLostError, match=r"newer lease \(2\) than this one \(1\)"):
            write()
    _, again = claim(service.engine, "crazy4")
    assert again is not None
    assert (again.phase, again.deal_sealed, again.deal_revealed) == ("betting", False, False)
    # the holder of the newest claim goes on writing
    newest, _ = claim(service.engine, "crazy4")
    layout = service.seal_deal(deal.id, "seed", newest)
    assert layout.first >= 0
    service.reveal_deal(deal.id, newest)
