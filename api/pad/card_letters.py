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
"""

from __future__ import annotations

import re

from scorekeeper.cards import CARD_NOTATION, CARD_RANK, CARD_SEPARATORS

TYPED: dict[str, dict[str, str]] = {
    "fr": {"V": "J", "D": "Q", "R": "K"},
    "pl": {"W": "J", "D": "Q"},
    "sl": {"F": "J", "D": "Q"},
    "nb": {"KN": "J", "D": "Q", "E": "A"},
    "el": {"Β": "J", "Ν": "Q", "Ρ": "K", "Α": "A"},
}
"""Per language, the local rank letters typed entry takes too (upper case; either case is
taken), and the English rank each stands for."""

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
    """The grammar of typed cards in ``lang``, for the page (``<html data-card-*>``)."""
    rank = typed_rank(lang)
    notation = CARD_NOTATION.replace(f"({CARD_RANK})", f"({rank})", 1)
    return {"notation": notation, "rank": rank, "separators": CARD_SEPARATORS}


def letters_in(lang: str) -> dict[str, str]:
    """The local letters of ``lang`` and the rank each stands for (the page's script's)."""
    return dict(TYPED.get(lang, {}))


def to_core(token: str, lang: str) -> str:
    """A typed card with its local rank letter turned into the core's: ``Vd`` -> ``Jd`` in
    French. Anything else is left as typed, so that the core's error quotes the player."""
    local = TYPED.get(lang, {})
    match = re.fullmatch(typed_grammar(lang)["notation"], token) if local else None
    if not match:
        return token
    rank = match[1].upper()
    return local.get(rank, match[1]) + match[2]


EXAMPLE = ("As", "2s", "3s", "Jc", "Qd", "Kh", "Th")
"""The cards of the typed field's example (its placeholder), as the core writes them."""


def typed_example(lang: str) -> str:
    """:data:`EXAMPLE` as ``lang``'s typed entry takes it: each rank with a local letter
    (:data:`TYPED`) written with it, ten as ``10``: ``Es 2s 3s Knc Dd Kh 10h`` in Norwegian."""
    local = {rank: letters.capitalize() for letters, rank in TYPED.get(lang, {}).items()}
    return " ".join(local.get(card[0], shown_rank(card[0], "")) + card[1:] for card in EXAMPLE)
