"""scorekeeper: Gin Rummy scorekeeping and hand verification.

The pure rules core: card notation, melds and deadwood, rule options and
presets, knock verification and hand scoring, game score sheets, the digital
engine, deal records and their analysis, and importers of other systems'
records. No database, no environment, no web (import-linter checks it):
persistence is :mod:`scorekeeper.store`, the web layer ``api/``, and
:mod:`scorekeeper.cli` composes them.

>>> from scorekeeper import deadwood, verify_knock
>>> deadwood("As 2s 3s 4c 4d 4h 9d Td Jd Kc")
10
"""

from .analysis import analyse
from .arrangements import arrangements
from .bots import simulate
from .cards import Card, parse_cards
from .engine import Deal
from .errors import (
    CardError,
    IllegalPlayError,
    InvalidInputError,
    RecordError,
    RuleError,
    ScorekeeperError,
)
from .knock import verify_knock
from .melds import all_melds, deadwood, discard_options
from .records import replay
from .rules import Rules

__all__ = [
    "Card",
    "CardError",
    "Deal",
    "IllegalPlayError",
    "InvalidInputError",
    "RecordError",
    "RuleError",
    "Rules",
    "ScorekeeperError",
    "all_melds",
    "analyse",
    "arrangements",
    "deadwood",
    "discard_options",
    "parse_cards",
    "replay",
    "simulate",
    "verify_knock",
]
