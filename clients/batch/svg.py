"""Small self-contained SVG charts (no plotting library): a line chart and a range chart.

Every number is formatted with fixed precision so the same data gives byte-identical files.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 64, 150, 40, 100
PALETTE = ("#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c", "#8d6a9f", "#444444", "#c05746")


def _nice_range(low: float, high: float) -> tuple[float, float]:
    if high <= low:
        return low - 1.0, high + 1.0
    pad = (high - low) * 0.05
    return low - pad, high + pad


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    step = (high - low) / count
    return [low + step * i for i in range(count + 1)]


def _frame(title: str, x_label: str, y_label: str, y_low: float, y_high: float) -> list[str]:
    plot_h = HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2:.1f}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>',
        f'<text x="{LEFT + (WIDTH - LEFT - RIGHT) / 2:.1f}" y="{HEIGHT - 14}" text-anchor="middle">'
        f"{escape(x_label)}</text>",
        f'<text x="16" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 16 {TOP + plot_h / 2:.1f})">{escape(y_label)}</text>',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="black"/>',
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="black"/>',
    ]
    for tick in _ticks(y_low, y_high):
        y = _y(tick, y_low, y_high)
        parts.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick:.1f}</text>')
    return parts


def _y(value: float, low: float, high: float) -> float:
    return HEIGHT - BOTTOM - (value - low) / (high - low) * (HEIGHT - TOP - BOTTOM)


def line_chart(title: str, x_label: str, y_label: str, series: dict[str, Sequence[tuple[float, float]]]) -> str:
    """One polyline with markers per named series of (x, y) points."""
    points = [point for values in series.values() for point in values]
    if not points:
        raise ValueError("nothing to plot")
    x_low, x_high = _nice_range(min(p[0] for p in points), max(p[0] for p in points))
    y_low, y_high = _nice_range(min(p[1] for p in points), max(p[1] for p in points))
    plot_w = WIDTH - LEFT - RIGHT
    parts = _frame(title, x_label, y_label, y_low, y_high)

    def x_of(value: float) -> float:
        return LEFT + (value - x_low) / (x_high - x_low) * plot_w

    for tick in sorted({p[0] for p in points}):
        parts.append(f'<text x="{x_of(tick):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{tick:g}</text>')
    for index, (name, values) in enumerate(series.items()):
        colour = PALETTE[index % len(PALETTE)]
        ordered = sorted(values)
        path = " ".join(f"{x_of(x):.1f},{_y(y, y_low, y_high):.1f}" for x, y in ordered)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in ordered:
            parts.append(f'<circle cx="{x_of(x):.1f}" cy="{_y(y, y_low, y_high):.1f}" r="3" fill="{colour}"/>')
        legend_y = TOP + 16 * index
        parts.append(f'<rect x="{WIDTH - RIGHT + 12}" y="{legend_y}" width="10" height="10" fill="{colour}"/>')
        parts.append(f'<text x="{WIDTH - RIGHT + 28}" y="{legend_y + 10}">{escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def range_chart(title: str, y_label: str, rows: Sequence[tuple[str, float, float, float, float]]) -> str:
    """Per category: a bar from min to max, a box from the lower to the upper quartile, a tick at the mean.

    rows: (category, minimum, lower quartile, upper quartile, maximum, ...) — see `summary_rows`.
    """
    if not rows:
        raise ValueError("nothing to plot")
    y_low, y_high = _nice_range(min(r[1] for r in rows), max(r[4] for r in rows))
    parts = _frame(title, "", y_label, y_low, y_high)
    plot_w = WIDTH - LEFT - RIGHT
    step = plot_w / len(rows)
    for index, (name, low, q1, q3, high, *rest) in enumerate(rows):
        x = LEFT + step * (index + 0.5)
        colour = PALETTE[index % len(PALETTE)]
        parts.append(
            f'<line x1="{x:.1f}" y1="{_y(low, y_low, y_high):.1f}" x2="{x:.1f}" '
            f'y2="{_y(high, y_low, y_high):.1f}" stroke="{colour}" stroke-width="2"/>'
        )
        top, bottom = _y(q3, y_low, y_high), _y(q1, y_low, y_high)
        parts.append(
            f'<rect x="{x - 10:.1f}" y="{top:.1f}" width="20" height="{max(bottom - top, 1.0):.1f}" '
            f'fill="{colour}" fill-opacity="0.35" stroke="{colour}"/>'
        )
        if rest:
            mean = float(rest[0])
            parts.append(
                f'<line x1="{x - 14:.1f}" y1="{_y(mean, y_low, y_high):.1f}" x2="{x + 14:.1f}" '
                f'y2="{_y(mean, y_low, y_high):.1f}" stroke="black" stroke-width="2"/>'
            )
        parts.append(
            f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="end" '
            f'transform="rotate(-35 {x:.1f} {HEIGHT - BOTTOM + 14})" font-size="10">{escape(name)}</text>'
        )
    parts.append(f'<text x="{WIDTH - RIGHT + 12}" y="{TOP + 10}" font-size="10">line: min-max</text>')
    parts.append(f'<text x="{WIDTH - RIGHT + 12}" y="{TOP + 24}" font-size="10">box: quartiles</text>')
    parts.append(f'<text x="{WIDTH - RIGHT + 12}" y="{TOP + 38}" font-size="10">bar: mean</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def interval_chart(title: str, x_label: str, rows: Sequence[tuple[str, float, float, float]]) -> str:
    """Horizontal point estimates with intervals in [0, 1] (win rates): rows of (label, value, low, high)."""
    height = TOP + 30 * len(rows) + 50
    width, left, right = 760, 330, 40
    plot_w = width - left - right
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = left + tick * plot_w
        dash = ' stroke-dasharray="4 3"' if tick == 0.5 else ""
        parts.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{height - 40}" stroke="#bbb"{dash}/>')
        parts.append(f'<text x="{x:.1f}" y="{height - 26}" text-anchor="middle">{tick:.2f}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">{escape(x_label)}</text>')
    for index, (label, value, low, high) in enumerate(rows):
        y = TOP + 30 * index + 15
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>')
        parts.append(
            f'<line x1="{left + low * plot_w:.1f}" y1="{y:.1f}" x2="{left + high * plot_w:.1f}" '
            f'y2="{y:.1f}" stroke="#1b6ca8" stroke-width="3"/>'
        )
        parts.append(f'<circle cx="{left + value * plot_w:.1f}" cy="{y:.1f}" r="5" fill="#d1495b"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
