"""Games: their rules and pay tables, chip taps, and one's own table at each game
(the next commitment, a round left open, one's own shoe)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from riverboat.errors import IllegalAction
from riverboat.games import GAMES, find_game
from riverboat.games.chips import double, hold, tap
from riverboat.table.edges import edges, edges_state, house_edge, strategy_card
from riverboat.table.road_views import RoadsView
from riverboat.table.views import GameInfo, NextCommitment, RoundView, ShoeEnded
from riverboat.web.deps import Checked, GameName, Player, Service
from riverboat.web.errors import RESPONSES
from riverboat.web.models import ChipRequest, DoubleRequest

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=RESPONSES)


@router.get("/games", response_model=list[GameInfo])
def games(request: Request) -> list[GameInfo]:
    """Every game's wagers, chips, betting circles, pay tables and rules (R11), with its
    house edges and strategy card once worked out (``edges_state``: pending while they
    are, after the server starts; ask again)."""
    working = request.app.state.house_edges
    return [
        GameInfo.of(
            game,
            house_edge(name),
            edges(name),
            strategy_card(name),
            edges_state=edges_state(name, working=working),
        )
        for name, game in GAMES.items()
    ]


@router.post("/chips")
def chips(body: ChipRequest) -> dict[str, int]:
    """A tap (or press-and-hold) on a wager spot (R2); pure, changes nothing stored."""
    kind = find_game(body.game)
    spots = kind.new_round().spots
    if not body.hold and body.chip not in kind.rules().chips:
        chips = ", ".join(f"${c // 100}" for c in kind.rules().chips)
        raise IllegalAction(f"the chips here are {chips}")
    if body.hold:
        return hold(body.wagers, body.spot, spots)
    return tap(body.wagers, body.spot, body.chip, spots)


@router.post("/chips/double")
def double_chips(body: DoubleRequest) -> dict[str, int]:
    """Every wager placed doubled where each spot's maximum allows it (the Bonus follows
    the Ante, R1); refused, naming the spot, where one would pass it. Pure, like a tap."""
    return double(body.wagers, find_game(body.game).new_round().spots)


@router.get("/games/{game}/commitment", response_model=NextCommitment)
def commitment(game: GameName, player_id: Player, service: Service) -> NextCommitment:
    """The commitment to your next round's server seed at this table: note it, then
    deal with a client seed of your own; the round must show the same commitment.
    ``shoe_in_play``: Baccarat's shoe deals on, on the seeds it already has (B1)."""
    commitment = service.next_commitment(player_id, game)
    in_play = find_game(game).spec().shoe is not None and service.shoe_in_play(player_id, game)
    return NextCommitment(commitment=commitment, shoe_in_play=in_play)


@router.post("/games/{game}/shoe/end", dependencies=[Checked], response_model=ShoeEnded)
def end_shoe(game: GameName, player_id: Player, service: Service) -> ShoeEnded:
    """End your own shoe at this game (Baccarat's) now: its seed shows, and the next
    coup starts a new one."""
    spec = find_game(game).spec()
    if spec.shoe is None:
        raise IllegalAction(f"{spec.title} deals from a fresh deck each round: it has no shoe")
    return ShoeEnded(ended=service.end_shoe(player_id, game))


@router.get("/games/{game}/roads", response_model=RoadsView)
def roads(game: GameName, player_id: Player, service: Service) -> RoadsView:
    """The roads of your own shoe at this game (Baccarat's): bead plate, big road, the
    three derived roads and what a next Banker or Player would add. Empty once the shoe
    ends, until the next coup starts a new one."""
    spec = find_game(game).spec()
    if spec.shoe is None:
        raise IllegalAction(f"{spec.title} deals from a fresh deck each round: it has no roads")
    return service.roads(player_id, game)


@router.get("/games/{game}/open", response_model=RoundView | None)
def open_round(game: GameName, player_id: Player, service: Service) -> RoundView | None:
    """The unfinished round at this table, to pick it up again after a reload."""
    return service.open_round(player_id, game)
