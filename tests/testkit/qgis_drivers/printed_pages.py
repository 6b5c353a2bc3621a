"""An exported PDF read as a client reads it: each page's words with their boxes (pdftotext -bbox) and its
pixels (pdftoppm), in millimetres on the paper; the scale bar measured on the page against the scale printed
beside it."""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MM_PER_PT = 25.4 / 72
_PAGE = re.compile(r"<page width=\"([\d.]+)\" height=\"([\d.]+)\">(.*?)</page>", re.S)
_WORD = re.compile(r"<word xMin=\"([\d.]+)\" yMin=\"([\d.]+)\" xMax=\"([\d.]+)\" yMax=\"([\d.]+)\">(.*?)</word>")
_SCALE = re.compile(r"^1:([\d,.\u202f\u00a0 ]+)$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


@dataclass(frozen=True)
class Word:
    text: str
    left: float  # mm from the paper's left edge
    top: float
    right: float
    bottom: float

    @property
    def centre_x(self) -> float:
        return (self.left + self.right) / 2


@dataclass
class PrintedPage:
    number: int  # 1-based
    width: float  # mm
    height: float
    words: list[Word]
    pdf: Path

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    def pixels(self, dpi: int = 100) -> np.ndarray:
        """The page rendered by poppler: rows × cols × 3, uint8."""
        from qgis.PyQt.QtGui import QImage

        out = self.pdf.parent / f"{self.pdf.stem}-p{self.number}-{dpi}"
        subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(self.number), "-l", str(self.number), "-png",
                        "-singlefile", str(self.pdf), str(out)], check=True)
        image = QImage(str(out) + ".png").convertToFormat(QImage.Format.Format_RGB888)
        ptr = image.constBits()
        ptr.setsize(image.sizeInBytes())
        rows = np.frombuffer(ptr, np.uint8).reshape(image.height(), image.bytesPerLine())
        return rows[:, : image.width() * 3].reshape(image.height(), image.width(), 3).copy()

    def scale(self) -> int:
        """The map's scale as the page states it ("1:10,000")."""
        found = [w for w in self.words if _SCALE.match(w.text)]
        assert len(found) == 1, f"page {self.number} states no single scale: {self.text}"
        return int(re.sub(r"\D", "", _SCALE.match(found[0].text).group(1)))


def read_pdf(pdf: str | Path) -> list[PrintedPage]:
    pdf = Path(pdf)
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for number, (width, height, body) in enumerate(_PAGE.findall(out), start=1):
        words = [Word(_unligatured(html.unescape(text)), *(float(v) * MM_PER_PT for v in (x0, y0, x1, y1)))
                 for x0, y0, x1, y1, text in _WORD.findall(body)]
        pages.append(PrintedPage(number, float(width) * MM_PER_PT, float(height) * MM_PER_PT, words, pdf))
    return pages


def _unligatured(text: str) -> str:
    return text.replace("\ufb01", "fi").replace("\ufb02", "fl").replace("\ufb00", "ff")


@dataclass(frozen=True)
class ScaleBar:
    labels: list[Word]  # the numbers, left to right
    unit: Word

    @property
    def length_mm(self) -> float:
        """From the tick under "0" to the tick under the last number (labels are centred on their ticks)."""
        return self.labels[-1].centre_x - self.labels[0].centre_x

    @property
    def ground_m(self) -> float:
        return float(self.labels[-1].text) * (1000.0 if self.unit.text == "km" else 1.0)

    @property
    def right(self) -> float:
        return max(self.unit.right, self.labels[-1].right)


def scale_bar(page: PrintedPage, below_mm: float) -> ScaleBar:
    """The scale bar's labels: the row of numbers starting with "0" under `below_mm` (the map's foot) and its unit."""
    zero = [w for w in page.words if w.text == "0" and w.top > below_mm]
    assert zero, f"no scale bar under the map on page {page.number}: {page.text}"
    row = min(zero, key=lambda w: w.top)
    on_row = sorted((w for w in page.words if abs(w.top - row.top) < 1.0 and w.left >= row.left - 0.1),
                    key=lambda w: w.left)
    numbers = [w for w in on_row if _NUMBER.match(w.text)]
    units = [w for w in on_row if w.text in ("m", "km")]
    assert len(numbers) >= 2 and units, f"scale bar labels unreadable on page {page.number}: {[w.text for w in on_row]}"
    return ScaleBar(numbers, units[0])
