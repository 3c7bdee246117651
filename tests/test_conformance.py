"""The conformance command: its comparison rules, its report, its exit codes.

The comparison is checked on small hand-made pairs of an expected answer (the
real scheduler's) and the port's answer; the command on copies of real case
folders from data/conformance/cases.
"""
from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from ksched_edu.cli import main
from ksched_edu.conformance import (CASE_FILES, CaseResult, Difference, case_kind, compare, default_cases_dir,
                                    floor_rate, pass_table, report, side_by_side, summary_line)

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "data" / "conformance" / "cases"
# The checker that came with the conformance cases. The project holds the cases (data/conformance)
# but not the checker: it sits in a folder beside the repository, when there is one.
SHARED_CHECK = ROOT.parent / "shared" / "conformance" / "check.py"
NO_SHARED_CHECK = (f"the conformance checker that came with the cases is not at {SHARED_CHECK} (it is kept beside "
                   "the repository, not in it; data/conformance holds the cases only): with it, this row also "
                   "checks that `ksched_edu conformance` judges the pair as that checker does")


def ok(code="Success", *reasons):
    return {"code": code, "reasons": list(reasons)}


def score_answer(**over):
    """A two-node score-mode answer: n1 fits, n2 lacks cpu."""
    ans = {
        "mode": "score", "pod": "default/p",
        "filter": {
            "n1": {"status": "Success", "plugins": {"NodeResourcesFit": ok(), "TaintToleration": ok()}},
            "n2": {"status": "Unschedulable",
                   "plugins": {"NodeResourcesFit": ok("Unschedulable", "Insufficient cpu")}},
        },
        "scores": {},
        "best": ["n1"],
        "preFilter": {"NodeAffinity": ok("Skip")},
    }
    ans.update(over)
    return ans


TWO_SCORED = {"n1": {"plugins": {"NodeResourcesFit": 80, "ImageLocality": 0}, "total": 80},
              "n2": {"plugins": {"NodeResourcesFit": 60, "ImageLocality": 0}, "total": 60}}


def placements(*rows):
    return [{"pod": p, "node": n, "message": m, "nominatedNode": nn} for p, n, m, nn in rows]


RUN_EXP = {"mode": "run",
           "placements": placements(("default/a", "n1", None, None), ("default/b", "n2", None, None)),
           "victims": [], "runs": 10}

# Two pods, two nodes, a tie broken at random: the real scheduler gave both orders.
RANDOM_EXP = {
    "mode": "run", "deterministic": False, "runs": 30,
    "placements": placements(("default/a", "n1", None, None), ("default/b", "n2", None, None)),
    "victims": ["default/v1"],
    "variants": [
        {"placements": placements(("default/a", "n1", None, None), ("default/b", "n2", None, None)),
         "victims": ["default/v1"]},
        {"placements": placements(("default/a", "n2", None, None), ("default/b", "n1", None, None)),
         "victims": ["default/v2"]},
    ],
}

POINTER_MSG = ("profiles[0].plugins: Invalid value: config.Plugins{PreEnqueue:config.PluginSet{Enabled:[]"
               "config.Plugin(nil)}, parent:(*field.Path)(0xc000123abc)}: bad")

# (id, expected, answer, the `where` of every difference; [] means the answer passes)
COMPARE_TABLE = [
    ("score: equal", score_answer(), score_answer(), []),
    ("score: Skip entries in preFilter are not compared",
     score_answer(), score_answer(preFilter={}), []),
    ("score: informative keys are not compared",
     {**score_answer(), "fitError": "0/2 nodes", "preFilterNodes": ["n1"], "runs": 1}, score_answer(), []),
    ("score: a filter reason differs", score_answer(),
     score_answer(filter={**score_answer()["filter"],
                          "n2": {"status": "Unschedulable",
                                 "plugins": {"NodeResourcesFit": ok("Unschedulable", "Insufficient memory")}}}),
     ["filter, node n2, NodeResourcesFit"]),
    ("score: a node missing from filter", score_answer(),
     score_answer(filter={"n1": score_answer()["filter"]["n1"]}), ["filter, node n2"]),
    ("score: a plugin ran that the real scheduler did not run", score_answer(),
     score_answer(filter={**score_answer()["filter"],
                          "n2": {"status": "Unschedulable",
                                 "plugins": {"NodeResourcesFit": ok("Unschedulable", "Insufficient cpu"),
                                             "TaintToleration": ok()}}}),
     ["filter, node n2, TaintToleration"]),
    ("score: a plugin did not run", score_answer(),
     score_answer(filter={**score_answer()["filter"],
                          "n1": {"status": "Success", "plugins": {"NodeResourcesFit": ok()}}}),
     ["filter, node n1, TaintToleration"]),
    ("score: the combined verdict differs", score_answer(),
     score_answer(filter={**score_answer()["filter"],
                          "n2": {"status": "UnschedulableAndUnresolvable",
                                 "plugins": {"NodeResourcesFit": ok("Unschedulable", "Insufficient cpu")}}}),
     ["filter, node n2: verdict"]),
    ("score: a score differs, so does the total and the best set",
     score_answer(scores=TWO_SCORED, best=["n1"]),
     score_answer(scores={**TWO_SCORED, "n2": {"plugins": {"NodeResourcesFit": 80, "ImageLocality": 0},
                                               "total": 80}}, best=["n1", "n2"]),
     ["score, node n2, NodeResourcesFit", "score, node n2: total", "best nodes"]),
    ("score: a plugin scored that the real scheduler skipped",
     score_answer(scores=TWO_SCORED),
     score_answer(scores={**TWO_SCORED, "n1": {"plugins": {"NodeResourcesFit": 80, "ImageLocality": 0,
                                                           "TaintToleration": 0}, "total": 80}}),
     ["score, node n1, TaintToleration"]),
    ("score: the best set is compared as a set",
     score_answer(best=["n1", "n2"]), score_answer(best=["n2", "n1"]), []),
    ("score: the best set differs", score_answer(), score_answer(best=["n2"]), ["best nodes"]),
    ("score: a PreFilter rejection differs",
     score_answer(filter={}, best=[], preFilter={"NodeAffinity": ok("UnschedulableAndUnresolvable", "x")}),
     score_answer(filter={}, best=[], preFilter={"NodeAffinity": ok("UnschedulableAndUnresolvable", "y")}),
     ["preFilter, NodeAffinity"]),
    ("score: a PreFilter rejection the real scheduler did not make",
     score_answer(), score_answer(preFilter={"VolumeRestrictions": ok("UnschedulableAndUnresolvable", "x")}),
     ["preFilter, VolumeRestrictions"]),
    ("score: an error line fails", score_answer(), {"error": "case.yaml: file not found"}, ["answer"]),
    ("run: equal", RUN_EXP, {"mode": "run", **{k: RUN_EXP[k] for k in ("placements", "victims")}}, []),
    ("run: placement order does not matter", RUN_EXP,
     {"mode": "run", "placements": list(reversed(RUN_EXP["placements"])), "victims": []}, []),
    ("run: a placement differs", RUN_EXP,
     {"mode": "run", "victims": [],
      "placements": placements(("default/a", "n1", None, None), ("default/b", None, "0/2 nodes", "n2"))},
     ["pod default/b"]),
    ("run: a pod missing, victims differ", RUN_EXP,
     {"mode": "run", "victims": ["default/x"], "placements": placements(("default/a", "n1", None, None))},
     ["pod default/b", "victims"]),
    ("run: several variants, matches the second", RANDOM_EXP,
     {"mode": "run", "victims": ["default/v2"],
      "placements": placements(("default/a", "n2", None, None), ("default/b", "n1", None, None))}, []),
    ("run: several variants, matches per pod (both on n1 was seen pod by pod)", RANDOM_EXP,
     {"mode": "run", "victims": ["default/v2"],
      "placements": placements(("default/a", "n1", None, None), ("default/b", "n1", None, None))}, []),
    ("run: several variants, a pod outcome never seen", RANDOM_EXP,
     {"mode": "run", "victims": ["default/v1"],
      "placements": placements(("default/a", "n3", None, None), ("default/b", "n1", None, None))},
     ["pod default/a"]),
    ("run: several variants, a victim set never seen", RANDOM_EXP,
     {"mode": "run", "victims": ["default/v1", "default/v2"],
      "placements": placements(("default/a", "n1", None, None), ("default/b", "n2", None, None))},
     ["victims"]),
    ("configError: equal once the pointer is masked",
     {"mode": "score", "pod": "default/p", "configError": POINTER_MSG, "configErrorStage": "validate"},
     {"configError": POINTER_MSG.replace("0xc000123abc", "0xc000ffee00")}, []),
    ("configError: the text differs",
     {"mode": "run", "configError": POINTER_MSG},
     {"configError": POINTER_MSG.replace("bad", "wrong")}, ["configError"]),
    ("configError: the configuration was accepted",
     {"mode": "run", "configError": POINTER_MSG}, {"mode": "run", "placements": [], "victims": []},
     ["configError"]),
]


@pytest.mark.parametrize("name,exp,got,want", COMPARE_TABLE, ids=[row[0] for row in COMPARE_TABLE])
def test_compare(name, exp, got, want):
    assert [d.where for d in compare(exp, got)] == want


def test_a_config_error_answer_to_an_accepted_configuration_fails():
    diffs = compare(score_answer(filter={}, best=[]), {"configError": "no"})
    assert [(d.where, d.got) for d in diffs] == [("configError", ("no",))]


def _load_check_py():
    spec = importlib.util.spec_from_file_location("shared_check", SHARED_CHECK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check_py_fails(check, exp: dict, got: dict) -> bool:
    """check.py's verdict on one pair, following its main()."""
    import collections

    if "error" in got:
        return True
    if "configError" in exp:
        return bool(check.diff_config_error(exp, got))
    if exp.get("mode", "score") == "score":
        return bool(check.diff_score(exp, got, collections.Counter()) + check.diff_prefilter(exp, got))
    return bool(check.diff_run(exp, got))


@pytest.mark.skipif(not SHARED_CHECK.exists(), reason=NO_SHARED_CHECK)
@pytest.mark.parametrize("name,exp,got,want", COMPARE_TABLE, ids=[row[0] for row in COMPARE_TABLE])
def test_compare_agrees_with_the_shared_checker(name, exp, got, want):
    assert _check_py_fails(_load_check_py(), exp, got) == bool(want)


# --- rendering ---------------------------------------------------------------------------------


RESULTS = [
    CaseResult("score-a", "score"),
    CaseResult("score-b", "score", [Difference("best nodes", ("n1",), ("n2",))]),
    CaseResult("run-a", "run"),
    CaseResult("config-x", "configError"),
    CaseResult("vol-binding-x", "score", [Difference(
        "filter, node n1, VolumeBinding",
        ("Unschedulable", "node(s) had volume node affinity conflict"), ("Success", "(no reasons)"))]),
]


def test_kind_is_the_prefix_before_the_first_dash():
    assert [case_kind(r.name) for r in RESULTS] == ["score", "score", "run", "config", "vol"]


@pytest.mark.parametrize("passed,total,want", [(145, 168, 86.3), (168, 168, 100.0), (0, 3, 0.0),
                                               (2, 3, 66.6), (1, 3, 33.3), (0, 0, 0.0)])
def test_rate_is_rounded_down(passed, total, want):
    assert floor_rate(passed, total) == want


def test_summary_line():
    assert summary_line(RESULTS) == "conformance: 3/5 cases pass (60.0%)"


def test_pass_table_by_mode_and_kind():
    assert pass_table(RESULTS).splitlines() == [
        "by mode        pass  total      %",
        "  score           1      3   33.3",
        "  run             1      1  100.0",
        "  configError     1      1  100.0",
        "",
        "by kind        pass  total      %",
        "  config          1      1  100.0",
        "  run             1      1  100.0",
        "  score           1      2   50.0",
        "  vol             0      1    0.0",
    ]


def test_side_by_side_puts_the_real_scheduler_left_and_the_port_right():
    lines = side_by_side(RESULTS[4], width=100).splitlines()
    assert lines[0] == "--- vol-binding-x (score): 1 difference(s)"
    assert lines[1].split("|")[0].strip() == "real kube-scheduler" and lines[1].split("|")[1].strip() == "ksched_edu"
    assert lines[2] == "  filter, node n1, VolumeBinding"
    assert [tuple(c.strip() for c in ln.split("|")) for ln in lines[3:]] == [
        ("Unschedulable", "Success"), ("node(s) had volume node affinity conflict", "(no reasons)")]
    assert all(len(ln) <= 100 for ln in lines)


def test_long_values_wrap_inside_their_column():
    r = CaseResult("config-y", "configError", [Difference("configError", ("word " * 40,), ("short",))])
    lines = side_by_side(r, width=60).splitlines()[3:]
    assert len(lines) > 3 and all(len(ln) <= 60 for ln in lines)
    assert lines[0].endswith("| short") and all(ln.rstrip().endswith("|") for ln in lines[1:])


def test_report_lists_failures_and_ends_with_the_summary():
    out = report(RESULTS).splitlines()
    assert "FAIL score-b (score, 1 difference): best nodes" in out
    assert "FAIL vol-binding-x (score, 1 difference): filter, node n1, VolumeBinding" in out
    assert not any(ln.startswith("---") for ln in out)
    assert out[-1] == "conformance: 3/5 cases pass (60.0%)"
    assert any(ln.startswith("--- score-b") for ln in report(RESULTS, verbose=True).splitlines())


# --- the command on real case folders ------------------------------------------------------------

PASSING = ["config-custom-weights", "score-equal-nodes-tie", "run-preempt-basic"]


@pytest.fixture(scope="module")
def case_copies(tmp_path_factory) -> Path:
    """Three real cases, and one of them again with a score the real scheduler did not give."""
    root = tmp_path_factory.mktemp("cases")
    for name in PASSING:
        shutil.copytree(CASES / name, root / name)
    broken = root / "score-equal-nodes-tie-broken"
    shutil.copytree(CASES / "score-equal-nodes-tie", broken)
    exp = json.loads((broken / "expected.json").read_text())
    node = sorted(exp["scores"])[0]
    exp["scores"][node]["total"] += 1
    (broken / "expected.json").write_text(json.dumps(exp))
    return root


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["conformance", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_passing_cases_exit_0(capsys, case_copies):
    code, out, err = run(capsys, "--cases", str(case_copies), "--min", "100", *PASSING)
    assert code == 0, out
    assert out.splitlines()[-1] == "conformance: 3/3 cases pass (100.0%)"
    assert "FAIL" not in out and err == ""


def test_a_failing_case_exits_1_below_min_and_shows_its_differences(capsys, case_copies):
    code, out, _ = run(capsys, "--cases", str(case_copies), "--min", "80")
    assert code == 1
    assert out.splitlines()[-1] == "conformance: 3/4 cases pass (75.0%)"
    assert "FAIL score-equal-nodes-tie-broken (score, " in out
    assert "--- score-equal-nodes-tie-broken" not in out  # no side by side without --verbose
    code, out, _ = run(capsys, "--cases", str(case_copies), "--min", "75", "--verbose")
    assert code == 0
    assert "--- score-equal-nodes-tie-broken (score)" in out and "total" in out


def test_naming_a_case_shows_its_differences(capsys, case_copies):
    code, out, _ = run(capsys, "--cases", str(case_copies), "score-equal-nodes-tie-broken")
    assert code == 0  # --min defaults to 0
    assert "--- score-equal-nodes-tie-broken (score)" in out
    assert out.splitlines()[-1] == "conformance: 0/1 cases pass (0.0%)"


@pytest.mark.parametrize("argv,want", [
    (["no-such-case"], "conformance: no case named no-such-case under "),
    (["--cases", "/nonexistent/cases"], "conformance: /nonexistent/cases: no such folder"),
])
def test_bad_arguments_are_one_line_and_exit_2(capsys, case_copies, argv, want):
    if argv[0] != "--cases":
        argv = ["--cases", str(case_copies), *argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith(want)


def test_the_default_case_folder_is_the_projects():
    assert default_cases_dir() == CASES


# --- the shipped cases -------------------------------------------------------------------------


def test_every_case_has_its_four_files():
    folders = sorted(p for p in CASES.iterdir() if p.is_dir())
    assert len(folders) >= 168
    missing = [f"{p.name}/{f}" for p in folders for f in CASE_FILES if not (p / f).is_file()]
    assert missing == []
    assert (CASES.parent / "README.md").is_file()
