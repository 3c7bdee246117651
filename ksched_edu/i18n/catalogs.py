"""The translation catalogs: extract the English, write the translated chapters.

The English chapters (``notebooks/*.ipynb``) and the library's code are the source. Each
chapter has one gettext catalog per language, ``ksched_edu/locale/<lang>/chapters/<chapter>.po``:
one entry per Markdown cell, ``msgctxt`` the cell's id, ``msgid`` its English text, ``msgstr``
the translation. The library's own strings (``_("...")`` in ``ksched_edu/``) go to
``ksched_edu/locale/<lang>/LC_MESSAGES/<part>.po``, a catalog per part (exercises, widgets,
viz, the rest), compiled to ``.mo`` for :mod:`ksched_edu.i18n`.

``extract`` adds new cells and strings, drops those that are gone, and marks an entry whose
English changed *fuzzy* (its old English kept as ``#| msgid``, as gettext's msgmerge does):
a fuzzy translation is not used until a translator has looked at it again. ``build`` writes
``notebooks/<lang-tag>/<chapter>.ipynb``: the English notebook with each Markdown cell
translated (the English where no current translation exists), the code cells the same, and
one cell first that chooses the language; and compiles the library's catalogs.

Catalogs are read and written with Babel (``babel.messages``), which JupyterLab installs.
"""
from __future__ import annotations

import copy
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional

from ..anchors import plumbing

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
PACKAGE = ROOT / "ksched_edu"
# The languages with catalogs (English is the source).
TRANSLATED = ("zh_CN",)
# The library's parts: each has its own catalog (a translator, or a change, touches one file);
# the exercises have one per module (exercises-ch04, exercises-core...).
LIBRARY_PARTS = {"widgets": "widgets", "viz": "viz"}
LIBRARY_DEFAULT_PART = "ksched_edu"
# The cell a translated chapter starts with; its metadata marks it as the one added cell.
LANGUAGE_CELL_ID = "ksched-language"
LANGUAGE_CELL_META = {"ksched": {"language_cell": True}}


@plumbing("zh_CN -> zh-CN: the folder name of a translated edition")
def language_tag(lang: str) -> str:
    return lang.replace("_", "-")


def chapter_files() -> list[Path]:
    """The English notebooks: the chapters and the landing page."""
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def notebook_catalog_path(lang: str, chapter: str) -> Path:
    return PACKAGE / "locale" / lang / "chapters" / f"{chapter}.po"


def library_catalog_path(lang: str, part: str) -> Path:
    return PACKAGE / "locale" / lang / "LC_MESSAGES" / f"{part}.po"


def edition_dir(lang: str) -> Path:
    return NOTEBOOKS / language_tag(lang)


# --- reading and writing catalogs -----------------------------------------------------------


def read_catalog(path: Path, lang: str, domain: str) -> Any:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    if not path.exists():
        return Catalog(locale=lang, domain=domain, project="ksched_edu", fuzzy=False)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain, abort_invalid=True)


def write_catalog(catalog: Any, path: Path) -> bool:
    """Write ``catalog``; True when the file changed. No dates in the header, so that an
    unchanged catalog writes the same bytes."""
    from babel.messages.pofile import write_po

    catalog.revision_date = catalog.creation_date = _EPOCH
    catalog.project, catalog.version = "ksched_edu", "0.1.0"
    catalog.fuzzy = False
    buf = io.BytesIO()
    write_po(buf, catalog, width=0, sort_output=False, include_previous=True, omit_header=False)
    data = _strip_dates(buf.getvalue())
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def _epoch() -> Any:
    import datetime

    return datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


_EPOCH = _epoch()


def _strip_dates(data: bytes) -> bytes:
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*\\n"\n', b"", data)


# --- notebooks ------------------------------------------------------------------------------


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def markdown_cells(nb: dict) -> list[tuple[int, dict]]:
    return [(i, c) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown" and _source(c).strip()]


@dataclass
class ExtractReport:
    """What an extract did to one catalog."""

    path: Path
    added: int = 0
    fuzzy: int = 0
    removed: int = 0
    changed: bool = False


def extract_notebook(nb_path: Path, lang: str) -> ExtractReport:
    """Bring ``nb_path``'s catalog in ``lang`` up to date with the notebook's Markdown cells."""
    from babel.messages.catalog import Catalog

    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    path = notebook_catalog_path(lang, nb_path.stem)
    old = read_catalog(path, lang, nb_path.stem)
    by_context = {m.context: m for m in old if m.id and m.context}
    new = Catalog(locale=lang, domain=nb_path.stem, project="ksched_edu", fuzzy=False)
    new.header_comment = (f"# {nb_path.name} in {lang}: one entry per Markdown cell (msgctxt: the cell id).\n"
                          "# Keep identifiers, code, the scheduler's messages and link targets as they are;\n"
                          "# write links as the English cell writes them (relative to notebooks/).")
    report = ExtractReport(path)
    seen = set()
    for index, cell in markdown_cells(nb):
        cid, text = cell.get("id"), _source(cell)
        if not cid:
            raise ValueError(f"{nb_path.name}: cell {index} has no id (nbformat 4.5 gives every cell one)")
        seen.add(cid)
        before = by_context.get(cid)
        flags: set[str] = set()
        previous: Optional[str] = None
        translation = ""
        if before is None:
            report.added += 1
        else:
            translation = before.string or ""
            flags = set(before.flags) - {"python-format", "python-brace-format"}
            if before.id != text:
                if translation:
                    flags.add("fuzzy")
                    previous = before.id
                    report.fuzzy += 1
            elif "fuzzy" in before.flags and before.previous_id:
                previous = before.previous_id[0] if isinstance(before.previous_id, list) else before.previous_id
        new.add(text, translation, locations=[(nb_path.name, index)], flags=flags, context=cid,
                previous_id=previous)
    report.removed = sum(1 for c in by_context if c not in seen)
    report.changed = write_catalog(new, path)
    return report


@dataclass
class Coverage:
    """How much of a chapter a translated edition has."""

    chapter: str
    cells: int = 0
    translated: int = 0
    missing: list[str] = field(default_factory=list)  # cell ids without a current translation

    @property
    def share(self) -> float:
        return self.translated / self.cells if self.cells else 1.0


def translations(nb_path: Path, lang: str) -> tuple[dict[str, str], Coverage]:
    """cell id -> translated Markdown, for the cells whose catalog entry is current (not fuzzy,
    its English the notebook's); and the chapter's coverage."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    catalog = read_catalog(notebook_catalog_path(lang, nb_path.stem), lang, nb_path.stem)
    entries = {m.context: m for m in catalog if m.id and m.context}
    out: dict[str, str] = {}
    cov = Coverage(nb_path.stem)
    for _, cell in markdown_cells(nb):
        cov.cells += 1
        m = entries.get(cell["id"])
        if m is not None and m.string and not m.fuzzy and m.id == _source(cell):
            out[cell["id"]] = m.string
            cov.translated += 1
        else:
            cov.missing.append(cell["id"])
    return out, cov


# Markdown links and HTML src/href: a relative target is relative to notebooks/; a translated
# chapter lives one folder down, so its targets get "../" unless they name another chapter.
_MD_LINK = re.compile(r"(\]\()(<?)([^)\s>]+)")
_HTML_ATTR = re.compile(r"""((?:src|href)=["'])([^"']+)""")
_CHAPTER_LINK = re.compile(r"^[\w.-]+\.ipynb(#.*)?$")


@plumbing("a link of a translated chapter, from one folder further down")
def relink(markdown: str) -> str:
    def fix(target: str) -> str:
        if re.match(r"^([a-z][a-z0-9+.-]*:|#|/)", target) or _CHAPTER_LINK.match(target):
            return target
        return "../" + target

    markdown = _MD_LINK.sub(lambda m: m.group(1) + m.group(2) + fix(m.group(3)), markdown)
    return _HTML_ATTR.sub(lambda m: m.group(1) + fix(m.group(2)), markdown)


def _with_run_times(english: dict, previous: dict) -> dict:
    """The English cell's metadata with the edition's own run times (``execution``), in the order
    the edition's file has its keys (so that a build after a run changes no line of it)."""
    merged = {k: (previous[k] if k == "execution" else english[k]) for k in previous
              if k == "execution" or k in english}
    merged.update({k: v for k, v in english.items() if k not in merged})
    return merged


def language_cell(lang: str) -> dict:
    from . import LANGUAGES

    return {"cell_type": "code", "execution_count": None, "id": LANGUAGE_CELL_ID,
            "metadata": copy.deepcopy(LANGUAGE_CELL_META), "outputs": [],
            "source": [f"# {LANGUAGES[lang]}: the library's verdicts, hints, buttons and figures in this language\n",
                       "import ksched_edu\n",
                       f"ksched_edu.set_language(\"{lang}\")"]}


def built_notebook(nb_path: Path, lang: str, previous: Optional[dict] = None) -> tuple[dict, Coverage]:
    """The translated edition of one English notebook. Code cells keep their English source;
    their outputs are ``previous``'s (the edition as last executed) where that cell's source
    is the same, else empty, so that a build after a run keeps the run."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    texts, cov = translations(nb_path, lang)
    old_cells = {c.get("id"): c for c in (previous or {}).get("cells", [])}
    cells = []
    for cell in nb["cells"]:
        cell = copy.deepcopy(cell)
        if cell["cell_type"] == "markdown":
            text = texts.get(cell["id"], _source(cell))
            cell["source"] = relink(text).splitlines(keepends=True)
        elif cell["cell_type"] == "code":
            old = old_cells.get(cell["id"])
            cell["metadata"].pop("execution", None)  # the English run's times
            if old is not None and _source(old) == _source(cell):
                cell["outputs"], cell["execution_count"] = old.get("outputs", []), old.get("execution_count")
                cell["metadata"] = _with_run_times(cell["metadata"], old.get("metadata", {}))
            else:
                cell["outputs"], cell["execution_count"] = [], None
        cells.append(cell)
    lang_cell = language_cell(lang)
    old = old_cells.get(LANGUAGE_CELL_ID)
    if old is not None and _source(old) == _source(lang_cell):
        lang_cell["outputs"], lang_cell["execution_count"] = old.get("outputs", []), old.get("execution_count")
        lang_cell["metadata"] = copy.deepcopy(old.get("metadata", lang_cell["metadata"]))
    out = copy.deepcopy(nb)
    out["cells"] = [lang_cell] + cells
    # The widgets' saved state belongs to the run whose outputs the cells keep: the edition's own.
    out["metadata"].pop("widgets", None)
    if previous and "widgets" in previous.get("metadata", {}):
        out["metadata"]["widgets"] = previous["metadata"]["widgets"]
    return out, cov


def dump_notebook(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def build_edition(lang: str, chapters: Optional[Iterable[Path]] = None) -> list[Coverage]:
    """Write ``notebooks/<tag>/`` from the English notebooks and their catalogs."""
    folder = edition_dir(lang)
    folder.mkdir(exist_ok=True)
    report = []
    for nb_path in chapters or chapter_files():
        target = folder / nb_path.name
        previous = json.loads(target.read_text(encoding="utf-8")) if target.exists() else None
        nb, cov = built_notebook(nb_path, lang, previous)
        text = dump_notebook(nb)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        report.append(cov)
    return report


# --- the library's strings ------------------------------------------------------------------


def library_part(filename: str) -> str:
    """The catalog a source file's strings go to (by its folder under ksched_edu/)."""
    rel = Path(filename).as_posix()
    first = rel.split("/")[0]
    if first == "exercises":  # one catalog per chapter's checks, as one per chapter's text
        return f"exercises-{Path(rel).stem}"
    return LIBRARY_PARTS.get(first, LIBRARY_DEFAULT_PART)


def library_messages() -> dict[str, list[tuple[str, int, str, list[str]]]]:
    """part -> [(file, line, message, comments)] for every ``_("...")`` in ksched_edu/."""
    from babel.messages.extract import extract_from_dir

    found: dict[str, list[tuple[str, int, str, list[str]]]] = {}
    method_map = [("i18n/**.py", "ignore"), ("**.py", "python")]
    for filename, lineno, message, comments, _ctx in extract_from_dir(
            str(PACKAGE), method_map=method_map, keywords={"_": None, "N_": None}, comment_tags=("Translators:",)):
        if isinstance(message, tuple):
            message = message[0]
        found.setdefault(library_part(filename), []).append((filename, lineno, message, list(comments)))
    return found


def extract_library(lang: str, only: Optional[Iterable[str]] = None) -> list[ExtractReport]:
    """Bring the library's catalogs in ``lang`` (or the parts ``only`` names) up to date with
    the code's ``_("...")`` strings."""
    from babel.messages.catalog import Catalog

    reports = []
    found = library_messages()
    parts = set(found) | {p.stem for p in (PACKAGE / "locale" / lang / "LC_MESSAGES").glob("*.po")}
    for part in sorted(parts):
        if only is not None and part not in only:
            continue
        template = Catalog(locale=lang, domain=part, project="ksched_edu", fuzzy=False)
        for filename, lineno, message, comments in found.get(part, []):
            template.add(message, locations=[(f"ksched_edu/{filename}", lineno)], auto_comments=comments)
        path = library_catalog_path(lang, part)
        catalog = read_catalog(path, lang, part)
        before = {m.id for m in catalog if m.id}
        catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
        catalog.obsolete.clear()
        report = ExtractReport(path)
        report.added = sum(1 for m in catalog if m.id and m.id not in before and not m.string)
        report.fuzzy = sum(1 for m in catalog if m.id and m.fuzzy)
        report.removed = len(before - {m.id for m in catalog if m.id})
        report.changed = write_catalog(catalog, path)
        reports.append(report)
    return reports


def compiled(path: Path, lang: str) -> bytes:
    """The ``.mo`` bytes of one library catalog (fuzzy entries left out)."""
    from babel.messages.mofile import write_mo

    catalog = read_catalog(path, lang, path.stem)
    catalog.revision_date = catalog.creation_date = _EPOCH  # the same bytes for the same .po
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def build_library(lang: str, only: Optional[Iterable[str]] = None) -> list[Path]:
    """Compile the library's catalogs in ``lang`` (or the parts ``only`` names) to ``.mo``."""
    written = []
    for po in sorted((PACKAGE / "locale" / lang / "LC_MESSAGES").glob("*.po")):
        if only is not None and po.stem not in only:
            continue
        mo = po.with_suffix(".mo")
        data = compiled(po, lang)
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            written.append(mo)
    return written
