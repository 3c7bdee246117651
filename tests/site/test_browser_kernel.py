"""The browser kernel's pieces, on CPython: what ``ksched_edu.browser`` does to cells when figures and
tables are off, and the exercise checks' time limit where there is no SIGALRM.

The browser test (``test_site_browser.py``) runs the same code in Pyodide; these tests pin down
the details fast. IPython runs in a subprocess: the hooks stay out of the test process.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ksched_edu import browser
from ksched_edu.exercises import core
from ksched_edu.exercises.core import CheckTimeout, call_answer, describe_exception, learner_code_deadline

ROOT = Path(__file__).resolve().parents[2]
LINE_END = "; figures and tables are off (see the first cell); the notebook goes on"

# Cells run one after the other by an IPython shell with the figures off; each prints what it can.
CELLS = [
    # 0: the imports bind stand-ins; the rest of the cell runs
    "import json\nimport pandas as pd\nfrom matplotlib.figure import Figure\nexamined = [1]\nready = True",
    # 1: a statement that needs pandas is skipped; the next one runs; a name it would have rebound goes
    "examined = pd.DataFrame([1])\nrows = [2]\nprint('rows', rows)",
    # 2: a name a skipped statement would have made: skipped too
    "print('examined' in globals())\nexamined",
    # 3: a half-filled dict (changed in place by a skipped loop) is gone, not left half-made
    "virtual = {}\nfor n in (1, 2):\n    virtual[n] = n\n    pd.concat([])\nprint(sorted(virtual))",
    "print(len(virtual))",
    # 5: a library's own import of a missing module (here: a real ModuleNotFoundError named pandas)
    "raise ModuleNotFoundError(\"No module named 'pandas'\", name='pandas')",
    # 6, 7: anything else is a traceback, as always
    "print(undefined_name)",
    "import no_such_module_anywhere",
    # 8: the stand-in shows what it stands for
    "print(repr(pd), repr(Figure))",
]

SCRIPT = textwrap.dedent("""
    import contextlib, io, json, sys
    from IPython.core.interactiveshell import InteractiveShell
    from ksched_edu import browser

    shell = InteractiveShell.instance()
    figures = browser.FigureLibraries()
    figures.on = False
    browser._stand_in_for_missing_libraries(figures, shell)
    shell.showtraceback = lambda *a, **k: print("TRACEBACK", sys.exc_info()[0].__name__ if sys.exc_info()[0] else "")
    results = []
    for cell in json.loads(sys.argv[1]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            result = shell.run_cell(cell)
        results.append({"out": out.getvalue(), "ok": result.error_in_exec is None and result.error_before_exec is None})
    print(json.dumps(results))
""")


@pytest.fixture(scope="module")
def ran() -> list[dict]:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(CELLS)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_imports_of_the_missing_libraries_bind_stand_ins_and_the_cell_runs_on(ran):
    assert ran[0] == {"out": "", "ok": True}
    assert ran[8]["out"] == ("<pandas: not loaded, figures and tables are off> "
                             "<matplotlib.figure.Figure: not loaded, figures and tables are off>\n")


def test_a_statement_that_needs_a_missing_library_is_skipped_with_one_line(ran):
    assert ran[1] == {"out": "rows [2]\nksched_edu: skipped 1 statement of this cell that needs pandas" + LINE_END
                      + "\n", "ok": True}
    assert ran[5] == {"out": "ksched_edu: skipped 1 statement of this cell that needs pandas" + LINE_END + "\n",
                      "ok": True}


def test_what_a_skipped_statement_would_have_made_is_skipped_too_never_stale(ran):
    # examined held [1] from cell 0: the statement that would have rebound it was skipped, so it is gone
    assert ran[2] == {"out": "False\nksched_edu: skipped 1 statement of this cell that needs examined "
                             "(left unmade by a statement skipped before)" + LINE_END + "\n", "ok": True}
    assert ran[3]["out"].splitlines() == [
        "ksched_edu: skipped 2 statements of this cell that need pandas and virtual "
        "(left unmade by a statement skipped before)" + LINE_END]
    assert ran[4]["out"].startswith("ksched_edu: skipped 1 statement of this cell that needs virtual ")


def test_other_errors_are_tracebacks_as_always(ran):
    assert ran[6] == {"out": "TRACEBACK NameError\n", "ok": False}
    assert ran[7] == {"out": "TRACEBACK ModuleNotFoundError\n", "ok": False}


def test_start_does_nothing_outside_the_browser():
    import ksched_edu.browser_start  # noqa: F401 - what the kernel runs as its PYTHONSTARTUP

    assert not browser.in_browser()
    assert browser.FIGURES.task is None and browser.FIGURES.on is None and not browser._started


def test_the_lines_name_the_libraries_and_the_reason():
    figures = browser.FigureLibraries()
    figures.source = "cdn.jsdelivr.net"
    figures._off("no network: offline?")
    assert figures.line == ("ksched_edu: figures and tables are off: numpy, pandas and matplotlib could not be "
                            "loaded from cdn.jsdelivr.net (no network: offline?); everything else works")


# --- the time limit where there is no SIGALRM (the browser) ---------------------------------------

def _spin() -> None:
    while True:
        pass


def _spin_calling_the_library() -> None:
    while True:
        json.dumps([1])


@pytest.mark.parametrize("answer", [_spin, _spin_calling_the_library])
def test_in_the_browser_an_endless_answer_ends_with_a_verdict_without_signals(monkeypatch, answer):
    monkeypatch.setattr(core, "_in_browser", lambda: True)
    before = signal.getsignal(signal.SIGALRM)
    start = time.monotonic()
    ok, err = call_answer(answer, seconds=0.3)
    assert not ok and isinstance(err, CheckTimeout), err
    assert time.monotonic() - start < 5
    assert describe_exception(err) == "your code is still running after 0.3 s (a loop that never ends?)"
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert sys.gettrace() is None


def test_the_deadline_leaves_a_quick_answer_alone_and_library_code_unwatched():
    with learner_code_deadline(5):
        assert sorted(range(5), key=lambda x: -x) == [4, 3, 2, 1, 0]
    assert sys.gettrace() is None
    library = core._library_prefixes()
    assert json.__file__.startswith(library) and core.__file__.startswith(library)
    assert not __file__.startswith(library)
