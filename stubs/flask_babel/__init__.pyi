"""Flask-Babel 4's names this project uses (it ships no types): api/i18n.py is their one reader."""

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from babel import Locale
from babel.support import NullTranslations, Translations
from flask import Flask

from .speaklater import LazyString as LazyString

class Babel:
    def __init__(
        self,
        app: Flask | None = None,
        date_formats: dict[str, str | None] | None = None,
        configure_jinja: bool = True,
        *args: Any,
        locale_selector: Callable[[], str | Locale | None] | None = None,
        default_translation_directories: str = ...,
        **kwargs: Any,
    ) -> None: ...

def get_translations() -> Translations | NullTranslations: ...
def get_locale() -> Locale | None: ...
def force_locale(locale: str | Locale) -> AbstractContextManager[None]: ...
def format_date(
    date: date | datetime | None = None, format: str | None = None, rebase: bool = True
) -> str: ...
def format_datetime(
    datetime: datetime | None = None, format: str | None = None, rebase: bool = True
) -> str: ...
def format_number(number: int | float | Decimal) -> str: ...
def format_decimal(number: int | float | Decimal | str, format: str | None = None) -> str: ...
def gettext(string: str, **variables: Any) -> str: ...
def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str: ...
def pgettext(context: str, string: str, **variables: Any) -> str: ...
def lazy_gettext(string: str, **variables: Any) -> LazyString: ...
