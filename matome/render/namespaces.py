"""Hugo's function namespaces as template globals: ``math``, ``time`` (and ``now``),
``hugo`` and ``diagrams``, each an object whose methods are Hugo's functions in snake_case
(``math.round(2.5)``, ``time.as_time("2025-03-04")``, ``hugo.environment``).

Numbers follow Go: ``math.div(7, 2)`` of two whole numbers is ``3`` (Jinja's ``7 / 2`` is
``3.5`` and ``-7 // 2`` is ``-4`` where Go's is ``-3``), ``math.round`` rounds halves away
from zero (Jinja's ``round`` to even), and a whole-number result prints without ``.0``,
as Hugo prints ``math.sqrt(16)``: ``4``.
"""

from __future__ import annotations

import functools
import math as pymath
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from markupsafe import Markup

from .. import __version__
from ..content.dates import parse_date, site_zone
from ..markup import goat
from .functions import date_format

# The Hugo release whose behaviour matome follows (what themes compare ``hugo.version`` with).
HUGO_VERSION = "0.168.0"


def _number(value: Any) -> Any:
    """A whole float as an int, so it prints as Go prints a float64 (``4``, not ``4.0``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class MathFunctions:
    """Hugo's ``math`` namespace (and its ``add``, ``sub``, ``mul``, ``div``, ``mod``)."""

    def add(self, *values: Any) -> Any:
        if values and all(isinstance(v, str) for v in values):
            return "".join(values)  # Hugo's add joins text
        return functools.reduce(lambda a, b: a + b, values)

    def sub(self, *values: Any) -> Any:
        return functools.reduce(lambda a, b: a - b, values)

    def mul(self, *values: Any) -> Any:
        return functools.reduce(lambda a, b: a * b, values)

    def div(self, *values: Any) -> Any:
        def one(a: Any, b: Any) -> Any:
            if b == 0:
                raise ZeroDivisionError("math.div: can't divide by zero")
            if _is_int(a) and _is_int(b):  # Go truncates toward zero
                quotient = abs(a) // abs(b)
                return quotient if (a < 0) == (b < 0) else -quotient
            return a / b

        return functools.reduce(one, values)

    def mod(self, a: Any, b: Any) -> int:
        a, b = int(a), int(b)
        if b == 0:
            raise ZeroDivisionError("math.mod: can't divide by zero")
        return int(pymath.fmod(a, b))  # Go's remainder keeps the dividend's sign

    def mod_bool(self, a: Any, b: Any) -> bool:
        return self.mod(a, b) == 0

    def max(self, *values: Any) -> Any:
        return _number(float(max(_flatten(values))))

    def min(self, *values: Any) -> Any:
        return _number(float(min(_flatten(values))))

    def sum(self, *values: Any) -> Any:
        return _number(float(sum(_flatten(values))))

    def product(self, *values: Any) -> Any:
        return _number(float(pymath.prod(_flatten(values))))

    def round(self, value: Any) -> Any:
        x = float(value)
        return _number(float(pymath.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1))

    def floor(self, value: Any) -> Any:
        return _number(float(pymath.floor(float(value))))

    def ceil(self, value: Any) -> Any:
        return _number(float(pymath.ceil(float(value))))

    def abs(self, value: Any) -> Any:
        return _number(float(abs(value)))

    def sqrt(self, value: Any) -> Any:
        return _number(pymath.sqrt(float(value)))

    def pow(self, base: Any, exponent: Any) -> Any:
        return _number(pymath.pow(float(base), float(exponent)))

    def log(self, value: Any) -> Any:
        return _number(pymath.log(float(value)))

    def pi(self) -> float:
        return pymath.pi


def _flatten(values: tuple) -> list:
    out: list = []
    for value in values:
        if isinstance(value, (list, tuple)):
            out.extend(value)
        else:
            out.append(value)
    return out


class TimeFunctions:
    """Hugo's ``time`` namespace: ``time(value)`` is ``time.as_time(value)``, a date in the
    site's ``timeZone`` when it names none; ``time.format(layout, value)`` is
    ``date_format``; ``time.now()``."""

    def __init__(self, zone_name: str, read_now: Any = None) -> None:
        self.zone_name = zone_name
        self.read_now = read_now  # called when a template reads the clock

    @functools.cached_property
    def zone(self) -> tzinfo:
        # Resolved when a template first needs it: the loader reports an unknown timeZone.
        return site_zone(self.zone_name)

    def __call__(self, value: Any) -> datetime:
        return self.as_time(value)

    def as_time(self, value: Any) -> datetime:
        return parse_date(value, self.zone)

    def format(self, layout: str, value: Any) -> str:
        if not isinstance(value, datetime):
            value = self.as_time(value)
        return date_format(value, layout)

    def now(self) -> datetime:
        if self.read_now is not None:
            self.read_now()
        return datetime.now(self.zone)


@dataclass(frozen=True)
class GoatDiagram:
    """What ``diagrams.goat`` returns, as Hugo's ``diagrams.Goat``: the SVG's content
    (``inner``), the whole ``<svg>`` element (``wrapped``) and its size in pixels."""

    inner: Markup
    wrapped: Markup
    width: int
    height: int


class DiagramsFunctions:
    """Hugo's ``diagrams`` namespace: ``diagrams.goat(text)`` draws ASCII art as the
    ```goat code blocks are drawn, for a site's own ``render-codeblock-goat.html``."""

    def goat(self, text: Any) -> GoatDiagram:
        diagram = goat.draw("" if text is None else str(text))
        return GoatDiagram(
            Markup(diagram.body), Markup(diagram.wrapped()), diagram.width, diagram.height
        )


class HugoInfo:
    """Hugo's ``hugo`` namespace, for the build matome makes."""

    def __init__(self, environment: str) -> None:
        self.environment = environment
        self.version = HUGO_VERSION
        self.matome_version = __version__
        self.generator = Markup(f'<meta name="generator" content="matome {__version__}">')
        self.is_production = environment == "production"
        self.is_development = environment == "development"


def install_site_namespaces(env: Any, site: Any) -> None:
    """``hugo``, ``time`` and ``now`` for a site: its environment and its ``timeZone``."""

    def read_now() -> None:
        # A render that shows the time is rendered again in every build.
        log = getattr(env, "read_log", None)
        if log is not None:
            log.always("now")

    time = TimeFunctions(site.config.time_zone, read_now)
    env.globals.update(hugo=HugoInfo(site.config.environment), time=time, now=time.now)
