"""GoAT diagrams: a ```goat code block's ASCII art drawn as SVG, as Hugo draws it.

Hugo renders a fenced code block in the language ``goat`` with an embedded
``render-codeblock-goat`` hook, which turns the text into SVG with the GoAT library
(github.com/bep/goat): lines of ``-``, ``_``, ``|``, ``/`` and ``\\``, arrow heads
``<``, ``>``, ``^`` and ``v``, corners (``+``, ``.``, ``'``, rounded where a corner
joins a line at a slant), circles ``o`` and ``*``, bridges ``-)-`` and every other
character as a ``<text>``. This module does the same in Python, element for element
and in the same order, so the pages match Hugo's byte for byte.

The drawing is made in steps, each over the whole grid of characters (one cell per
code point, lines as Go's ``bufio.Scanner`` reads them):

1. Cells that read as text are taken out of the grid first (``_is_text``), left to
   right and top to bottom: a letter is text, and so is a drawing character among
   letters ("A-B", "foo----bar"); a drawing character with a line coming in is not.
2. Lines: runs of one segment character in its direction, passing under joints and
   arrow heads; each direction is scanned in its own order (rows, columns, the two
   diagonals) as one long path, which decides where runs break.
3. Arrow heads, rounded corners, circles, bridges, then the text, sorted by column.

Coordinates are 8 pixels a column and 16 a row. Arrow heads are polygons whose points
Go computes in float32 and prints with six decimals; ``_f32`` rounds the same way.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .go_url import attribute_text

Cell = tuple[int, int]  # (column, row), from 0

# Directions, as the drawing functions need them.
NONE, N, NE, NW, S, SE, SW, E, W = range(9)

_JOINTS = frozenset(".'+*o")
_DOTS = frozenset("o*")
_ARROWS = frozenset("^v<>")
# Characters that draw; other characters are always text. A space counts as one, so a
# drawing character beside a blank is not taken for part of a word.
_RESERVED = frozenset("-_|v^><o*+.'/\\)( ")
# Characters a line of each segment goes on under without ending.
_PASS_THROUGH = {
    "-": _JOINTS | frozenset("<>()"),
    "_": _JOINTS | frozenset("|"),
    "|": _JOINTS | frozenset("^v"),
    "/": _JOINTS | frozenset("<>^v|"),
    "\\": _JOINTS | frozenset("<>^v|"),
}
# Shades Markdeep draws as grey cells rather than characters: their fill.
_SHADES = {
    "▉": "currentColor",
    "▓": "rgb(64,64,64)",
    "▒": "rgb(128,128,128)",
    "░": "rgb(191,191,191)",
}
# Box-drawing slants drawn as lines: their direction.
_SLANTS = {"╱": NE, "╲": SE, "╳": NE}
# Go's bufio.Scanner gives up at a line this long (in bytes, with its newline), and
# Hugo's diagram ends before it.
_MAX_LINE_BYTES = 64 * 1024


@dataclass(frozen=True)
class Diagram:
    """A drawn diagram: the SVG's content (a ``<g>`` of paths, polygons, circles and
    texts) and the size of the picture in pixels."""

    body: str
    width: int
    height: int

    def wrapped(self) -> str:
        """The whole ``<svg>`` element, as GoAT writes it."""
        return (
            "<svg class='diagram' xmlns='http://www.w3.org/2000/svg' version='1.1' "
            f"height='{self.height}' width='{self.width}' "
            f"font-family='Menlo,Lucida Console,monospace'>\n{self.body}</svg>\n"
        )


def draw(text: str) -> Diagram:
    """The diagram of ``text`` (lines ending with ``\\n``, an ``\\r`` before it dropped)."""
    grid = _Grid(_read_lines(text))
    out = ["<g transform='translate(8,16)'>\n"]
    for line in grid.lines():
        out.append(line.svg())
    for shape in grid.arrows():
        out.append(shape.svg())
    for cell, direction in grid.rounded_corners():
        out.append(_corner_svg(cell, direction))
    for cell in grid.circles():
        fill = "currentColor" if grid.at(cell) == "*" else "#fff"
        x, y = _pixel(cell)
        out.append(f"<circle cx='{x}' cy='{y}' r='6' stroke='currentColor' fill='{fill}'>")
        out.append("</circle>\n")
    for cell, direction in grid.bridges():
        out.append(_half_step((cell[0], cell[1] - 1), S).svg())
        out.append(_half_step((cell[0], cell[1] + 1), N).svg())
        x, y = _pixel(cell)
        sweep = 0 if direction == W else 1
        out.append(f"<path d='M {x},{y - 8} A 9,9 0 0,{sweep} {x},{y + 8}' {_STROKE}></path>\n")
    for cell, char in sorted(grid.text.items(), key=lambda item: (item[0], item[1])):
        out.append(_text_svg(cell, char))
    out.append("</g>\n")
    return Diagram("".join(out), (grid.width + 1) * 8, grid.height * 16 + 8 + 1)


def _read_lines(text: str) -> list[str]:
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    read = []
    for line in lines:
        if len(line.encode("utf-8", "surrogatepass")) >= _MAX_LINE_BYTES:
            break
        read.append(line.removesuffix("\r"))
    return read


def codeblock_html(context: Mapping[str, Any]) -> str:
    """Hugo's embedded ``render-codeblock-goat`` hook: the diagram of the block's
    ``inner`` in a ``<div class="goat svg-container">``, sized by its ``width`` and
    ``height`` attributes when it has either, else by a ``viewBox``; its ``class``
    attribute is added to the div's."""
    attributes = context["attributes"]
    diagram = draw(context["inner"])
    width, height = attributes.get("width"), attributes.get("height")
    css = attributes.get("class") or ""
    if width or height:
        size = f"\t\t\t\t{_attribute('width', width)}\n\t\t\t\t{_attribute('height', height)}\n"
    else:
        size = f'\t\t\t\tviewBox="0 0 {diagram.width} {diagram.height}"\n'
    return (
        f'\n\n\n<div class="goat svg-container {attribute_text(go_print(css))}">\n\t\n'
        '\t\t<svg\n\t\t\txmlns="http://www.w3.org/2000/svg"\n'
        '\t\t\tfont-family="Menlo,Lucida Console,monospace"\n\t\t\t\n'
        f"{size}\t\t\t>\n\t\t\t{diagram.body}\n\t\t</svg>\n\t\n</div>\n"
    )


def _attribute(name: str, value: Any) -> str:
    return f'{name}="{attribute_text(go_print(value))}"' if value else ""


def go_print(value: Any) -> str:
    """A Markdown attribute's value as a Go template prints it: its numbers are
    float64 (a whole one comes here as an int), printed as Go's ``%v`` does (``200``,
    ``1.5``, ``1e+06``), its lists as ``[a b]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _go_float(float(value))
    if isinstance(value, list):
        return "[" + " ".join(go_print(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "map[" + " ".join(f"{k}:{go_print(value[k])}" for k in sorted(value)) + "]"
    return str(value)


def _go_float(value: float) -> str:
    """Go's ``%v`` of a float64: the shortest digits, with an exponent when it is below
    -4 or at least 6 (``1e+06``, ``1e-05``)."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "-0" if str(value).startswith("-") else "0"
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    mantissa = "".join(map(str, digits))
    point = len(mantissa) + exponent  # digits before the decimal point
    minus = "-" if sign else ""
    if point - 1 < -4 or point - 1 >= 6:
        rest = f".{mantissa[1:]}" if len(mantissa) > 1 else ""
        power = point - 1
        return f"{minus}{mantissa[0]}{rest}e{'-' if power < 0 else '+'}{abs(power):02d}"
    if point <= 0:
        return f"{minus}0.{'0' * -point}{mantissa}"
    if point >= len(mantissa):
        return minus + mantissa + "0" * (point - len(mantissa))
    return f"{minus}{mantissa[:point]}.{mantissa[point:]}"


# --- the grid -------------------------------------------------------------------------


def _rows_order(width: int, height: int) -> Iterator[Cell]:
    for y in range(height):
        for x in range(width):
            yield x, y


def _columns_order(width: int, height: int) -> Iterator[Cell]:
    for x in range(width):
        for y in range(height):
            yield x, y


def _down_diagonals_order(width: int, height: int) -> Iterator[Cell]:
    """Cells along each ``\\`` diagonal, the diagonals from bottom left to top right."""
    for d in range(1 - height, width + 1):
        for x in range(max(0, d), min(width, height + d)):
            yield x, x - d


def _up_diagonals_order(width: int, height: int) -> Iterator[Cell]:
    """Cells along each ``/`` diagonal from its top end, the diagonals from top left
    to bottom right. One diagonal's end and the next one's start can both be inside
    the grid, and a line may run from one to the other as GoAT's does."""
    for d in range(width + height - 1):
        for x in range(max(0, d - height + 1), min(width, d + 1)):
            yield x, d - x


_SEGMENT_ORDER = {
    "-": (_rows_order, E),
    "_": (_rows_order, E),
    "|": (_columns_order, S),
    "/": (_up_diagonals_order, NE),
    "\\": (_down_diagonals_order, SE),
}


class _Grid:
    """The characters of a diagram, those read as text set apart in ``text``."""

    def __init__(self, lines: list[str]):
        self.height = len(lines)
        self.width = max((len(line) for line in lines), default=0)
        self.cells: dict[Cell, str] = {}
        for y, line in enumerate(lines):
            for x, char in enumerate(line):
                if char != " ":
                    self.cells[x, y] = char
        self.text: dict[Cell, str] = {}
        for cell in _rows_order(self.width, self.height):
            if self._is_text(cell):
                self.text[cell] = self.cells[cell]
        for cell in self.text:
            del self.cells[cell]

    def at(self, cell: Cell) -> str:
        return self.cells.get(cell, " ")

    def _at(self, x: int, y: int) -> str:
        return self.cells.get((x, y), " ")

    # --- what is text

    def _reserved(self, x: int, y: int) -> bool:
        return self._at(x, y) in _RESERVED

    def _is_text(self, cell: Cell) -> bool:
        char = self.cells.get(cell, " ")
        if char == " ":
            return False
        if char not in _RESERVED:
            return True
        if self._has_line_across(cell):
            return False
        x, y = cell
        # Part of a word already, or before a letter: "foo----bar" stays text.
        if (x - 1, y) in self.text or not self._reserved(x + 1, y):
            return True
        if self._at(x - 1, y) != " " or self._at(x + 1, y) != " ":
            return False
        if char in _DOTS:  # a lone circle
            return False
        return not self._reserved(x - 2, y) or not self._reserved(x + 2, y)

    def _has_line_across(self, cell: Cell) -> bool:
        """Whether a line other than a horizontal one goes through ``cell``."""
        char = self.at(cell)
        if char in "*o+v^":
            return self._on_diagonal(cell) or self._on_vertical(cell)
        if char == "|":
            return self._on_vertical(cell) or self._near_rounded_corner(cell)
        if char in "/\\":
            return self._on_diagonal(cell)
        if char == "-":
            return self._near_rounded_corner(cell)
        if char in "()":
            return self._on_vertical(cell)
        return False

    def _on_vertical(self, cell: Cell) -> bool:
        x, y = cell
        char, above, below = self._at(x, y), self._at(x, y - 1), self._at(x, y + 1)
        if above == "|" or (char == "|" and above in _JOINTS):
            return True
        return below == "|" or (char == "|" and below in _JOINTS)

    def _on_diagonal(self, cell: Cell) -> bool:
        x, y = cell
        char = self._at(x, y)
        nw, ne = self._at(x - 1, y - 1), self._at(x + 1, y - 1)
        sw, se = self._at(x - 1, y + 1), self._at(x + 1, y + 1)
        if char in ("/", "\\"):
            # The cells along the slash's own diagonal, and the other slash's character.
            ends, other = ((ne, sw), "\\") if char == "/" else ((nw, se), "/")
            return (
                char in ends
                or ends[0] in _JOINTS
                or ends[1] in _JOINTS
                or other in (self._at(x, y - 1), self._at(x, y + 1))
            )
        return nw == "\\" or ne == "/" or sw == "/" or se == "\\"

    def _near_rounded_corner(self, cell: Cell) -> bool:
        """Whether a ``-`` or ``|`` at ``cell`` may be the arm of a rounded corner."""
        x, y = cell
        char = self._at(x, y)
        if char == "-":
            return self._at(x - 1, y) in ".'" or self._at(x + 1, y) in ".'"
        if char == "|":
            return (
                self._at(x - 1, y - 1) == "."
                or self._at(x + 1, y - 1) == "."
                or (self._at(x - 1, y + 1) == "'" or self._at(x + 1, y + 1) == "'")
            )
        return False

    # --- corners and half steps

    def _corner(self, cell: Cell) -> int:
        """The direction of the rounded corner at ``cell`` (NW: it opens to the south
        east, and so on), or NONE."""
        x, y = cell
        char = self._at(x, y)
        if char not in _JOINTS:
            return NONE
        opens_up, opens_down = char in "'+", char in ".+"
        dash_right = self._at(x + 1, y) in "-+_" or self._at(x + 1, y - 1) == "_"
        dash_left = self._at(x - 1, y) in "-+_" or self._at(x - 1, y - 1) == "_"

        def upright(x: int, y: int) -> bool:
            return self._at(x, y) in "|+)(o*"

        if opens_down and dash_right and upright(x - 1, y + 1):
            return NW
        if opens_down and dash_left and upright(x + 1, y + 1):
            return NE
        if opens_up and dash_left and upright(x + 1, y - 1):
            return SE
        if opens_up and dash_right and upright(x - 1, y - 1):
            return SW
        return NONE

    def _half_step(self, cell: Cell) -> int:
        """The half of the cell a short vertical stroke at ``cell`` takes (N or S) where
        it meets a ``_`` or ``-`` beside it, or NONE."""
        x, y = cell
        char = self._at(x, y)
        if char not in "'.|" or self._corner(cell) != NONE:
            return NONE
        w, e = self._at(x - 1, y), self._at(x + 1, y)
        n, s = self._at(x, y - 1), self._at(x, y + 1)
        nw, ne = self._at(x - 1, y - 1), self._at(x + 1, y - 1)
        if char == "'":
            if (nw == "_" and e == "-") or (w == "-" and ne == "_"):
                return N
        elif char == ".":
            if (w == "-" and e == "_") or (w == "_" and e == "-"):
                return S
        else:
            if (n != "|" and "_" in (ne, nw)) or n == "-":
                return N
            if (s != "|" and "_" in (w, e)) or s == "-":
                return S
        return NONE

    # --- lines

    def lines(self) -> list[Line]:
        """Every straight line, in drawing order: ``-``, ``_``, ``|``, ``/``, ``\\``,
        then the half steps."""
        up = self._runs("/")
        for line in up:
            start, stop = line.start, line.stop
            if self._at(start[0] + 1, start[1]) == "_":  # /_
                line.tiny_left = True
            if self._at(stop[0], stop[1] - 1) == "_":
                line.tiny_right = True
            if not line.lonely:
                if self._at(stop[0] + 1, stop[1] - 1) == "_":
                    line.tiny_right = True
                if self._at(start[0] - 1, start[1]) == "_":  # _/
                    line.tiny_left = True
                if self._at(stop[0], stop[1] - 1) == "\\":
                    line.tiny_right = True
                if self._at(start[0], start[1] + 1) == "\\":
                    line.tiny_left = True
        down = self._runs("\\")
        for line in down:
            start, stop = line.start, line.stop
            if self._at(stop[0] - 1, stop[1]) == "_":  # _\
                line.tiny_right = True
            if self._at(start[0], start[1] - 1) == "_":
                line.tiny_left = True
            if not line.lonely:
                if self._at(start[0] - 1, start[1] - 1) == "_":
                    line.tiny_left = True
                if self._at(stop[0] + 1, stop[1]) == "_":  # \_
                    line.tiny_right = True
                if self._at(stop[0], stop[1] + 1) == "/":
                    line.tiny_right = True
                if self._at(start[0], start[1] - 1) == "/":
                    line.tiny_left = True
        base = self._runs("_")
        for line in base:
            self._nudge_baseline(line)
        lines = self._runs("-") + base + self._runs("|") + up + down
        for cell in _columns_order(self.width, self.height):
            half = self._half_step(cell)
            if half != NONE:
                lines.append(_half_step(cell, half))
        return lines

    def _nudge_baseline(self, line: Line) -> None:
        """Stretch a ``_`` line to meet what its ends touch."""
        (x0, y0), (x1, y1) = line.start, line.stop
        line.down = True
        if self._at(x1 + 1, y1 + 1) == "|" or self._at(x1 + 1, y1 - 1) == "|":
            line.right = True
        if self._at(x0 - 1, y0 + 1) == "|" or self._at(x0 - 1, y0 - 1) == "|":
            line.left = True
        if self._at(x1 + 1, y1) == "/" or self._at(x1 + 1, y1 + 1) == "\\":
            line.tiny_right = True
        if self._at(x0 - 1, y0) == "\\" or self._at(x0 - 1, y0 + 1) == "/":
            line.tiny_left = True
        if self._at(x1 + 1, y1) == "\\":
            line.right = line.tiny_right = True
        if self._at(x0 - 1, y0) == "/":
            line.left = line.tiny_left = True
        if self._at(x1, y1 + 1) == "/":
            line.tiny_right = True
        if self._at(x0, y0 + 1) == "\\":
            line.tiny_left = True
        if self._at(x0 - 1, y0 + 1) == "'":
            line.left = True
        if self._at(x1 + 1, y1 + 1) == "'":
            line.right = True

    def _runs(self, segment: str) -> list[Line]:
        """The lines of ``segment`` characters: the grid (and one blank row and column
        beyond it) is walked in the segment's order as one path; a line starts at a
        segment or a character it passes under, and ends where neither follows, or at a
        pass-through character (where the next one may start)."""
        order, direction = _SEGMENT_ORDER[segment]
        passes = _PASS_THROUGH[segment]
        found: list[Line] = []
        line: Line | None = None
        last = " "
        for cell in order(self.width + 1, self.height + 1):
            char = self.at(cell)
            passing = char in passes
            corner = self._corner(cell)
            keep = (char == segment or passing) and corner == NONE
            # A rounded corner that is also the joint of an upright or slanted line.
            if (
                corner != NONE
                and direction != E
                and (self._on_vertical(cell) or self._on_diagonal(cell))
            ):
                keep = True
            after_pass = last in passes
            # Two pass-through characters in a row do not join (not "|>", nor "))"),
            # but for vertical lines; nor does one before a circle or an arrow head.
            if after_pass and ((passing and direction != S) or char in _DOTS or char in _ARROWS):
                line = _ended(line, found)
            if line is None:
                if keep:
                    line = Line(cell, cell, direction)
            elif not keep:
                # A segment all by itself is a line of its own (not a corner's arm).
                if (
                    line.start == line.stop
                    and last == segment
                    and not self._near_rounded_corner(line.start)
                ):
                    line.stop, line.lonely = cell, True
                line = _ended(line, found)
            elif passing:
                line.stop = cell
                _ended(line, found)
                line = Line(cell, cell, direction)
            else:
                line.stop = cell
            last = char
        return found

    # --- the other shapes

    def arrows(self) -> list[Line | Arrow]:
        """Arrow heads, column by column, each after the stub of line that joins it
        to a ``-`` or a corner behind it."""
        shapes: list[Line | Arrow] = []
        for cell in _columns_order(self.width, self.height):
            char = self.at(cell)
            if char not in _ARROWS:
                continue
            x, y = cell
            if char == "^":
                direction = N
                if self._at(x - 1, y + 1) == "/":
                    direction = NE
                elif self._at(x + 1, y + 1) == "\\":
                    direction = NW
            elif char == "v":
                direction = S
                if self._at(x + 1, y - 1) == "/":
                    direction = SW
                elif self._at(x - 1, y - 1) == "\\":
                    direction = SE
            else:
                direction = W if char == "<" else E
            dx, dy = _BEHIND[direction]
            behind = self._at(x + dx, y + dy)
            if direction in (E, W):
                touching = behind in _DOTS
            else:
                touching = behind == "-" or (behind in _JOINTS and behind not in _DOTS)
                if touching:
                    shapes.append(_arrow_tail(cell, direction))
            shapes.append(Arrow(cell, direction, touching))
        return shapes

    def rounded_corners(self) -> list[tuple[Cell, int]]:
        found = []
        for cell in _rows_order(self.width, self.height):
            direction = self._corner(cell)
            if direction != NONE:
                found.append((cell, direction))
        return found

    def circles(self) -> list[Cell]:
        return [cell for cell in _columns_order(self.width, self.height) if self.at(cell) in _DOTS]

    def bridges(self) -> list[tuple[Cell, int]]:
        """``-(-`` and ``-)-``: a line going over another."""
        found = []
        for x, y in _rows_order(self.width, self.height):
            char = self._at(x, y)
            if char in "()" and self._at(x - 1, y) == "-" and self._at(x + 1, y) == "-":
                found.append(((x, y), W if char == "(" else E))
        return found


# Where the cell an arrow head comes from lies, by the arrow's direction.
_BEHIND = {
    N: (0, -1),
    S: (0, 1),
    NW: (-1, -1),
    NE: (1, -1),
    SE: (1, 1),
    SW: (-1, 1),
    E: (1, 0),
    W: (-1, 0),
}


def _ended(line: Line | None, found: list[Line]) -> None:
    """Keep ``line`` if it goes somewhere (the next line starts afresh)."""
    if line is not None and line.start != line.stop:
        found.append(line)


def _arrow_tail(cell: Cell, direction: int) -> Line:
    x, y = cell
    if direction in (N, S):
        return _half_step(cell, direction)
    if direction == NW:
        return Line((x - 1, y - 1), cell, SE)
    if direction == NE:
        return Line(cell, (x + 1, y - 1), NE)
    if direction == SE:
        return Line(cell, (x + 1, y + 1), SE)
    return Line((x - 1, y + 1), cell, NE)  # SW


def _pixel(cell: Cell) -> tuple[int, int]:
    return cell[0] * 8, cell[1] * 16


_STROKE = "fill='none' stroke='currentColor'"


@dataclass
class Line:
    """A straight line from the middle of one cell to another's, with the nudges that
    make it meet its neighbours: ``down`` (onto the baseline), ``left``/``right`` (a
    whole cell's half), ``tiny_left``/``tiny_right`` (a quarter, along a slant);
    ``lonely`` for one character on its own, ``chop`` the half (N or S) a half step
    keeps off."""

    start: Cell
    stop: Cell
    direction: int
    lonely: bool = False
    chop: int = NONE
    down: bool = False
    left: bool = False
    right: bool = False
    tiny_left: bool = False
    tiny_right: bool = False

    def svg(self) -> str:
        (x0, y0), (x1, y1) = _pixel(self.start), _pixel(self.stop)
        d = self.direction
        if self.lonely:
            if d == NE:
                x0, x1, y0, y1 = x0 - 4, x1 - 4, y0 + 8, y1 + 8
            elif d == SE:
                x0, x1, y0, y1 = x0 - 4, x1 - 4, y0 - 8, y1 - 8
            elif d == S:
                y0, y1 = y0 - 8, y1 - 8
            if self.chop == N:
                y1 -= 8
            elif self.chop == S:
                y0 += 8
        if self.down:
            y1 += 8
            if d in (E, W):
                y0 += 8
        if self.left:
            x0 -= 8
        if self.right:
            x1 += 8
        if self.tiny_left:
            x0 -= 4
            y0 += 8 if d == NE else -8 if d == SE else 0
        if self.tiny_right:
            x1 += 4
            y1 += -8 if d == NE else 8 if d == SE else 0
        return f"<path d='M {x0},{y0} L {x1},{y1}' {_STROKE}></path>\n"


def _half_step(cell: Cell, chop: int) -> Line:
    """A one-cell upright stroke, half of it (``chop``) cut off."""
    return Line(cell, (cell[0], cell[1] + 1), S, lonely=True, chop=chop)


# An arrow head's turn (degrees) and how far it moves along x: always, then when it
# touches what it points at.
_ARROW_TURN = {
    N: (270, 0, 8),
    NE: (300, 4, 6),
    NW: (240, 4, 6),
    W: (180, 0, -8),
    E: (0, 0, -8),
    S: (90, 0, 8),
    SW: (120, 4, 6),
    SE: (60, 4, 6),
}


@dataclass(frozen=True)
class Arrow:
    """An arrow head: a triangle pointing ``direction``, drawn a little further along
    when it is ``touching`` a line or circle."""

    cell: Cell
    direction: int
    touching: bool

    def svg(self) -> str:
        px, py = _pixel(self.cell)
        turn, shift, touch_shift = _ARROW_TURN[self.direction]
        shift += touch_shift if self.touching else 0
        x, y = _f32(px), _f32(py)
        # Go adds the shifts one by one in float32; whole numbers this small are exact.
        x0, x1 = _f32(x + 8 + shift), _f32(x - 4 + shift)
        half = _f32(5.6)  # GoAT's 0.35 of a row
        y1, y2 = _f32(y - half), _f32(y + half)
        points = f"{x0:f},{y:f} {x1:f},{y1:f} {x1:f},{y2:f}"
        return (
            f"<polygon points='{points}' fill='currentColor' "
            f"transform='rotate({float(turn):f}, {x:f}, {y:f})'></polygon>\n"
        )


def _f32(value: float) -> float:
    """``value`` rounded to the nearest float32, as Go's float32 arithmetic keeps it."""
    return struct.unpack("f", struct.pack("f", value))[0]


def _corner_svg(cell: Cell, direction: int) -> str:
    x, y = _pixel(cell)
    if direction == NW:
        sweep, start, end = 0, (x + 8, y), (x - 8, y + 16)
    elif direction == NE:
        sweep, start, end = 1, (x - 8, y), (x + 8, y + 16)
    elif direction == SE:
        sweep, start, end = 1, (x + 8, y - 16), (x - 8, y)
    else:  # SW
        sweep, start, end = 0, (x - 8, y - 16), (x + 8, y)
    return (
        f"<path d='M {start[0]},{start[1]} A 16,16 0 0,{sweep} {end[0]},{end[1]}' "
        f"{_STROKE}></path>\n"
    )


_TEXT_ESCAPES = {"&": "&amp;", ">": "&gt;", "<": "&lt;"}


def _text_svg(cell: Cell, char: str) -> str:
    x, y = _pixel(cell)
    slant = _SLANTS.get(char)
    if slant is not None:
        stop = (cell[0] + 1, cell[1] + (-1 if slant == NE else 1))
        return Line(cell, stop, slant, lonely=True).svg()
    shade = _SHADES.get(char)
    if shade is not None:  # no newline after it, as GoAT writes it
        return f"<rect x='{x - 4}' y='{y - 8}' width='8' height='16' fill='{shade}'></rect>"
    return (
        f"<text text-anchor='middle' x='{x}' y='{y + 4}' fill='currentColor' "
        f"style='font-size:1em'>{_TEXT_ESCAPES.get(char, char)}</text>\n"
    )
