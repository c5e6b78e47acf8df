"""The commands about cards: deal a fair showdown, re-derive a deck, name a hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from riverboat.hands import Evaluator


def _games_by_size() -> dict[int, list[tuple[str, Evaluator]]]:
    """The games that name a hand of each size (the evaluators load numba)."""
    from riverboat.hands import evaluate3, evaluate4of5, evaluate5, evaluate6, evaluate7

    return {
        3: [("Tri-Card Poker", evaluate3)],
        5: [("Poker", evaluate5), ("Crazy 4 Poker (best four)", evaluate4of5)],
        6: [("Poker (best five)", evaluate6)],
        7: [("Poker (best five)", evaluate7)],
    }


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

    try:
        cards = parse_cards(hand)
    except CardError as error:
        raise typer.BadParameter(str(error), param_hint="HAND") from None
    games = _games_by_size().get(len(cards))
    if not games:
        raise typer.BadParameter(
            f"{len(cards)} cards: a hand here has 3, 5, 6 or 7 cards", param_hint="HAND"
        )
    typer.echo(format_cards(cards, unicode=True))
    for game, evaluate in games:
        value = evaluate(cards)
        typer.echo(f"  {game}: {evaluate.ranking.describe(value)} (value {value})")
