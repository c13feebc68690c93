"""Accessibility of every page state of the scorepad: axe-core in chromium, light and dark.

One phone (Playwright on Debian's chromium, 390 x 844, touch) walks the
scorepad against a real ``scorekeeper serve`` on loopback, through every
page state in :data:`STATES`, in order: each step starts from where the
one before left the page. In each state axe-core (npm's, see
``browser_kit.axe_problems``) checks the page against WCAG 2.0 and 2.1 A
and AA under ``prefers-color-scheme: light``, then its colour rules again
under ``dark`` (switched with ``emulate_media``: the same document, so a
state is reached once; dark mode changes only colours, so the other rules
cannot find anything new there), and a screenshot of each scheme with
findings goes to ``tests/artifacts/axe-<state>.png`` and
``axe-<state>-dark.png`` (of every state with ``SK_AXE_PICTURES=all``). Every
serious or critical violation of every state is listed when the test
fails, not only the first; a state whose selector does not show fails the
walk there (the step did not reach it).

Choices: the walk is one test, not one per state, because the states build
on each other (the mid-game sheet holds the hands entered before it); a
failure names its state. The read-only and join states are seen by the same
phone with its cookies put aside (a second phone would cost a second page
for nothing): without cookies a phone holds no edit right.

To add a state, add one line to :data:`STATES` where the walk reaches it:
``("name", "selector of what it shows", lambda w: ...)``, using
:class:`Walk`'s steps (or a new step there when it takes more than a call
or two).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable

import pytest
from browser_kit import AXE, CHROMIUM, COLOUR_RULES, WAIT, Words, axe_problems
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from test_pad_browser import ANA, ARTIFACTS, BOR, PHONE, tap
from test_pad_offline import until, worker_ready

import scorekeeper as sk
from api.i18n import LANG_COOKIE
from scorekeeper.cards import SUIT_SYMBOLS


def typed(codes: list[str]) -> str:
    """Cards as a player of any language types them: suit symbols (a letter like ``s`` or
    ``c`` names two suits on some languages' pads, which refuse it)."""
    return " ".join(code[0] + SUIT_SYMBOLS[code[1]] for code in codes)


pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
    ),
    pytest.mark.skipif(
        not AXE.exists(), reason="axe-core is not installed (tests/run.sh: npm ci --prefix tests)"
    ),
]


RECORD = {**sk.simulate(24, dealer=0), "players": ["Ana", "Bor"]}
"""A whole deal (Ana deals; Bor knocks, Ana undercuts), with the walk's players: hand 1 of
its game and the replays'. Its analysis finds decisions that cost, so the viewer lists them."""


class Walk:
    """The phone and where it is: the server's URL, the game being played, its hand-over
    link, and the cookies put aside while the phone plays a watcher."""

    def __init__(self, page, url: str, words: Words | None = None):
        self.page = page
        self.url = url
        self.t = words or Words("en")
        self.game = ""
        self.link = ""
        self.kept_cookies: list = []

    # ------------------------------------------------------------------ moving about

    def go(self, path: str):
        """Open ``path`` on the server (or a full URL); the response, for its status."""
        return self.page.goto(path if path.startswith("http") else self.url + path)

    def click(self, label: str, role: str = "button", **values: object) -> None:
        """Tap the button (or ``role``) named by the message ``label`` in the walk's language."""
        self.page.get_by_role(role, name=self.t(label, **values)).first.click()

    def click_start(self, label: str, role: str = "button") -> None:
        """Tap the button whose name starts as the message ``label`` does (up to a number)."""
        self.page.get_by_role(role, name=self.t.before(label)).first.click()

    def choose(self, text: str) -> None:
        """Tap the choice (a radio button drawn as a box) whose label is ``text``."""
        shown = re.escape(self.t(text))
        self.page.locator("label.choice", has_text=re.compile(f"^{shown}$", re.I)).first.click()

    # ------------------------------------------------------------------ the start page

    def start_form(self, names=("", ""), stake: str = "", **options: str) -> None:
        """Fill the start form (``options``: rule fields, e.g. ``gin_bonus="-5"``) and send it."""
        self.go("/")
        self.page.fill("#player_0", names[0])
        self.page.fill("#player_1", names[1])
        self.page.fill("#stake", stake)
        if options:
            self.page.locator("details.options summary").click()
        for name, value in options.items():
            self.page.fill(f"#opt-{name}", value)
        self.click("Start the game")

    def new_game(self, names=("Ana", "Bor"), preset: str = "standard") -> None:
        """A new game (the first player deals); its sheet is the state."""
        self.go("/")
        for i, name in enumerate(names):
            self.page.fill(f"#player_{i}", name)
        self.choose(preset)
        self.click("Start the game")
        self.page.wait_for_url(re.compile(r"/games/[\w-]+$"))
        self.game = self.page.url.removeprefix(self.url)

    # ------------------------------------------------------------------ hands

    def hand_form(self, mode: str) -> None:
        self.go(f"{self.game}/hand?mode={mode}")

    def quick(
        self, who: str, kind: str, mine: str, theirs: str, button: str = "Add to the sheet"
    ) -> None:
        """Fill the quick form (already open) and press ``button``."""
        self.choose(who)
        self.choose(kind)
        if kind == "Knock":
            self.page.fill("#knocker_deadwood", mine)
        self.page.fill("#defender_deadwood", theirs)
        self.click(button)

    def quick_hand(self, who: str, kind: str, mine: str, theirs: str) -> None:
        """One quick hand from the sheet, saved."""
        self.hand_form("quick")
        self.quick(who, kind, mine, theirs)
        expect(self.page.locator(".notice")).to_contain_text(self.t.pattern("Hand %(n)s added."))

    def record_hand(self, text: str) -> None:
        self.page.fill("#record", text)
        self.click("Add to the sheet")

    def type_cards(self) -> None:
        """Ana went out: both hands typed into the card form's text boxes."""
        self.choose("Ana")
        self.page.locator("#p0-typed").fill(typed(ANA))
        self.page.locator("#p1-typed").fill(typed(BOR))
        expect(self.page.locator("#live-p1")).to_contain_text(
            self.t("deadwood %(points)s", points=3)
        )

    def deal_cards_checked(self) -> None:
        """The deal form by cards (already open), checked: in each game its first player
        went out with ANA against BOR, so each shows what was laid down and its result."""
        self.click("Cards", "link")
        for i, (knocker, other) in enumerate(((0, 1), (2, 3))):
            self.page.locator(f'[data-game="{i}"] label.choice').first.click()
            self.page.locator(f"#g{i}_p{knocker}-typed").fill(typed(ANA))
            self.page.locator(f"#g{i}_p{other}-typed").fill(typed(BOR))
        expect(self.page.locator("#live-g1_p3")).to_contain_text(
            self.t("deadwood %(points)s", points=3)
        )
        self.click("Check the hands")

    def too_few_cards(self) -> None:
        """The card form sent with four cards tapped for Ana and none for Bor."""
        self.hand_form("cards")
        tap(self.page, "p0", ANA[:4])
        self.click("Add to the sheet")
        expect(self.page.locator(".error-summary")).to_be_visible()

    def stale_form(self) -> None:
        """The quick form sent after another phone (here: a fetch with another key) added a
        hand: "the sheet changed", what was typed kept."""
        self.hand_form("quick")
        self.choose("Bor")
        self.choose("Knock")
        self.page.fill("#knocker_deadwood", "2")
        self.page.fill("#defender_deadwood", "4")
        status = self.page.evaluate("""async () => {
            const form = document.querySelector('form[data-queue-game]');
            const body = new URLSearchParams(new FormData(form));
            body.set('action', 'save'); body.set('form_key', 'another-phone-1234');
            return (await fetch(form.getAttribute('action'), {method: 'POST', body})).status;
        }""")
        assert status == 200
        self.click("Add to the sheet")
        expect(self.page.locator("#changed-title")).to_have_text(self.t("The sheet changed"))

    def offline_hands(self) -> None:
        """Two hands typed with no connection: a knock over the limit (the server will
        refuse it), then a good one; both wait."""
        self.hand_form("quick")
        self.page.context.set_offline(True)
        self.quick("Ana", "Knock", "14", "30")
        # the worker kept it and answered with the form again: typed on that new page, not
        # on the one it replaces (a tap there would be lost with it: a hand with nobody out)
        expect(self.page.locator(".queue li")).to_have_count(1)
        expect(self.page.locator("[data-quick-pad]")).to_be_visible()
        self.quick("Bor", "Knock", "1", "3")
        expect(self.page.locator(".queue h2")).to_have_text(
            self.t("Waiting to sync: %(num)d hand", "Waiting to sync: %(num)d hands", 2)
        )
        expect(self.page.locator(".queue li").nth(1)).to_contain_text("Bor")

    def back_online(self) -> None:
        """The connection returns: the first hand is refused, the second waits behind it."""
        self.page.context.set_offline(False)
        self.page.evaluate("window.dispatchEvent(new Event('online'))")
        expect(self.page.locator(".queue .badge").first).to_have_text(self.t("not saved"))

    def discard_refused(self) -> None:
        self.click_start("Discard hand %(num)s")
        expect(self.page.locator(".queue h2")).to_have_text(self.t("All hands synced"))

    # ------------------------------------------------------------------ phones

    def handover_link(self) -> None:
        self.go(self.game)
        self.click("Phones and hand-over", "link")
        self.click("Make a hand-over link")
        expect(self.page.locator(".qr-box svg")).to_be_visible()
        self.link = self.page.input_value("#handover-link")

    def as_watcher(self) -> None:
        """Put this phone's cookies aside: it holds no edit right until :meth:`as_owner`
        (its language, the switch's cookie if it has one, stays)."""
        self.kept_cookies = self.page.context.cookies()
        self.page.context.clear_cookies()
        lang = [cookie for cookie in self.kept_cookies if cookie["name"] == LANG_COOKIE]
        if lang:
            self.page.context.add_cookies(lang)

    def as_owner(self) -> None:
        self.page.context.clear_cookies()
        self.page.context.add_cookies(self.kept_cookies)

    def join_with_bad_label(self) -> None:
        self.go(self.link)
        self.page.fill("#label", "x" * 60)
        self.click("Keep the score on this phone")
        expect(self.page.locator("#err-label")).to_be_visible()

    def expect_status(self, path: str, status: int) -> None:
        assert self.go(path).status == status

    # ------------------------------------------------------------------ refused forms

    def stale_token(self) -> None:
        """The start form sent after its CSRF cookie went (cleared, or too old)."""
        self.go("/")
        self.page.fill("#player_0", "Eve")
        self.page.fill("#player_1", "Fay")
        self.page.context.clear_cookies(name="sk_csrf")
        self.click("Start the game")
        expect(self.page.locator("h1")).to_have_text(self.t("Please send that again"))

    def foreign_form(self) -> None:
        """A form on another page (here: about:blank) posting to the scorepad."""
        self.page.goto("about:blank")
        self.page.set_content(
            f'<form method="post" action="{self.url}/games">'
            '<input name="player_0" value="Eve"><button>Go</button></form>'
        )
        self.page.click("button")
        expect(self.page.locator("h1")).to_have_text(self.t("Nothing was saved"))

    # ------------------------------------------------------------------ no connection

    def offline_sheet(self) -> None:
        """The sheet opened again with no connection: the copy the service worker kept."""
        self.go(self.game)
        worker_ready(self.page)
        until(  # its page for what it has no copy of, in the sheet's language
            self.page,
            """async () => {
              const kept = await caches.match('/offline');
              return Boolean(kept)
                && kept.headers.get('Content-Language') === document.documentElement.lang;
            }""",
        )
        self.page.context.set_offline(True)
        self.page.reload()
        expect(self.page.locator(".queue h2")).to_have_text(self.t("No connection"))

    # ------------------------------------------------------------------ replay

    def replay_record(self) -> None:
        self.go("/replay")
        self.page.fill("#record", json.dumps(RECORD))
        self.click("Replay from the start")
        expect(self.page.locator(".steps .where")).to_contain_text(
            self.t.pattern("Step %(n)s of %(last)s")
        )

    def step(self, where: str) -> None:
        """Step the open replay to its ``middle`` or its ``end`` (the analysis shown)."""
        last = int(re.findall(r"\d+", self.page.inner_text(".steps .where"))[-1])
        number = last // 2 if where == "middle" else last
        url = re.sub(r"[?&]step=\d+", "", self.page.url)
        self.go(f"{url}{'&' if '?' in url else '?'}step={number}")
        expect(self.page.locator(".steps .where")).to_have_text(
            self.t("Step %(n)s of %(last)s", n=number, last=last)
        )


DEAD_LINK = (
    "This hand-over link no longer works: a newer link replaced it, or it was turned off. Ask"
    " whoever keeps the score for a new one (Phones and hand-over, at the foot of their sheet)."
)
"""What the join page says to a hand-over link that was replaced or turned off."""

STATES: list[tuple[str, str | Callable[[Walk], str], Callable[[Walk], object]]] = [
    ("start", "#player_0", lambda w: w.go("/")),
    ("start-errors", "#err-player_1", lambda w: w.start_form(("Ana", "ana"), stake="lots")),
    (
        "start-option-errors",
        "#err-gin_bonus",
        lambda w: w.start_form(("Ana", "Bor"), gin_bonus="-5"),
    ),
    ("sheet-empty", ".board", lambda w: w.new_game()),
    ("hand-record", "#record", lambda w: w.hand_form("record")),
    ("hand-record-error", "#err-record", lambda w: w.record_hand("{not json")),
    ("sheet-added-record", "[data-saved] a", lambda w: w.record_hand(json.dumps(RECORD))),
    ("hand-detail-record", ".showdown", lambda w: w.click("See the showdown", "link")),
    ("replay-hand-start", ".steps", lambda w: w.click("Replay this deal step by step", "link")),
    ("replay-hand-end", ".analysis", lambda w: w.step("end")),
    ("hand-cards", "[data-grid=p0]", lambda w: w.hand_form("cards")),
    ("hand-cards-typed", "#live-p1 .melds", lambda w: w.type_cards()),
    ("hand-cards-checked", "#result .showdown", lambda w: w.click("Check the hand")),
    ("sheet-added-cards", "[data-saved] a", lambda w: w.click("Add to the sheet")),
    ("hand-detail-cards", ".showdown", lambda w: w.click("See the showdown", "link")),
    ("hand-detail-four-colour", ".four .showdown", lambda w: w.click("Four-colour deck")),
    ("hand-cards-errors", ".error-summary", lambda w: w.too_few_cards()),
    (
        "hand-quick",
        "#knocker_deadwood",
        lambda w: (w.click("Two-colour deck"), w.hand_form("quick")),
    ),
    ("hand-quick-errors", "#err-knocker_deadwood", lambda w: w.quick("Bor", "Knock", "12", "30")),
    (
        "hand-quick-preview",
        "#result",
        lambda w: w.quick("Bor", "Knock", "5", "3", "Preview the score"),
    ),
    ("sheet-mid-game", ".chart", lambda w: w.click("Add to the sheet")),
    ("hand-detail", "#fix-title", lambda w: w.click("Hand %(n)s details", "link", n=3)),
    (
        "hand-correct",
        lambda w: "h1" + w.t.has_text("Correct hand %(n)s", n=3),
        lambda w: w.click("Correct hand %(n)s", "link", n=3),
    ),
    (
        "sheet-corrected",
        lambda w: ".notice" + w.t.has_text("Hand %(n)s corrected; the sheet is recomputed.", n=3),
        lambda w: w.click("Save the correction"),
    ),
    (
        "sheet-voided",
        "#hand-3 .badge.void",
        lambda w: (
            w.click("Hand %(n)s details", "link", n=3),
            w.click("Void hand %(n)s", n=3),
        ),
    ),
    (
        "sheet-undone",
        lambda w: ".notice" + w.t.has_text("Hand %(n)s taken back.", n=3),
        lambda w: w.click_start("Undo the last hand (%(n)s)"),
    ),
    ("hand-stale", "#changed-title", lambda w: w.stale_form()),
    ("queue-waiting", ".queue .badge.waiting", lambda w: w.offline_hands()),
    ("queue-refused", ".queue .badge.refused", lambda w: w.back_online()),
    ("queue-synced", ".queue.done", lambda w: w.discard_refused()),
    ("phones-handover-qr", ".qr-box svg", lambda w: w.handover_link()),
    ("phones", "#phones-title", lambda w: w.go(f"{w.game}/phones")),
    (
        "join-already",
        lambda w: ".notice" + w.t.has_text("This phone can already keep the score of this game."),
        lambda w: w.go(w.link),
    ),
    ("sheet-read-only", ".readonly-note", lambda w: (w.as_watcher(), w.go(w.game))),
    (
        "error-403",
        lambda w: "h1" + w.t.has_text("Read-only"),
        lambda w: w.expect_status(f"{w.game}/hand", 403),
    ),
    ("join", "#label", lambda w: w.go(w.link)),
    ("join-errors", "#err-label", lambda w: w.join_with_bad_label()),
    (
        "join-dead-link",
        lambda w: ".banner" + w.t.has_text(DEAD_LINK),
        lambda w: (w.expect_status(f"{w.game}/join?key=old", 403), w.as_owner()),
    ),
    (
        "phones-link-off",
        lambda w: ".notice" + w.t.has_text("The hand-over link is turned off: it no longer works."),
        lambda w: (w.go(f"{w.game}/phones"), w.click("Turn the link off")),
    ),
    ("sheet-over", "section.over", lambda w: w.quick_hand("Ana", "Gin", "", "98")),
    ("sheet-tally", ".tally-now", lambda w: w.click("New game with the same players")),
    ("tally", "ol.tally", lambda w: w.click("The tally, game by game", "link")),
    ("players-record", "table.record", lambda w: w.go("/players?name=Ana")),
    (
        "head-to-head",
        lambda w: "h1" + w.t.has_text("%(name)s vs %(other)s", name="Ana", other="Bor"),
        lambda w: w.click("%(name)s vs %(other)s", "link", name="Ana", other="Bor"),
    ),
    ("ladder", "table.ladder", lambda w: w.go("/ladder")),
    ("ladder-errors", "#err-min", lambda w: w.expect_status("/ladder?min=x", 422)),
    ("start-recent", "#recent-title", lambda w: w.go("/")),
    (
        "sheet-hollywood",
        "table.columns",
        lambda w: (
            w.new_game(("Cleo", "Dan"), "hollywood"),
            w.quick_hand("Cleo", "Gin", "", "10"),
            w.quick_hand("Dan", "Knock", "2", "30"),
        ),
    ),
    ("sheet-three", ".board.three", lambda w: w.new_game(("Ana", "Bor", "Cy"))),
    ("hand-three-quick", "#knocker_deadwood", lambda w: w.hand_form("quick")),
    ("sheet-three-hand", ".sat-out", lambda w: w.quick("Bor", "Knock", "3", "20")),
    (
        "sheet-partners",
        "h1:has-text('Ana & Cy')",
        lambda w: w.new_game(("Ana", "Bor", "Cy", "Dan")),
    ),
    ("hand-deal", "fieldset.game-entry", lambda w: w.hand_form("deal")),
    ("hand-deal-cards-checked", "[data-game='1'] .play-choice", lambda w: w.deal_cards_checked()),
    ("check", "[data-grid=k]", lambda w: w.go("/check")),
    (
        "check-errors",
        "#err-defender_cards",
        lambda w: (tap(w.page, "k", ANA), tap(w.page, "d", BOR[:9]), w.click("Check the hand")),
    ),
    (
        "check-result",
        "#result .showdown",
        lambda w: (tap(w.page, "d", BOR[9:]), w.click("Check the hand")),
    ),
    ("replay", "#record", lambda w: w.go("/replay")),
    (
        "replay-errors",
        "#err-record",
        lambda w: (w.page.fill("#record", "{not json"), w.click("Replay from the start")),
    ),
    ("replay-start", ".steps", lambda w: w.replay_record()),
    ("replay-middle", ".steps", lambda w: w.step("middle")),
    ("replay-end", "details[open] ol.decisions", lambda w: w.step("end")),
    ("replay-decision", ".analysis-here", lambda w: w.page.locator("ol.decisions a").first.click()),
    (
        "error-404",
        lambda w: "h1" + w.t.has_text("Not found"),
        lambda w: w.expect_status("/games/no-such-game", 404),
    ),
    ("expired", lambda w: "h1" + w.t.has_text("Please send that again"), lambda w: w.stale_token()),
    (
        "expired-foreign",
        lambda w: "h1" + w.t.has_text("Nothing was saved"),
        lambda w: w.foreign_form(),
    ),
    # the phone stays offline from here on
    ("offline-sheet", ".queue.offline", lambda w: w.offline_sheet()),
    (
        "offline-no-copy",
        lambda w: "h1" + w.t.has_text("No connection"),
        lambda w: w.expect_status(f"{w.game}/hands/99", 503),
    ),
]
"""The walk, in order: (state, a selector of what the state shows, the step from
the state before to this one)."""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A real ``scorekeeper serve`` for this module: its URL."""
    process, url = spawn(tmp_path_factory.mktemp("axe") / "axe.db", workers=2)
    yield url
    stop_soon(process, f"{__name__}'s server", status=None)


PICTURES = os.environ.get("SK_AXE_PICTURES") == "all"
"""Whether the walk photographs every state (``SK_AXE_PICTURES=all``), not only those with
findings: two full-page pictures a state cost about 15 s of the walk's 85 (2026-12-06)."""


def look(page, state: str) -> list[str]:
    """axe's serious and critical findings in ``state``: every rule in the light scheme,
    the colour rules again in the dark one (all that it changes), with a screenshot of each
    scheme when it has findings (or :data:`PICTURES`); the page is left light."""
    light = axe_problems(page, f"{state} (light)")
    page.emulate_media(color_scheme="dark")
    dark = axe_problems(page, f"{state} (dark)", COLOUR_RULES)
    if dark or PICTURES:
        picture(page, f"axe-{state}-dark")
    page.emulate_media(color_scheme="light")
    if light or PICTURES:
        picture(page, f"axe-{state}")
    return light + dark


def picture(page, name: str) -> None:
    """A full-page screenshot of ``page`` scrolled to its top (sticky parts where they are
    there) in ``tests/artifacts/<name>.png``."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.cost(110)
def test_every_page_state_passes_axe_in_light_and_dark(browser, served):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, color_scheme="light"
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    walk = Walk(page, served)
    problems: list[str] = []
    try:
        for state, shown, step in STATES:
            step(walk)
            selector = shown(walk) if callable(shown) else shown
            expect(page.locator(selector).first, state).to_be_visible()
            problems += look(page, state)
    finally:
        context.close()
    assert not errors, f"browser errors: {errors}"
    assert not problems, f"{len(problems)} axe violations:\n" + "\n".join(problems)
