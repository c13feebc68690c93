"""The director's right handed over by link in chromium (two 360 x 740 phones).

The director creates a club night on /events/new and sees its recovery card, then on
the director page makes a director's link; a second phone opens the link, names
itself and takes the right, and pairs round 1 from its own director page. The
director sees both phones listed, revokes the second one (confirming), and the
second phone's director page is refused from then on, as is the link it came by.
Every page passes axe and has nothing sideways at 360 px.
Screenshots: tests/artifacts/director-*.png.
"""

from __future__ import annotations

import os
import re

import pytest
from browser_kit import AXE, CHROMIUM, Words
from playwright.sync_api import expect
from serve_kit import spawn, stop_soon
from test_pad_browser import ARTIFACTS
from test_pad_events_browser import PHONE, checked, context_page

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="chromium is not installed (tests/run.sh installs it)"
    ),
    pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (tests/run.sh)"),
]

t = Words("en")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process, url = spawn(tmp_path_factory.mktemp("directors") / "directors.db", workers=2)
    yield url
    stop_soon(process, f"{__name__}'s server")


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"director-{name}.png"), full_page=True)


def test_the_director_hands_the_right_to_another_phone_by_link_and_revokes_it(server, browser):
    director = context_page(browser, PHONE)
    helper = context_page(browser, PHONE)
    director.goto(f"{server}/events/new")
    director.fill("#event-name", "Friday club")
    director.fill("#new-players", "Ana\nBor\nCene\nDana")
    director.get_by_role("button", name=t("Create the event")).click()
    expect(director.locator("#recovery-title")).to_have_text(t("The director's recovery card"))
    recovery = director.locator(".card-link a").get_attribute("href")
    assert "/direct?key=" in recovery
    director.get_by_role("link", name=t("Go to the director's page")).click()
    expect(director).to_have_url(re.compile(r"/events/[\w-]+/director$"))
    event_id = director.url.rsplit("/", 2)[1]

    # (an assertion, so that a page without the section prints what it shows instead)
    expect(director.locator("#directors-title")).to_have_text(t("Director's phones"))
    director.get_by_role("button", name=t("Hand the director's right to another phone")).click()
    link = director.locator("#director-link-text")
    expect(link).to_be_visible()
    assert director.locator("#director-link svg.qr").count() == 1
    checked(director, "director page, the director's link shown")
    shot(director, "link")
    handed = link.input_value()
    assert handed.startswith(f"{server}/events/{event_id}/direct?key=") and handed != recovery

    assert helper.goto(f"{server}/events/{event_id}/director").status == 403
    helper.goto(handed)
    checked(helper, "the director's link opened")
    shot(helper, "take")
    helper.fill("#label", "Bor's phone")
    helper.get_by_role("button", name=t("Direct the event on this phone")).click()
    expect(helper).to_have_url(re.compile(rf"/events/{event_id}/director\?phones=joined$"))
    expect(helper.locator("#directors p.notice")).to_have_text(
        t("This phone now directs the event.")
    )
    helper.get_by_role("button", name=t("Pair the next round")).click()
    expect(helper.locator("p.notice").first).to_contain_text(
        t("Round %(number)s is paired: hand each table its card.", number=1)
    )

    director.goto(f"{server}/events/{event_id}/director")
    phones = director.locator("#directors ul.phones li")
    expect(phones).to_have_count(2)
    expect(phones.nth(1)).to_contain_text("Bor's phone")
    director.once("dialog", lambda dialog: dialog.accept())
    phones.nth(1).get_by_role("button", name=t("Revoke")).click()
    expect(director.locator("#directors p.notice")).to_have_text(
        t("That phone no longer directs the event.")
    )
    expect(phones).to_have_count(1)
    checked(director, "director page, a phone revoked")

    assert helper.goto(f"{server}/events/{event_id}/director").status == 403
    assert helper.goto(handed).status == 403
    expect(helper.locator("p.banner")).to_contain_text(
        t(
            "This director's link no longer works: a newer link replaced it, or it was"
            " turned off. Ask the director for a new one, or use the recovery link or the"
            " director token."
        )
    )
    checked(helper, "the director's link, no longer working")
