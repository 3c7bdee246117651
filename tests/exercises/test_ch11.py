"""The check of chapter 11 (check_gang_gpu), against a table of the plugins a learner might write.

``GangGPU`` below is the chapter's solution; every other row changes one method
the way a learner might get it wrong (a wrong status code, a wrong type, a
missing pair, a score out of range, a Permit that never waits or never lets the
gang go, a queue sort that splits gangs or is not a consistent order, a Score
that places every gang on NVLink but makes them wait longer than the stock
profile, a placeholder, an endless loop) and names a word the hint must contain.
A check returns its verdict, prints exactly one line and never raises
(tests/exercises/verdicts.py).
"""
from __future__ import annotations

import time
from typing import Any, Callable, NamedTuple, Optional

import pytest

from ksched_edu import exercises
from ksched_edu.api.podgroup import POD_GROUP_LABEL
from ksched_edu.framework.interface import MAX_NODE_SCORE, Code, Status, new_status
from ksched_edu.framework.runtime import pod_priority
from ksched_edu.gpu.plugins.gpu_topology import PRE_FILTER_STATE_KEY, GPUTopology, GPUTopologyArgs, gpus_in_use
from ksched_edu.gpu.search import Constraint, best_subset

from .verdicts import assert_row, endless, not_written

pytestmark = pytest.mark.ch11

GANG_SET = 4
PERMIT_TIMEOUT = 60.0


class GangGPU(GPUTopology):
    """The chapter's solution."""

    def name(self) -> str:
        return "GangGPU"

    def less(self, a: Any, b: Any) -> bool:
        def key(info: Any) -> tuple:
            group = info.pod.metadata.labels.get(POD_GROUP_LABEL)
            pg = self.handle.object_lister().get("PodGroup", info.pod.metadata.namespace, group) if group else None
            since = pg.metadata.creation_timestamp if pg is not None else info.initial_attempt_timestamp
            return -pod_priority(info.pod), since, info.pod.key

        return key(a) < key(b)

    def pre_filter(self, state: Any, pod: Any) -> Any:
        group = pod.metadata.labels.get(POD_GROUP_LABEL)
        if group:
            lister = self.handle.object_lister()
            pg = lister.get("PodGroup", pod.metadata.namespace, group)
            members = [p for p in lister.list("Pod", pod.metadata.namespace)
                       if p.metadata.labels.get(POD_GROUP_LABEL) == group]
            need = pg.spec.min_member if pg is not None else 1
            if pg is None or len(members) < need:
                return None, new_status(Code.UnschedulableAndUnresolvable,
                                        f"gang {group}: {len(members)} of {need} members exist")
        return super().pre_filter(state, pod)

    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        req = state.read(PRE_FILTER_STATE_KEY)
        _, top = self.catalog.for_node(node_info.node())
        if top is None:
            return new_status(Code.UnschedulableAndUnresolvable, "node has no GPU topology")
        if best_subset(top, (1 << len(top.gpus)) - 1, req.count, req.constraint) is None:
            return new_status(Code.UnschedulableAndUnresolvable, "no such GPU set on this node, even idle")
        gpus = gpus_in_use(node_info, top, self.ledger)
        if gpus.free_count < req.count or best_subset(top, gpus.free_mask, req.count, req.constraint) is None:
            return new_status(Code.Unschedulable, "no such GPU set free now")
        return None

    def score(self, state: Any, pod: Any, node_name: str) -> Any:
        req = state.read(PRE_FILTER_STATE_KEY)
        info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        _, top = self.catalog.for_node(info.node())
        gpus = gpus_in_use(info, top, self.ledger)
        used_after = len(top.gpus) - gpus.free_count + req.count
        packed = MAX_NODE_SCORE * used_after // len(top.gpus)
        keeps_set = best_subset(top, gpus.free_mask, GANG_SET, Constraint(nvlink=True)) is not None
        if not req.constraint.nvlink and keeps_set:
            return packed // 2, None
        return packed, None

    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        group = pod.metadata.labels.get(POD_GROUP_LABEL)
        if not group:
            return None, 0.0
        pg = self.handle.object_lister().get("PodGroup", pod.metadata.namespace, group)
        placed = sum(1 for info in self.handle.snapshot_shared_lister().node_infos().list() for p in info.pods
                     if p.pod.metadata.labels.get(POD_GROUP_LABEL) == group and p.pod.spec.node_name)
        if placed + 1 < pg.spec.min_member:
            return new_status(Code.Wait), PERMIT_TIMEOUT
        self.handle.iterate_over_waiting_pods(
            lambda wp: wp.allow(self.name()) if wp.pod.metadata.labels.get(POD_GROUP_LABEL) == group else None)
        return None, 0.0




def _is_keep(status: Any) -> bool:
    return status is None


# --- wrong Filters ------------------------------------------------------------------------


class FilterBool(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        return _is_keep(super().filter(state, pod, node_info))


class FilterText(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        s = super().filter(state, pod, node_info)
        return None if s is None else "no NVLink set here"


class FilterBareCode(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        s = super().filter(state, pod, node_info)
        return None if s is None else s.code


class FilterAlwaysUnschedulable(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        s = super().filter(state, pod, node_info)
        return None if s is None else new_status(Code.Unschedulable, *s.reasons)


class FilterAlwaysUnresolvable(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        s = super().filter(state, pod, node_info)
        return None if s is None else new_status(Code.UnschedulableAndUnresolvable, *s.reasons)


class FilterCountsOnly(GangGPU):
    """Searches every GPU of the node, as if none were in use."""

    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        req = state.read(PRE_FILTER_STATE_KEY)
        _, top = self.catalog.for_node(node_info.node())
        if top is None or best_subset(top, (1 << len(top.gpus)) - 1, req.count, req.constraint) is None:
            return new_status(Code.UnschedulableAndUnresolvable, "never")
        return None


class FilterNoConstraint(GangGPU):
    """Counts free GPUs and forgets the NVLink constraint."""

    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        req = state.read(PRE_FILTER_STATE_KEY)
        _, top = self.catalog.for_node(node_info.node())
        if gpus_in_use(node_info, top, self.ledger).free_count < req.count:
            return new_status(Code.Unschedulable, "not enough free GPUs")
        return None


class FilterAlwaysNVLink(GangGPU):
    """Asks every pod for NVLink, the inference pods too."""

    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        req = state.read(PRE_FILTER_STATE_KEY)
        _, top = self.catalog.for_node(node_info.node())
        if best_subset(top, (1 << len(top.gpus)) - 1, max(req.count, 2), Constraint(nvlink=True)) is None:
            return new_status(Code.UnschedulableAndUnresolvable, "no NVLink")
        return super().filter(state, pod, node_info)


class FilterNoReason(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        s = super().filter(state, pod, node_info)
        return None if s is None else Status(s.code)


class FilterError(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        return Status(Code.Error, ["topology lookup failed"])


class FilterStub(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        raise NotImplementedError("your code here")


class FilterEndless(GangGPU):
    def filter(self, state: Any, pod: Any, node_info: Any) -> Any:
        return endless()


# --- wrong PreFilters ----------------------------------------------------------------------


class PreFilterIgnoresGangs(GangGPU):
    def pre_filter(self, state: Any, pod: Any) -> Any:
        return GPUTopology.pre_filter(self, state, pod)


class PreFilterUnschedulable(GangGPU):
    def pre_filter(self, state: Any, pod: Any) -> Any:
        result, status = super().pre_filter(state, pod)
        if status is not None and status.code == Code.UnschedulableAndUnresolvable:
            return result, new_status(Code.Unschedulable, *status.reasons)
        return result, status


class PreFilterStatusOnly(GangGPU):
    def pre_filter(self, state: Any, pod: Any) -> Any:
        return super().pre_filter(state, pod)[1]


# --- wrong Scores --------------------------------------------------------------------------


class ScoreOutOfRange(GangGPU):
    def score(self, state: Any, pod: Any, node_name: str) -> Any:
        value, status = super().score(state, pod, node_name)
        return value * 10, status


class ScoreFloat(GangGPU):
    def score(self, state: Any, pod: Any, node_name: str) -> Any:
        value, status = super().score(state, pod, node_name)
        return value / 3, status


class ScoreBare(GangGPU):
    def score(self, state: Any, pod: Any, node_name: str) -> Any:
        return super().score(state, pod, node_name)[0]


class ScorePacksOnly(GangGPU):
    """Packs every pod, without the lower score where an NVLink set of 4 would break: every gang runs
    whole on NVLink, but waits longer in all than under the stock profile."""

    def score(self, state: Any, pod: Any, node_name: str) -> Any:
        req = state.read(PRE_FILTER_STATE_KEY)
        info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        _, top = self.catalog.for_node(info.node())
        gpus = gpus_in_use(info, top, self.ledger)
        used_after = len(top.gpus) - gpus.free_count + req.count
        return MAX_NODE_SCORE * used_after // len(top.gpus), None


class ScoreSlow(GangGPU):
    """Right, but each call takes a fifth of a second: the calls share one budget."""

    def score(self, state: Any, pod: Any, node_name: str) -> Any:
        time.sleep(0.2)
        return super().score(state, pod, node_name)


class ScoreSpread(GangGPU):
    """LeastAllocated by GPUs: the emptiest node first, for every pod."""

    def score(self, state: Any, pod: Any, node_name: str) -> Any:
        value, status = super().score(state, pod, node_name)
        req = state.read(PRE_FILTER_STATE_KEY)
        info = self.handle.snapshot_shared_lister().node_infos().get(node_name)
        _, top = self.catalog.for_node(info.node())
        free_after = gpus_in_use(info, top, self.ledger).free_count - req.count
        return MAX_NODE_SCORE * max(free_after, 0) // len(top.gpus), None


# --- wrong Permits -------------------------------------------------------------------------


class PermitNeverWaits(GangGPU):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        return None, 0.0


class PermitNoTimeout(GangGPU):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        status, timeout = super().permit(state, pod, node_name)
        return status, 0.0


class PermitStatusOnly(GangGPU):
    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        return super().permit(state, pod, node_name)[0]


class PermitWaitsForEveryone(GangGPU):
    """Every pod waits, the inference pods too."""

    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        status, timeout = super().permit(state, pod, node_name)
        return (new_status(Code.Wait), PERMIT_TIMEOUT) if status is None and timeout == 0.0 and \
            not pod.metadata.labels.get(POD_GROUP_LABEL) else (status, timeout)


class PermitEndlessOnceComplete(GangGPU):
    """Loops forever when a gang completes: never in the probes, only in the workload's run."""

    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        status, timeout = super().permit(state, pod, node_name)
        if status is None and pod.metadata.labels.get(POD_GROUP_LABEL):
            endless()
        return status, timeout


class PermitNeverAllows(GangGPU):
    """Waits until the gang is complete but never lets the waiting members go."""

    def permit(self, state: Any, pod: Any, node_name: str) -> Any:
        group = pod.metadata.labels.get(POD_GROUP_LABEL)
        if not group:
            return None, 0.0
        return new_status(Code.Wait), PERMIT_TIMEOUT


# --- wrong QueueSorts ----------------------------------------------------------------------


class LessIgnoresPriority(GangGPU):
    def less(self, a: Any, b: Any) -> bool:
        return (a.timestamp, a.pod.key) < (b.timestamp, b.pod.key)


class LessSplitsGangs(GangGPU):
    def less(self, a: Any, b: Any) -> bool:
        if pod_priority(a.pod) != pod_priority(b.pod):
            return pod_priority(a.pod) > pod_priority(b.pod)
        return (a.timestamp, a.pod.key) < (b.timestamp, b.pod.key)


class LessByGroupName(GangGPU):
    """The chapter's first answer: gang members by group name, other pods by arrival. Not an order:
    lonely-0 (gang probe-lonely, t=1) < plain (t=2) < full-0 (gang probe-full, t=3) < lonely-0."""

    def less(self, a: Any, b: Any) -> bool:
        if pod_priority(a.pod) != pod_priority(b.pod):
            return pod_priority(a.pod) > pod_priority(b.pod)
        ga, gb = a.pod.metadata.labels.get(POD_GROUP_LABEL, ""), b.pod.metadata.labels.get(POD_GROUP_LABEL, "")
        if ga != gb and ga and gb:
            return ga < gb
        return (a.timestamp, a.pod.key) < (b.timestamp, b.pod.key)


class LessOrEqual(GangGPU):
    """<= instead of <: a pod goes before itself."""

    def less(self, a: Any, b: Any) -> bool:
        return not GangGPU.less(self, b, a)


class LessGangsTie(GangGPU):
    """Members of two gangs compare equal to each other, but not to a pod in no gang."""

    def less(self, a: Any, b: Any) -> bool:
        if pod_priority(a.pod) != pod_priority(b.pod):
            return pod_priority(a.pod) > pod_priority(b.pod)
        ga, gb = a.pod.metadata.labels.get(POD_GROUP_LABEL), b.pod.metadata.labels.get(POD_GROUP_LABEL)
        if ga and gb:
            return False
        return a.timestamp < b.timestamp


class LessWithinASecond(GangGPU):
    """Arrivals less than a second apart count as simultaneous: ties that do not chain."""

    def less(self, a: Any, b: Any) -> bool:
        if pod_priority(a.pod) != pod_priority(b.pod):
            return pod_priority(a.pod) > pod_priority(b.pod)
        return a.timestamp + 1.0 < b.timestamp


class LessEndless(GangGPU):
    def less(self, a: Any, b: Any) -> bool:
        return endless()


class LessReturnsNone(GangGPU):
    def less(self, a: Any, b: Any) -> Any:
        return None


# --- wrong names and shapes ----------------------------------------------------------------


class Misnamed(GangGPU):
    def name(self) -> str:
        return "Gang"


class NameStub(GangGPU):
    def name(self) -> str:
        raise NotImplementedError("your code here")


class NoPermit(GPUTopology):
    """A GPUTopology with a new name and no gang methods."""

    def name(self) -> str:
        return "GangGPU"


def factory(cls: type) -> Callable[[Any, Any], Any]:
    return lambda args, handle: cls(GPUTopologyArgs(), handle)


class Row(NamedTuple):
    id: str
    answer: Any
    passes: bool
    hint: Optional[str] = None  # a word the hint must contain (a failing row)
    says: Optional[str] = None  # a word the verdict must contain, anywhere
    short: bool = False  # lower the wall-clock limit for this row


ROWS = [
    Row("right", factory(GangGPU), True, says="6 gangs placed whole"),
    Row("filter returns a bool", factory(FilterBool), False, "return None",
        says="Filter returned bool False on pcie-a"),
    Row("filter returns a string", factory(FilterText), False, "Status", says="str"),
    Row("filter returns a bare Code", factory(FilterBareCode), False, "new_status(Code.UnschedulableAndUnresolvable",
        says="bare Code"),
    Row("filter: Unschedulable where nothing could ever fit", factory(FilterAlwaysUnschedulable), False,
        "UnschedulableAndUnresolvable", says="pcie-a"),
    Row("filter: UnschedulableAndUnresolvable on a busy node", factory(FilterAlwaysUnresolvable), False,
        "Code.Unschedulable", says="a100-a"),
    Row("filter forgets the GPUs in use", factory(FilterCountsOnly), False, "gpus_in_use", says="a100-a"),
    Row("filter forgets the NVLink constraint", factory(FilterNoConstraint), False, "best_subset", says="pcie-a"),
    Row("filter asks NVLink of every pod", factory(FilterAlwaysNVLink), False, "req.constraint", says="solo"),
    Row("filter rejects without a reason", factory(FilterNoReason), False, "reason"),
    Row("filter returns an Error", factory(FilterError), False, "Code.Error", says="Code.Error"),
    Row("filter not written", factory(FilterStub), False, "PRE_FILTER_STATE_KEY", says="not written yet"),
    Row("filter never returns", factory(FilterEndless), False, "PRE_FILTER_STATE_KEY", says="never ends",
        short=True),
    Row("pre_filter lets an incomplete gang through", factory(PreFilterIgnoresGangs), False, "min_member"),
    Row("pre_filter: Unschedulable for an incomplete gang", factory(PreFilterUnschedulable), False,
        "UnschedulableAndUnresolvable"),
    Row("pre_filter returns a Status, not a pair", factory(PreFilterStatusOnly), False, "pair"),
    Row("score out of range", factory(ScoreOutOfRange), False, "MAX_NODE_SCORE"),
    Row("score is a float", factory(ScoreFloat), False, "whole number"),
    Row("score returns a number, not a pair", factory(ScoreBare), False, "pair"),
    Row("score spreads every pod", factory(ScoreSpread), False, "NVLink set", says="waited 690 s in all"),
    Row("score takes 0.2 s a call (one budget for the whole check)", factory(ScoreSlow), False,
        "all of your methods share", says="score never ends: it was still running when your code had used the 1 s",
        short=True),
    Row("score packs, and breaks NVLink sets for single GPUs", factory(ScorePacksOnly), False, "gang waits",
        says="waited 654 s in all, 630 s under the stock profile"),
    Row("permit never waits", factory(PermitNeverWaits), False, "Code.Wait"),
    Row("permit waits without a timeout", factory(PermitNoTimeout), False, "timeout"),
    Row("permit returns a Status, not a pair", factory(PermitStatusOnly), False, "pair"),
    Row("permit holds the inference pods too", factory(PermitWaitsForEveryone), False, "only gang members"),
    Row("permit never lets the gang go", factory(PermitNeverAllows), False, "allow"),
    Row("permit never returns once a gang is complete", factory(PermitEndlessOnceComplete), False,
        "must return at once", says="permit (Permit) never ends", short=True),
    Row("less ignores priority", factory(LessIgnoresPriority), False, "pod_priority"),
    Row("less splits a gang", factory(LessSplitsGangs), False, "creation_timestamp", says="split"),
    Row("less returns None", factory(LessReturnsNone), False, "bool"),
    Row("less: gangs by group name, others by arrival (not an order)", factory(LessByGroupName), False,
        "one consistent order", says="puts lonely-0 before plain and plain before full-0, but not lonely-0"),
    Row("less is <=", factory(LessOrEqual), False, "coscheduling.go L125-137", says="cannot go before itself"),
    Row("less: members of two gangs tie", factory(LessGangsTie), False, "one key", says="not a consistent order"),
    Row("less: arrivals within a second tie", factory(LessWithinASecond), False, "one key",
        says="finds lonely-0 and plain equal, plain and full-0 equal, but not lonely-0 and full-0"),
    Row("less never returns", factory(LessEndless), False, "True when the first pod",
        says="less (QueueSort) never ends", short=True),
    Row("another name", factory(Misnamed), False, "name()"),
    Row("name() not written", factory(NameStub), False, "name()"),
    Row("no gang methods", factory(NoPermit), False, "def less"),
    Row("factory not written", not_written, False, "GangGPU"),
    Row("factory returns nothing", lambda args, handle: None, False, "return GangGPU", says="returned None"),
    Row("factory never returns", endless, False, "(args, handle)", says="never ends", short=True),
    Row("not a function", "GangGPU", False, "new_gang_gpu"),
    Row("None", None, False, "new_gang_gpu"),
    Row("...", ..., False, "new_gang_gpu"),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_check_gang_gpu(row: Row, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_row(capsys, monkeypatch, exercises.check_gang_gpu, (row.answer,), row)


def test_the_check_takes_a_time_limit() -> None:
    import inspect

    assert "seconds" in inspect.signature(exercises.check_gang_gpu).parameters


# --- the measures chapter 10 reads (ksched_edu.viz.capstone) ---------------------------------


def _stock_simulation() -> Any:
    from ksched_edu.exercises.ch11 import CLUSTER, STOCK_CONFIG, WORKLOAD, _simulation

    return _simulation(STOCK_CONFIG, None, [CLUSTER, WORKLOAD])


def test_sampling_a_run_does_not_change_it() -> None:
    from ksched_edu.trace import BindEvent
    from ksched_edu.viz.capstone import measure

    stepped, whole = _stock_simulation(), _stock_simulation()
    measure("stock", stepped, every=5.0)
    whole.run()
    binds = [[(e.time, e.pod, e.node, e.kind) for e in sim.recorder.of(BindEvent)] for sim in (stepped, whole)]
    assert binds[0] == binds[1] and binds[0]


@pytest.mark.parametrize("used,total,stranded", [(0, 8, 0), (3, 8, 5), (8, 8, 0), (1, 4, 3)],
                         ids=["idle node", "partly used", "full node", "workstation"])
def test_stranded_gpus_are_the_free_ones_of_partly_used_nodes(used: int, total: int, stranded: int) -> None:
    from ksched_edu.viz.capstone import GPUSample

    assert GPUSample(0.0, "n", used, total).stranded == stranded


@pytest.mark.parametrize("topology,sets", [("dgx-a100", 2), ("dgx-1-v100", 2), ("pcie-2socket-8gpu", 0),
                                           ("workstation-4gpu", 0)])
def test_disjoint_nvlink_sets_of_four(topology: str, sets: int) -> None:
    from ksched_edu.gpu.catalog import TopologyCatalog
    from ksched_edu.viz.capstone import disjoint_sets

    found = disjoint_sets(TopologyCatalog().get(topology), 4, Constraint(nvlink=True))
    assert len(found) == sets and len({g for s in found for g in s}) == 4 * sets


def test_a_gang_that_never_completes_has_no_wait() -> None:
    from ksched_edu.viz.capstone import GangPlacement

    assert GangPlacement("default/g", 2, 10.0, None, ("n1",)).wait is None
    assert GangPlacement("default/g", 2, 10.0, 25.0, ("n1", "n2")).wait == 15.0
