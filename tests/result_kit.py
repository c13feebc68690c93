"""Reading results in tests whether they are plain dicts or typed objects with ``to_dict()``."""

from __future__ import annotations

from typing import Any


def as_dict(value: Any) -> Any:
    """``value.to_dict()`` when it has one, else ``value`` as it is (a dict, or ``None``)."""
    return value.to_dict() if hasattr(value, "to_dict") else value
