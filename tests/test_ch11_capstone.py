"""Chapter 11 (the capstone): its model solution, its crib of the API, its check's bar and its learner copy.

- The model ``less`` (the exercise cell's, and the one tests/exercises/test_ch11.py checks) is a consistent
  order, as Coscheduling's ``Less`` is: irreflexive, asymmetric, transitive, and "neither before the other"
  transitive too, over generated pods (priorities, gangs with their PodGroups' creation times, arrivals, names).
- Every name of the crib cell ("What you will call") exists where its last column says, and every name the
  exercise cell imports is in the crib.
- ``check_gang_gpu`` measures the model against the stock profile it runs itself, and gives an endless
  answer its verdict within 8 s with a 6 s limit (one budget for all of the learner's code).
- The learner copy (``strip``) runs the chapter from the top with the exercise unanswered: the check prints
  ✘, and each cell after it that needs the solution prints one line saying so, without an error; with the
  solution written back, the same cells run as the chapter's.
"""
from __future__ import annotations

import ast
import dataclasses
import importlib
import json
import re
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ksched_edu.api.podgroup import POD_GROUP_LABEL
from ksched_edu.api.types import ObjectMeta, Pod, PodSpec
from ksched_edu.exercises import ch11, core
from ksched_edu.exercises.strip import (NEEDS_SOLUTION, cell_source, guard_source, is_exercise_cell, needed_answer,
                                        strip_notebook)
from ksched_edu.framework.types import PodInfo, QueuedPodInfo

from .exercises.test_ch11 import GangGPU as TableGangGPU
from .exercises.test_ch11 import PermitEndlessOnceComplete, factory

pytestmark = pytest.mark.ch11

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "11_capstone.ipynb"
CRIB_HEADER = "| in your code | what it gives | defined in |"


def _cells() -> list[dict]:
    return json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]


def _exercise_source() -> str:
    [source] = [cell_source(c) for c in _cells() if is_exercise_cell(c)]
    return source


def _chapter_gang_gpu() -> type:
    namespace: dict[str, Any] = {}
    exec(compile(_exercise_source(), str(CHAPTER), "exec"), namespace)
    return namespace["GangGPU"]


# --- the model less is a consistent order --------------------------------------------------------


class _Lister:
    """An object lister that knows PodGroups only, with their creation times."""

    def __init__(self, created: dict[str, float]) -> None:
        self.created = created

    def get(self, kind: str, namespace: str, name: str) -> Any:
        if kind != "PodGroup" or name not in self.created:
            return None
        return SimpleNamespace(metadata=SimpleNamespace(creation_timestamp=self.created[name]))


def _handle(created: dict[str, float]) -> Any:
    lister = _Lister(created)
    return SimpleNamespace(object_lister=lambda: lister, client=lambda: None)


def _queued(i: int, priority: int, group: str, arrived: float) -> QueuedPodInfo:
    labels = {POD_GROUP_LABEL: group} if group else {}
    pod = Pod(metadata=ObjectMeta(name=f"p{i}", namespace="default", uid=f"u{i}", labels=labels),
              spec=PodSpec(priority=priority))
    return QueuedPodInfo(PodInfo.of(pod), timestamp=arrived + 0.5, initial_attempt_timestamp=arrived)


PODS = st.lists(st.tuples(st.sampled_from([0, 1000, 100000]), st.sampled_from(["", "a", "b", "c", "lost"]),
                          st.integers(0, 4).map(float)), min_size=1, max_size=7)
CREATED = st.fixed_dictionaries({g: st.integers(-1, 4).map(float) for g in ("a", "b", "c")})


def _assert_strict_weak_order(less: Callable[[Any, Any], bool], items: list[Any]) -> None:
    before = {(a, b): less(items[a], items[b]) for a in range(len(items)) for b in range(len(items))}
    assert all(isinstance(v, bool) for v in before.values())
    every = range(len(items))
    for a in every:
        assert not before[a, a], "irreflexive"
    for a in every:
        for b in every:
            assert not (before[a, b] and before[b, a]), "asymmetric"
            for c in every:
                if before[a, b] and before[b, c]:
                    assert before[a, c], "transitive"
                tie = lambda x, y: not before[x, y] and not before[y, x]  # noqa: E731
                if tie(a, b) and tie(b, c):
                    assert tie(a, c), "ties are transitive"


@pytest.mark.parametrize("cls", [_chapter_gang_gpu(), TableGangGPU], ids=["the chapter's", "the table's"])
@settings(max_examples=300, deadline=None)
@given(pods=PODS, created=CREATED)
def test_the_model_less_is_a_consistent_order(cls: type, pods: list, created: dict) -> None:
    from ksched_edu.gpu.plugins.gpu_topology import GPUTopologyArgs

    plugin = cls(GPUTopologyArgs(), _handle(created))
    items = [_queued(i, *p) for i, p in enumerate(pods)]
    _assert_strict_weak_order(plugin.less, items)


def test_the_issue_s_three_pods_are_ordered_by_coscheduling_s_key() -> None:
    """X (gang b, t=1), Y (no gang, t=2), Z (gang a, t=3): the old rule gave X < Y < Z < X."""
    from ksched_edu.gpu.plugins.gpu_topology import GPUTopologyArgs

    plugin = _chapter_gang_gpu()(GPUTopologyArgs(), _handle({"a": 3.0, "b": 1.0}))
    x, y, z = _queued(0, 0, "b", 1.0), _queued(1, 0, "", 2.0), _queued(2, 0, "a", 3.0)
    assert plugin.less(x, y) and plugin.less(y, z) and plugin.less(x, z) and not plugin.less(z, x)


def test_the_chapter_and_the_table_have_the_same_solution() -> None:
    """tests/exercises/test_ch11.py checks the chapter's answer: its GangGPU is the exercise cell's."""
    def methods(tree: ast.AST) -> dict[str, str]:
        [cls] = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "GangGPU"]
        out = {}
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef):
                body = fn.body[1:] if isinstance(fn.body[0], ast.Expr) else fn.body  # docstrings apart
                for node in ast.walk(ast.Module(body=body, type_ignores=[])):
                    for attr in ("annotation", "returns"):
                        if hasattr(node, attr):
                            setattr(node, attr, None)
                out[fn.name] = ast.unparse(ast.Module(body=body, type_ignores=[]))
        return out

    table = ast.parse((ROOT / "tests" / "exercises" / "test_ch11.py").read_text())
    assert methods(ast.parse(_exercise_source())) == methods(table)


# --- the crib ------------------------------------------------------------------------------------


def _crib_rows() -> list[tuple[str, str]]:
    [text] = [cell_source(c) for c in _cells() if c["cell_type"] == "markdown" and CRIB_HEADER in cell_source(c)]
    rows = []
    for line in text.splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cols) == 3 and cols[2].startswith("`ksched_edu."):
            rows.append((cols[0], cols[2].strip("`")))
    return rows


def _resolve(path: str) -> None:
    """Import the longest module prefix of ``path``, then find each further name as an attribute,
    a dataclass field or an annotated attribute of the class (or of a base class)."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
            break
        except ModuleNotFoundError:
            continue
    for name in parts[cut:]:
        if hasattr(obj, name):
            obj = getattr(obj, name)
            continue
        declared = set()
        for klass in getattr(obj, "__mro__", ()):
            declared |= set(getattr(klass, "__annotations__", {}))
            if dataclasses.is_dataclass(klass):
                declared |= {f.name for f in dataclasses.fields(klass)}
        assert name in declared, f"{path}: {obj!r} has no {name}"
        return


def test_the_crib_lists_what_the_solution_calls() -> None:
    rows = _crib_rows()
    assert len(rows) >= 20
    for name, where in rows:
        _resolve(where)
        last = where.rsplit(".", 1)[1]
        assert re.search(rf"\b{re.escape(last)}\b", name), f"the crib says {name} is {where}"


def test_every_name_the_exercise_imports_is_in_the_crib() -> None:
    imported = {a.asname or a.name for node in ast.walk(ast.parse(_exercise_source()))
                if isinstance(node, ast.ImportFrom) for a in node.names}
    listed = " ".join(name for name, _ in _crib_rows())
    missing = sorted(n for n in imported - {"GPUTopology"} if not re.search(rf"\b{n}\b", listed))
    assert not missing, f"the exercise imports {missing}, which the crib does not list"


# --- the check's bar and its time --------------------------------------------------------------


def test_the_bar_is_the_stock_run_the_check_makes(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    stock = ch11.stock_run()
    assert ch11.total_wait(stock) == 630 and stock.gangs
    no_wait = dataclasses.replace(stock, gangs=[dataclasses.replace(g, placed=g.arrived) for g in stock.gangs])
    monkeypatch.setattr(ch11, "stock_run", lambda: no_wait)
    assert not ch11.check_gang_gpu(factory(TableGangGPU))
    assert "176 s in all, 0 s under the stock profile" in capsys.readouterr().out


def test_an_endless_answer_gets_its_verdict_within_8_s_with_a_6_s_limit(monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: Any) -> None:
    """The probes pass and the workload's run loops: one budget for all of the learner's code."""
    monkeypatch.setattr(core, "TIME_LIMIT_SECONDS", 6.0)
    start = time.monotonic()
    assert not ch11.check_gang_gpu(factory(PermitEndlessOnceComplete))
    assert time.monotonic() - start < 8.0
    assert "never ends" in capsys.readouterr().out


def test_the_check_records_the_answer_that_passed(capsys: Any) -> None:
    answer = factory(TableGangGPU)
    assert ch11.check_gang_gpu(answer) and ch11.solution_checked(answer)
    assert not ch11.solution_checked(factory(TableGangGPU)) and not ch11.solution_checked(None)
    assert not ch11.check_gang_gpu(None)
    assert ch11.solution_checked(answer)  # a failed check of another answer leaves the last pass as it was


# --- the learner copy --------------------------------------------------------------------------


def test_a_guarded_cell_keeps_its_code_and_shows_its_last_value(monkeypatch: pytest.MonkeyPatch) -> None:
    source = 'MINE = """\nkind: X\n  nested: 1\n"""\nrows = [1]  # a comment\nrows'
    guarded = guard_source(source, "new_gang_gpu", "check_gang_gpu", "ksched_edu.exercises.ch11")
    assert '    MINE = """\nkind: X\n  nested: 1\n"""' in guarded  # the string's lines are data: kept as they are
    assert "    rows = [1]  # a comment" in guarded
    assert guarded.endswith("(rows) if solution_checked(globals().get('new_gang_gpu')) else None")
    for ready in (False, True):
        namespace: dict[str, Any] = {"new_gang_gpu": object()}
        monkeypatch.setattr(ch11, "_passed_answer", namespace["new_gang_gpu"] if ready else None)
        exec(compile(guarded.rsplit("\n", 1)[0], "cell", "exec"), namespace)
        assert ("rows" in namespace) is ready


def test_the_cells_after_the_exercise_name_the_answer_they_need() -> None:
    cells = _cells()
    first = next(i for i, c in enumerate(cells) if is_exercise_cell(c)) + 2  # after the exercise and its check
    uses = {i for i, c in enumerate(cells) if c["cell_type"] == "code" and i >= first
            and re.search(r"\b(new_gang_gpu|registry|mine_sim|mine|rec|MINE)\b", cell_source(c))}
    guarded = {i for i, c in enumerate(cells) if needed_answer(c)}
    assert uses == guarded and all(needed_answer(cells[i]) == "new_gang_gpu" for i in guarded)
    assert all(NEEDS_SOLUTION in cells[i]["metadata"]["ksched"] for i in guarded)


def _run(nb: dict, tmp_path: Path) -> list[dict]:
    import os

    import nbformat
    from nbclient import NotebookClient

    os.environ["KSCHED_EDU_OFFLINE"] = "1"
    node = nbformat.reads(json.dumps(nb), as_version=4)
    NotebookClient(node, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(CHAPTER.parent)}}).execute()
    return json.loads(nbformat.writes(node))["cells"]


def _stdout(cell: dict) -> str:
    texts = [o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
    return "".join("".join(t) if isinstance(t, list) else t for t in texts)


def _errors(cells: list[dict]) -> list[str]:
    return [f"cell {i}: {o.get('ename')}: {o.get('evalue')}" for i, c in enumerate(cells)
            for o in c.get("outputs", []) if o.get("output_type") == "error"]


def test_the_learner_copy_runs_and_says_what_waits_for_the_solution(tmp_path: Path) -> None:
    original = json.loads(CHAPTER.read_text(encoding="utf-8"))
    cells = _run(strip_notebook(original), tmp_path)
    assert not _errors(cells)
    check = next(i for i, c in enumerate(cells) if is_exercise_cell(c)) + 1
    assert _stdout(cells[check]).startswith("✘ ")
    for i, cell in enumerate(cells):
        if needed_answer(cell):
            assert _stdout(cell) == ("this cell needs your solution above: it runs once "
                                     "check_gang_gpu(new_gang_gpu) has printed ✔\n"), i
            assert all(o["output_type"] == "stream" for o in cell["outputs"]), i


def test_the_learner_copy_with_the_solution_runs_as_the_chapter(tmp_path: Path) -> None:
    original = json.loads(CHAPTER.read_text(encoding="utf-8"))
    learner = strip_notebook(original)
    for mine, theirs in zip(learner["cells"], original["cells"]):
        if is_exercise_cell(theirs):
            mine["source"] = theirs["source"]
    cells = _run(learner, tmp_path)
    assert not _errors(cells)
    for mine, theirs in zip(cells, original["cells"]):
        if needed_answer(theirs):
            assert _stdout(mine) == _stdout(theirs), cell_source(theirs)[:60]
            shown = [[(o["output_type"], sorted(o.get("data", {}))) for o in c["outputs"]
                      if o["output_type"] != "stream"] for c in (mine, theirs)]
            assert shown[0] == shown[1], cell_source(theirs)[:60]


# --- the statements of sections 1 and 2 ------------------------------------------------------------


def test_the_stock_profile_spreads_by_cpu_and_memory_only() -> None:
    """Section 2: LeastAllocated, by default, weighs CPU and memory (apis/config/v1/defaults.go L32-35)."""
    from ksched_edu.config.loader import load_config_data

    [profile] = load_config_data(ch11.STOCK_CONFIG).profiles
    [fit] = [pc.args for pc in profile.plugin_config if pc.name == "NodeResourcesFit"]
    assert fit.scoring_strategy.type == "LeastAllocated"
    assert [(r.name, r.weight) for r in fit.scoring_strategy.resources] == [("cpu", 1), ("memory", 1)]


def test_the_surge_pods_each_run_60_s() -> None:
    from ksched_edu.resources import data_path
    from ksched_edu.sim.workload import load_workload

    workload = load_workload([data_path("clusters/capstone-gpu-lab.yaml"), data_path("workloads/capstone-jobs.yaml")])
    times: dict[str, dict[str, float]] = {}
    for e in workload.events:
        if e.obj.metadata.name.startswith("surge-"):
            times.setdefault(e.obj.metadata.name, {})[e.action] = e.at
    assert len(times) == 12 and {t["delete"] - t["create"] for t in times.values()} == {60.0}
