"""SVG pictures whose every label knows its box, for puzzle statements and solutions printed in the book.

Every `<text>` a `Canvas` writes carries `data-box="x y width height"`: the box the label takes in SVG user
units, from DejaVu Sans advance widths (the font the pictures name first) and its ascent/descent. Tests read
these boxes to check that no label overlaps another and none leaves the picture, and compare them with the boxes
a browser measures. Long sentences (the question) are word-wrapped to the picture's width, never cut.

The book prints a picture at most `PRINT_WIDTH_MM` wide and `PRINT_MAX_HEIGHT_MM` tall (clients/batch/book.py
uses these numbers in its print CSS); `print_scale` gives millimetres per user unit there, so a renderer can
check that its smallest text stays readable (`MIN_TEXT_MM`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

#: Seats are named A, B, ... in every picture and on the web table (seat 0 is A).
SEAT_LETTERS = "ABCDEF"

FONT_FAMILY = "DejaVu Sans, Verdana, sans-serif"
INK = "#212121"
#: Printed picture area of the book (A4, 14 mm side margins) and the text size a reader needs.
PRINT_WIDTH_MM = 182.0
PRINT_MAX_HEIGHT_MM = 150.0
MIN_TEXT_MM = 2.0
#: One CSS pixel (the unit an SVG's width/height are in when the browser sizes it) in millimetres.
PX_MM = 25.4 / 96
#: DejaVu Sans vertical metrics (em units): the box a browser gives a line of text.
ASCENT, DESCENT = 0.928, 0.236

# DejaVu Sans advance widths (em units) of the characters the pictures use; others count as WIDE.
_NARROW = {
    " ": 0.318,
    ".": 0.318,
    ",": 0.318,
    ":": 0.337,
    ";": 0.337,
    "i": 0.278,
    "l": 0.278,
    "j": 0.278,
    "I": 0.295,
    "J": 0.295,
    "|": 0.337,
    "!": 0.4,
    "'": 0.275,
    '"': 0.46,
    "(": 0.39,
    ")": 0.39,
    "[": 0.39,
    "]": 0.39,
    "f": 0.352,
    "t": 0.392,
    "r": 0.411,
    "-": 0.361,
    "/": 0.337,
    "?": 0.531,
    "*": 0.5,
    "_": 0.5,
    "s": 0.521,
    "z": 0.525,
    "c": 0.55,
    "k": 0.579,
    "v": 0.592,
    "x": 0.592,
    "y": 0.592,
    "m": 0.974,
    "w": 0.818,
    "M": 0.863,
    "W": 0.989,
    "%": 0.95,
    "&": 0.78,
    "F": 0.575,
    "L": 0.557,
    "E": 0.632,
    "P": 0.603,
    "T": 0.611,
    "Y": 0.611,
    "S": 0.635,
}
_LOWER = 0.636
_UPPER = 0.79
_WIDE = 0.84
#: Bold DejaVu Sans is wider; a small margin covers kerning and rounding.
BOLD_FACTOR = 1.1
SAFETY = 1.03
SIDE_PAD = 0.15


def text_width(content: str, size: float, *, bold: bool = False) -> float:
    """Advance width of `content` at font size `size` (user units), slightly generous."""
    total = 0.0
    for char in content:
        if char in _NARROW:
            total += _NARROW[char]
        elif char.isdigit() or char.islower():
            total += _LOWER
        elif char.isupper():
            total += _UPPER
        else:
            total += _WIDE
    return total * size * (BOLD_FACTOR if bold else 1.0) * SAFETY


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float

    def overlaps(self, other: Box, slack: float = 0.5) -> bool:
        """True when the two boxes share more than `slack` units in both directions."""
        return (
            min(self.x + self.width, other.x + other.width) - max(self.x, other.x) > slack
            and min(self.y + self.height, other.y + other.height) - max(self.y, other.y) > slack
        )


def line_height(size: float) -> float:
    """Baseline-to-baseline distance for lines of `size` that do not touch."""
    return (ASCENT + DESCENT) * size + 2


def print_scale(width: float, height: float) -> float:
    """Millimetres per user unit of a `width` x `height` picture printed in the book (never enlarged)."""
    return PX_MM * min(1.0, PRINT_WIDTH_MM / (width * PX_MM), PRINT_MAX_HEIGHT_MM / (height * PX_MM))


def svg_size(svg: str) -> tuple[float, float]:
    """(width, height) in user units from the root element's width and height."""
    root = re.search(r"<svg\b[^>]*>", svg)
    if root is None:
        raise ValueError("not an SVG")
    width = re.search(r'\bwidth="([\d.]+)"', root.group(0))
    height = re.search(r'\bheight="([\d.]+)"', root.group(0))
    if width is None or height is None:
        raise ValueError("an SVG without width and height")
    return float(width.group(1)), float(height.group(1))


class Canvas:
    """SVG parts of one picture, `width` units wide; `text` records each label's box."""

    def __init__(self, width: float) -> None:
        self.width = width
        self.parts: list[str] = []
        self.boxes: list[Box] = []

    def shape(self, svg: str) -> None:
        """A mark without text (rect, line, polygon ...)."""
        self.parts.append(svg)

    def text(
        self,
        x: float,
        y: float,
        content: str,
        size: float,
        *,
        anchor: str = "start",
        bold: bool = False,
        fill: str = INK,
        cls: str = "label",
    ) -> Box:
        """One line of text with its baseline at y; returns (and records) its box (nothing for empty text)."""
        width = text_width(content, size, bold=bold)
        left = x - (width / 2 if anchor == "middle" else width if anchor == "end" else 0.0)
        if not content:
            return Box(left, y, 0.0, 0.0)
        # Browsers measure a label a little wider than its advance (glyph overhang): pad both sides.
        pad = SIDE_PAD * size
        box = Box(
            round(left - pad, 1),
            round(y - ASCENT * size, 1),
            round(width + 2 * pad, 1),
            round((ASCENT + DESCENT) * size, 1),
        )
        self.boxes.append(box)
        weight = ' font-weight="bold"' if bold else ""
        align = f' text-anchor="{anchor}"' if anchor != "start" else ""
        self.parts.append(
            f'<text class="{cls}" x="{x:g}" y="{y:g}" font-size="{size:g}"{weight}{align} fill="{fill}" '
            f'data-box="{box.x:g} {box.y:g} {box.width:g} {box.height:g}">{escape(content)}</text>'
        )
        return box

    def paragraph(
        self,
        x: float,
        y: float,
        content: str,
        size: float,
        width: float,
        *,
        bold: bool = False,
        cls: str = "label",
        fill: str = INK,
    ) -> float:
        """`content` word-wrapped into lines at most `width` wide from baseline y; returns the next baseline."""
        for line in wrap(content, size, width, bold=bold):
            self.text(x, y, line, size, bold=bold, cls=cls, fill=fill)
            y += line_height(size)
        return y

    def document(self, height: float, label: str, background: str = "#ffffff") -> str:
        """The whole SVG, `height` units tall."""
        return "\n".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}" height="{height:g}" '
                f'viewBox="0 0 {self.width:g} {height:g}" font-family="{FONT_FAMILY}" role="img" '
                f'aria-label="{escape(label, {chr(34): "&quot;"})}">',
                f'<rect width="{self.width:g}" height="{height:g}" fill="{background}"/>',
                *self.parts,
                "</svg>",
            ]
        )


def wrap(content: str, size: float, width: float, *, bold: bool = False) -> list[str]:
    """Greedy word wrap: lines no wider than `width` (a single longer word keeps a line to itself)."""
    lines: list[str] = []
    current = ""
    for word in content.split():
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size, bold=bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


__all__ = [
    "FONT_FAMILY",
    "MIN_TEXT_MM",
    "PRINT_MAX_HEIGHT_MM",
    "PRINT_WIDTH_MM",
    "Box",
    "Canvas",
    "line_height",
    "print_scale",
    "svg_size",
    "text_width",
    "wrap",
]
