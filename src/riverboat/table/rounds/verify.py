"""Checking a round without the house: pure functions over what history exports.

Nothing here touches the database, so a player's verifier needs only the seeds and
the record (docs/fairness.md). The service uses the same functions to rebuild a
round's cards, so the house deals by exactly what a player checks.

>>> from riverboat.games.codec import to_json
>>> from riverboat.rng import FairSource
>>> rules = to_json(find_game("baccarat").rules())
>>> layout = deal_layout("baccarat", rules, FairSource("5e" * 32, "mine", 0))
>>> layout.size, layout.first > 0, layout.cut_card_from_end
(416, True, 14)
>>> crazy4 = find_game("crazy4").spec()
>>> print(layout_problem(crazy4, [*range(5), *range(10, 15)], 52, 0))
None
>>> layout_problem(crazy4, [*range(1, 6), *range(10, 15)], 52, 0)
"a seat's places must be whole blocks of five in a row, then the dealer's after"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from riverboat.deck import Deck, Shoe
from riverboat.fairness import commitment as commit_to
from riverboat.games import GameRules, GameSpec, Phase, Round, RulesError, find_game, replay
from riverboat.games.codec import from_json
from riverboat.games.events import Decision
from riverboat.rng import FairSource, joined_seed
from riverboat.table.felt_rounds import totals, winner
from riverboat.table.states import RoundStatus
from riverboat.table.views import ExportedRound

__all__ = [
    "DealLayout",
    "balance_note",
    "balance_problem",
    "deal_layout",
    "fair_cards",
    "game_spec",
    "layout_problem",
    "own_places",
    "verify_round",
    "verify_shoe",
]


@dataclass(frozen=True)
class DealLayout:
    """A deal's shape: its size, the first place not burned and where the cut card lies
    (a shoe's, B1; a deck has none)."""

    size: int
    first: int
    cut_card_from_end: int | None


_NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def game_spec(game: str, rules: Mapping[str, Any]) -> GameSpec:
    """The shape of ``game`` under its rules as a record stores them."""
    kind = find_game(game)
    return kind.spec(from_json(kind.rules_type, dict(rules)))


def fair_cards(game: str, rules: Mapping[str, Any], source: FairSource) -> Deck | Shoe:
    """The round's cards from its provably fair stream: a fresh deck, or a fresh shoe
    that shows and burns its first card (B1) where the game's spec deals from a shoe."""
    shoe = game_spec(game, rules).shoe
    if shoe is not None:
        return Shoe(shoe.decks, shoe.cut_card_from_end, source)
    return Deck(source)


def deal_layout(game: str, rules: Mapping[str, Any], source: FairSource) -> DealLayout:
    """The layout of the cards a deal of ``game`` gives on ``source``."""
    cards = fair_cards(game, rules, source)
    if isinstance(cards, Shoe):
        return DealLayout(cards.size, len(cards.burned), cards.cut_card_from_end)
    return DealLayout(len(cards.order), 0, None)


def own_places(
    game: str, record: Mapping[str, Any], server_seed: str, client_seed: str, nonce: int
) -> list[int]:
    """Where a round of its own drew its cards: the top of its deck, or after the burn."""
    cards = fair_cards(game, record["rules"], FairSource(server_seed, client_seed, nonce))
    first = len(cards.burned) if isinstance(cards, Shoe) else 0
    return list(range(first, first + len(record["cards_drawn"])))


def layout_problem(spec: GameSpec, places: Sequence[int], size: int, after_burn: int) -> str | None:
    """What is wrong with a shared or shoe round's places, if anything
    (docs/fairness.md): a coup's run on after the shoe's burn; at a table dealt from a
    deck, a seat's hands are whole blocks of a position's hand in a row, then the
    dealer's block, which comes after every seat's."""
    if not places or len(set(places)) != len(places) or not all(0 <= p < size for p in places):
        return "the places are missing, repeated or outside the deal"
    run = list(range(places[0], places[0] + len(places)))
    if spec.shoe is not None:
        if places[0] < after_burn or list(places) != run:
            return "a coup's places must run on, unbroken, after the shoe's burn"
        return None
    hand = next(h.cards for h in spec.hands if h.each_position)
    *own, dealer = [list(places[i : i + hand]) for i in range(0, len(places), hand)]
    mine = [p for block in own for p in block]
    if (
        len(places) % hand
        or not own
        or places[0] % hand
        or mine != run[: len(mine)]
        or dealer[0] % hand
        or dealer != list(range(dealer[0], dealer[0] + hand))
        or dealer[0] <= mine[-1]
    ):
        count = _NUMBERS[hand] if hand < len(_NUMBERS) else str(hand)
        return f"a seat's places must be whole blocks of {count} in a row, then the dealer's after"
    return None


def verify_round(exported: Mapping[str, Any] | ExportedRound) -> list[str]:
    """Check an exported round (its JSON, or the model): its seed matches the
    commitment, its cards come from (server seed, client seed, nonce), it re-settles
    to its record, and its fields and balances say what the replay does
    (:func:`balance_problem`). The problems."""
    if isinstance(exported, ExportedRound):
        exported = exported.model_dump(mode="json")
    problems = []
    missing = {"game", "commitment", "client_seed", "nonce", "server_seed", "record"} - set(
        exported
    )
    if missing:
        return [f"not a round as history exports it: no {', '.join(sorted(missing))}"]
    seed = exported.get("server_seed")
    if not seed:
        return ["the round's server seed is not revealed yet (a shared shoe's, at its end)"]
    record = exported["record"]
    if record.get("game") != exported["game"]:
        return [f"game: the export says {exported['game']!r}, the record {record.get('game')!r}"]
    if commit_to(seed) != exported["commitment"]:
        problems.append("the server seed does not match the commitment made before the deal")
    seeds = exported.get("seeds")
    if seeds is not None and joined_seed(seeds) != exported["client_seed"]:
        problems.append("the client seed is not the SHA-256 of the seated players' seeds")
    game, client_seed, nonce = exported["game"], exported["client_seed"], exported["nonce"]
    spec = game_spec(game, record["rules"])
    order = fair_cards(game, record["rules"], FairSource(seed, client_seed, nonce)).order
    places = own_places(game, record, seed, client_seed, nonce)
    if exported.get("shared") or spec.shoe is not None:  # as the table deals, or coups go
        after_burn = places[0] if places else 0
        places = list(exported.get("places") or [])
        problem = layout_problem(spec, places, len(order), after_burn)
        if problem:
            return [*problems, problem]
    if [order[p] for p in places] != record["cards_drawn"]:
        problems.append("the cards dealt are not the ones the seeds give")
    try:
        played = replay(record)
    except ValueError as error:
        return [*problems, str(error)]
    balances = balance_problem(exported, played)
    return problems + _field_problems(exported, played) + ([balances] if balances else [])


def _field_problems(exported: Mapping[str, Any], played: Round[GameRules]) -> list[str]:
    """Each exported field the replay settles (status, net, totals, winner) that says
    otherwise, named."""

    status = {Phase.SETTLED: RoundStatus.SETTLED, Phase.VOID: RoundStatus.VOID}.get(
        played.phase, RoundStatus.OPEN
    )
    replayed = {
        "status": status,
        "net": played.net(),
        "totals": totals(played),
        "winner": winner(played),
    }
    return [
        f"{field}: the export says {exported.get(field)!r}, the replay gives {value!r}"
        for field, value in replayed.items()
        if exported.get(field) != value
    ]


def balance_problem(exported: Mapping[str, Any], played: Round[GameRules]) -> str | None:
    """What is wrong with a settled round's balances, by its replay: a round no player
    decided (a coup, whose decisions are the engine's own) is dealt and settled in one
    transaction, so nothing else can fall between its balances and they must differ
    by exactly the replay's net; and no balance is below zero. A round with a player's
    decision may have others' money movements between its balances
    (:func:`balance_note`)."""
    before, after = exported.get("balance_before"), exported.get("balance_after")
    if not isinstance(before, int) or isinstance(before, bool) or before < 0:
        return f"balance_before: the export says {before!r}, not a balance in cents"
    if played.phase is not Phase.SETTLED or after is None:
        return None
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        return f"balance_after: the export says {after!r}, not a balance in cents"
    one_step = not any(isinstance(e, Decision) and e.by_player for e in played.events)
    if one_step and after - before != played.net():
        return (
            f"balance_after: the export says {after}, {after - before:+} from balance_before "
            f"{before}; the replay's net is {played.net():+}, and nothing can fall between "
            "the two balances of a round dealt and settled in one step"
        )
    return None


def balance_note(exported: Mapping[str, Any]) -> str | None:
    """Whether the balances before and after a settled round differ by its net; when
    they do not, the note that says so. Not a failure for a round with a player's
    decision: another round or a top-up of the same player's may fall between the two
    (a round settled in one step fails instead, :func:`balance_problem`; the net
    itself is checked against the replay by :func:`verify_round`).

    >>> balance_note({"net": 500, "balance_before": 1000, "balance_after": 1500}) is None
    True
    >>> balance_note({"net": 500, "balance_before": 1000, "balance_after": 2500})[:25]
    'the balance moved by 1500'
    """
    net, before, after = (exported.get(k) for k in ("net", "balance_before", "balance_after"))
    if not (isinstance(net, int) and isinstance(before, int) and isinstance(after, int)):
        return None
    if after - before == net:
        return None
    return (
        f"the balance moved by {after - before} between the round's start and its end, "
        f"its net is {net}: another round or a top-up fell between them, "
        "or balance_after was changed"
    )


def _deals_from_a_shoe(coup: Mapping[str, Any]) -> bool:
    try:
        return game_spec(coup["game"], coup["record"]["rules"]).shoe is not None
    except (KeyError, TypeError, RulesError):
        return False


def verify_shoe(coups: Sequence[Mapping[str, Any] | ExportedRound]) -> list[str]:
    """Check a whole shoe of a player's own table (Baccarat's), its coups as history
    exports them: each verifies, and in order of play they run end to end from the
    first place after the burn, so the house could not choose where any coup began
    (B1). A shoe ends at its cut card, or earlier when its player ends it. The problems."""
    shoe_coups = [c.model_dump(mode="json") if isinstance(c, ExportedRound) else c for c in coups]
    if not shoe_coups or any(c.get("shared") or not _deals_from_a_shoe(c) for c in shoe_coups):
        return ["a shoe is the coups of one's own Baccarat table"]
    if len({c.get("commitment") for c in shoe_coups}) != 1:
        return ["the coups are not of one shoe: their commitments differ"]
    ordered = sorted(shoe_coups, key=lambda c: c.get("id", 0))
    problems = [f"coup {c.get('id')}: {p}" for c in ordered for p in verify_round(c)]
    if problems:
        return problems
    first = ordered[0]
    seeds = FairSource(first["server_seed"], first["client_seed"], first["nonce"])
    expected = deal_layout(first["game"], first["record"]["rules"], seeds).first
    for coup in ordered:
        if coup["places"][0] != expected:
            return [f"coup {coup['id']} starts at place {coup['places'][0]}, not {expected}"]
        expected = coup["places"][-1] + 1
    return []
