"""The commands about cards: deal a fair showdown, re-derive a deck, name a hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from riverboat.hands import Evaluator


_BEST = {3: "three", 4: "four", 5: "five"}


def _games_by_size() -> dict[int, list[tuple[str, Evaluator]]]:
    """The hands named at each size: poker's, then each game's that ranks hands its own
    way (the evaluators load numba)."""
    from riverboat.games import GAMES
    from riverboat.hands import FIVE_CARD, evaluate5, evaluate6, evaluate7

    sizes: dict[int, list[tuple[str, Evaluator]]] = {
        5: [("Poker", evaluate5)],
        6: [("Poker (best five)", evaluate6)],
        7: [("Poker (best five)", evaluate7)],
    }
    for game in GAMES.values():
        evaluate = game.spec().evaluator
        if evaluate is None or evaluate.ranking is FIVE_CARD:  # no ranking, or poker's
            continue
        kept = evaluate.ranking.size
        best = f" (best {_BEST.get(kept, kept)})" if kept != evaluate.size else ""
        sizes.setdefault(evaluate.size, []).append((game.title + best, evaluate))
    return dict(sorted(sizes.items()))


def deal(
    cards: Annotated[
        int, typer.Option(min=3, max=7, help="Cards per hand: 3 (Tri-Card), 5, 6 or 7.")
    ] = 5,
    players: Annotated[int, typer.Option(min=1, max=6, help="Hands besides the dealer's.")] = 1,
    client_seed: Annotated[
        str | None, typer.Option(help="Your seed for the provably fair shuffle.")
    ] = None,
    unicode: Annotated[bool, typer.Option(help="Suit symbols instead of letters.")] = True,
) -> None:
    """Deal a provably fair showdown and name every hand."""
    if cards == 4:
        raise typer.BadParameter(
            "no game here deals 4-card hands; use 3, 5, 6 or 7", param_hint="--cards"
        )
    from riverboat.cards import format_cards
    from riverboat.rng import FairSource, shuffled

    evaluate = _games_by_size()[cards][0][1]  # the poker order of the hand's size
    ranking = evaluate.ranking
    source = FairSource.new(client_seed)
    typer.echo(f"Commitment (SHA-256 of the server seed): {source.commitment}")
    order = shuffled(52, source)
    seats = [f"Player {i + 1}" for i in range(players)] + ["Dealer"]
    values = []
    for seat_number, seat in enumerate(seats):
        hand = order[seat_number * cards : (seat_number + 1) * cards]
        value = evaluate(hand)
        values.append(value)
        typer.echo(f"{seat:>9}: {format_cards(hand, unicode):<22} {ranking.describe(value)}")
    best = max(values)
    winners = [seat for seat, value in zip(seats, values, strict=True) if value == best]
    typer.echo(("Winner: " if len(winners) == 1 else "Tie: ") + ", ".join(winners))
    typer.echo(
        f"Server seed: {source.server_seed}\n"
        f"Client seed: {source.client_seed}  Nonce: {source.nonce}\n"
        f"Check the deck: riverboat deck {source.server_seed} {source.client_seed} "
        f"{source.nonce}\n(or python fairness.py with the same arguments: riverboat/fairness.py "
        "needs only the Python standard library)"
    )


def deck(
    server_seed: Annotated[str, typer.Argument(help="The revealed server seed (hex).")],
    client_seed: Annotated[str, typer.Argument(help="The client seed.")],
    nonce: Annotated[int, typer.Argument(min=0, help="The round's nonce.")],
    size: Annotated[
        int, typer.Option(min=1, max=624, help="Cards shuffled (416 for 8 decks).")
    ] = 52,
) -> None:
    """Re-derive a provably fair deck order, top card first."""
    from riverboat.cards import format_cards
    from riverboat.fairness import commitment, derive_order

    try:
        order = derive_order(server_seed, client_seed, nonce, size)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="SERVER_SEED") from None
    typer.echo(f"Commitment: {commitment(server_seed)}")
    typer.echo(format_cards(card % 52 for card in order))


def name(
    hand: Annotated[str, typer.Argument(help='Cards such as "As Kd 10h 9c 2s" (3 to 7 cards).')],
) -> None:
    """Name a hand in each game that deals hands of its size."""
    from riverboat.cards import CardError, format_cards, parse_cards
    from riverboat.games.words import counted

    try:
        cards = parse_cards(hand)
    except CardError as error:
        raise typer.BadParameter(str(error), param_hint="HAND") from None
    by_size = _games_by_size()
    games = by_size.get(len(cards))
    if not games:
        sizes = [str(size) for size in by_size]
        raise typer.BadParameter(
            f"{counted(len(cards), 'card')}: a hand here has {', '.join(sizes[:-1])} or "
            f"{sizes[-1]} cards",
            param_hint="HAND",
        )
    typer.echo(format_cards(cards, unicode=True))
    for game, evaluate in games:
        value = evaluate(cards)
        typer.echo(f"  {game}: {evaluate.ranking.describe(value)} (value {value})")
