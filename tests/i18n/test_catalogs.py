"""The translation catalogs: extract marks a changed English cell fuzzy, build writes the edition
from the English and the catalogs, and every edition in notebooks/ is what the build writes."""
from __future__ import annotations

import json
import re

import pytest

from ksched_edu import i18n
from ksched_edu.i18n import catalogs

LANG = "zh_CN"
CJK = re.compile(r"[\u4e00-\u9fff]")


def _nb(cells: list[tuple[str, str, str]]) -> dict:
    """A notebook of (type, id, source) cells."""
    out = []
    for kind, cid, src in cells:
        cell = {"cell_type": kind, "id": cid, "metadata": {}, "source": src.splitlines(keepends=True)}
        if kind == "code":
            cell.update(outputs=[], execution_count=None)
        out.append(cell)
    return {"cells": out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture
def project(tmp_path, monkeypatch):
    """catalogs pointed at a folder of its own, with one English notebook."""
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    monkeypatch.setattr(catalogs, "NOTEBOOKS", notebooks)
    monkeypatch.setattr(catalogs, "PACKAGE", tmp_path / "ksched_edu")
    path = notebooks / "01_demo.ipynb"
    path.write_text(json.dumps(_nb([("markdown", "m1", "# One\n\nThe scheduler."),
                                    ("code", "c1", "x = 1"),
                                    ("markdown", "m2", "See [two](02_next.ipynb) and ![a](images/a.png).")])))
    return path


def _translate(path, texts: dict[str, str]) -> None:
    po = catalogs.notebook_catalog_path(LANG, path.stem)
    cat = catalogs.read_catalog(po, LANG, path.stem)
    for m in cat:
        if m.context in texts:
            m.string = texts[m.context]
    catalogs.write_catalog(cat, po)


def _edit(path, cid: str, text: str) -> None:
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        if cell["id"] == cid:
            cell["source"] = text.splitlines(keepends=True)
    path.write_text(json.dumps(nb))


def test_extract_adds_one_untranslated_entry_per_markdown_cell(project) -> None:
    report = catalogs.extract_notebook(project, LANG)
    assert (report.added, report.fuzzy, report.removed) == (2, 0, 0)
    _, cov = catalogs.translations(project, LANG)
    assert (cov.cells, cov.translated, cov.missing) == (2, 0, ["m1", "m2"])


def test_a_changed_english_cell_marks_its_translation_fuzzy_and_the_build_keeps_the_english(project) -> None:
    catalogs.extract_notebook(project, LANG)
    _translate(project, {"m1": "# 一\n\n调度器。", "m2": "见 [二](02_next.ipynb)。"})
    assert catalogs.translations(project, LANG)[1].translated == 2

    _edit(project, "m1", "# One\n\nThe scheduler, changed.")
    report = catalogs.extract_notebook(project, LANG)
    assert report.fuzzy == 1
    [entry] = [m for m in catalogs.read_catalog(catalogs.notebook_catalog_path(LANG, project.stem), LANG, "x")
               if m.context == "m1"]
    assert entry.fuzzy and entry.string == "# 一\n\n调度器。"
    po_text = catalogs.notebook_catalog_path(LANG, project.stem).read_text(encoding="utf-8")
    [previous] = [line for line in po_text.splitlines() if line.startswith("#| msgid")]
    assert '"The scheduler."' in previous  # the old English, for the translator
    texts, cov = catalogs.translations(project, LANG)
    assert cov.missing == ["m1"] and "m1" not in texts

    nb, _ = catalogs.built_notebook(project, LANG)
    sources = {c["id"]: "".join(c["source"]) for c in nb["cells"]}
    assert sources["m1"] == "# One\n\nThe scheduler, changed."  # the English until it is translated again
    assert sources["m2"] == "见 [二](02_next.ipynb)。"


def test_a_cell_gone_from_the_english_leaves_the_catalog(project) -> None:
    catalogs.extract_notebook(project, LANG)
    nb = json.loads(project.read_text())
    nb["cells"] = [c for c in nb["cells"] if c["id"] != "m2"]
    project.write_text(json.dumps(nb))
    assert catalogs.extract_notebook(project, LANG).removed == 1
    assert [m.context for m in catalogs.read_catalog(catalogs.notebook_catalog_path(LANG, project.stem),
                                                     LANG, "x") if m.id] == ["m1"]


def test_extract_twice_writes_nothing_the_second_time(project) -> None:
    assert catalogs.extract_notebook(project, LANG).changed
    assert not catalogs.extract_notebook(project, LANG).changed


def test_the_build_adds_one_language_cell_and_keeps_the_code_and_its_outputs(project) -> None:
    catalogs.extract_notebook(project, LANG)
    previous, _ = catalogs.built_notebook(project, LANG)
    code = next(c for c in previous["cells"] if c["id"] == "c1")
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}]
    nb, _ = catalogs.built_notebook(project, LANG, previous)
    assert [c["id"] for c in nb["cells"]] == [catalogs.LANGUAGE_CELL_ID, "m1", "c1", "m2"]
    assert "".join(nb["cells"][0]["source"]).endswith('ksched_edu.set_language("zh_CN")')
    assert nb["cells"][2]["outputs"] == code["outputs"]  # same source: the run is kept
    _edit(project, "c1", "x = 2")
    nb, _ = catalogs.built_notebook(project, LANG, previous)
    assert nb["cells"][2]["outputs"] == [] and "".join(nb["cells"][2]["source"]) == "x = 2"


@pytest.mark.parametrize("markdown,relinked", [
    ("[next](02_next.ipynb)", "[next](02_next.ipynb)"),
    ("[next, §3](02_next.ipynb#3-section)", "[next, §3](02_next.ipynb#3-section)"),
    ("![a figure](images/a.png)", "![a figure](../images/a.png)"),
    ('<img src="images/a.png" width="400">', '<img src="../images/a.png" width="400">'),
    ("[the data](../data/clusters/x.yaml)", "[the data](../../data/clusters/x.yaml)"),
    ("[Go](https://github.com/kubernetes/kubernetes)", "[Go](https://github.com/kubernetes/kubernetes)"),
    ("[below](#section-2)", "[below](#section-2)"),
    ("[README](<../README.zh-CN.md>)", "[README](<../../README.zh-CN.md>)"),
], ids=["chapter", "chapter with a section", "image", "html image", "data", "web", "anchor", "angle brackets"])
def test_links_of_an_edition_one_folder_down(markdown: str, relinked: str) -> None:
    assert catalogs.relink(markdown) == relinked


# --- the editions in the repository --------------------------------------------------------------

ENGLISH = catalogs.chapter_files()


def _cells(path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _meta(cell: dict) -> dict:
    """A cell's metadata without the times a run writes into it (nbconvert's ``execution``)."""
    return {k: v for k, v in cell.get("metadata", {}).items() if k != "execution"}


def _src(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
@pytest.mark.parametrize("english", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_the_edition_is_what_the_build_writes(english, lang: str) -> None:
    target = catalogs.edition_dir(lang) / english.name
    assert target.exists(), f"{target} is missing: python -m ksched_edu.i18n build"
    on_disk = json.loads(target.read_text(encoding="utf-8"))
    built, _ = catalogs.built_notebook(english, lang, on_disk)

    def shape(nb: dict) -> list:
        return [(c["cell_type"], c.get("id"), _src(c), _meta(c)) for c in nb["cells"]]

    assert shape(on_disk) == shape(built), f"{target} is not what the build writes: python -m ksched_edu.i18n build"


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
@pytest.mark.parametrize("english", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_the_code_cells_are_the_english_ones_and_one_cell_chooses_the_language(english, lang: str) -> None:
    edition = _cells(catalogs.edition_dir(lang) / english.name)
    assert edition[0]["id"] == catalogs.LANGUAGE_CELL_ID and _meta(edition[0]) == catalogs.LANGUAGE_CELL_META
    assert [_src(c) for c in edition[1:] if c["cell_type"] == "code"] == \
        [_src(c) for c in _cells(english) if c["cell_type"] == "code"]


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
@pytest.mark.parametrize("english", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_every_markdown_cell_has_a_current_translation(english, lang: str) -> None:
    _, cov = catalogs.translations(english, lang)
    assert not cov.missing, (f"{english.name}: {len(cov.missing)} of {cov.cells} Markdown cells have no current "
                             f"translation in {catalogs.notebook_catalog_path(lang, english.stem).name} "
                             f"(new, or fuzzy after an English change): {cov.missing[:10]}")


@pytest.mark.parametrize("english", ENGLISH, ids=[p.stem for p in ENGLISH])
def test_at_least_nine_markdown_cells_in_ten_are_chinese(english) -> None:
    markdown = [_src(c) for c in _cells(catalogs.edition_dir("zh_CN") / english.name) if c["cell_type"] == "markdown"]
    chinese = sum(1 for text in markdown if CJK.search(text))
    assert chinese >= 0.9 * len(markdown), f"{english.name}: {chinese} of {len(markdown)} Markdown cells in Chinese"


# --- the library's catalogs ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_the_compiled_catalogs_are_the_po_files(lang: str) -> None:
    folder = catalogs.PACKAGE / "locale" / lang / "LC_MESSAGES"
    pos = sorted(folder.glob("*.po"))
    assert pos, f"no catalog in {folder}"
    for po in pos:
        mo = po.with_suffix(".mo")
        assert mo.exists() and mo.read_bytes() == catalogs.compiled(po, lang), \
            f"{mo.name} is not {po.name} compiled: python -m ksched_edu.i18n build"


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_every_library_string_has_a_current_translation(lang: str) -> None:
    found = catalogs.library_messages()
    for part, messages in found.items():
        catalog = catalogs.read_catalog(catalogs.library_catalog_path(lang, part), lang, part)
        entries = {m.id: m for m in catalog if m.id}
        stale = sorted({msg for _, _, msg, _ in messages
                        if msg not in entries or not entries[msg].string or entries[msg].fuzzy})
        assert not stale, (f"{part}: {len(stale)} strings without a current translation "
                           f"(python -m ksched_edu.i18n extract, then translate): {stale[:5]}")


# --- the setting ------------------------------------------------------------------------------


@pytest.mark.parametrize("given,code", [
    (None, "en"), ("", "en"), ("en", "en"), ("en_US.UTF-8", "en"), ("zh_CN", "zh_CN"), ("zh-CN", "zh_CN"),
    ("zh_cn.UTF-8", "zh_CN"),
])
def test_language_names(given, code: str) -> None:
    assert i18n.normalize_language(given) == code


def test_an_unknown_language_names_the_ones_there_are() -> None:
    with pytest.raises(i18n.UnknownLanguageError, match=r"'fr'.*en \(English\), zh_CN \(简体中文\)"):
        i18n.normalize_language("fr")


def test_set_language_switches_the_library_and_back() -> None:
    try:
        assert i18n.set_language("zh-CN") == "zh_CN" and i18n.get_language() == "zh_CN"
    finally:
        i18n.set_language(None)
    assert i18n.get_language() == "en" and i18n._("anything at all") == "anything at all"


def test_the_environment_variable_chooses_the_language() -> None:
    import subprocess
    import sys

    code = "import ksched_edu.i18n as i; print(i.get_language())"
    env = {"KSCHED_EDU_LANG": "zh_CN", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "zh_CN"


def test_the_command_refuses_an_unknown_language() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "ksched_edu.i18n", "status", "--lang", "fr"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "unknown language 'fr'" in out.stderr
