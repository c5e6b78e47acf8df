"""Cards: indices, parsing, formatting and clear errors (issue: foundation, cards)."""

import pytest

from riverboat.cards import Card, CardError, Rank, Suit, format_cards, parse_cards


def test_index_is_four_times_rank_plus_suit() -> None:
    for rank in Rank:
        for suit in Suit:
            card = Card.of(rank, suit)
            assert int(card) == 4 * rank + suit
            assert (card.rank, card.suit) == (rank, suit)


def test_every_card_round_trips_through_both_spellings() -> None:
    for index in range(52):
        card = Card(index)
        assert Card.parse(card.name()) == card
        assert Card.parse(card.name(unicode=True)) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As", 51),
        ("2c", 0),
        ("10h", 34),
        ("Th", 34),
        ("td", 33),
        ("Q♦", 41),
        ("k♣", 44),
        ("A♤", 51),
    ],
)
def test_parse_spellings(text: str, expected: int) -> None:
    assert Card.parse(text) == expected


def test_parse_cards_accepts_spaces_commas_and_sequences() -> None:
    assert parse_cards("As Kd 10h Tc") == [Card(51), Card(45), Card(34), Card(32)]
    assert parse_cards("As,Kd") == parse_cards(["As", "Kd"]) == parse_cards([51, 45])


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "11h", "AsK", "S A"])
def test_bad_card_names_what_is_allowed(text: str) -> None:
    with pytest.raises(CardError, match=r"is not a card: a card is a rank \(2-9, T or 10"):
        Card.parse(text)


def test_duplicate_card_is_refused_with_its_name() -> None:
    with pytest.raises(CardError, match="Kd appears twice"):
        parse_cards("Kd 2c kd")
    assert len(parse_cards("Kd Kd", allow_duplicates=True)) == 2


@pytest.mark.parametrize("index", [-1, 52, 1.5, True])
def test_bad_card_index(index: object) -> None:
    with pytest.raises(CardError, match="card index"):
        Card(index)  # type: ignore[arg-type]


def test_format_and_repr() -> None:
    cards = parse_cards("Qh 3s")
    assert format_cards(cards) == "Qh 3s"
    assert format_cards(cards, unicode=True) == "Q♥ 3♠"
    assert repr(cards[0]) == "Card('Qh')"
    assert str(cards[1]) == "3s"


def test_rank_words() -> None:
    assert Rank.SIX.plural == "Sixes"
    assert Rank.TEN.plural == "Tens"
    assert Rank.ACE.word == "Ace"
