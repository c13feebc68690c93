"""Cards and card notation (RULES.md section 1).

A :class:`Card` is one of 52 interned objects. Its ``index`` is
``suit * 13 + rank`` (suits ``c d h s``, ranks ``A 2 … K`` as 0..12) and its
``bit`` is ``1 << index``, so a hand is also an int bitmask: the meld solver
works on masks, everything else on cards.

:func:`parse_cards` reads the notations players type: ``"As 2s 3s"``,
commas or spaces, ``10h`` or ``Th``, any case, suit symbols (``A♠``, ``10♥``),
or an iterable of codes or cards. Output is always the two-character code.
The notation is one grammar, :data:`CARD_NOTATION` and :data:`CARD_SEPARATORS`
(regular expressions whose source reads the same in Python, JavaScript and
JSON Schema): the API's documented patterns and the scorepad's typed cards
are built from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from .errors import CardError

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_NAMES = dict(
    zip(
        RANKS,
        (
            "ace",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "jack",
            "queen",
            "king",
        ),
        strict=True,
    )
)
SUIT_MASK = 0x1FFF
FULL_DECK_MASK = (1 << 52) - 1

SPACES = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""White space as :meth:`str.isspace` (and so :meth:`str.strip`) counts it, as the inside of a
regex character class: unlike ``\\s``, it means the same in Python, JavaScript and JSON Schema."""

CARD_RANK = "10|[2-9AaTtJjQqKk]"
"""A rank in the notation: A 2-9 T (or 10) J Q K, either case."""

CARD_NOTATION = rf"({CARD_RANK})([cdhsCDHS]|[♣♦♥♠]\ufe0f?)"
"""One card: a rank (group 1) and a suit (group 2): ``c d h s`` in either case, or a symbol
``♣ ♦ ♥ ♠`` (perhaps followed by the emoji variation selector U+FE0F, as phones type them)."""

CARD_SEPARATORS = f"[{SPACES},;]+"
"""What separates the cards of a text: white space, commas or semicolons."""

_CARD = re.compile(CARD_NOTATION)
_SPLIT = re.compile(CARD_SEPARATORS)
_SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


class Card:
    """One playing card; compare, hash and sort by ``index``; ``str()`` is the code."""

    __slots__ = ("bit", "code", "index", "rank", "suit", "value")

    rank: int
    suit: str
    index: int
    bit: int
    code: str
    value: int

    def __new__(cls, code: str) -> Card:
        return parse_card(code)

    @classmethod
    def _make(cls, rank: int, suit_index: int) -> Card:
        card = object.__new__(cls)
        card.rank = rank
        card.suit = SUITS[suit_index]
        card.index = suit_index * 13 + rank
        card.bit = 1 << card.index
        card.code = RANKS[rank] + SUITS[suit_index]
        card.value = min(rank + 1, 10)
        return card

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, as shown to people: ``T♠``."""
        return RANKS[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """The card in words, for screen readers: ``ten of spades``."""
        return f"{RANK_NAMES[RANKS[self.rank]]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __reduce__(self) -> tuple[Callable[[str], Card], tuple[str]]:
        return (parse_card, (self.code,))

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


DECK: tuple[Card, ...] = tuple(Card._make(r, s) for s in range(4) for r in range(13))
"""All 52 cards in index order (clubs, diamonds, hearts, spades; ace to king)."""

_BY_TOKEN: dict[str, Card] = {}
"""Each token :data:`CARD_NOTATION` has read so far, and its card (a few hundred at most)."""


def parse_card(token: str | Card, *, position: int | None = None) -> Card:
    """One card from a code (``"Ts"``, ``"10♠"``, ``"tS"``: :data:`CARD_NOTATION`) or a Card."""
    if isinstance(token, Card):
        return token
    card = None
    if isinstance(token, str):
        text = token.strip()
        card = _BY_TOKEN.get(text)
        if card is None and (match := _CARD.fullmatch(text)):
            rank, suit = match[1], match[2][0]
            rank = "T" if rank == "10" else rank.upper()
            suit = _SUIT_OF_SYMBOL.get(suit) or suit.lower()
            card = _BY_TOKEN[text] = DECK[SUITS.index(suit) * 13 + RANKS.index(rank)]
    if card is None:
        where = f" at position {position}" if position is not None else ""
        raise CardError(
            f"unknown card {token!r}{where}: use a rank A 2-9 T (or 10) J Q K"
            " and a suit c d h s (or ♣ ♦ ♥ ♠)",
            params={"token": str(token), "position": position},
            token=str(token),
            position=position,
        )
    return card


def parse_cards(
    cards: object,
    *,
    count: int | Iterable[int] | None = None,
    field: str | None = None,
) -> tuple[Card, ...]:
    """Cards from text (``"As 2s, 3s"``) or an iterable of codes or cards.

    ``cards`` is typed ``object`` because it is untrusted input: anything else
    (a number, a bool, None) raises :class:`CardError` too.

    Duplicates and unknown tokens raise :class:`CardError` naming the token
    and its 1-based position; with ``count`` (a number or the allowed
    numbers) a wrong number of cards raises too. ``field`` names the input in
    messages ("knocker: duplicate card …").

    >>> [str(c) for c in parse_cards("A♠ 10h, 3C")]
    ['As', 'Th', '3c']
    """
    if _tuple_mask(cards, count) is not None:
        return cards  # type: ignore[return-value]
    prefix = f"{field}: " if field else ""
    result: list[Card] = []
    seen: dict[Card, int] = {}
    for position, token in enumerate(_card_tokens(cards, prefix, field), 1):
        card = _token_card(token, position, prefix, field)
        if card in seen:
            raise CardError(
                f"{prefix}duplicate card {card} at position {position}"
                f" (already at position {seen[card]})",
                code="duplicate_card",
                params={"card": card.code, "position": position, "first": seen[card]},
                token=str(token),
                position=position,
                field=field,
            )
        seen[card] = position
        result.append(card)
    if count is not None:
        _check_count(len(result), count, prefix, field)
    return tuple(result)


def _card_tokens(cards: object, prefix: str, field: str | None) -> list[object]:
    """The tokens of :func:`parse_cards`'s input: the words of a text, the items of an
    iterable; anything else raises :class:`CardError`."""
    if isinstance(cards, str):
        return [t for t in _SPLIT.split(cards.strip()) if t]
    if isinstance(cards, Iterable):
        return list(cards)
    raise CardError(
        f"{prefix}cards must be text or a list of card codes", code="bad_cards", field=field
    )


def _token_card(token: object, position: int, prefix: str, field: str | None) -> Card:
    """The card of one token at its 1-based ``position``; a token that is not a card code
    (or not text) raises :class:`CardError` naming it, its position and ``field``."""
    if not isinstance(token, str | Card):
        raise CardError(
            f"{prefix}card at position {position} must be a card code, not {token!r}",
            params={"token": repr(token), "position": position},
            token=repr(token),
            position=position,
            field=field,
        )
    try:
        return parse_card(token, position=position)
    except CardError as error:
        raise error.restate(prefix + error.message, field=field) from error


def _check_count(got: int, count: int | Iterable[int], prefix: str, field: str | None) -> None:
    """Raise :class:`CardError` unless ``got`` cards is a number ``count`` allows."""
    allowed = (count,) if isinstance(count, int) else tuple(count)
    if got not in allowed:
        wanted = (
            f"{count.start} to {count.stop - 1}"
            if isinstance(count, range)
            else " or ".join(str(n) for n in allowed)
        )
        raise CardError(
            f"{prefix}expected {wanted} cards, got {got}",
            code="wrong_card_count",
            params={"expected": list(allowed), "count": got},
            field=field,
        )


def parse_mask(
    cards: object, *, count: int | Iterable[int] | None = None, field: str | None = None
) -> int:
    """The bitmask of :func:`parse_cards` (same arguments, same errors); a tuple of
    distinct cards, the hot path's input, is read in one loop."""
    mask = _tuple_mask(cards, count)
    return mask if mask is not None else cards_mask(parse_cards(cards, count=count, field=field))


def _tuple_mask(cards: object, count: int | Iterable[int] | None) -> int | None:
    """The bitmask of a tuple of distinct cards, as many as ``count`` allows; else None."""
    if (
        type(cards) is tuple
        and (mask := card_list_mask(cards)) is not None
        and mask.bit_count() == len(cards)
        and (
            count is None
            or len(cards) == count
            or (not isinstance(count, int) and len(cards) in count)
        )
    ):
        return mask
    return None


def card_list_mask(cards: tuple[Any, ...] | list[Any]) -> int | None:
    """The bitmask of a tuple or list of Card objects, or None if any item is not a Card.

    One loop for the hot paths (the solver is handed tuples of cards). Only a
    :class:`Card` has a ``bit``: anything else (a code, a number, whatever
    untrusted JSON holds) stops the loop with ``AttributeError``, which costs
    nothing until raised, where a type check per card cost a fifth of a
    ``deadwood()`` (see :func:`~scorekeeper.melds.deadwood`).
    """
    mask = 0
    try:
        for card in cards:
            mask |= card.bit
    except AttributeError:
        return None
    return mask


def cards_mask(cards: Iterable[Card]) -> int:
    """The bitmask of some cards (each card's ``bit`` or-ed together)."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, in index order."""
    result = []
    while mask:
        low = mask & -mask
        result.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(result)
