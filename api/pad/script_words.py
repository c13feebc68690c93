"""The words of the pad's scripts, translated on the server (issue 20).

The scripts (``api/static/pad*.js``) write no English of their own: every
sentence they show (the offline queue, the typed-card feedback, the layoff list,
the copy button) comes from :func:`pad_words`, which each page carries as JSON
in ``<script type="application/json" id="pad-words">`` (``templates/pad/base.html``;
a data block, so the Content-Security-Policy without inline scripts allows it).
A page the service worker keeps for offline keeps its words with it.

Messages are gettext's (extracted with the rest, one catalog), with named
placeholders ``%(name)s`` that ``pad-words.js`` fills; a message that counts
comes with every plural form the language has (Slovenian four, Polish three):
``counts[key][category]`` for each CLDR plural category (``one``, ``two``,
``few``, ``many``, ``other``), each rendered by gettext for a number of that
category, and the script picks with ``Intl.PluralRules(lang)``. The page also
carries the language's card letters (:mod:`api.pad.card_letters`) for typed cards.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from babel import Locale

from scorekeeper.cards import SUIT_SYMBOLS

from ..i18n import _, current_language, get_translations, pgettext
from .card_letters import SHOWN, SUITS_TYPED, TWO_SUITS, letters_in, suits_in, typed_grammar

_SAMPLES = (*range(200), 1_000_000)
"""Numbers tried for each plural category (French ``many`` starts at a million)."""


def _words() -> dict[str, str]:
    return {
        # pad-cards.js: typed cards
        "twice": _("%(card)s is in there twice."),
        "not_card": _('"%(text)s" is not a card (type a rank and a suit: As, 10h, 7♣).'),
        "two_suits": two_suits(),
        # pad.js: the tap grids
        "taken_tip": _("Already in %(name)s's cards"),
        "taken": _("%(card)s is already in the other player's cards."),
        "deadwood": _("deadwood %(points)s"),
        "best_melds": _("Best melds:"),
        "no_melds": _("No melds yet."),
        # Translators: a screen reader's name for a group of cards laid down together.
        "meld": pgettext("a group of cards", "meld"),
        # pad.js: what was laid down (the layoff list of the cards form)
        "changed": _("Changed: press %(button)s to see the score of this choice."),
        "cards_changed": _(
            "The cards changed: press %(button)s to choose what was laid down again."
        ),
        "no_layoffs_gin": _("No layoffs against gin."),
        "nothing_fits": _("Nothing %(name)s holds fits these melds."),
        # Translators: a card laid off on a meld; both are shown as cards.
        "laid_on": _("%(card)s on %(meld)s"),
        "best": _("(best)"),
        # pad.js: the start form and small things
        "player": _("Player %(num)d"),
        "copied": _("Copied"),
        # pad-share.js: the Share button of a finished game and the tally
        "share_failed": _("Could not share: select the result and copy it."),
        # pad-offline.js: the queue of hands kept on the phone
        "refused": _("The server refused it (%(status)s)."),
        "knock": _("Knock"),
        "gin": _("Gin"),
        "big_gin": _("Big gin"),
        "void": _("Void (stock ran out)"),
        "deal_line": _("game 1: %(first)s; game 2: %(second)s"),
        "went_out": _("%(name)s went out; cards %(counts)s"),
        "deal_record": _("A deal record"),
        "quick_line": _("%(name)s: %(kind)s, deadwood %(mine)s against %(other)s"),
        "no_connection": _("No connection"),
        "all_synced": _("All hands synced"),
        "kept_later": _(
            "Hands you add now are kept on this phone and sent when the connection returns."
        ),
        "kept_offline": _(
            "No connection. They are kept on this phone and sent, in order, when it returns."
        ),
        "kept_online": _("Kept on this phone; sent in order as soon as the server answers."),
        "not_saved": _("not saved"),
        "waiting_badge": _("waiting to sync"),
        "hand_line": _("Hand %(num)s: %(summary)s"),
        "deal_line_n": _("Deal %(num)s: %(summary)s"),
        "discard_hand": _("Discard hand %(num)s"),
        "discard_deal": _("Discard deal %(num)s"),
        "try_again": _("Try again"),
        "hand_n": _("Hand %(num)s"),
        "deal_n": _("Deal %(num)s"),
        # Translators: "Add to the sheet" is the hand form's button; use its translation.
        "no_preview": _(
            "No connection, so no preview now. Add to the sheet keeps the hand on this"
            " phone until the connection returns."
        ),
        # pad-quick.js: the quick form's score as it is tapped
        "live_knock": _("%(name)s knocks and scores %(points)s."),
        "live_gin": _("Gin! %(name)s scores %(points)s."),
        "live_big_gin": _("Big gin! %(name)s scores %(points)s."),
        "live_undercut": _("Undercut! %(name)s scores %(points)s."),
        "live_tie": _("Tied knock: nobody scores"),
        "live_void": _("Void hand: nobody scores"),
        "live_totals": _("Totals after this hand: %(totals)s."),
        # Translators: above the quick form's keypad: the other player's count as typed ("Bor: 25").
        "typed_count": _("%(name)s: %(points)s"),
        # Translators: on the hand form's button while the hand is being sent.
        "saving": _("Saving…"),
        "kept_slow_hand": _(
            "No answer from the server yet: this hand is kept on this phone and will be sent."
        ),
        "kept_slow_deal": _(
            "No answer from the server yet: this deal is kept on this phone and will be sent."
        ),
        # pad-save.js: a kept hand stored after all
        "opening_sheet": _("Saved. Opening the sheet…"),
        "on_sheet_hand": _("Hand %(num)s, kept on this phone, is on the sheet now."),
        "on_sheet_deal": _("Deal %(num)s, kept on this phone, is on the sheet now."),
        # pad-next.js: the hand form's dealer, after the hands waiting on the phone
        "deals_this": _("%(name)s deals this hand."),
        # pad-reach.js: what is off without a connection
        "offline_locked": _(
            "No connection: Undo, corrections and pages not kept on this phone wait"
            " until it returns."
        ),
        "first_waits": _(
            "The hand kept on this phone must reach the sheet first: who plays the next"
            " one depends on it. It is sent as soon as the connection returns."
        ),
        # pad-provisional.js: the sheet while hands wait on the phone
        # Translators: a mark on the totals that count hands not yet on the server.
        "provisional": _("provisional"),
        "provisional_note": _(
            "These totals count the hands waiting on this phone. The server's figures"
            " replace them when the hands are sent."
        ),
        "locked": _("Undo, correct and void wait until the hands on this phone are sent."),
        "ends_hand": _("Provisional: the game ends with hand %(num)s."),
        "ends_deal": _("Provisional: the game ends with deal %(num)s."),
        "on_sync_hand": _(
            "Hand %(num)s is scored when it reaches the server; the totals after it wait too."
        ),
        "on_sync_deal": _(
            "Deal %(num)s is scored when it reaches the server; the totals after it wait too."
        ),
        "refused_hand": _(
            "The server will not take hand %(num)s as typed; the totals after it wait"
            " until it is discarded."
        ),
        "refused_deal": _(
            "The server will not take deal %(num)s as typed; the totals after it wait"
            " until it is discarded."
        ),
        # the board's words, as the server writes them (templates/pad/macros.html)
        "deals_next": _("deals next"),
        "deal_next": _("deal next"),
        "winner": _("Winner: %(name)s"),
        "labelled": _("%(label)s: %(value)s"),
        "needs": _("needs %(points)s"),
        "needs_in": _("needs %(points)s in game %(n)s"),
        "game_total": _("game %(n)s %(total)s"),
        "next_two": _("Next hand: <b>%(dealer)s</b> deals."),
        "next_three": _("Next hand: <b>%(dealer)s</b> deals and sits out; %(a)s plays %(b)s."),
        "next_four": _("Next deal: %(first)s; %(second)s."),
        "deals_to": _("%(dealer)s deals to %(other)s"),
    }


def _counts(forms: Callable[[Callable[[Any, int], str]], dict[str, str]]) -> dict[str, Any]:
    return {
        "cards": forms(lambda t, n: t.ngettext("%(num)d card", "%(num)d cards", n)),
        "synced": forms(
            lambda t, n: t.ngettext(
                "%(num)d hand typed without a connection is now on the sheet.",
                "%(num)d hands typed without a connection are now on the sheet.",
                n,
            )
        ),
        "points": forms(lambda t, n: t.ngettext("%(num)s point", "%(num)s points", n)),
        "boxes": forms(lambda t, n: t.ngettext("%(num)d box", "%(num)d boxes", n)),
        "waiting": forms(
            lambda t, n: t.ngettext(
                "Waiting to sync: %(num)d hand", "Waiting to sync: %(num)d hands", n
            )
        ),
    }


@cache
def plural_samples(lang: str) -> dict[str, int]:
    """A number of each plural category ``lang`` has (integers only): ``{"one": 1, ...}``."""
    rule = Locale.parse(lang).plural_form
    samples: dict[str, int] = {}
    for n in _SAMPLES:
        samples.setdefault(rule(n), n)
    return samples


def pad_words() -> dict[str, Any]:
    """The scripts' catalog in this request's language (the page's ``#pad-words`` JSON)."""
    return _catalog(current_language())


@cache
def _catalog(lang: str) -> dict[str, Any]:
    """:func:`pad_words` in ``lang`` (the request's), made once per process: the catalogs
    do not change while it runs."""
    translations = get_translations()
    samples = plural_samples(lang)

    def forms(message: Callable[[Any, int], str]) -> dict[str, str]:
        return {category: message(translations, n) for category, n in samples.items()}

    return {
        "lang": lang,
        "words": _words(),
        "counts": _counts(forms),
        "letters": letters_in(lang),
        "suits": suits_in(lang),
        "shown": SHOWN.get(lang, {}),
    }


def two_suits() -> str:
    """The refusal of a typed card whose suit letter names two suits in the page's language
    (:data:`~api.pad.card_letters.TWO_SUITS`), its placeholders left for the caller."""
    # Translators: a typed card whose suit letter names two suits in your language (or one
    # in your language and another in English): first and second are the two cards as the
    # page shows them (D♥, D♠). Keep %(text)s, %(first)s and %(second)s.
    return _(
        '"%(text)s" could be %(first)s or %(second)s: type its suit as a symbol'
        " (♣ ♦ ♥ ♠) or with a letter that names one suit."
    )


def typed_help() -> str:
    """The typed-card field's help: the suit letters it takes in the page's language (the
    English ones a local letter does not contradict, and the local ones), and those it
    refuses as naming two suits."""
    lang = current_language()
    local, refused = SUITS_TYPED.get(lang, {}), TWO_SUITS.get(lang, {})
    suits = ", ".join(
        symbol
        + " "
        + "/".join(
            ([] if suit.upper() in refused else [suit])
            + [letter.lower() for letter, core in local.items() if core == suit]
        )
        for suit, symbol in SUIT_SYMBOLS.items()
    )
    if not refused:
        return _("Suit letters: %(suits)s (or the symbols).", suits=suits)
    return _(
        "Suit letters: %(suits)s (or the symbols); not %(refused)s, which name two suits here.",
        suits=suits,
        refused=", ".join(letter.lower() for letter in refused),
    )


def page_globals() -> dict[str, Any]:
    """What every pad page's template gets: the typed-card grammar of its language and
    :func:`pad_words` (called by ``base.html``)."""
    return {"card_grammar": typed_grammar(current_language()), "pad_words": pad_words}
