"""Pictures drawn as plain SVG text: no matplotlib, the same bytes on every run.

A :class:`Canvas` collects boxes, texts and arrows with their coordinates and
writes them out as one self-contained ``<svg>`` element. What it drew is kept
beside the markup (``boxes``, ``texts``, ``arrows``), so a test can check that
every text lies inside its box, using the same width estimate the layout used.

Text widths are estimated, never measured (a browser measures them; Python
cannot know the font). :func:`text_width` errs on the wide side: it takes
each character's advance in DejaVu Sans, the widest of the usual sans-serif
fallbacks, rounded up by class; a Chinese character (or any East Asian wide
one) is a full em. :func:`wrap` breaks Chinese text between any two of its
characters, as well as at spaces. In Chinese (``ksched_edu.set_language("zh_CN")``)
the picture's font list names CJK fonts before the generic ``sans-serif``
(:func:`font_family`). A :class:`Picture` is what the drawing
functions return: it shows itself in Jupyter (``_repr_svg_``) and in the
browser-only build of the course, where matplotlib may be missing.
"""
from __future__ import annotations

import functools
import math
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence
from xml.sax.saxutils import escape, quoteattr

from ..i18n import get_language

FONT_FAMILY = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
# Before the generic family in Chinese: fonts with Chinese glyphs on Linux, macOS and Windows.
CJK_FONT_FAMILY = ("DejaVu Sans, Verdana, Helvetica, Arial, Noto Sans CJK SC, Source Han Sans SC, "
                   "WenQuanYi Micro Hei, PingFang SC, Microsoft YaHei, sans-serif")
# No text is smaller than this (px).
MIN_FONT = 11.0
# Bold text is this much wider than regular text, at most.
BOLD_FACTOR = 1.25

# Advance widths in em, by class, each the widest member's advance in DejaVu Sans, rounded up.
_NARROW = {ch: 0.30 for ch in "ijlIJ'"}
_NARROW.update({ch: 0.36 for ch in ",. \u00b7/:;\\|f-"})
_NARROW.update({ch: 0.42 for ch in "t()[]!r"})
_NARROW.update({ch: 0.56 for ch in "\"*_`\u2013szc?"})
_WIDE = {ch: 0.80 for ch in "ABCDGHKNOQRUVXZ&"}
_WIDE.update({ch: 0.86 for ch in "w#<>^~+=M\u2192\u2190\u2191\u2193\u00d7\u2713\u2717\u21c4\u2022\u2264\u2265"})
_WIDE.update({ch: 1.0 for ch in "%mW@\u2026\u2014"})
_CHAR_EM = {**_NARROW, **_WIDE}
_DEFAULT_EM = 0.66
_FULL_EM = 1.0  # a Chinese character, a full-width punctuation mark


def font_family() -> str:
    """The picture's font list: :data:`FONT_FAMILY`, with CJK fonts before ``sans-serif`` in Chinese."""
    return CJK_FONT_FAMILY if get_language() == "zh_CN" else FONT_FAMILY


def is_wide(ch: str) -> bool:
    """Whether ``ch`` is an East Asian wide or full-width character (a Chinese character, "，", "："...)."""
    return ch not in _CHAR_EM and unicodedata.east_asian_width(ch) in ("W", "F")


@functools.lru_cache(maxsize=4096)
def _char_em(ch: str) -> float:
    em = _CHAR_EM.get(ch)
    if em is not None:
        return em
    return _FULL_EM if is_wide(ch) else _DEFAULT_EM


def text_width(text: str, size: float, bold: bool = False) -> float:
    """An upper estimate of the width (px) of ``text`` at ``size`` px."""
    em = sum(_char_em(ch) for ch in text)
    return em * size * (BOLD_FACTOR if bold else 1.0)


# Chinese punctuation that never starts a line...
_NO_LINE_START = set("，。、；：？！）」』】》〉”’")
# ... and that never ends one.
_NO_LINE_END = set("（「『【《〈“‘")


def _pieces(text: str) -> list[tuple[str, str]]:
    """``text`` as (separator, piece): a space-separated word, or a single wide character, each of which
    may start a new line; a punctuation mark that may not start a line stays with the piece before it."""
    out: list[tuple[str, str]] = []
    for i, word in enumerate(text.split(" ")):
        sep = " " if i else ""
        run = ""
        for ch in word:
            if ch in _NO_LINE_START and (run or out):
                if run:
                    run += ch
                else:
                    out[-1] = (out[-1][0], out[-1][1] + ch)
                continue
            if run and (is_wide(ch) or is_wide(run[-1])) and run[-1] not in _NO_LINE_END:
                out.append((sep, run))
                sep, run = "", ch
            else:
                run += ch
        out.append((sep, run))
    return out


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` px, at spaces, and between Chinese characters
    (a word longer than a line stands alone)."""
    if any(is_wide(ch) for ch in text):
        return _wrap_pieces(_pieces(text), width, size, bold)
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current or not lines:
        lines.append(current)
    return lines


def _wrap_pieces(pieces: list[tuple[str, str]], width: float, size: float, bold: bool) -> list[str]:
    lines: list[str] = []
    current = ""
    for sep, piece in pieces:
        candidate = f"{current}{sep}{piece}" if current else piece
        if current and text_width(candidate, size, bold) > width:
            lines.append(current)
            current = piece
        else:
            current = candidate
    if current or not lines:
        lines.append(current)
    return lines


def wrap_list(head: str, items: Sequence[str], width: float, size: float, indent: str = "   ") -> list[str]:
    """``head`` followed by ``items`` joined with commas, wrapped; continuation lines start with ``indent``."""
    words = [head] if head else []
    words += [f"{item}," for item in items[:-1]] + list(items[-1:])
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size) > width:
            lines.append(current)
            current = indent + word
        else:
            current = candidate
    lines.append(current)
    return lines


def go_duration(seconds: float) -> str:
    """Seconds as Go's time.Duration prints them: 1s, 10s, 1.5s, 5m0s."""
    if seconds < 60:
        return f"{seconds:g}s"
    minutes, rest = divmod(seconds, 60)
    if minutes < 60:
        return f"{int(minutes)}m{rest:g}s"
    hours, minutes = divmod(int(minutes), 60)
    return f"{hours}h{minutes}m{rest:g}s"


def _num(v: float) -> str:
    """A coordinate, rounded to 0.1 px, without a trailing .0."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


@dataclass(frozen=True)
class Box:
    """A rectangle the picture drew, by name."""

    name: str
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


@dataclass(frozen=True)
class Text:
    """One line of text as drawn: its estimated extent, and the box it must stay in ("" for none)."""

    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    size: float
    bold: bool = False
    box: str = ""


@dataclass(frozen=True)
class Arrow:
    """A drawn arrow from one named thing to another, with its label (lines joined by " / ")."""

    source: str
    target: str
    label: str = ""
    points: tuple[tuple[float, float], ...] = ()
    dashed: bool = False


@dataclass
class Canvas:
    """SVG elements in drawing order, and the record of what was drawn."""

    width: float
    height: float
    elements: list[str] = field(default_factory=list)
    boxes: dict[str, Box] = field(default_factory=dict)
    texts: list[Text] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "white", stroke: str = "#555",
             width: float = 1.0, rx: float = 6.0, dashed: bool = False, name: str = "",
             title: str = "") -> Optional[Box]:
        dash = ' stroke-dasharray="5 3"' if dashed else ""
        body = f"<title>{escape(title)}</title>" if title else ""
        tag = (f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" rx="{_num(rx)}" '
               f'fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"{dash}')
        self.elements.append(f"{tag}>{body}</rect>" if body else f"{tag}/>")
        if name:
            box = Box(name, x, y, w, h)
            self.boxes[name] = box
            return box
        return None

    def region(self, name: str, x: float, y: float, w: float, h: float) -> Box:
        """Record a named area that texts must stay in, without drawing it."""
        box = Box(name, x, y, w, h)
        self.boxes[name] = box
        return box

    def text(self, x: float, y: float, text: str, *, size: float = 12.0, anchor: str = "start",
             bold: bool = False, italic: bool = False, fill: str = "#222", box: str = "",
             title: str = "") -> Text:
        """One line with its baseline at ``y``; ``box`` names the box it must stay inside."""
        if size < MIN_FONT:
            raise ValueError(f"font size {size} is below the minimum {MIN_FONT}")
        if anchor == "start" and text.startswith(" "):  # SVG drops leading spaces: indent by moving x
            stripped = text.lstrip(" ")
            x += text_width(text[:len(text) - len(stripped)], size, bold)
            text = stripped
        w = text_width(text, size, bold)
        x0 = x if anchor == "start" else (x - w / 2 if anchor == "middle" else x - w)
        item = Text(text, x0, x0 + w, y - 0.8 * size, y + 0.25 * size, size, bold, box)
        self.texts.append(item)
        attrs = f'x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        if bold:
            attrs += ' font-weight="bold"'
        if italic:
            attrs += ' font-style="italic"'
        if fill != "#222":
            attrs += f' fill="{fill}"'
        body = escape(text) + (f"<title>{escape(title)}</title>" if title else "")
        self.elements.append(f"<text {attrs}>{body}</text>")
        return item

    def lines(self, x: float, y: float, lines: Iterable[str], *, size: float = 12.0, leading: float = 1.3,
              **options: Any) -> float:
        """Several lines, the first baseline at ``y``; returns the baseline after the last."""
        for line in lines:
            if line:
                self.text(x, y, line, size=size, **options)
            y += size * leading
        return y

    def polyline(self, points: Sequence[tuple[float, float]], *, stroke: str = "#444", width: float = 1.3,
                 dashed: bool = False, head: bool = True, tail: bool = False, source: str = "", target: str = "",
                 label: str = "") -> Arrow:
        """A line through ``points``, with an arrowhead at its end (and at its start when ``tail``)."""
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self.elements.append(f'<polyline points="{coords}" fill="none" stroke="{stroke}" '
                             f'stroke-width="{_num(width)}"{dash}/>')
        if head:
            self._head(points[-2], points[-1], stroke)
        if tail:
            self._head(points[1], points[0], stroke)
        arrow = Arrow(source, target, label, tuple(points), dashed)
        self.arrows.append(arrow)
        return arrow

    def _head(self, a: tuple[float, float], b: tuple[float, float], colour: str, size: float = 8.0) -> None:
        (x0, y0), (x1, y1) = a, b
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        ux, uy = dx / length, dy / length
        bx, by = x1 - ux * size, y1 - uy * size
        px, py = -uy * size * 0.45, ux * size * 0.45
        pts = f"{_num(x1)},{_num(y1)} {_num(bx + px)},{_num(by + py)} {_num(bx - px)},{_num(by - py)}"
        self.elements.append(f'<polygon points="{pts}" fill="{colour}"/>')

    def raw(self, element: str) -> None:
        self.elements.append(element)

    def svg(self, title: str = "") -> str:
        self.height = float(math.ceil(self.height))
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(self.width)}" height="{_num(self.height)}" '
                f'viewBox="0 0 {_num(self.width)} {_num(self.height)}" font-family={quoteattr(font_family())}>')
        parts = [head]
        if title:
            parts.append(f"<title>{escape(title)}</title>")
        parts.append(f'<rect x="0" y="0" width="{_num(self.width)}" height="{_num(self.height)}" fill="white"/>')
        parts += self.elements
        parts.append("</svg>")
        return "\n".join(parts) + "\n"


class Picture:
    """An SVG picture with the data it was drawn from; a notebook cell that ends with one shows it.

    ``svg`` is the markup; ``boxes``, ``texts`` and ``arrows`` record what was drawn,
    and each drawing function adds the library data it read (see its docstring).
    """

    def __init__(self, kind: str, canvas: Canvas, title: str, **data: Any) -> None:
        self.kind = kind
        self.title = title
        self.svg = canvas.svg(title)
        self.width = canvas.width
        self.height = canvas.height
        self.boxes = dict(canvas.boxes)
        self.texts = list(canvas.texts)
        self.arrows = list(canvas.arrows)
        for key, value in data.items():
            setattr(self, key, value)

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<{self.kind}: {self.title} ({_num(self.width)}x{_num(self.height)} SVG)>"

    def save(self, path: Any) -> None:
        """Write the SVG to ``path``."""
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.svg)

    def text_overflows(self) -> list[Text]:
        """The texts whose estimated extent leaves their box (or the picture)."""
        bad = []
        for t in self.texts:
            frame = self.boxes.get(t.box) if t.box else Box("", 0, 0, self.width, self.height)
            if frame is None or t.x0 < frame.x or t.x1 > frame.right or t.y0 < frame.y or t.y1 > frame.bottom:
                bad.append(t)
        return bad
