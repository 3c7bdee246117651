"""The SVG pictures of the machine (ksched_edu/viz/machine.py): each holds what the library holds.

Every picture is checked the same way (table ``PICTURES``): the SVG parses, is no wider
than a notebook, has no text under 11 px and none leaving its box by the width estimate,
and is the same bytes when drawn again. Then each picture against the library: the
handlers and the calls they make, the profile's plugins (a changed profile changes the
picture), every move the queue's code records and its constants, every status code at
every extension point probed on the runtime itself, and the cycles of a real trace.
"""
from __future__ import annotations

import ast
import inspect
import re
import xml.etree.ElementTree as ET
from typing import Any, Callable, Optional

import pytest

from ksched_edu import eventhandlers
from ksched_edu.api.loader import load_cluster
from ksched_edu.config.loader import default_config, load_config_data
from ksched_edu.config.types import KubeSchedulerProfile, Plugin, Plugins, PluginSet
from ksched_edu.framework.cycle_state import CycleState
from ksched_edu.framework.interface import Code, Status, code_of, new_status
from ksched_edu.framework.runtime import Framework, new_waiting_pod
from ksched_edu.framework.types import NodeInfo, PodInfo, QueuedPodInfo
from ksched_edu.internal.queue import events as queue_events
from ksched_edu.internal.queue import scheduling_queue as sq
from ksched_edu.resources import data_path
from ksched_edu.scheduler import Scheduler
from ksched_edu.sim.simulation import Simulation
from ksched_edu.trace import POINTS, BindEvent, CycleEvent, Recorder
from ksched_edu.viz import machine
from ksched_edu.viz.readers import queue_moves as trace_moves
from ksched_edu.viz.svgdraw import MIN_FONT, text_width, wrap
from tests.builders import make_node, make_pod

MAX_WIDTH = 900


def overlap_sim(**options: Any) -> Simulation:
    """Chapter 05, section 6: a, b, c; b's scheduling cycle runs while a's binding cycle is in flight."""
    return Simulation(load_cluster(data_path("clusters/bind-overlap.yaml")), default_config(), seed=1,
                      recorder=Recorder(), **options).run()


def arrivals_sim() -> Simulation:
    """Chapter 05, section 5: pods 0.2 s apart, each binding taking 0.5 s."""
    from ksched_edu.sim.workload import load_workload

    workload = load_workload([data_path("clusters/three-nodes.yaml"), data_path("workloads/arrivals-every-200ms.yaml")])
    return Simulation.from_workload(workload, default_config(), seed=1, recorder=Recorder(), bind_latency=0.5).run()


CUSTOM_PROFILE = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: ImageLocality
      enabled:
      - name: NodeResourcesFit
        weight: 5
    filter:
      disabled:
      - name: NodePorts
"""


@pytest.fixture(scope="module")
def overlap():
    return overlap_sim()


@pytest.fixture(scope="module")
def custom_scheduler():
    return Scheduler(load_config_data(CUSTOM_PROFILE))


# --- every picture: well-formed, readable, deterministic -------------------------------------------

PICTURES: dict[str, Callable[[], Any]] = {
    "pod_path": lambda: machine.pod_path(),
    "queue_moves": lambda: machine.queue_moves(),
    "extension_points": lambda: machine.extension_points(),
    "cycles_timeline": lambda: machine.cycles_timeline(overlap_sim(), until=1.0),
    "cycles_timeline, whole run": lambda: machine.cycles_timeline(overlap_sim()),
    "cycles_timeline, arrivals": lambda: machine.cycles_timeline(arrivals_sim()),
    "pod_path, two profiles": lambda: machine.pod_path(load_config_data(
        data_path("configs/two-profiles.yaml").read_text()), profile="binpacking"),
    "extension_points, custom": lambda: machine.extension_points(load_config_data(CUSTOM_PROFILE)),
    "queue_moves, bare": lambda: machine.queue_moves(table=False, events=False),
}


@pytest.fixture(scope="module", params=sorted(PICTURES))
def picture(request):
    return request.param, PICTURES[request.param]()


def _svg_root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_the_svg_parses_and_fits_a_notebook(picture):
    name, p = picture
    root = _svg_root(p.svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg", name
    assert float(root.get("width")) <= MAX_WIDTH
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    # Everything drawn lies on the canvas.
    for el in root.iter():
        for attr in ("x", "width"):
            if el.get(attr) is not None and el.tag.endswith(("rect", "text")):
                assert float(el.get(attr)) <= float(root.get("width")) + 0.5, (name, el.attrib)


def test_no_text_is_small_or_leaves_its_box(picture):
    name, p = picture
    sizes = [float(el.get("font-size")) for el in _svg_root(p.svg).iter() if el.get("font-size")]
    assert sizes and min(sizes) >= MIN_FONT
    assert p.text_overflows() == [], name
    # Every drawn text is one the picture recorded (with its width estimate).
    drawn = [el for el in _svg_root(p.svg).iter() if el.tag.endswith("}text")]
    assert len(drawn) == len(p.texts)


def test_the_picture_is_the_same_bytes_when_drawn_again(picture):
    name, p = picture
    again = PICTURES[name]()
    assert again.svg == p.svg


def test_the_picture_displays_in_jupyter(picture):
    _, p = picture
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(p)
    assert data["image/svg+xml"] == p.svg
    assert not re.search(r"0x[0-9a-f]{6,}", data["text/plain"])  # nbval compares it: no address in it


@pytest.mark.parametrize("text, size, bold", [
    ("NodeResourcesBalancedAllocation", 11, False), ("AddUnschedulableIfNotPresent", 11, True),
    ("WWWWmmmm@@", 12, False), ("iiiilll...", 12, False), ("\u2192 unschedulablePods", 11, False),
    ("wait \u2264 15m0s", 11, False), ("#2 job-0 JfI", 12, True),
    ("".join(chr(c) for c in range(32, 127)), 12, False), ("".join(chr(c) for c in range(32, 127)), 12, True),
])
def test_the_width_estimate_is_not_below_dejavu_sans(text, size, bold):
    """The estimate is at least the advance width of DejaVu Sans (the widest usual sans-serif font)."""
    ft2font = pytest.importorskip("matplotlib.ft2font")
    from matplotlib import font_manager

    font = ft2font.FT2Font(font_manager.findfont(font_manager.FontProperties(
        family="DejaVu Sans", weight="bold" if bold else "normal")))
    font.set_size(100, 72)  # unhinted advances, as a browser lays text out, scaled to ``size``
    advance = sum(font.load_char(ord(ch)).horiAdvance for ch in text) / 64 * size / 100
    assert text_width(text, size, bold) >= advance


def test_wrap_keeps_every_word_and_the_width():
    text = "a move request came during its cycle, or no plugin rejected it"
    lines = wrap(text, 120, 11)
    assert " ".join(lines) == text
    assert all(text_width(line, 11) <= 120 for line in lines)


# --- 1. the path of a pod --------------------------------------------------------------------------

# handler -> (what it calls on the cache, what it calls on the queue), as eventhandlers.py does.
HANDLER_CALLS = [
    ("addPodToCache", ("AddPod",), ("AssignedPodAdded",)),
    ("updatePodInCache", ("UpdatePod",), ("AssignedPodUpdated",)),
    ("deletePodFromCache", ("RemovePod",), ("moveAllToActiveOrBackoffQueue",)),
    ("addPodToSchedulingQueue", (), ("Add",)),
    ("updatePodInSchedulingQueue", ("IsAssumedPod",), ("Update",)),
    ("deletePodFromSchedulingQueue", (), ("Delete", "moveAllToActiveOrBackoffQueue")),
    ("addNodeToCache", ("AddNode",), ("moveAllToActiveOrBackoffQueue",)),
    ("updateNodeInCache", ("UpdateNode",), ("moveAllToActiveOrBackoffQueue",)),
    ("deleteNodeFromCache", ("RemoveNode",), ()),
    ("onStorageClassAdd", (), ("moveAllToActiveOrBackoffQueue",)),
]


@pytest.fixture(scope="module")
def path_picture():
    return machine.pod_path()


@pytest.mark.ch01
@pytest.mark.parametrize("handler, cache_calls, queue_calls", HANDLER_CALLS)
def test_each_handler_and_what_it_calls_is_read_off_the_code(path_picture, handler, cache_calls, queue_calls):
    found = {h.name: h for h in path_picture.handlers}
    assert (found[handler].cache_calls, found[handler].queue_calls) == (cache_calls, queue_calls)
    informer_text = " ".join(t.text for t in path_picture.texts if t.box == "informer")
    assert handler in informer_text
    for call in cache_calls + queue_calls:
        assert call in informer_text


@pytest.mark.ch01
def test_every_handler_of_eventhandlers_py_is_in_the_picture(path_picture):
    ported = [fn for _, fn in inspect.getmembers(eventhandlers, inspect.isfunction)
              if machine.upstream(fn) is not None and machine.upstream(fn).go.startswith("(*Scheduler).")
              and fn.__module__ == eventhandlers.__name__]
    assert ported
    assert {machine.go_name(fn) for fn in ported} <= {h.name for h in path_picture.handlers}


@pytest.mark.ch01
def test_the_watched_kinds_are_the_ones_a_scheduler_registers(path_picture):
    sched = Scheduler(default_config())
    registered = set(sched.client._watchers)  # the API server's own registration
    assert set(path_picture.watched) == registered
    api_text = " ".join(t.text for t in path_picture.texts if t.box == "api")
    for kind in registered:
        assert kind in api_text


@pytest.mark.ch01
@pytest.mark.parametrize("component, box, calls", [
    ("ScheduleOne", "cache", ("UpdateSnapshot", "AssumePod", "ForgetPod")),
    ("bindingCycle", "cache", ("finishBinding", "ForgetPod")),
    ("ScheduleOne", "queue", ("Pop", "Activate", "Done", "AddUnschedulableIfNotPresent")),
    ("bindingCycle", "queue", ("Activate", "moveAllToActiveOrBackoffQueue", "Done", "AddUnschedulableIfNotPresent")),
])
def test_what_the_loop_and_the_binding_cycle_call(path_picture, component, box, calls):
    held = path_picture.cache_calls if box == "cache" else path_picture.queue_calls
    assert tuple(held[component]) == calls
    text = " ".join(t.text for t in path_picture.texts if t.box == box)
    for call in calls:
        assert call in text


def _framework_text(p) -> str:
    return " ".join(t.text for t in p.texts if t.box == "framework")


@pytest.mark.ch01
def test_the_framework_box_lists_every_plugin_of_the_profile(path_picture):
    fwk = Scheduler(default_config()).profiles["default-scheduler"]
    text = _framework_text(path_picture)
    for point, plugins in fwk.list_plugins().items():
        for name, weight in plugins:
            assert name in text, (point, name)
            if point == "score":
                assert f"{name} \u00d7{weight}" in text


@pytest.mark.ch01
def test_a_changed_profile_changes_the_path_picture(path_picture, custom_scheduler):
    custom = machine.pod_path(custom_scheduler)
    assert "ImageLocality" in _framework_text(path_picture)
    assert "ImageLocality" not in _framework_text(custom)
    assert "NodeResourcesFit \u00d75" in _framework_text(custom)
    assert [n for n, _ in custom.plugins["Filter"]] == [
        n for n, _ in custom_scheduler.profiles["default-scheduler"].list_plugins()["filter"]]
    assert "NodePorts" not in [n for n, _ in custom.plugins["Filter"]]


# --- 2. the scheduling queue's moves -------------------------------------------------------------


def _record_sites() -> list[tuple[str, str, Optional[str]]]:
    """(method, action, target part or None for a variable) of every ``self._record(...)`` in the queue."""
    tree = ast.parse(inspect.getsource(sq))
    sites = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or fn.name == "_record":
            continue
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_record"):
                action = node.args[1].value
                queue = node.args[2]
                if isinstance(queue, ast.Constant):
                    target = machine.TRACE_QUEUE_NAMES.get(queue.value, "gone")
                elif isinstance(queue, ast.Name) and isinstance(getattr(sq, queue.id, None), str):
                    target = machine.TRACE_QUEUE_NAMES[getattr(sq, queue.id)]
                else:
                    target = None
                sites.append((fn.name, action, target))
    return sites


RECORD_SITES = _record_sites()


@pytest.fixture(scope="module")
def moves_picture():
    return machine.queue_moves()


@pytest.mark.ch02
def test_the_queue_records_moves_at_these_sites():
    assert {(fn, action) for fn, action, _ in RECORD_SITES} >= {
        ("add", "add"), ("pop", "pop"), ("flush_backoff_q_completed", "flush"),
        ("move_pods_to_active_or_backoff_queue", "move"), ("_activate", "activate")}


@pytest.mark.ch02
@pytest.mark.parametrize("method, action, target", RECORD_SITES, ids=[f"{m}-{a}-{t}" for m, a, t in RECORD_SITES])
def test_every_move_the_queue_records_is_in_the_picture(moves_picture, method, action, target):
    covering = [m for m in moves_picture.moves
                if m.recorded_by is not None and m.recorded_by.__name__ == method and m.action == action
                and (target is None or target in m.targets)]
    assert covering, (method, action, target)
    text = " ".join(t.text for t in moves_picture.texts if t.box == "movesTable")
    for m in covering:
        assert m.cause in text


@pytest.mark.ch02
def test_every_move_of_the_picture_is_recorded_by_the_queue(moves_picture):
    sites = {(fn, action) for fn, action, _ in RECORD_SITES}
    for m in moves_picture.moves:
        if m.recorded_by is not None:
            assert (m.recorded_by.__name__, m.action) in sites, m


@pytest.mark.ch02
@pytest.mark.parametrize("constant, value", [
    ("flushBackoffQCompleted period", sq.BACKOFF_Q_FLUSH_PERIOD),
    ("flushUnschedulablePodsLeftover period", sq.UNSCHEDULABLE_PODS_FLUSH_PERIOD),
    ("podInitialBackoffDuration", sq.DEFAULT_POD_INITIAL_BACKOFF_DURATION),
    ("podMaxBackoffDuration", sq.DEFAULT_POD_MAX_BACKOFF_DURATION),
    ("podMaxInUnschedulablePodsDuration", sq.DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION),
])
def test_the_queue_constants_are_read_from_the_library(moves_picture, constant, value):
    assert moves_picture.constants[constant] == value
    assert machine.go_duration(value) in moves_picture.svg


@pytest.mark.ch02
@pytest.mark.parametrize("source, expected", [
    (lambda: load_config_data(CUSTOM_PROFILE), {"podInitialBackoffDuration": "2s", "podMaxBackoffDuration": "20s"}),
    (lambda: sq.PriorityQueue(lambda a, b: False, pod_max_in_unschedulable_pods_seconds=60.0),
     {"podMaxInUnschedulablePodsDuration": "1m0s"}),
])
def test_changed_constants_change_the_picture(source, expected):
    p = machine.queue_moves(source())
    for constant, text in expected.items():
        assert machine.go_duration(p.constants[constant]) == text
        assert text in p.svg


@pytest.mark.ch02
def test_the_registered_events_are_the_queues_hint_map(moves_picture):
    hint_map = Scheduler(default_config()).scheduling_queue.queueing_hint_map["default-scheduler"]
    assert [(e.resource, e.plugins) for e in moves_picture.registered] == [
        (event.resource.split("/")[-1], tuple(f.plugin_name for f in fns)) for event, fns in hint_map.items()]
    text = " ".join(t.text for t in moves_picture.texts if t.box == "eventsPanel")
    for e in moves_picture.registered:
        assert f"{e.resource} {e.actions}:" in text
        for plugin in e.plugins:
            assert plugin in text


@pytest.mark.ch02
def test_every_cluster_event_of_events_py_is_listed(moves_picture):
    from ksched_edu.framework.types import ClusterEvent

    labels = [v.label for v in vars(queue_events).values() if isinstance(v, ClusterEvent)]
    assert moves_picture.raised == labels
    panel = " ".join(t.text for t in moves_picture.texts if t.box == "eventsPanel")
    for label in labels:
        assert label in panel


@pytest.mark.ch02
@pytest.mark.parametrize("action, event", [
    ("hints on: QueueImmediately", None), ("Pop", None), ("flushBackoffQCompleted", None),
    ("Activate", None), ("AddUnschedulableIfNotPresent", None), ("flushUnschedulablePodsLeftover", None),
    ("moveAllToActiveOrBackoffQueue", None), ("Update", None), ("Add", None), ("Done", None),
])
def test_each_arrow_names_its_cause(moves_picture, action, event):
    assert any(action in a.label for a in moves_picture.arrows), action


def _runs_with_every_kind_of_move() -> list[Recorder]:
    """Traces that move pods every way the default profile can: the overlap run (requeue to backoffQ and to
    unschedulablePods, flush), its binding-first variant run past five minutes (UnschedulableTimeout), a node
    added for a waiting pod (a cluster event), a gated pod and its update, an activation and a deletion."""
    first = overlap_sim()
    rec = Recorder()
    seq = Simulation(load_cluster(data_path("clusters/bind-overlap.yaml")), default_config(), seed=1, recorder=rec)
    while seq.scheduler.schedule_one():
        seq.scheduler.finish_binding_cycles()
    seq.run(until=400)
    seq.api.create(make_node().name("n9").capacity(cpu="16", memory="32Gi", pods="110").obj())
    seq.run(until=410)
    gated = make_pod().name("g").namespace("default").uid("g").scheduler_name("default-scheduler").scheduling_gates(
        ["wait"]).obj()
    seq.api.create(gated)
    seq.run(until=411)
    q = seq.scheduler.scheduling_queue
    big = make_pod().name("huge").namespace("default").uid("huge").scheduler_name("default-scheduler").req(
        cpu="64").obj()
    seq.api.create(big)
    seq.run(until=420)
    q.activate({"huge": seq.api.get_pod("default", "huge")})
    seq.run(until=421)
    seq.api.delete("Pod", "default", "huge")
    return [first.recorder, rec]


@pytest.mark.ch02
def test_every_move_in_real_runs_is_one_the_picture_holds(moves_picture):
    parts = {"activeQ": "activeQ", "backoffQ": "backoffQ", "unschedulable": "unschedulablePods",
             "inFlight": "inFlight", None: "new"}
    queue_actions = {m.action for m in moves_picture.moves if m.action}
    seen = set()
    for rec in _runs_with_every_kind_of_move():
        for mv in trace_moves(rec):
            if mv.action not in queue_actions:
                continue
            source = parts.get(mv.source, mv.source)
            target = "gone" if mv.target is None else parts.get(mv.target, mv.target)
            covering = [m for m in moves_picture.moves if m.action == mv.action
                        and m.source in (source, "any part") and target in m.targets
                        and (mv.event in m.labels or mv.action in ("move", "gated") or not m.labels)]
            assert covering, mv
            seen.add(mv.action)
    assert seen >= {"add", "pop", "requeue", "flush", "move", "gated", "activate", "delete"}


# --- 3. extension points and status codes ------------------------------------------------------


@pytest.fixture(scope="module")
def points_picture():
    return machine.extension_points()


@pytest.mark.ch03
def test_the_rows_are_the_points_in_the_order_a_pod_meets_them(points_picture):
    points = [r.point for r in points_picture.rows]
    assert set(POINTS) <= set(points)
    expected = [p for p in POINTS if p != "Unreserve"]
    expected.insert(expected.index("PreBind"), "WaitOnPermit")
    assert points == expected + ["Unreserve"]


@pytest.mark.ch03
@pytest.mark.parametrize("source, profile", [
    (None, "default-scheduler"),
    (lambda: load_config_data(CUSTOM_PROFILE), "default-scheduler"),
    (lambda: load_config_data(data_path("configs/two-profiles.yaml").read_text()), "binpacking"),
    (lambda: load_config_data(data_path("configs/default.yaml").read_text()), None),
])
def test_each_row_lists_the_profiles_plugins(source, profile):
    config = source() if source is not None else default_config()
    sched = Scheduler(config)
    p = machine.extension_points(sched, profile)
    fwk = sched.profiles[profile] if profile else next(iter(sched.profiles.values()))
    listed = fwk.list_plugins()
    rows = {r.point: r for r in p.rows}
    for point in POINTS:
        key = machine._LIST_KEYS[point]
        if key in ("normalize_score", "unreserve"):
            continue
        names = [f"{n} \u00d7{w}" if point == "Score" else n for n, w in listed.get(key, [])]
        assert list(rows[point].plugins) == names, point
    assert list(rows["Unreserve"].plugins) == [n for n, _ in reversed(listed.get("reserve", []))]
    assert list(rows["NormalizeScore"].plugins) == [pl.name() for pl in fwk.score_plugins
                                                    if pl.score_extensions() is not None]
    text = " ".join(t.text for t in p.texts if t.box.startswith("plugins:"))
    for row in p.rows:
        for plugin in row.plugins:
            assert plugin.split(" ")[0] in text


@pytest.mark.ch03
def test_a_changed_profile_changes_the_rows(points_picture):
    custom = machine.extension_points(load_config_data(CUSTOM_PROFILE))
    before = {r.point: r.plugins for r in points_picture.rows}
    after = {r.point: r.plugins for r in custom.rows}
    assert "ImageLocality \u00d71" in before["Score"] and not any("ImageLocality" in p for p in after["Score"])
    assert "NodeResourcesFit \u00d75" in after["Score"]
    assert "NodePorts" in before["Filter"] and "NodePorts" not in after["Filter"]
    assert custom.svg != points_picture.svg


@pytest.mark.ch03
def test_every_code_has_a_cell_at_every_point_with_a_status(points_picture):
    for row in points_picture.rows:
        if row.cells is None:
            assert row.note and row.point in machine.NO_STATUS
            continue
        assert list(row.cells) == [c.name for c in Code]
        for code, cell in row.cells.items():
            assert f"{row.point}, {code}: {cell.meaning}" in points_picture.svg  # the cell's tooltip
    assert "15m0s" in points_picture.svg  # the runtime's longest Permit wait (MAX_PERMIT_TIMEOUT)


class Probe:
    """A plugin at every extension point: returns ``code`` at ``point``, Success elsewhere, and notes its calls."""

    def __init__(self, plugin_name: str, point: str = "", code: Code = Code.Success) -> None:
        self.plugin_name, self.point, self.code = plugin_name, point, code
        self.calls: list[str] = []

    def name(self) -> str:
        return self.plugin_name

    def _status(self, point: str) -> Optional[Status]:
        self.calls.append(point)
        return new_status(self.code, f"probe {point}") if point == self.point and self.code != Code.Success else None

    def less(self, a, b):
        return False

    def pre_enqueue(self, pod):
        return self._status("PreEnqueue")

    def pre_filter(self, state, pod):
        return None, self._status("PreFilter")

    def pre_filter_extensions(self):
        return None

    def filter(self, state, pod, node_info):
        return self._status("Filter")

    def post_filter(self, state, pod, statuses):
        return None, self._status("PostFilter")

    def pre_score(self, state, pod, nodes):
        return self._status("PreScore")

    def score(self, state, pod, node_name):
        return 1, self._status("Score")

    def score_extensions(self):
        return self

    def normalize_score(self, state, pod, scores):
        return self._status("NormalizeScore")

    def reserve(self, state, pod, node_name):
        return self._status("Reserve")

    def unreserve(self, state, pod, node_name):
        self.calls.append("Unreserve")

    def permit(self, state, pod, node_name):
        return self._status("Permit"), 10.0

    def pre_bind(self, state, pod, node_name):
        return self._status("PreBind")

    def bind(self, state, pod, node_name):
        return self._status("Bind")

    def post_bind(self, state, pod, node_name):
        self.calls.append("PostBind")


POD = make_pod().name("p").namespace("default").uid("p").scheduler_name("default-scheduler").obj()


def _probe(point: str, code: Code) -> tuple[str, bool, bool]:
    """What the runtime makes of ``code`` returned at ``point`` by the first of two plugins:
    (the code it returns, or "gated"; whether the second plugin ran; whether the first was marked skipped)."""
    probe, witness = Probe("Probe", point, code), Probe("Witness")
    if point == "PreEnqueue":
        queue = sq.PriorityQueue(lambda a, b: False, pre_enqueue_plugins={"default-scheduler": [probe, witness]})
        passed = queue.run_pre_enqueue_plugins(QueuedPodInfo(PodInfo(POD)))
        return ("Success" if passed else "gated"), "PreEnqueue" in witness.calls, False
    if point == "WaitOnPermit":
        waiting = new_waiting_pod(POD, {"Probe": 10.0}, 0.0)
        waiting.allow("Probe") if code == Code.Success else waiting.reject("Probe", "no")
        return str(code_of(waiting.status)), False, False
    registry = {"Probe": lambda args, h: probe, "Witness": lambda args, h: witness}
    both = PluginSet([Plugin("Probe", 1), Plugin("Witness", 1)])
    cfg = Plugins(queue_sort=PluginSet([Plugin("Probe")]), **{key: both for key in (
        "pre_filter", "filter", "post_filter", "pre_score", "score", "reserve", "permit", "pre_bind", "bind",
        "post_bind")})
    fwk = Framework(registry, KubeSchedulerProfile("default-scheduler", None, cfg, []))
    state = CycleState()
    node = NodeInfo()
    node.set_node(make_node().name("n1").obj())
    run = {
        "PreFilter": lambda: fwk.run_pre_filter_plugins(state, POD)[1],
        "Filter": lambda: fwk.run_filter_plugins(state, POD, node),
        "PostFilter": lambda: fwk.run_post_filter_plugins(state, POD, {})[1],
        "PreScore": lambda: fwk.run_pre_score_plugins(state, POD, [node]),
        "Score": lambda: fwk.run_score_plugins(state, POD, [node])[1],
        "NormalizeScore": lambda: fwk.run_score_plugins(state, POD, [node])[1],
        "Reserve": lambda: fwk.run_reserve_plugins_reserve(state, POD, "n1"),
        "Permit": lambda: fwk.run_permit_plugins(state, POD, "n1"),
        "PreBind": lambda: fwk.run_pre_bind_plugins(state, POD, "n1"),
        "Bind": lambda: fwk.run_bind_plugins(state, POD, "n1"),
    }[point]
    status = run()
    skipped = "Probe" in state.skip_filter_plugins | state.skip_score_plugins
    return str(code_of(status)), point in witness.calls, skipped


STATUS_CELLS = [(point, code) for point, cells in machine.status_table().items() if cells is not None
                for code in Code]


@pytest.mark.ch03
@pytest.mark.parametrize("point, code", STATUS_CELLS, ids=[f"{p}-{c.name}" for p, c in STATUS_CELLS])
def test_each_cell_is_what_the_runtime_does(points_picture, point, code):
    cell = next(r for r in points_picture.rows if r.point == point).cells[code.name]
    returned, witness_ran, skipped = _probe(point, code)
    if cell.kind == "ok":
        assert returned == "Success" and not skipped
        if point not in ("PostFilter", "Bind", "PreEnqueue", "WaitOnPermit"):
            assert witness_ran  # the next plugin runs
        if point in ("PostFilter", "Bind"):
            assert not witness_ran  # a success stops there
    elif cell.kind == "skip":
        assert returned == "Success" and (skipped or (point == "Bind" and witness_ran))
    elif cell.kind == "reject":
        if "try next" in cell.text:
            assert witness_ran
        else:
            assert returned == code.name
            if "after the rest" in cell.text:
                assert witness_ran
            if "at once" in cell.text or cell.text == "stop":
                assert not witness_ran
    elif cell.kind == "wait":
        assert returned == "Wait"
    elif cell.kind == "error":
        assert returned == "Error"
    elif cell.kind == "gate":
        assert returned == "gated"
    else:
        assert cell.kind == "none" and point == "WaitOnPermit"
        assert returned in ("Success", "Unschedulable")  # a wait ends allowed or rejected, nothing else


# --- 4. the two cycles on one time line --------------------------------------------------------


@pytest.mark.ch05
def test_pod_2s_scheduling_cycle_overlaps_pod_1s_binding_cycle(overlap):
    p = machine.cycles_timeline(overlap, until=1.0)
    assert [(s.lane, s.title, s.detail) for s in p.slots] == [
        ("queue", "add a, b, c", "\u2192 activeQ"),
        ("ScheduleOne", "#1 a", "\u2192 n2"),
        ("ScheduleOne", "#2 b", "unschedulable"),
        ("binding #1", "PreBind, Bind", "bound on n2"),  # a's bind lands during b's cycle...
        ("ScheduleOne", "requeue b", "\u2192 backoffQ"),  # ...before b's failure handling: backoffQ
        ("ScheduleOne", "#3 c", "\u2192 n2"),
        ("binding #3", "PreBind, Bind", "bound on n2"),
    ]
    assert p.overlaps == [machine.Overlap(1, "default/a", 2, "default/b")]
    assert p.lanes == ["queue", "ScheduleOne", "binding #1", "binding #3"]
    assert "t=0.003s" in p.svg and "t=2s" not in p.svg
    a_binding = next(s for s in p.slots if s.lane == "binding #1")
    b_cycle = next(s for s in p.slots if s.title == "#2 b")
    assert b_cycle.x < a_binding.x and b_cycle.row == a_binding.row == 0


@pytest.mark.ch05
def test_every_cycle_and_binding_of_the_trace_is_on_the_time_line(overlap):
    p = machine.cycles_timeline(overlap)
    rec = overlap.recorder
    cycles = [(e.cycle, e.pod) for e in rec.of(CycleEvent) if e.kind == "start"]
    assert [(s.cycle, s.pod) for s in p.slots if s.kind == "cycle"] == cycles
    bound = [(e.cycle, e.node) for e in rec.of(BindEvent) if e.kind == "bound"]
    assert [(s.cycle, s.detail) for s in p.slots if s.kind == "binding"] == [(c, f"bound on {n}") for c, n in bound]
    assert "t=2s" in p.svg
    assert [s.title for s in machine.cycles_timeline(overlap, cycles=2).slots if s.kind == "cycle"] == ["#1 a", "#2 b"]


@pytest.mark.ch05
def test_the_overlaps_are_the_binding_cycles_alive_at_each_later_cycle():
    sim = arrivals_sim()
    p = machine.cycles_timeline(sim)
    events = sim.recorder.events
    start = {e.cycle: i for i, e in enumerate(events) if isinstance(e, CycleEvent) and e.kind == "start"}
    scheduled = {e.cycle: i for i, e in enumerate(events) if isinstance(e, CycleEvent) and e.kind == "scheduled"}
    bound = {e.cycle: i for i, e in enumerate(events) if isinstance(e, BindEvent) and e.kind == "bound"}
    expected = [(n, m) for n in sorted(scheduled) for m in sorted(start)
                if scheduled[n] < start[m] and bound[n] > start[m]]
    assert [(o.binding_cycle, o.scheduling_cycle) for o in p.overlaps] == expected
    assert len(expected) >= 4  # optimistic binding: several pods bind while later ones are scheduled
    assert max(s.row for s in p.slots) >= 1  # the run is longer than one row


@pytest.mark.ch05
def test_a_trace_without_cycles_draws_a_note():
    p = machine.cycles_timeline(Recorder())
    assert p.slots == [] and "no scheduling cycle" in p.svg
