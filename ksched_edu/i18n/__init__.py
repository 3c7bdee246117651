"""The course in more than one language: what the library says to a learner in its own voice.

Exercise verdicts and hints, widget buttons and headings, figure titles and axis labels and
the SourceView's status line go through :func:`gettext` (imported as ``_``). English is the
default; ``KSCHED_EDU_LANG=zh_CN`` in the environment, or :func:`set_language`, switches to
Simplified Chinese. What the scheduler itself says (``0/3 nodes are available: 1 Insufficient
cpu``), API fields and Go identifiers never change: ``kubectl describe`` prints them in
English in every language.

The translations are gettext catalogs: ``ksched_edu/locale/<lang>/LC_MESSAGES/*.po`` (the
source, for Poedit or Weblate) compiled to ``*.mo`` (read here with the standard library's
:mod:`gettext`). ``python -m ksched_edu.i18n extract`` updates them from the code and the
chapters; ``python -m ksched_edu.i18n build`` writes the compiled catalogs and the translated
chapters (DEVELOPERS.md, "Translations").
"""
from __future__ import annotations

import gettext as _gettext
import os
from pathlib import Path
from typing import Optional

from ..anchors import plumbing

ENV_VAR = "KSCHED_EDU_LANG"
DEFAULT_LANGUAGE = "en"
# Language code -> its name, in that language. English is the source: it has no catalog.
LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文"}
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


class UnknownLanguageError(ValueError):
    """A language the course has no translation for."""


@plumbing("the course's language: a setting of the teaching package, not of the scheduler")
def normalize_language(lang: Optional[str]) -> str:
    """``"zh_CN"`` for ``zh_CN``, ``zh-CN``, ``zh_cn.UTF-8``...; ``"en"`` for ``en``, ``en_US``, "" or None.

    Raises :class:`UnknownLanguageError` naming the languages there are."""
    if not lang:
        return DEFAULT_LANGUAGE
    code = lang.split(".")[0].replace("-", "_")
    for known in LANGUAGES:
        if code.lower() == known.lower():
            return known
    if code.split("_")[0].lower() == "en":
        return DEFAULT_LANGUAGE
    raise UnknownLanguageError(f"unknown language {lang!r}: the course speaks " +
                               ", ".join(f"{k} ({v})" for k, v in LANGUAGES.items()))


def _catalog(lang: str) -> _gettext.NullTranslations:
    """Every compiled catalog of ``lang`` (the library's and the widgets'...), one after another."""
    if lang == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    merged: _gettext.NullTranslations = _gettext.NullTranslations()
    for mo in sorted(folder.glob("*.mo")):
        with mo.open("rb") as f:
            part = _gettext.GNUTranslations(f)
        part.add_fallback(merged)
        merged = part
    return merged


class _State:
    language: str = DEFAULT_LANGUAGE
    catalog: _gettext.NullTranslations = _gettext.NullTranslations()


@plumbing("chooses the language of the library's own voice (verdicts, hints, labels)")
def set_language(lang: Optional[str]) -> str:
    """Speak ``lang`` from now on (``"zh_CN"`` or ``"en"``; None or "" is English); returns the code."""
    code = normalize_language(lang)
    _State.language = code
    _State.catalog = _catalog(code)
    return code


@plumbing("the language set_language or KSCHED_EDU_LANG chose")
def get_language() -> str:
    return _State.language


@plumbing("a message in the course's language (English when it has no translation)")
def gettext(message: str) -> str:
    """``message`` translated; a message with ``{fields}`` is formatted after translation."""
    return _State.catalog.gettext(message)


_ = gettext


@plumbing("marks a string for the catalogs where it is defined; _() translates it where it is used")
def N_(message: str) -> str:
    """``message`` itself: a module-level constant is marked with N_ and translated with _() at use."""
    return message


def _from_environment() -> None:
    try:
        set_language(os.environ.get(ENV_VAR))
    except UnknownLanguageError as err:
        import warnings

        warnings.warn(f"{ENV_VAR}: {err}; speaking English", stacklevel=2)
        set_language(None)


_from_environment()
