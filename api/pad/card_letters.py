"""Card rank letters as each language's players write them (issue 20).

The API's notation (:data:`scorekeeper.cards.CARD_NOTATION`: A 2-9 T/10 J Q K,
suits ``c d h s`` or symbols) is one and never changes. The scorepad shows the
court cards and the ace with the letters printed on the players' own decks, and
its typed-card entry takes those letters as well as the English ones: the page's
script (``pad-cards.js``, which gets :func:`typed_grammar` and :func:`letters_in`)
and the server's form parsing (:func:`to_core`, before the core reads a token)
agree. A local letter only ever stands in the rank's place, first in a card,
and no local letter means another rank in English or in the same language;
``10`` and ``T`` stay ten everywhere.

The letters, and where they come from (corner indices of the local decks, as
listed by A. Pollett's survey of playing-card indices, members.tripod.com/a_pollett/
cardindd.htm, and the names the players say):

- French: V (valet), D (dame), R (roi), A (as): French decks print V D R.
- Polish: W (walet), D (dama), K (król), A (as): Polish decks print W D K.
- Slovenian: F (fant), D (dama), K (kralj), A (as): the letters Slovenian
  players write (French-suited decks sold there print J Q K A or B D K).
- Norwegian: decks sold in Norway print the international J Q K A, so the pad
  shows those; typed entry also takes Kn (knekt), D (dame) and E (ess), the
  letters of the Scandinavian decks that have local indices (Swedish, Danish).
- Greek: modern Greek decks print J Q K A, so the pad shows those; typed entry
  also takes the Greek letters of the older decks' indices, typed on a Greek
  keyboard: Β (βαλές), Ν (ντάμα), Ρ (ρήγας), Α (άσσος).

Suits (issue 26, item 11): the English letters ``c d h s`` and the symbols
``♣ ♦ ♥ ♠`` work everywhere, and each language's own suit initials where they
name one suit only, in that language and in English. A letter that names two
suits is refused, naming both cards, never read as one of them: within the
language (Slovenian ``k``: karo or križ; Polish ``k``: kier or karo; Greek
``κ``: κούπα or καρό), or against English (Slovenian ``s``: srce, hearts, but
spades in English; French ``c``: cœur, hearts, but clubs in English): a player
used to either reading never silently gets the other card. The initials:

- French: P (pique), K (carreau), T (trèfle), as French bridge writes them;
  C (cœur) is refused.
- Polish: P (pik), T (trefl); K (kier, karo) is refused.
- Slovenian: P (pik); S (srce) and K (karo, križ) are refused.
- Norwegian: R (ruter), K (kløver); H (hjerter) and S (spar) are the English
  letters' own suits.
- Greek: Μ (μπαστούνι), Σ or ς (σπαθί); Κ (κούπα, καρό) is refused.
"""

from __future__ import annotations

import re

from scorekeeper.cards import CARD_NOTATION, CARD_RANK, CARD_SEPARATORS, DECK, SUIT_SYMBOLS

TYPED: dict[str, dict[str, str]] = {
    "fr": {"V": "J", "D": "Q", "R": "K"},
    "pl": {"W": "J", "D": "Q"},
    "sl": {"F": "J", "D": "Q"},
    "nb": {"KN": "J", "D": "Q", "E": "A"},
    "el": {"Β": "J", "Ν": "Q", "Ρ": "K", "Α": "A"},
}
"""Per language, the local rank letters typed entry takes too (upper case; either case is
taken), and the English rank each stands for."""

SUITS_TYPED: dict[str, dict[str, str]] = {
    "fr": {"P": "s", "K": "d", "T": "c"},
    "pl": {"P": "s", "T": "c"},
    "sl": {"P": "s"},
    "nb": {"R": "d", "K": "c"},
    "el": {"Μ": "s", "Σ": "c"},
}
"""Per language, the local suit letters typed entry takes too (upper case; either case, and
Greek's final ς, is taken), and the core's suit each stands for."""

TWO_SUITS: dict[str, dict[str, tuple[str, str]]] = {
    "fr": {"C": ("h", "c")},
    "pl": {"K": ("h", "d")},
    "sl": {"S": ("h", "s"), "K": ("d", "c")},
    "el": {"Κ": ("h", "d")},
}
"""Per language, the suit letters that name two suits there (the local reading first): a
card typed with one is refused, naming both cards."""

SHOWN: dict[str, dict[str, str]] = {
    "fr": {"J": "V", "Q": "D", "K": "R"},
    "pl": {"J": "W", "Q": "D"},
    "sl": {"J": "F", "Q": "D"},
}
"""Per language, the ranks shown with a local letter (the others as in English)."""


def shown_rank(rank: str, lang: str) -> str:
    """The rank ``A``..``K`` (``T`` for ten) as the pages of ``lang`` show it: ``10``, ``V``."""
    return "10" if rank == "T" else SHOWN.get(lang, {}).get(rank, rank)


def _either_case(letters: str) -> str:
    return "".join(f"[{c.upper()}{c.lower()}]" for c in letters)


def typed_rank(lang: str) -> str:
    """The rank of typed entry in ``lang``: :data:`CARD_RANK` and the local letters."""
    local = TYPED.get(lang)
    if not local:
        return CARD_RANK
    longer = [_either_case(letters) for letters in local if len(letters) > 1]
    single = "".join(f"{c}{c.lower()}" for c in local if len(c) == 1)
    return "|".join([CARD_RANK, *longer, f"[{single}]"])


def typed_grammar(lang: str) -> dict[str, str]:
    """The grammar of typed cards in ``lang``, for the page (``<html data-card-*>``): the
    local rank letters, and the local suit letters (those with two readings too, so that
    they are refused by name rather than as no card)."""
    rank = typed_rank(lang)
    extra = "".join(
        letter + letter.lower() + ("ς" if letter == "Σ" else "") for letter in suits_in(lang)
    )
    notation = CARD_NOTATION.replace(f"({CARD_RANK})", f"({rank})", 1).replace(
        ENGLISH_SUITS, ENGLISH_SUITS[:-1] + extra + "]", 1
    )
    return {"notation": notation, "rank": rank, "separators": CARD_SEPARATORS}


CODES = frozenset(card.code for card in DECK)
"""The cards as the core writes them (``4s``, ``Td``): the grid's ticks and the page's own
values, read as such in every language."""

ENGLISH_SUITS = "[cdhsCDHS]"
"""The suit letters of :data:`CARD_NOTATION`."""


def letters_in(lang: str) -> dict[str, str]:
    """The local letters of ``lang`` and the rank each stands for (the page's script's)."""
    return dict(TYPED.get(lang, {}))


def suits_in(lang: str) -> dict[str, str | list[str]]:
    """The local suit letters of ``lang`` (upper case): the core's suit each stands for, or
    the two suits of a letter with two readings (the page's script's)."""
    return {**SUITS_TYPED.get(lang, {}), **{k: list(v) for k, v in TWO_SUITS.get(lang, {}).items()}}


def _parts(token: str, lang: str) -> tuple[str, str] | None:
    """The core's rank of a typed card and its suit as typed, or None if it is no card."""
    match = re.fullmatch(typed_grammar(lang)["notation"], token)
    if not match:
        return None
    rank = match[1].upper()
    return ("T" if rank == "10" else TYPED.get(lang, {}).get(rank, rank)), match[2]


def readings(token: str, lang: str) -> tuple[str, str] | None:
    """The two cards (codes) a typed card could be in ``lang`` when its suit letter names
    two suits there (``Ds`` in Slovenian: ``Qh``, dama srce, or ``Qs`` in English)."""
    parts = _parts(token, lang)
    two = TWO_SUITS.get(lang, {}).get(parts[1].upper()) if parts else None
    return None if parts is None or two is None else (parts[0] + two[0], parts[0] + two[1])


def to_core(token: str, lang: str) -> str:
    """A typed card with its local rank and suit letters turned into the core's: ``Vd`` ->
    ``Jd``, ``Dk`` -> ``Qd`` in French. Anything else (a letter with two readings too: see
    :func:`readings`) is left as typed, so that the core's error quotes the player."""
    parts = _parts(token, lang) if lang in TYPED or lang in SUITS_TYPED else None
    if parts is None or parts[1].upper() in TWO_SUITS.get(lang, {}):
        return token
    rank, suit = parts
    return rank + SUITS_TYPED.get(lang, {}).get(suit.upper(), suit)


EXAMPLE = ("As", "2s", "3s", "Jc", "Qd", "Kh", "Th")
"""The cards of the typed field's example (its placeholder), as the core writes them."""


def _suit_shown(suit: str, lang: str) -> str:
    """How ``lang``'s typed entry best takes the core's ``suit``: its own letter where it has
    one (:data:`SUITS_TYPED`), the English one unless that letter has two readings there
    (:data:`TWO_SUITS`), else the symbol."""
    local = [letter for letter, core in SUITS_TYPED.get(lang, {}).items() if core == suit]
    if local:
        return local[0].lower()
    return SUIT_SYMBOLS[suit] if suit.upper() in TWO_SUITS.get(lang, {}) else suit


def typed_example(lang: str) -> str:
    """:data:`EXAMPLE` as ``lang``'s typed entry takes it: each rank with a local letter
    (:data:`TYPED`) written with it, ten as ``10``, each suit as :func:`_suit_shown`:
    ``Es 2s 3s Knk Dr Kh 10h`` in Norwegian."""
    local = {rank: letters.capitalize() for letters, rank in TYPED.get(lang, {}).items()}
    return " ".join(
        local.get(card[0], shown_rank(card[0], "")) + _suit_shown(card[1], lang) for card in EXAMPLE
    )
