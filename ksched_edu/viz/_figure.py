"""Figures made without pyplot, so a notebook shows each one exactly once.

A ``matplotlib.figure.Figure`` built directly is not registered with pyplot:
the inline backend does not also draw it at the end of the cell, and no GUI
backend is ever needed. Returning it from a cell displays it as a PNG.

In Chinese (``ksched_edu.set_language("zh_CN")``) a figure's words are Chinese, and
matplotlib's default font (DejaVu Sans) has no Chinese glyph: :func:`localize_fonts`
gives every text of the figure a CJK font after its own (its Latin letters keep
DejaVu Sans; matplotlib takes each Chinese character from the next font). It uses the
first of :data:`CJK_FAMILIES` installed (Debian: ``fonts-noto-cjk`` or
``fonts-wqy-microhei``); with none it changes nothing. In English it changes nothing.
"""
from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any, Optional

from ..i18n import get_language

# Fixed colours (matplotlib's tab10), so the same plugin or phase has the same colour everywhere.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")

# Fonts with Simplified Chinese glyphs, the preferred first; matplotlib names them so.
CJK_FAMILIES = ("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "WenQuanYi Micro Hei",
                "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB", "SimHei",
                "Heiti SC", "Noto Sans CJK JP", "Source Han Sans CN")
# Their files, for a font installed after matplotlib wrote its font cache (it is not in the cache then).
_CJK_FILES = ("notosanscjk", "sourcehansans", "notosanssc", "wqy-microhei", "wqy-zenhei", "msyh", "pingfang",
              "hiragino sans gb", "simhei", "stheiti")
# The languages whose figures need such a font.
CJK_LANGUAGES = ("zh_CN",)


def new_axes(ax: Optional[Any] = None, figsize: tuple[float, float] = (7.0, 3.5)) -> tuple[Any, Any]:
    """(figure, axes): the given axes and its figure, or a fresh pyplot-free figure with one axes."""
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def _installed_cjk_family() -> Optional[str]:
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    return next((family for family in CJK_FAMILIES if family in names), None)


class _BoldFallback(logging.Filter):
    """Drops matplotlib's warning that a CJK font has no bold face (it then draws the regular one, as
    wanted: the Latin letters around stay bold)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (str(record.msg).startswith("findfont: Failed to find font weight")
                    and isinstance(record.args, tuple) and len(record.args) > 1 and record.args[1] in CJK_FAMILIES)


@functools.lru_cache(maxsize=1)
def cjk_family() -> Optional[str]:
    """The first font of :data:`CJK_FAMILIES` matplotlib can use, or None (looked up once per process)."""
    found = _find_cjk_family()
    if found is not None:
        logging.getLogger("matplotlib.font_manager").addFilter(_BoldFallback())
    return found


def _find_cjk_family() -> Optional[str]:
    found = _installed_cjk_family()
    if found is not None:
        return found
    from matplotlib import font_manager

    try:
        paths = font_manager.findSystemFonts()
    except Exception:  # noqa: BLE001 - no font directory, no fc-list: no CJK font
        return None
    for path in sorted(paths):
        if any(key in Path(path).name.lower() for key in _CJK_FILES):
            try:
                font_manager.fontManager.addfont(path)
            except Exception:  # noqa: BLE001 - a font matplotlib cannot read is no font
                continue
    return _installed_cjk_family()


def localize_fonts(fig: Any) -> Any:
    """``fig`` with a CJK font after each text's own when the course speaks Chinese and one is
    installed; unchanged otherwise (English figures are exactly what they were). Returns ``fig``."""
    if get_language() not in CJK_LANGUAGES:
        return fig
    family = cjk_family()
    if family is None:
        return fig
    from matplotlib.text import Text

    for text in fig.findobj(Text):
        families = list(text.get_fontfamily())
        if family not in families:
            text.set_fontfamily(families + [family])
    return fig
