"""The conformance check: ``python -m ksched_edu conformance [NAME ...]``.

This module ports nothing from upstream. It is the project's own test bench:
each folder under ``data/conformance/cases`` holds a scenario together with the
answer the real kube-scheduler v1.30.4 gave (``expected.json``). The command
answers every scenario in this process with :func:`ksched_edu.case.answer_case`
(the same code behind ``python -m ksched_edu case``), compares the two answers
by the rules of ``data/conformance/README.md``, and prints a pass table by mode
and by kind, the failing cases, and on request what differs, side by side.

Comparison rules, in short:

- score mode: every filtered node with its combined verdict and, per Filter
  plugin that ran, the code and reasons; every scored node with each Score
  plugin's weighted score and the total; the best set; PreFilter rejections
  (Skip entries are not compared).
- run mode: every pending pod's (node, message, nominated node) and the
  preemption victims. When the real scheduler broke a tie at random
  (several ``variants``), the answer passes if it equals one variant, or if
  each pod's outcome is one the real scheduler gave that pod in some run and
  the victims are a set it evicted in some run.
- configError: the messages must be equal once pointer addresses
  (``0xc000123abc``) are masked.

Keys such as ``runs``, ``timedOut``, ``preFilterNodes`` or ``fitError`` only
inform the reader and are not compared.
"""
from __future__ import annotations

import argparse
import json
import logging
import re
import shutil
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

from .anchors import plumbing
from .case import answer_case
from .resources import data_path

CASE_FILES = ("case.yaml", "cluster.yaml", "config.yaml", "expected.json")
MODES = ("score", "run", "configError")
REAL = "real kube-scheduler"
PORT = "ksched_edu"
EXIT_USAGE = 2


@plumbing("conformance checker against upstream outputs")
def default_cases_dir() -> Path:
    """``data/conformance/cases`` of the project, in a checkout or installed (ksched_edu.resources)."""
    return data_path("conformance", "cases")


# --- one difference, one case ----------------------------------------------------------------


@plumbing("conformance checker against upstream outputs")
@dataclass(frozen=True)
class Difference:
    """One place where the port's answer differs: what the real scheduler said, what the port said."""

    where: str
    want: tuple[str, ...]
    got: tuple[str, ...]


@plumbing("conformance checker against upstream outputs")
@dataclass
class CaseResult:
    name: str
    mode: str  # score | run | configError
    differences: list[Difference] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return case_kind(self.name)

    @property
    def passed(self) -> bool:
        return not self.differences


@plumbing("conformance checker against upstream outputs")
def case_kind(name: str) -> str:
    """The prefix of a case name before its first ``-`` (config, score, run, vol, ...)."""
    return name.split("-", 1)[0]


def _diff(where: str, want: Iterable[str], got: Iterable[str]) -> Difference:
    return Difference(where, tuple(want), tuple(got))


def _status_lines(st: Optional[dict]) -> list[str]:
    """A plugin status (code and reasons) as lines of text."""
    if st is None:
        return ["(none)"]
    reasons = list(st.get("reasons") or [])
    return [str(st.get("code"))] + (reasons if reasons else ["(no reasons)"])


def _same_status(a: dict, b: dict) -> bool:
    return a.get("code") == b.get("code") and list(a.get("reasons") or []) == list(b.get("reasons") or [])


def _presence_diff(where: str, exp: Optional[dict], got: Optional[dict], absent: str,
                   present: Callable[[dict], str]) -> Difference:
    """A node one side has and the other lacks."""
    def line(v: Optional[dict]) -> list[str]:
        return [absent] if v is None else [present(v)]
    return _diff(where, line(exp), line(got))


# --- score mode -------------------------------------------------------------------------------


@plumbing("conformance checker against upstream outputs")
def compare_score(exp: dict, got: dict) -> list[Difference]:
    out: list[Difference] = []
    ef, gf = exp.get("filter") or {}, got.get("filter") or {}
    for node in sorted(set(ef) | set(gf)):
        e, g = ef.get(node), gf.get(node)
        if e is None or g is None:
            out.append(_presence_diff(f"filter, node {node}", e, g, "(not filtered)",
                                      lambda v: f"filtered: {v.get('status')}"))
            continue
        if e.get("status") != g.get("status"):
            out.append(_diff(f"filter, node {node}: verdict", [str(e.get("status"))], [str(g.get("status"))]))
        ep, gp = e.get("plugins") or {}, g.get("plugins") or {}
        # The plugins that ran are compared too: a PreFilter Skip, or an earlier
        # plugin's failure, keeps a Filter plugin from running on the node.
        for plugin in sorted(set(gp) - set(ep)):
            out.append(_diff(f"filter, node {node}, {plugin}", ["(did not run)"], _status_lines(gp[plugin])))
        for plugin, ev in ep.items():
            gv = gp.get(plugin)
            if gv is None:
                out.append(_diff(f"filter, node {node}, {plugin}", _status_lines(ev), ["(did not run)"]))
            elif not _same_status(ev, gv):
                out.append(_diff(f"filter, node {node}, {plugin}", _status_lines(ev), _status_lines(gv)))
    es, gs = exp.get("scores") or {}, got.get("scores") or {}
    for node in sorted(set(es) | set(gs)):
        e, g = es.get(node), gs.get(node)
        if e is None or g is None:
            out.append(_presence_diff(f"scores, node {node}", e, g, "(not scored)",
                                      lambda v: f"scored, total {v.get('total')}"))
            continue
        ep, gp = e.get("plugins") or {}, g.get("plugins") or {}
        for plugin in sorted(set(gp) - set(ep)):
            out.append(_diff(f"score, node {node}, {plugin}", ["(did not score)"], [str(gp[plugin])]))
        for plugin, ev in ep.items():
            if gp.get(plugin) != ev:
                gv = gp.get(plugin)
                out.append(_diff(f"score, node {node}, {plugin}", [str(ev)],
                                 ["(did not score)" if plugin not in gp else str(gv)]))
        if e.get("total") != g.get("total"):
            out.append(_diff(f"score, node {node}: total", [str(e.get("total"))], [str(g.get("total"))]))
    eb, gb = sorted(exp.get("best") or []), sorted(got.get("best") or [])
    if eb != gb:
        out.append(_diff("best nodes", [", ".join(eb) or "(none)"], [", ".join(gb) or "(none)"]))
    return out + compare_prefilter(exp, got)


@plumbing("conformance checker against upstream outputs")
def compare_prefilter(exp: dict, got: dict) -> list[Difference]:
    """PreFilter rejections must agree by plugin, code and reasons; Skip entries are ignored."""
    want = {k: v for k, v in (exp.get("preFilter") or {}).items() if v.get("code") != "Skip"}
    have = {k: v for k, v in (got.get("preFilter") or {}).items() if v.get("code") != "Skip"}
    out = []
    for plugin in sorted(set(want) | set(have)):
        e, g = want.get(plugin), have.get(plugin)
        if e is None or g is None or not _same_status(e, g):
            label = plugin if plugin else '"" (the framework, no plugin)'
            out.append(_diff(f"preFilter, {label}",
                             _status_lines(e) if e else ["(no rejection)"],
                             _status_lines(g) if g else ["(no rejection)"]))
    return out


# --- run mode ---------------------------------------------------------------------------------

Outcome = tuple[Optional[str], Optional[str], Optional[str]]  # node, message, nominated node


def _outcome(obj: dict) -> tuple[tuple, tuple]:
    placements = tuple(sorted(
        (p.get("pod"), p.get("node"), p.get("message"), p.get("nominatedNode"))
        for p in obj.get("placements") or []))
    return placements, tuple(sorted(obj.get("victims") or []))


def _outcome_lines(o: Optional[Outcome]) -> list[str]:
    if o is None:
        return ["(not in the answer)"]
    node, message, nominated = o
    lines = [f"node: {node if node is not None else '-'}"]
    if message is not None:
        lines.append(f"message: {message}")
    if nominated is not None:
        lines.append(f"nominated: {nominated}")
    return lines


@plumbing("conformance checker against upstream outputs")
def compare_run(exp: dict, got: dict) -> list[Difference]:
    variants = [exp] + [v for v in exp.get("variants") or [] if isinstance(v, dict)]
    outcomes = [_outcome(v) for v in variants]
    got_placements, got_victims = _outcome(got)
    if (got_placements, got_victims) in outcomes:
        return []
    have = {p[0]: p[1:] for p in got_placements}
    wants = [{p[0]: p[1:] for p in placements} for placements, _ in outcomes]
    pods = set().union(*wants)
    out: list[Difference] = []
    # With several variants (a score tie broken at random), each pod's outcome must be
    # one the real scheduler gave it in some run, and the victims a set it evicted in some run.
    for pod in sorted(pods | set(have), key=str):
        seen = sorted({w.get(pod) for w in wants}, key=str)
        if pod not in have:
            out.append(_diff(f"pod {pod}", _choices(seen), ["(not in the answer)"]))
        elif pod not in pods:
            out.append(_diff(f"pod {pod}", ["(not a pending pod of this case)"], _outcome_lines(have[pod])))
        elif have[pod] not in seen:
            out.append(_diff(f"pod {pod}", _choices(seen), _outcome_lines(have[pod])))
    victim_sets = sorted({v for _, v in outcomes})
    if got_victims not in victim_sets:
        want = [", ".join(v) or "(none)" for v in victim_sets]
        if len(want) > 1:
            want = ["one of:"] + [f"- {w}" for w in want]
        out.append(_diff("victims", want, [", ".join(got_victims) or "(none)"]))
    if len(variants) == 1 and not out:  # e.g. a pod listed twice in the answer
        out.append(_diff("placements", [json.dumps(p) for p in outcomes[0][0]],
                         [json.dumps(p) for p in got_placements]))
    return out


def _choices(seen: list) -> list[str]:
    if len(seen) == 1:
        return _outcome_lines(seen[0])
    lines = ["one of:"]
    for o in seen:
        first, *rest = _outcome_lines(o)
        lines += [f"- {first}"] + [f"  {r}" for r in rest]
    return lines


# --- configuration errors ---------------------------------------------------------------------

_POINTER = re.compile(r"0x[0-9a-fA-F]+")


@plumbing("conformance checker against upstream outputs")
def mask_pointers(msg: Any) -> str:
    """Hide pointer addresses, which Go's %#v prints inside some validation messages."""
    return _POINTER.sub("0x?", str(msg)).strip()


@plumbing("conformance checker against upstream outputs")
def compare_config_error(exp: dict, got: dict) -> list[Difference]:
    want, have = exp.get("configError"), got.get("configError")
    if have is None:
        return [_diff("configError", [str(want)], ["(configuration accepted)"])]
    if mask_pointers(have) != mask_pointers(want):
        return [_diff("configError", [str(want)], [str(have)])]
    return []


# --- the whole comparison ---------------------------------------------------------------------


@plumbing("conformance checker against upstream outputs")
def expected_mode(exp: dict) -> str:
    return "configError" if "configError" in exp else exp.get("mode", "score")


@plumbing("conformance checker against upstream outputs")
def compare(exp: dict, got: dict) -> list[Difference]:
    """Every difference between the real scheduler's answer ``exp`` and the port's ``got``."""
    if "error" in got:
        return [_diff("answer", ["(an answer)"], [f"error: {got['error']}"])]
    mode = expected_mode(exp)
    if mode == "configError":
        return compare_config_error(exp, got)
    if "configError" in got:
        return [_diff("configError", ["(configuration accepted)"], [str(got["configError"])])]
    if mode == "score":
        return compare_score(exp, got)
    return compare_run(exp, got)


@plumbing("conformance checker against upstream outputs")
def case_dirs(root: Path) -> list[Path]:
    """The case folders under ``root`` (those holding an expected.json), by name."""
    return sorted(p for p in root.iterdir() if (p / "expected.json").is_file())


@plumbing("conformance checker against upstream outputs")
def check_case(folder: Path) -> CaseResult:
    """Answer one case folder in this process and compare with its expected.json."""
    exp = json.loads((folder / "expected.json").read_text())
    try:
        got = answer_case(str(folder))
    except Exception as err:  # a crash in one case must not hide the others
        got = {"error": f"{type(err).__name__}: {err}"}
    return CaseResult(folder.name, expected_mode(exp), compare(exp, got))


# --- rendering --------------------------------------------------------------------------------


@plumbing("conformance checker against upstream outputs")
def floor_rate(passed: int, total: int) -> float:
    """The pass rate in percent, rounded down to one decimal (so --min with it passes)."""
    return (1000 * passed // total) / 10 if total else 0.0


@plumbing("conformance checker against upstream outputs")
def summary_line(results: Sequence[CaseResult]) -> str:
    passed = sum(r.passed for r in results)
    return f"conformance: {passed}/{len(results)} cases pass ({floor_rate(passed, len(results)):.1f}%)"


@plumbing("conformance checker against upstream outputs")
def pass_table(results: Sequence[CaseResult]) -> str:
    """Pass counts by mode, then by kind."""
    def rows(title: str, keys: list[str], key_of) -> list[list[str]]:
        out = [[title, "pass", "total", "%"]]
        for k in keys:
            group = [r for r in results if key_of(r) == k]
            if group:
                p = sum(r.passed for r in group)
                out.append([f"  {k}", str(p), str(len(group)), f"{floor_rate(p, len(group)):.1f}"])
        return out

    modes = [m for m in MODES] + sorted({r.mode for r in results} - set(MODES))
    kinds = sorted({r.kind for r in results})
    table = rows("by mode", modes, lambda r: r.mode) + [[""] * 4] + rows("by kind", kinds, lambda r: r.kind)
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    lines = []
    for row in table:
        if not any(row):
            lines.append("")
            continue
        lines.append("  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]))
    return "\n".join(lines)


@plumbing("conformance checker against upstream outputs")
def failure_line(r: CaseResult) -> str:
    n = len(r.differences)
    first = r.differences[0]
    return f"FAIL {r.name} ({r.mode}, {n} difference{'s' if n != 1 else ''}): {first.where}"


@plumbing("conformance checker against upstream outputs")
def side_by_side(r: CaseResult, width: int = 100) -> str:
    """The differences of one case, each as two columns: the real scheduler | the port."""
    col = max(20, (width - 7) // 2)
    lines = [f"--- {r.name} ({r.mode}): {len(r.differences)} difference(s)"]
    lines.append(f"    {REAL:<{col}} | {PORT}")
    for d in r.differences:
        lines.append(f"  {d.where}")
        left = _wrap(d.want, col)
        right = _wrap(d.got, col)
        for i in range(max(len(left), len(right))):
            a = left[i] if i < len(left) else ""
            b = right[i] if i < len(right) else ""
            lines.append(f"    {a:<{col}} | {b}".rstrip())
    return "\n".join(lines)


def _wrap(texts: Sequence[str], width: int) -> list[str]:
    out: list[str] = []
    for t in texts:
        indent = "  " if t.startswith(("- ", "  ")) else ""
        out += textwrap.wrap(t, width, subsequent_indent=indent + "  ", break_on_hyphens=False) or [""]
    return out


@plumbing("conformance checker against upstream outputs")
def report(results: Sequence[CaseResult], verbose: bool = False, width: int = 100) -> str:
    failures = [r for r in results if not r.passed]
    parts = [pass_table(results)]
    if failures:
        parts.append("\n".join(failure_line(r) for r in failures))
    if verbose and failures:
        parts.append("\n\n".join(side_by_side(r, width) for r in failures))
    parts.append(summary_line(results))
    return "\n\n".join(parts)


# --- the command ------------------------------------------------------------------------------


class _CountingHandler(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@plumbing("conformance checker against upstream outputs")
def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("names", nargs="*", metavar="NAME", help="case names to check (default: all)")
    ap.add_argument("--cases", metavar="DIR", help="folder of case folders (default: data/conformance/cases)")
    ap.add_argument("--min", type=float, default=0.0, metavar="P", help="pass rate (%%) needed for exit 0")
    ap.add_argument("-v", "--verbose", action="store_true", help="show the differences of every failing case")


@plumbing("conformance checker against upstream outputs")
def conformance_command(args: argparse.Namespace) -> int:
    root = Path(args.cases) if args.cases else default_cases_dir()
    if not root.is_dir():
        print(f"conformance: {root}: no such folder", file=sys.stderr)
        return EXIT_USAGE
    dirs = case_dirs(root)
    if args.names:
        known = {d.name for d in dirs}
        unknown = [n for n in args.names if n not in known]
        if unknown:
            print(f"conformance: no case named {', '.join(unknown)} under {root}", file=sys.stderr)
            return EXIT_USAGE
        dirs = [d for d in dirs if d.name in set(args.names)]
    if not dirs:
        print(f"conformance: no case folders (with an expected.json) under {root}", file=sys.stderr)
        return EXIT_USAGE
    show_progress = sys.stderr.isatty()
    start = time.perf_counter()
    results = []
    # The loader's warnings (objects of kinds the port does not read) are counted, not printed.
    skipped = _CountingHandler()
    loader_log = logging.getLogger("ksched_edu.api.loader")
    loader_log.addHandler(skipped)
    propagate, loader_log.propagate = loader_log.propagate, False
    try:
        for i, d in enumerate(dirs, 1):
            if show_progress:
                print(f"\ranswering {i}/{len(dirs)}: {d.name[:50]:<50}", end="", file=sys.stderr, flush=True)
            results.append(check_case(d))
    finally:
        loader_log.removeHandler(skipped)
        loader_log.propagate = propagate
    if show_progress:
        print("\r" + " " * 72 + "\r", end="", file=sys.stderr, flush=True)
    print(f"{len(results)} case(s) from {root}, answered in {time.perf_counter() - start:.1f} s")
    if skipped.count:
        print(f"({skipped.count} object(s) skipped while loading: kinds the port does not read)")
    print()
    width = shutil.get_terminal_size((100, 24)).columns
    print(report(results, verbose=args.verbose or bool(args.names), width=width))
    passed = sum(r.passed for r in results)
    return 0 if 100.0 * passed / len(results) >= args.min else 1


@plumbing("conformance checker against upstream outputs")
def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ksched_edu conformance")
    add_arguments(ap)
    return conformance_command(ap.parse_args(argv))
