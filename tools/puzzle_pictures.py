"""Write every game's example puzzle and solution pictures as SVG and PNG at the book's print size.

    python -m tools.puzzle_pictures [OUT_DIR]     (default docs/pictures)
    python -m tools.puzzle_pictures --book BOOK_HTML PAGE_ID OUT_PNG   (one page of a book, as printed)

One puzzle per game: the registry's example GeneratePuzzle request (the one the CLI documents), through the
same handler the service runs. PNGs come from rsvg-convert at `DPI` for the width the book prints the picture
at (`solver.core.picture.print_scale`), so they look as the printed page does. `--book` screenshots one page
of a `book.html` in headless Chromium with the book's print CSS applied on screen (A4 width, 794 CSS pixels).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from campsolver.service import dispatch
from campsolver.service.registry import games
from campsolver.solver.core.picture import print_scale, svg_size

DPI = 150
RSVG = shutil.which("rsvg-convert") or "/usr/bin/rsvg-convert"


def example_pictures() -> dict[str, tuple[str, str]]:
    """Game name -> (puzzle SVG, solution SVG) of the game's example puzzle."""
    pictures = {}
    for name, game in games().items():
        command = game.commands["puzzle"]
        if command.handler is None or command.example is None:
            continue
        request = command.example()
        envelope = dispatch.run(command, request, dispatch.budget_for(request, None)).puzzle  # type: ignore[attr-defined]
        pictures[name] = (envelope.svg, envelope.solution_svg)
    return pictures


def print_pixels(svg: str, dpi: int = DPI) -> int:
    """PNG width in pixels of `svg` printed in the book, at `dpi`."""
    width, height = svg_size(svg)
    return round(width * print_scale(width, height) / 25.4 * dpi)


def to_png(svg: str, path: Path, dpi: int = DPI) -> Path:
    """rsvg-convert `svg` to a PNG at the book's print size; raises on any rsvg error."""
    source = path.with_suffix(".svg")
    source.write_text(svg)
    subprocess.run(
        [
            RSVG,
            "--format",
            "png",
            "--width",
            str(print_pixels(svg, dpi)),
            "--keep-aspect-ratio",
            "--background-color",
            "white",
            "--output",
            str(path),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return path


def book_page(book_html: Path, page_id: str, out: Path, scale: float = 1.5) -> Path:
    """`out`: the page `page_id` (e.g. puzzle-1) of `book_html` as printed on A4, one page, in Chromium."""
    html = book_html.read_text().replace("@media print", "@media all")
    html = html.replace("</style>", f".page:not(#{page_id}) {{ display: none; }} body {{ width: 210mm; }}</style>")
    out = out.resolve()
    probe = out.with_suffix(".html")
    probe.write_text(html)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                "--window-size=794,1123",
                f"--force-device-scale-factor={scale}",
                f"--screenshot={out}",
                probe.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )
    probe.unlink()
    return out


def parser() -> argparse.ArgumentParser:
    """`OUT_DIR` for every game's example pictures, or `--book BOOK_HTML PAGE_ID OUT_PNG` for one book page."""
    command = argparse.ArgumentParser(
        prog="python -m tools.puzzle_pictures",
        description="Write every game's example puzzle and solution pictures as PNG at the book's print size "
        f"({DPI} dpi, rsvg-convert), or one page of a puzzle book as printed (headless Chromium).",
    )
    command.add_argument(
        "out_dir",
        nargs="?",
        type=Path,
        default=Path("docs/pictures"),
        metavar="OUT_DIR",
        help="where the PNGs go (default: docs/pictures)",
    )
    command.add_argument(
        "--book",
        nargs=3,
        metavar=("BOOK_HTML", "PAGE_ID", "OUT_PNG"),
        help="screenshot page PAGE_ID (e.g. puzzle-1) of BOOK_HTML to OUT_PNG instead",
    )
    return command


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        return _run(args)
    except (OSError, subprocess.SubprocessError) as error:  # no rsvg-convert or Chromium, or one failed: one line
        detail = getattr(error, "stderr", None) or ""
        detail = detail.decode(errors="replace") if isinstance(detail, bytes) else detail
        print(
            f"puzzle_pictures: {error}{': ' + detail.strip().splitlines()[-1] if detail.strip() else ''}",
            file=sys.stderr,
        )
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.book:
        book_html, page_id, out_png = args.book
        if not Path(book_html).is_file():
            parser().error(f"--book: no book at {book_html}")
        print(book_page(Path(book_html), page_id, Path(out_png)))
        return 0
    out = args.out_dir
    if out.exists() and not out.is_dir():
        parser().error(f"OUT_DIR {out} is a file")
    out.mkdir(parents=True, exist_ok=True)
    for name, (puzzle, solution) in example_pictures().items():
        for kind, svg in (("puzzle", puzzle), ("solution", solution)):
            if svg:
                print(to_png(svg, out / f"{name}-{kind}.png"))
                (out / f"{name}-{kind}.svg").unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
