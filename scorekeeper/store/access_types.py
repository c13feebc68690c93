"""The types of access as stored: a device's right to change a game, its hand-over link,
the events a device directs or plays in, and the API keys."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EditRight:
    """A scorepad device's right to change a game (by the SHA-256 hash of its id)."""

    id: int
    device_hash: str
    label: str
    created: str


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """An event a scorepad device directs (``directs``) or keeps a match's score in."""

    id: str
    name: str
    directs: bool


@dataclass(frozen=True, slots=True)
class ApiKey:
    """An API key in use (:mod:`scorekeeper.store.access`): its id, name and creation time."""

    id: int
    name: str
    created: str


@dataclass(frozen=True, slots=True)
class ListedKey(ApiKey):
    """A key as ``scorekeeper keys list`` shows it: when it was revoked (``None``: in use),
    how many games it created, and whether it is a bot key (its games are not rated)."""

    revoked: str | None
    games: int
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Handover:
    """A game's hand-over link: the hash of its secret and when it was made."""

    secret_hash: str
    created: str
