"""The course hangs together: the map, the chapter order, the links, the length of each chapter.

- Every chapter in ``notebooks/`` (``NN_name.ipynb``) is in the course map
  (``notebooks/welcome.ipynb``) and in README.md's chapter table, in order, and nothing else is.
- The map's minutes are those ``workshop/timings.md`` lists, and what a chapter needs first
  comes before it.
- Each chapter ends with a cell linking the chapter before it (the map, for the first), the
  map, and the chapter after it (none after the last).
- No chapter has more than ``PROSE_LIMIT`` words of prose (``prose_words``).
- Every relative ``.ipynb`` link in a notebook or in the project's Markdown files names a file
  that exists; a relative link from the map names a file that exists.
- The learner's copy has the map, and ``bash .ci/lab`` opens at it.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from ksched_edu.exercises.strip import strip_tree

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LANDING = NOTEBOOKS / "welcome.ipynb"
PROSE_LIMIT = 4200
CHAPTER_FILE = re.compile(r"^\d\d_\w+\.ipynb$")
# [text](target) in Markdown; the target up to a space, a closing parenthesis or a #fragment
LINK = re.compile(r"\[([^\]]*)\]\(\s*<?([^)\s>#]*)[^)]*\)")


def chapters() -> list[str]:
    return sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def markdown(path: Path) -> list[str]:
    return [source(c) for c in cells(path) if c["cell_type"] == "markdown"]


def prose_words(path: Path) -> int:
    """Words of a notebook's prose: its Markdown cells without fenced code blocks and HTML tags,
    split at white space; a word is a token with a letter in it (inline code counts)."""
    total = 0
    for text in markdown(path):
        text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", " ", text, flags=re.S | re.M)
        text = re.sub(r"<[^>]*>", " ", text)
        total += sum(1 for token in text.split() if re.search(r"[^\W\d_]", token))
    return total


def links(text: str) -> list[str]:
    """The relative targets of the Markdown links in ``text`` (URLs and bare anchors left out)."""
    return [target for _, target in LINK.findall(text) if target and ":" not in target]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the Markdown tables in ``text``, each as its cells."""
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("|") and not re.fullmatch(r"\|[\s:|-]+\|", line):
            rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def chapter_rows(text: str, prefix: str = "") -> list[list[str]]:
    """Rows whose first cell links one chapter file (``prefix`` + ``NN_name.ipynb``)."""
    return [row for row in table_rows(text)
            if len(links(row[0])) == 1 and CHAPTER_FILE.match(links(row[0])[0].removeprefix(prefix))]


def landing_table() -> list[list[str]]:
    """The rows of the map's chapter table (one Markdown cell holds it)."""
    [rows] = [found for found in map(chapter_rows, markdown(LANDING)) if found]
    return rows


def landing_header() -> list[str]:
    [text] = [text for text in markdown(LANDING) if chapter_rows(text)]
    return table_rows(text)[0]


def test_the_chapters_are_numbered_from_00_without_gaps() -> None:
    names = chapters()
    assert [name[:2] for name in names] == [f"{i:02d}" for i in range(len(names))], names


def test_every_chapter_is_in_the_course_map_and_nothing_else() -> None:
    assert [links(row[0])[0] for row in landing_table()] == chapters()


def test_every_chapter_is_in_the_readme_table_and_nothing_else() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = chapter_rows(readme, prefix="notebooks/")
    assert [links(row[0])[0] for row in rows] == [f"notebooks/{name}" for name in chapters()]
    assert all(f"`{Path(links(row[0])[0]).stem}`" in row[0] for row in rows)


def test_the_map_gives_the_minutes_timings_md_lists() -> None:
    listed = {}
    for row in table_rows((ROOT / "workshop" / "timings.md").read_text(encoding="utf-8")):
        if row[0].startswith("`"):
            listed[row[0].strip("`")] = row[-1]
    [minutes] = [i for i, title in enumerate(landing_header()) if title.lower().startswith("minutes")]
    for row in landing_table():
        name = Path(links(row[0])[0]).stem
        assert row[minutes] == listed[name], (name, row[minutes], listed.get(name))


def test_the_map_counts_each_chapter_s_exercises() -> None:
    [column] = [i for i, title in enumerate(landing_header()) if title.lower().startswith("exercises")]
    for row in landing_table():
        name = links(row[0])[0]
        count = sum(1 for c in cells(NOTEBOOKS / name)
                    if c["cell_type"] == "code" and source(c).lstrip().startswith("# EXERCISE"))
        assert row[column] == (str(count) if count else "—"), (name, row[column], count)


def test_what_a_chapter_needs_first_comes_before_it() -> None:
    for row in landing_table():
        name = links(row[0])[0]
        needs = links(row[-1])
        assert all(CHAPTER_FILE.match(n) and n < name for n in needs), (name, needs)
    # every chapter but the first needs one before it
    assert all(links(row[-1]) for row in landing_table()[1:])


def test_each_chapter_ends_with_links_to_the_chapters_around_it() -> None:
    names = chapters()
    for i, name in enumerate(names):
        last = cells(NOTEBOOKS / name)[-1]
        assert last["cell_type"] == "markdown", name
        expected = [names[i - 1] if i else LANDING.name, LANDING.name] + ([names[i + 1]] if i + 1 < len(names) else [])
        assert links(source(last)) == expected, (name, links(source(last)))


@pytest.mark.parametrize("name", chapters())
def test_no_chapter_is_a_wall_of_prose(name: str) -> None:
    words = prose_words(NOTEBOOKS / name)
    assert words <= PROSE_LIMIT, (f"{name} has {words} words of prose, more than {PROSE_LIMIT}: "
                                  "split it, or move reference material to the library's docstrings")


def test_prose_words_leave_code_and_tags_out(tmp_path) -> None:
    nb = tmp_path / "x.ipynb"
    text = "A `span` of <b>bold</b> 42 words.\n\n```python\nnot counted at all\n```\n<img src='x.png'>\n"
    nb.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": text},
                                        {"cell_type": "code", "source": "nor this", "outputs": []}]}))
    assert prose_words(nb) == 5  # A, `span`, of, bold, words.


def project_texts() -> list[tuple[Path, list[str]]]:
    """Each notebook (its Markdown cells) and each Markdown file of the project, with its text."""
    found = [(nb, markdown(nb)) for nb in sorted(NOTEBOOKS.glob("*.ipynb"))]
    for md in [ROOT / "README.md", ROOT / "DEVELOPERS.md", *sorted((ROOT / "workshop").glob("*.md"))]:
        if md.exists():
            found.append((md, [md.read_text(encoding="utf-8")]))
    return found


def test_every_relative_notebook_link_resolves() -> None:
    broken = []
    for path, texts in project_texts():
        for text in texts:
            for target in links(text):
                if target.split("?")[0].endswith(".ipynb") and not (path.parent / target).is_file():
                    broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_every_relative_link_of_the_map_resolves() -> None:
    broken = [t for text in markdown(LANDING) for t in links(text) if not (LANDING.parent / t).exists()]
    assert not broken, broken


def test_the_learner_copy_has_the_map(tmp_path) -> None:
    written = {p.name for p in strip_tree(NOTEBOOKS, tmp_path / "learner")}
    assert LANDING.name in written and set(chapters()) <= written


# --- bash .ci/lab opens at the map --------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@contextlib.contextmanager
def lab_server(tmp_path: Path, *args: str) -> Iterator[tuple[str, str]]:
    """``bash .ci/lab ARGS`` serving on a free port: (its base URL, its token); stopped after."""
    if not (ROOT / ".venv" / "bin" / "jupyter").exists():
        pytest.skip(".venv has no jupyter: bash .ci/setup makes it")
    port, token = _free_port(), os.urandom(8).hex()
    env = dict(os.environ, JUPYTER_TOKEN=token, BROWSER="true")
    env.pop("KSCHED_EDU_LANG", None)
    for name in ("config", "data", "runtime"):
        (tmp_path / name).mkdir(exist_ok=True)
        env[f"JUPYTER_{name.upper()}_DIR"] = str(tmp_path / name)
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(["bash", ".ci/lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1", *args],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
                break
            except (urllib.error.URLError, ConnectionError):
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"bash .ci/lab did not serve: {(tmp_path / 'lab.log').read_text()[-2000:]}")
                time.sleep(0.5)
        yield base, token
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def _landing_of(tmp_path: Path, *args: str) -> str:
    """Where the root URL of ``bash .ci/lab ARGS`` leads."""
    with lab_server(tmp_path, *args) as (base, token):
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            opener.open(f"{base}/?token={token}", timeout=10)
        except urllib.error.HTTPError as err:
            if err.code in (301, 302, 303, 307):
                return err.headers["Location"]
            raise
        pytest.fail("the root URL did not redirect")


def test_lab_opens_at_the_map(tmp_path) -> None:
    assert _landing_of(tmp_path).split("?")[0].endswith("/lab/tree/welcome.ipynb")


def test_lab_on_a_folder_without_the_map_opens_at_the_lab(tmp_path) -> None:
    folder = tmp_path / "chapters"
    folder.mkdir()
    (folder / "00_tour.ipynb").write_text((NOTEBOOKS / "00_tour.ipynb").read_text(encoding="utf-8"))
    assert _landing_of(tmp_path, f"--notebook-dir={folder}").split("?")[0].endswith("/lab")
