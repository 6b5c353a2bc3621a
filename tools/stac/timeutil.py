"""STAC datetime intervals: validation, open ends, and overlap tests for local search."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any, Mapping

from ..common import ToolInputError

_DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
OPEN = ("", "..")


def parse_instant(text: str, end_of_day: bool = False) -> datetime:
    text = text.strip()
    if _DATE_ONLY.match(text):
        text += "T23:59:59Z" if end_of_day else "T00:00:00Z"
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ToolInputError(
            f"'{text}' is not a date; use RFC 3339 like 2024-06-01 or 2024-06-01T10:00:00Z") from None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def normalise_interval(text: str | None) -> str | None:
    """'2024-06' style input is refused; dates become whole days; '..' keeps an open end."""
    if text is None or not text.strip():
        return None
    parts = text.strip().split("/")
    if len(parts) == 1:
        if _DATE_ONLY.match(parts[0]):
            parts = [parts[0], parts[0]]
        else:
            return _fmt(parse_instant(parts[0]))
    if len(parts) != 2:
        raise ToolInputError("datetime must be one instant or 'start/end' (use '..' for an open end)")
    start, end = parts
    if start in OPEN and end in OPEN:
        raise ToolInputError("datetime interval '../..' is open at both ends; give at least one date")
    start_dt = None if start in OPEN else parse_instant(start)
    end_dt = None if end in OPEN else parse_instant(end, end_of_day=True)
    if start_dt and end_dt and start_dt > end_dt:
        raise ToolInputError(f"datetime start {start} is after end {end}; swap them")
    return f"{_fmt(start_dt) if start_dt else '..'}/{_fmt(end_dt) if end_dt else '..'}"


def interval_bounds(text: str | None) -> tuple[datetime | None, datetime | None]:
    if not text:
        return None, None
    if "/" not in text:
        instant = parse_instant(text)
        return instant, instant
    start, end = text.split("/")
    return (None if start in OPEN else parse_instant(start)), (None if end in OPEN else parse_instant(end, True))


def item_times(properties: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """An item's time as text: `start_datetime`/`end_datetime` when given (even with `datetime` also set,
    the range is what the item covers), else `datetime` as an instant."""
    start, end = properties.get("start_datetime"), properties.get("end_datetime")
    if start or end:
        instant = properties.get("datetime")
        return start or instant or end, end or instant or start
    instant = properties.get("datetime")
    return instant, instant


def item_time_range(properties: Mapping[str, Any]) -> tuple[datetime | None, datetime | None]:
    """An item's time range, as in item_times()."""
    start, end = item_times(properties)
    return (parse_instant(start) if start else None), (parse_instant(end) if end else None)


def overlaps(a: tuple[datetime | None, datetime | None],
             b: tuple[datetime | None, datetime | None]) -> bool:
    a_start, a_end = a
    b_start, b_end = b
    if a_start and b_end and a_start > b_end:
        return False
    return not (b_start and a_end and b_start > a_end)


def _fmt(value: datetime) -> str:
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
