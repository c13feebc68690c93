"""The absolute links a real server writes, read as a phone gets them: a game started
through the scorepad's own forms (``requests``, its cookies kept), then the sheet's share
link and a new hand-over link with its QR code; and the QR code's modules, read from the
SVG the page draws."""

from __future__ import annotations

import html
import re

import requests


def hidden_fields(markup: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action`` on a page."""
    form = re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>(.*?)</form>', markup, re.S)
    assert form, action
    return {
        name: html.unescape(value)
        for name, value in re.findall(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(1)
        )
    }


class _Phone(requests.Session):
    """A session that checks the server's certificate against ``verify`` (a session's own
    ``verify`` gives way to ``REQUESTS_CA_BUNDLE``; a request's does not)."""

    def __init__(self, verify: str | bool) -> None:
        super().__init__()
        self.checked = verify

    def request(self, method, url, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        return super().request(method, url, *args, verify=self.checked, **kwargs)


def _page(phone: requests.Session, url: str, headers: dict[str, str]) -> str:
    """The page at ``url``, asked for with ``headers`` and the phone's cookies (named
    here: requests keeps them back from a request whose ``Host`` names another site)."""
    cookies = "; ".join(f"{cookie.name}={cookie.value}" for cookie in phone.cookies)
    headers = {**headers, "Cookie": cookies} if cookies else headers
    answer = phone.get(url, headers=headers, timeout=10, allow_redirects=False)
    assert answer.status_code == 200, (url, answer.status_code)
    return answer.text


def _shown(markup: str, field: str) -> str:
    return html.unescape(re.search(rf'id="{field}" value="([^"]+)"', markup).group(1))


def links(base: str, headers: dict[str, str], verify: str | bool = True) -> tuple[str, str, str]:
    """Start a game on the server at ``base`` and return what its pages show, each page
    asked for with ``headers``: ``(share link, hand-over link, hand-over QR code's SVG)``."""
    phone = _Phone(verify)
    token = hidden_fields(_page(phone, base + "/", {}), "/games")["csrf_token"]
    form = {"player_0": "Ana", "player_1": "Bor", "preset": "standard", "dealer": "0"}
    started = phone.post(
        base + "/games",
        data={**form, "csrf_token": token, "options_for": "standard"},
        allow_redirects=False,
        timeout=10,
    )
    assert started.status_code == 303, started.text
    game = started.headers["Location"]
    share = _shown(_page(phone, base + game, headers), "share")
    token = hidden_fields(_page(phone, base + game + "/phones", {}), game + "/handover")
    made = phone.post(
        base + game + "/handover",
        data={**token, "action": "new"},
        allow_redirects=False,
        timeout=10,
    )
    assert made.status_code == 303
    shown = _page(phone, base + made.headers["Location"], headers)
    return share, _shown(shown, "handover-link"), re.search(r"<svg.*?</svg>", shown, re.S)[0]


def qr_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules ``(column, row)`` of a QR code as segno draws it inline: one path of
    horizontal strokes one module thick (``M``/``m`` moves, ``h`` runs) over a light
    square."""
    (path,) = re.findall(r'<path[^>]*class="qrline"[^>]*\sd="([^"]+)"', svg)
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:[ ,](-?[\d.]+))?", path):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            dark.update((int(x) + i, int(y)) for i in range(int(a)))
            x += float(a)
    return dark
