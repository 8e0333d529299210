"""Hugo's date formats: RFC 3339 with or without zone, date-only, TOML/YAML native dates.

A value without a zone is in the site's ``timeZone`` (UTC when unset), as in Hugo.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_FORMATS = (
    "%Y-%m-%dT%H:%M:%S%z",
    "%Y-%m-%dT%H:%M:%S.%f%z",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%dT%H:%M:%S.%f",
    "%Y-%m-%d %H:%M:%S%z",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%d",
    "%Y/%m/%d %H:%M:%S",
    "%Y/%m/%d",
    "%d %b %Y",
    "%b %d, %Y",
    "%B %d, %Y",
    "%a, %d %b %Y %H:%M:%S %z",
)
# The RFC 3339 forms of ``_FORMATS``, which ``datetime.fromisoformat`` reads alike in one
# call (strptime tries the formats one by one, raising at each miss): dates are many.
_ZONE = r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?"
_ISO = re.compile(
    rf"[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}(?:T[0-9]{{2}}:[0-9]{{2}}(?::[0-9]{{2}}(?:\.[0-9]{{1,6}})?{_ZONE})?"
    rf"| [0-9]{{2}}:[0-9]{{2}}(?::[0-9]{{2}}{_ZONE})?)?"
)
_ZULU = re.compile(r"Z$")
_COLON_ZONE = re.compile(r"([+-]\d\d):(\d\d)$")


def site_zone(name: str):
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown timeZone {name!r}") from None


def parse_date(value, zone) -> datetime:
    """Turn a front matter date into an aware datetime; raise ValueError if Hugo would refuse it."""
    parsed = _parse(value, zone)
    try:
        parsed.astimezone(UTC)  # what comparing and formatting dates will do
    except OverflowError:
        raise ValueError(f"date {value!r} is out of range once in UTC") from None
    return parsed


def _parse(value, zone) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=zone)
    if isinstance(value, date):
        return datetime.combine(value, time(), zone)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value, UTC)
        except (OverflowError, OSError) as e:  # beyond what the platform's time_t holds
            raise ValueError(f"timestamp {value!r} is out of range: {e}") from None
    if not isinstance(value, str):
        raise ValueError(f"expected a date, got {type(value).__name__} {value!r}")
    if _ISO.fullmatch(text := value.strip()):
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            pass  # out of range: the formats below say so
        else:
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)
    text = _COLON_ZONE.sub(r"\1\2", _ZULU.sub("+0000", text))
    for fmt in _FORMATS:
        try:
            parsed = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)
    raise ValueError(
        f"unable to parse date {value!r}: use a format like 2025-11-07 or 2025-11-07T15:04:05+09:00"
    )
