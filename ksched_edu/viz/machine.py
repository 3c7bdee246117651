"""Four pictures of the machine itself, each drawn from the library's own data.

* :func:`pod_path`: informer → cache → scheduling queue → ScheduleOne → framework
  → bindingCycle → API server. The handlers are the ones ``add_all_event_handlers``
  registers (read by letting it register on a recording client), and what each
  calls on the cache and the queue is read off its code; the names are the Go
  names of the anchors (``ksched_edu.anchors``); the plugins are the profile's.
* :func:`queue_moves`: activeQ, backoffQ and unschedulablePods, and every move
  the queue's code records, labelled with the Go function that makes it, the
  trace label it carries, and the queue's own constants (flush periods,
  backoff, podMaxInUnschedulablePodsDuration); under it the cluster events the
  profile's plugins registered (``EventsToRegister``), as the queue holds them.
* :func:`extension_points`: one row per extension point, in the order a pod
  meets them, with the profile's plugins and what the runtime does with each
  status code there (framework/runtime/framework.go, v1.30.4).
* :func:`cycles_timeline`: the scheduling loop and the binding goroutines on one
  time line, read off a run's trace.

Each returns a :class:`~ksched_edu.viz.svgdraw.Picture`: plain SVG that a notebook
shows, with the data it was drawn from as attributes, so a test can check that
the picture holds what the library holds.
"""
from __future__ import annotations

import dis
import inspect
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable, Iterable, Optional, Sequence

from .. import eventhandlers as _eventhandlers
from .. import schedule_one as _schedule_one
from ..anchors import upstream
from ..framework.interface import Code
from ..framework.runtime import MAX_PERMIT_TIMEOUT, Framework
from ..framework.types import ActionType
from ..i18n import N_, _
from ..internal.cache.cache import Cache
from ..internal.queue import events as _events
from ..internal.queue import scheduling_queue as _sq
from ..internal.queue.scheduling_queue import PriorityQueue
from ..scheduler import Scheduler
from ..trace import POINTS, BindEvent, CycleEvent, PermitEvent, PluginEvent, QueueEvent
from .diagram import normalize_score_plugins
from .readers import recorder_of
from .svgdraw import Canvas, Picture, go_duration, text_width, wrap, wrap_list

WIDTH = 900
TITLE_FONT, HEAD_FONT, BODY_FONT, SMALL_FONT = 15.0, 13.0, 12.0, 11.0
LEADING = 1.3
PAD = 8.0

# Colours shared with the matplotlib timeline (viz.timeline.PHASE_COLOURS), light fills for boxes.
COLOURS = {
    "activeQ": ("#e3eef9", "#1f77b4"), "backoffQ": ("#fdebd9", "#ff7f0e"),
    "unschedulablePods": ("#f9dede", "#d62728"), "inFlight": ("#eee6f5", "#9467bd"),
    "binding": ("#e2f3e2", "#2ca02c"), "queue": ("#e3eef9", "#1f77b4"), "cache": ("#fff7d6", "#b8860b"),
    "informer": ("#f0f0f0", "#555555"), "api": ("#f0f0f0", "#555555"), "framework": ("#f4f4fb", "#3f3f9f"),
    "scheduling": ("#eee6f5", "#9467bd"), "new": ("#ffffff", "#777777"),
}


# --- reading the library ---------------------------------------------------------------------


def go_name(obj: Any) -> str:
    """The Go identifier ``obj`` ports, without its receiver: ``(*PriorityQueue).Pop`` -> ``Pop``."""
    anchor = upstream(obj)
    if anchor is None:
        raise ValueError(f"{obj!r} has no upstream anchor")
    return anchor.go.split(").")[-1]


def scheduler_of(source: Any = None) -> Scheduler:
    """A Scheduler from a Scheduler, a Simulation, a configuration, or None (the default configuration)."""
    if source is None:
        from ..config.loader import default_config

        return Scheduler(default_config())
    if isinstance(source, Scheduler):
        return source
    sched = getattr(source, "scheduler", None)
    if isinstance(sched, Scheduler):
        return sched
    from ..config.types import KubeSchedulerConfiguration

    if isinstance(source, KubeSchedulerConfiguration):
        return Scheduler(source)
    raise TypeError(f"expected a Scheduler, a Simulation or a KubeSchedulerConfiguration, got {type(source).__name__}")


def framework_of(profile: Any = None, name: Optional[str] = None) -> Framework:
    """A profile's Framework: given, or by ``name`` (else the first) of a scheduler's profiles."""
    if isinstance(profile, Framework):
        return profile
    sched = scheduler_of(profile)
    if name is None:
        return next(iter(sched.profiles.values()))
    if name not in sched.profiles:
        raise KeyError(f"no profile {name!r}; the profiles are {', '.join(sched.profiles)}")
    return sched.profiles[name]


def _calls_on(fn: Callable, attr: str) -> list[str]:
    """The names ``fn`` looks up on ``<something>.<attr>``, in code order (``sched.cache.add_pod`` -> add_pod)."""
    fn = inspect.unwrap(getattr(fn, "__func__", fn))
    code = fn.__code__ if hasattr(fn, "__code__") else fn
    out: list[str] = []
    ins = list(dis.get_instructions(code))
    for a, b in zip(ins, ins[1:]):
        if (a.opname in ("LOAD_ATTR", "LOAD_METHOD") and a.argval == attr
                and b.opname in ("LOAD_ATTR", "LOAD_METHOD")):
            out.append(b.argval)
    return out


def ported_calls(fns: Iterable[Callable], attr: str, cls: type) -> list[str]:
    """Go names of the methods of ``cls`` the functions call through ``.attr``, in order, without repeats.

    Only methods ``cls`` itself defines with an anchor count (not attributes, not plumbing).
    """
    names: list[str] = []
    for fn in fns:
        for method in _calls_on(fn, attr):
            member = cls.__dict__.get(method)
            if member is None or not callable(member) or upstream(member) is None:
                continue
            name = go_name(member)
            if name not in names:
                names.append(name)
    return names


def _reached_functions(code: Any, module: Any, seen: set[int]) -> list[Callable]:
    """Module-level functions of ``module`` that ``code`` names, and the ones they name, in order."""
    out: list[Callable] = []
    for name in code.co_names:
        obj = module.__dict__.get(name)
        if inspect.isfunction(obj) and obj.__module__ == module.__name__ and id(obj) not in seen:
            seen.add(id(obj))
            out.append(obj)
            out += _reached_functions(obj.__code__, module, seen)
    for const in code.co_consts:
        if inspect.iscode(const):
            out += _reached_functions(const, module, seen)
    return out


@dataclass(frozen=True)
class Handler:
    """An informer event handler: the kinds it watches, its Go name, what it calls on the cache and the queue."""

    kinds: tuple[str, ...]
    name: str  # e.g. "addPodToCache"; "" for a handler written inline in addAllEventHandlers
    cache_calls: tuple[str, ...] = ()
    queue_calls: tuple[str, ...] = ()


def event_handlers(sched: Scheduler) -> list[Handler]:
    """The handlers ``add_all_event_handlers`` registers for ``sched``'s profiles, read off their code.

    ``add_all_event_handlers`` runs against a recording client (nothing is called);
    each registered callback is followed to the handler functions it reaches.
    """
    registered: list[tuple[str, Callable]] = []
    client = SimpleNamespace(watch=lambda kind, handler: registered.append((kind, handler)))
    recording = SimpleNamespace(client=client, profiles=sched.profiles)
    _eventhandlers.add_all_event_handlers(recording)  # type: ignore[arg-type]
    by_handler: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for kind, callback in registered:
        reached = _reached_functions(callback.__code__, _eventhandlers, set())
        named = [fn for fn in reached if (upstream(fn) is not None and upstream(fn).go.startswith("(*Scheduler)."))]
        targets: list[tuple[str, list[Callable]]] = [(go_name(fn), [fn]) for fn in named]
        if not targets:  # inline: the callback itself does the work
            targets = [("", [callback])]
        for name, fns in targets:
            key = (name, tuple(ported_calls(fns, "cache", Cache)),
                   tuple(ported_calls(fns, "scheduling_queue", PriorityQueue)))
            kinds = by_handler.setdefault(key, [])
            if kind not in kinds:
                kinds.append(kind)
    return [Handler(tuple(kinds), name, cache, queue) for (name, cache, queue), kinds in by_handler.items()]


# Extension point -> the key of Framework.list_plugins() (None: read otherwise).
_LIST_KEYS = {p: "".join("_" + c.lower() if c.isupper() else c for c in p).lstrip("_") for p in POINTS}


def profile_plugins(fwk: Framework) -> dict[str, list[tuple[str, int]]]:
    """Extension point -> (plugin, score weight or 0), in run order, for every point of :data:`POINTS`
    and WaitOnPermit.

    From ``list_plugins()``; NormalizeScore is the Score plugins with score extensions,
    WaitOnPermit the Permit plugins (any may make the pod wait), Unreserve the Reserve
    plugins in reverse (the order RunReservePluginsUnreserve calls them).
    """
    listed = fwk.list_plugins()
    out: dict[str, list[tuple[str, int]]] = {}
    for point in POINTS:
        out[point] = list(listed.get(_LIST_KEYS[point], []))
    out["NormalizeScore"] = [(n, 0) for n in normalize_score_plugins(fwk)]
    out["Unreserve"] = [(n, 0) for n, _ in reversed(listed.get("reserve", []))]
    out["WaitOnPermit"] = list(listed.get("permit", []))
    return out


def _plugin_names(plugins: Sequence[tuple[str, int]], weights: bool = False) -> list[str]:
    return [f"{n} \u00d7{w}" if weights and w else n for n, w in plugins]


# --- boxes of text ------------------------------------------------------------------------------


@dataclass
class _Line:
    text: str
    size: float = BODY_FONT
    bold: bool = False
    italic: bool = False
    fill: str = "#222"
    gap: float = 0.0  # extra space above the line


def _panel_height(lines: Sequence[_Line]) -> float:
    return PAD + sum(line.gap + line.size * LEADING for line in lines) + PAD * 0.6


def _panel(c: Canvas, name: str, x: float, y: float, w: float, lines: Sequence[_Line], colours: tuple[str, str],
           dashed: bool = False, title: str = "") -> Any:
    """A box holding ``lines``, sized to them; returns the Box."""
    fill, stroke = colours
    box = c.rect(x, y, w, _panel_height(lines), fill=fill, stroke=stroke, width=1.4, dashed=dashed, name=name,
                 title=title)
    baseline = y + PAD
    for line in lines:
        baseline += line.gap + line.size * LEADING
        if line.text:
            c.text(x + PAD, baseline - line.size * (LEADING - 1.0) - 1, line.text, size=line.size, bold=line.bold,
                   italic=line.italic, fill=line.fill, box=name)
    return box


def _head(text: str, sub: str = "") -> list[_Line]:
    lines = [_Line(text, HEAD_FONT, bold=True)]
    if sub:
        lines.append(_Line(sub, SMALL_FONT, italic=True, fill="#555"))
    return lines


def _wrapped(text: str, width: float, size: float = SMALL_FONT, gap: float = 0.0, **style: Any) -> list[_Line]:
    out = [_Line(t, size, **style) for t in wrap(text, width, size, style.get("bold", False))]
    if out:
        out[0].gap = gap
    return out


def _listed(head: str, items: Sequence[str], width: float, size: float = SMALL_FONT, gap: float = 0.0,
            none: Optional[str] = None) -> list[_Line]:
    texts = wrap_list(head, list(items) if items else [none if none is not None else _("(none)")], width, size)
    out = [_Line(t, size) for t in texts]
    if out:
        out[0].gap = gap
    return out


def _split(lines: str) -> list[str]:
    """A message written on several lines (its translation chooses its own line breaks), as its lines."""
    return lines.split("\n")


def _title(c: Canvas, text: str, sub: str = "") -> float:
    c.text(12, 24, text, size=TITLE_FONT, bold=True)
    if sub:
        c.text(12, 42, sub, size=SMALL_FONT, italic=True, fill="#555")
        return 54.0
    return 36.0


# --- 1. the path of a pod -----------------------------------------------------------------------

def scheduling_callers() -> tuple[Callable, ...]:
    """The functions of the scheduling loop whose calls on the cache and the queue the picture reads."""
    return (Scheduler.next_pod, _schedule_one.schedule_one, _schedule_one.scheduling_cycle,
            _schedule_one.schedule_pod, _schedule_one.assume, _schedule_one.handle_scheduling_failure)


def binding_callers() -> tuple[Callable, ...]:
    """The same for the binding goroutine (a binding cycle that fails ends in handleSchedulingFailure)."""
    return (_schedule_one.binding_cycle, _schedule_one.bind, _schedule_one.handle_binding_cycle_error,
            Scheduler._binding_cycle_to_end, _schedule_one.handle_scheduling_failure)


def pod_path(source: Any = None, profile: Optional[str] = None) -> Picture:
    """The path of a pod through the scheduler, from the informer to the binding, as one picture.

    ``source``: a Scheduler, a Simulation or a configuration (None: the default
    configuration); ``profile`` names the profile whose plugins are listed (default: the first).
    The picture's data: ``handlers`` (:func:`event_handlers`), ``watched`` (the kinds the
    informers watch), ``plugins`` (:func:`profile_plugins`), ``cache_calls`` and
    ``queue_calls`` (component -> the Go names of the methods it calls on the cache / queue).
    """
    sched = scheduler_of(source)
    fwk = framework_of(sched, profile)
    handlers = event_handlers(sched)
    watched: list[str] = []
    for h in handlers:
        watched += [k for k in h.kinds if k not in watched]
    plugins = profile_plugins(fwk)
    cache_calls = {
        "informer": [n for h in handlers for n in h.cache_calls],
        "ScheduleOne": ported_calls(scheduling_callers() + (_schedule_one._undo_assume,), "cache", Cache),
        "bindingCycle": ported_calls(binding_callers(), "cache", Cache),
    }
    queue_calls = {
        "informer": [n for h in handlers for n in h.queue_calls],
        "ScheduleOne": ported_calls(scheduling_callers(), "scheduling_queue", PriorityQueue),
        "bindingCycle": ported_calls(binding_callers(), "scheduling_queue", PriorityQueue),
    }
    for key in cache_calls:
        cache_calls[key] = list(dict.fromkeys(cache_calls[key]))
        queue_calls[key] = list(dict.fromkeys(queue_calls[key]))

    col_w = 258.0
    xl, xm, xr = 34.0, 334.0, 632.0
    inner = col_w - 2 * PAD
    c = Canvas(WIDTH, 100)
    title = _("The path of a pod through kube-scheduler")
    top = _title(c, title, _("drawn from the library: event handlers, cache and queue calls, "
                             "profile \u201c{profile}\u201d").format(profile=fwk.profile_name))
    y0 = top + 8

    # Left column: API server, informer, cache.
    api_lines = _head(_("API server"), "sim/apiserver.py") + _listed(_("watched:"), watched, inner, gap=3)
    informer_lines = _head(_("informer"), _("event handlers (eventhandlers.go)"))
    last_kinds: tuple[str, ...] = ()
    for h in handlers:
        if h.kinds != last_kinds:
            informer_lines += _wrapped(", ".join(h.kinds), inner, BODY_FONT, gap=5, bold=True)
            last_kinds = h.kinds
        calls = list(h.cache_calls) + list(h.queue_calls)
        label = f"{h.name} \u2192" if h.name else "\u2192"
        informer_lines += _listed(label, calls, inner)
    cache_lines = _head(_("cache"), _("internal/cache; a snapshot per cycle"))
    for who, names in cache_calls.items():
        cache_lines += _listed(f"{who}:", names, inner, gap=3)

    api = _panel(c, "api", xl, y0, col_w, api_lines, COLOURS["api"])
    informer = _panel(c, "informer", xl, api.bottom + 38, col_w, informer_lines, COLOURS["informer"])
    cache = _panel(c, "cache", xl, informer.bottom + 38, col_w, cache_lines, COLOURS["cache"])

    # Middle column: the queue, ScheduleOne, bindingCycle.
    points_in = lambda *ps: ", ".join(p for p in ps)  # noqa: E731
    queue_lines = _head(_("scheduling queue"), "activeQ \u00b7 backoffQ \u00b7 unschedulablePods")
    for who, names in queue_calls.items():
        queue_lines += _listed(f"{who}:", names, inner, gap=3)
    post_filter = _plugin_names(plugins["PostFilter"])
    sched_lines = _head(go_name(_schedule_one.schedule_one), _("one pod at a time (schedule_one.go)"))
    sched_lines += _wrapped(f"{go_name(PriorityQueue.pop)} \u2192 {go_name(Scheduler.framework_for_pod)} "
                            f"\u2192 {go_name(_schedule_one.scheduling_cycle)}:", inner, gap=3)
    sched_lines += _wrapped(f"{go_name(_schedule_one.schedule_pod)}: "
                            f"{go_name(_schedule_one.find_nodes_that_fit_pod)} ({points_in('PreFilter', 'Filter')}), "
                            f"{go_name(_schedule_one.prioritize_nodes)} "
                            f"({points_in('PreScore', 'Score', 'NormalizeScore')}), "
                            f"{go_name(_schedule_one.select_host)}", inner)
    sched_lines += _wrapped(_("no node fits: PostFilter ({plugins})").format(
        plugins=", ".join(post_filter) or _("none")), inner)
    sched_lines += _wrapped(f"{go_name(_schedule_one.assume)} \u2192 Reserve \u2192 Permit", inner)
    sched_lines += _wrapped(_("failure: {go}").format(go=go_name(_schedule_one.handle_scheduling_failure)), inner,
                            gap=3)
    sched_lines += _wrapped(_("success: go {go}").format(go=go_name(_schedule_one.binding_cycle)), inner)
    bind_lines = _head(go_name(_schedule_one.binding_cycle), _("a goroutine per pod, beside the loop"))
    binders = ", ".join(_plugin_names(plugins["Bind"])) or _("none")
    bind_lines += _wrapped(f"WaitOnPermit \u2192 PreBind \u2192 {go_name(_schedule_one.bind)}: Bind "
                           f"({binders}) \u2192 PostBind", inner, gap=3)
    bind_lines += _wrapped(_("failure: {go}: Unreserve, ForgetPod, back to the queue").format(
        go=go_name(_schedule_one.handle_binding_cycle_error)), inner, gap=3)

    queue = _panel(c, "queue", xm, informer.y, col_w, queue_lines, COLOURS["queue"])
    schedule = _panel(c, "ScheduleOne", xm, queue.bottom + 38, col_w, sched_lines, COLOURS["scheduling"])
    binding = _panel(c, "bindingCycle", xm, schedule.bottom + 38, col_w, bind_lines, COLOURS["binding"])

    # Right column: the framework, the profile's plugins per extension point.
    fw_lines = _head(_("framework"), _("profile {profile} (runtime.go)").format(profile=fwk.profile_name))
    phases = ((_("queue"), ("PreEnqueue", "QueueSort")),
              (_("scheduling cycle"), ("PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore",
                                       "Reserve", "Permit")),
              (_("binding cycle"), ("PreBind", "Bind", "PostBind")),
              (_("on failure"), ("Unreserve",)))
    for phase, points in phases:
        fw_lines.append(_Line(phase, SMALL_FONT, italic=True, fill="#3f3f9f", gap=6))
        for point in points:
            fw_lines += _listed(f"{point}:", _plugin_names(plugins[point], weights=point == "Score"), inner, gap=1)
    framework = _panel(c, "framework", xr, y0, col_w, fw_lines, COLOURS["framework"])

    # Arrows.
    gap_label = dict(size=SMALL_FONT, fill="#444")
    mid = xl + col_w / 2
    c.polyline([(mid, api.bottom), (mid, informer.y)], source="api", target="informer", label="watch")
    c.text(mid + 6, (api.bottom + informer.y) / 2 + 4, _("watch events"), **gap_label)
    c.polyline([(xl + col_w, queue.y + 24), (xm, queue.y + 24)], source="informer", target="queue")
    c.polyline([(mid, informer.bottom), (mid, cache.y)], source="informer", target="cache")
    c.text(mid + 6, (informer.bottom + cache.y) / 2 + 4, _("assigned pods, nodes"), **gap_label)
    c.polyline([(xm + 50, queue.bottom), (xm + 50, schedule.y)], source="queue", target="ScheduleOne", label="Pop")
    c.text(xm + 56, (queue.bottom + schedule.y) / 2 + 4, "Pop", **gap_label)
    c.polyline([(xm + col_w - 50, schedule.y), (xm + col_w - 50, queue.bottom)], source="ScheduleOne",
               target="queue", label="requeue")
    c.text(xm + col_w - 56, (queue.bottom + schedule.y) / 2 + 4, _("requeue"), anchor="end", **gap_label)
    c.polyline([(xm + col_w / 2, schedule.bottom), (xm + col_w / 2, binding.y)], source="ScheduleOne",
               target="bindingCycle", label="go")
    c.text(xm + col_w / 2 + 6, (schedule.bottom + binding.y) / 2 + 4, "go bindingCycle", **gap_label)
    gx = (xl + col_w + xm) / 2
    for who, box, dx in (("ScheduleOne", schedule, 0.0), ("bindingCycle", binding, -8.0)):
        y_from = box.y + 30
        y_to = min(max(y_from, cache.y + 20), cache.bottom - 12) + dx
        points = [(xm, y_from), (gx + dx, y_from), (gx + dx, y_to), (xl + col_w, y_to)]
        if y_from == y_to:
            points = [(xm, y_from), (xl + col_w, y_to)]
        c.polyline(points, source=who, target="cache")
    for who, box in (("ScheduleOne", schedule), ("bindingCycle", binding)):
        yy = min(box.cy, framework.bottom - 12)
        c.polyline([(xm + col_w, yy), (xr, yy)], source=who, target="framework", tail=True, label="runs")
        c.text((xm + col_w + xr) / 2, yy - 5, _("runs"), anchor="middle", **gap_label)
    bottom = max(cache.bottom, binding.bottom, framework.bottom)
    lane = bottom + 22
    c.polyline([(xm + col_w / 2 + 30, binding.bottom), (xm + col_w / 2 + 30, lane), (14, lane), (14, api.cy),
                (xl, api.cy)], source="bindingCycle", target="api", label="Bind")
    binders = ", ".join(_plugin_names(plugins["Bind"])) or _("a Bind plugin")
    c.text(22, lane + 16, _("Bind ({binders}) writes the binding; the watch brings the bound pod back to the informer, "
                            "then the cache").format(binders=binders), **gap_label)
    c.height = lane + 28
    return Picture("pod_path", c, title, handlers=handlers, watched=watched,
                   plugins=plugins, cache_calls=cache_calls, queue_calls=queue_calls, profile=fwk.profile_name)


# --- 2. the scheduling queue's moves ----------------------------------------------------------

# The parts of the queue as the picture names them (upstream's field names), and the trace's names for them.
QUEUE_PARTS = ("activeQ", "backoffQ", "unschedulablePods")
TRACE_QUEUE_NAMES = {_sq.ACTIVE_Q: "activeQ", _sq.BACKOFF_Q: "backoffQ", _sq.UNSCHEDULABLE_PODS: "unschedulablePods",
                     _sq.IN_FLIGHT: "inFlight"}


@dataclass(frozen=True)
class Move:
    """One way a pod moves in (or into, or out of) the scheduling queue.

    ``source`` and ``targets`` are "new" (in no part yet), a part of :data:`QUEUE_PARTS`,
    "inFlight" (popped, in its cycles) or "gone"; two targets mean backoffQ while the pod's
    backoff lasts, else activeQ. ``cause`` names the Go function(s) that make the move,
    ``labels`` the trace labels the move carries (``QueueEvent.event``), ``recorded_by`` the
    queue method that records it (with ``action``, the ``QueueEvent.action``), and ``hints``
    says whether it happens only with queueing hints on (True), only off (False), or either (None).
    """

    source: str
    targets: tuple[str, ...]
    cause: str
    labels: tuple[str, ...]
    when: str
    action: str = ""
    recorded_by: Optional[Callable] = None
    hints: Optional[bool] = None


def queue_of(source: Any = None) -> PriorityQueue:
    """The scheduling queue of a Scheduler or Simulation (a PriorityQueue as is; None: the default configuration's)."""
    if isinstance(source, PriorityQueue):
        return source
    return scheduler_of(source).scheduling_queue


def queue_constants(queue: PriorityQueue) -> dict[str, float]:
    """The durations that time the queue's moves, in seconds, by their upstream names."""
    return {
        "podInitialBackoffDuration": queue.pod_initial_backoff_duration,
        "podMaxBackoffDuration": queue.pod_max_backoff_duration,
        "podMaxInUnschedulablePodsDuration": queue.pod_max_in_unschedulable_pods_duration,
        "flushBackoffQCompleted period": _sq.BACKOFF_Q_FLUSH_PERIOD,
        "flushUnschedulablePodsLeftover period": _sq.UNSCHEDULABLE_PODS_FLUSH_PERIOD,
    }


def _pre_enqueue_names(queue: PriorityQueue) -> list[str]:
    names: list[str] = []
    for plugins in queue.pre_enqueue_plugin_map.values():
        names += [p.name() for p in plugins if p.name() not in names]
    return names


def queue_move_table(queue: PriorityQueue) -> list[Move]:
    """Every move the queue makes, with the queue's constants in the conditions."""
    k = {name: go_duration(v) for name, v in queue_constants(queue).items()}
    q = PriorityQueue
    gates = ", ".join(_pre_enqueue_names(queue)) or _("none in this profile")
    move_all = go_name(q.move_all_to_active_or_backoff_queue)
    assigned = f"{go_name(q.assigned_pod_added)} / {go_name(q.assigned_pod_updated)}"
    requeue = go_name(q.add_unschedulable_if_not_present)
    return [
        Move("new", ("activeQ",), go_name(q.add), (_events.POD_ADD,),
             _("a pod with no node, for one of the profiles, appears (addPodToSchedulingQueue)"), "add", q.add),
        Move("new", ("unschedulablePods",), go_name(q.add_to_active_q), (_("(the move's own label)"),),
             _("on its way into activeQ (any move there), a PreEnqueue plugin ({gates}) refuses it: it waits, "
               "gated").format(gates=gates),
             "gated", q.add_to_active_q),
        Move("activeQ", ("inFlight",), go_name(q.pop), (),
             _("ScheduleOne takes the head of activeQ (QueueSort order); the pod is in flight until Done or "
               "requeued"),
             "pop", q.pop),
        Move("inFlight", ("backoffQ",), requeue, (_events.SCHEDULE_ATTEMPT_FAILURE,),
             _("its cycle failed, and a move request came during the cycle (moveRequestCycle \u2265 its cycle) or "
               "no plugin rejected it (an Error)"), "requeue", q.add_unschedulable_without_queueing_hint, False),
        Move("inFlight", ("unschedulablePods",), requeue, (_events.SCHEDULE_ATTEMPT_FAILURE,),
             _("plugins rejected it and no move request came during its cycle"), "requeue",
             q.add_unschedulable_without_queueing_hint, False),
        Move("inFlight", ("backoffQ", "unschedulablePods", "activeQ"), requeue, (_events.SCHEDULE_ATTEMPT_FAILURE,),
             _("queueing hints on: the events seen during its cycle decide: unschedulablePods if every hint of its "
               "rejectors said QueueSkip, activeQ on a Pending plugin's Queue (QueueImmediately), else backoffQ"),
             "requeue", q.add_unschedulable_if_not_present, True),
        Move("inFlight", ("gone",), go_name(q.done), (),
             _("its binding cycle bound it (or it was bound or deleted meanwhile): the queue stops tracking it")),
        Move("backoffQ", ("activeQ",), go_name(q.flush_backoff_q_completed), (_events.BACKOFF_COMPLETE,),
             _("every {period}: each pod whose backoff has ended ({initial} after the first attempt, doubling, at "
               "most {max})").format(period=k["flushBackoffQCompleted period"],
                                     initial=k["podInitialBackoffDuration"], max=k["podMaxBackoffDuration"]),
             "flush", q.flush_backoff_q_completed),
        Move("unschedulablePods", ("backoffQ", "activeQ"), move_all, (_("the event's (NodeAdd, ...)"),),
             _("a cluster event that a plugin which rejected the pod registered (EventsToRegister; with queueing "
               "hints, its hint must say Queue)"), "move", q.move_pods_to_active_or_backoff_queue),
        Move("unschedulablePods", ("backoffQ", "activeQ"), assigned,
             (_events.ASSIGNED_POD_ADD.label, _events.ASSIGNED_POD_UPDATE.label),
             _("a bound pod appears or changes that matches one of the pod's required pod-affinity terms"), "move",
             q.move_pods_to_active_or_backoff_queue),
        Move("unschedulablePods", ("backoffQ", "activeQ"), go_name(q.flush_unschedulable_pods_leftover),
             (_events.UNSCHEDULABLE_TIMEOUT.label,),
             _("every {period}: pods that have waited longer than podMaxInUnschedulablePodsDuration "
               "({duration})").format(period=k["flushUnschedulablePodsLeftover period"],
                                      duration=k["podMaxInUnschedulablePodsDuration"]), "move",
             q.move_pods_to_active_or_backoff_queue),
        Move("unschedulablePods", ("backoffQ", "activeQ"), go_name(q.update),
             (_events.POD_UPDATE, _events.BACKOFF_COMPLETE),
             _("the pod itself changed in a way that may make it schedulable (not only its status)"), "update",
             q.update),
        Move("new", ("activeQ",), go_name(q.update), (_events.POD_UPDATE,),
             _("an update of a pending pod that is in no part of the queue"), "update", q.update),
        Move("unschedulablePods", ("activeQ",), go_name(q.activate), (_events.FORCE_ACTIVATE,),
             _("a plugin asked for it (PodsToActivate in the CycleState), from unschedulablePods or backoffQ"),
             "activate", q._activate),
        Move("backoffQ", ("activeQ",), go_name(q.activate), (_events.FORCE_ACTIVATE,),
             _("a plugin asked for it (PodsToActivate in the CycleState)"), "activate", q._activate),
        Move("any part", ("gone",), go_name(q.delete), (), _("the pod was deleted"), "delete", q.delete),
    ]


@dataclass(frozen=True)
class RegisteredEvent:
    """A cluster event some plugins registered: what may move a pod they rejected out of unschedulablePods."""

    resource: str
    actions: str
    plugins: tuple[str, ...]
    profile: str = ""


def _action_names(action: ActionType) -> str:
    if action == ActionType.All:
        return "All"
    names = []
    rest = action
    if action & ActionType.Update == ActionType.Update:
        rest = ActionType(action & ~ActionType.Update)
    for flag in ActionType:
        if flag in (ActionType.All, ActionType.Update) or not (rest & flag):
            continue
        names.append(flag.name)
    if rest != action:
        names.append("Update")
    return "|".join(names)


def registered_events(queue: PriorityQueue) -> list[RegisteredEvent]:
    """The queue's queueing-hint map, event by event, in the order the plugins registered them."""
    out = []
    for profile, hint_map in queue.queueing_hint_map.items():
        for event, fns in hint_map.items():
            resource = event.resource.split("/")[-1]
            out.append(RegisteredEvent(resource, _action_names(event.action_type),
                                       tuple(f.plugin_name for f in fns), profile))
    return out


def raised_events() -> list[str]:
    """The labels of the cluster events the informers' handlers raise (internal/queue/events.go)."""
    from ..framework.types import ClusterEvent

    return [v.label for v in vars(_events).values() if isinstance(v, ClusterEvent)]


def queue_moves(source: Any = None, *, table: bool = True, events: bool = True) -> Picture:
    """activeQ, backoffQ and unschedulablePods, with every move between them and what causes it.

    ``source``: a Scheduler, a Simulation, a configuration or a PriorityQueue (None: the
    default configuration). Below the diagram, ``table`` lists each move with its trace
    label and condition, and ``events`` the cluster events the profile's plugins registered.
    The picture's data: ``moves`` (:func:`queue_move_table`), ``constants``
    (:func:`queue_constants`), ``registered`` (:func:`registered_events`), ``raised``
    (:func:`raised_events`) and ``pre_enqueue`` (the PreEnqueue plugins).
    """
    queue = queue_of(source)
    moves = queue_move_table(queue)
    constants = queue_constants(queue)
    k = {name: go_duration(v) for name, v in constants.items()}
    registered = registered_events(queue)
    raised = raised_events()
    gates = _pre_enqueue_names(queue)
    q = PriorityQueue

    c = Canvas(WIDTH, 100)
    title = _("The scheduling queue: three parts and the moves between them")
    top = _title(c, title, _("drawn from internal/queue/scheduling_queue.go: the moves it records, its constants, "
                             "the events the plugins registered"))
    d0 = top + 34
    s = SMALL_FONT
    label = dict(size=s, fill="#333")
    part_sub = {
        "activeQ": _("heap in QueueSort order; Pop takes the head"),
        "backoffQ": _("heap by backoff end: {initial} doubling to {max}").format(
            initial=k["podInitialBackoffDuration"], max=k["podMaxBackoffDuration"]),
        "unschedulablePods": _("waits for an event that may help"),
    }
    inflight = _panel(c, "inFlight", 300, d0, 300, _head(_("in flight"), _("popped: its scheduling and binding cycle")),
                      COLOURS["inFlight"])
    active = _panel(c, "activeQ", 310, d0 + 150, 280, _head("activeQ", part_sub["activeQ"]), COLOURS["activeQ"])
    backoff = _panel(c, "backoffQ", 16, d0 + 320, 254, _head("backoffQ", part_sub["backoffQ"]), COLOURS["backoffQ"])
    unsched = _panel(c, "unschedulablePods", 630, d0 + 320, 254,
                     _head("unschedulablePods", part_sub["unschedulablePods"]), COLOURS["unschedulablePods"])
    new = _panel(c, "new", 372, d0 + 335, 126, _head(_("new pod"), _("from the informer")), COLOURS["new"],
                 dashed=True)

    # Pop, and back with queueing hints.
    c.polyline([(420, active.y), (420, inflight.bottom)], source="activeQ", target="inFlight", label=go_name(q.pop))
    c.text(414, (active.y + inflight.bottom) / 2 + 4, go_name(q.pop), anchor="end", size=BODY_FONT, bold=True)
    c.polyline([(480, inflight.bottom), (480, active.y)], source="inFlight", target="activeQ", dashed=True,
               label="hints on: QueueImmediately")
    c.lines(486, (active.y + inflight.bottom) / 2 - 3, _split(_("queueing hints on:\nQueueImmediately")), **label)
    # Done: out of the queue.
    c.polyline([(570, inflight.y), (570, inflight.y - 20)], source="inFlight", target="gone", label=go_name(q.done))
    c.text(578, inflight.y - 8, _("{done}: bound").format(done=go_name(q.done)), **label)
    # Failed attempts.
    requeue = go_name(q.add_unschedulable_if_not_present)
    yl = inflight.y + 30
    c.polyline([(inflight.x, yl), (40, yl), (40, backoff.y)], source="inFlight", target="backoffQ", label=requeue)
    c.text(170, yl - 6, requeue, anchor="middle", size=s, bold=True)
    c.lines(50, yl + 16, _split(_("a move request came during its cycle,\nor no plugin rejected it (an Error)"))
            + [_("hints on: a hint said Queue")], **label)
    c.polyline([(inflight.right, yl), (860, yl), (860, unsched.y)], source="inFlight", target="unschedulablePods",
               label=requeue)
    c.text(730, yl - 6, requeue, anchor="middle", size=s, bold=True)
    y = yl + 16
    for line in (_split(_("rejected, and no move request\ncame during its cycle"))
                 + [_("hints on: every hint QueueSkip")]):
        c.text(850, y, line, anchor="end", **label)
        y += s * LEADING
    # backoffQ -> activeQ.
    xb = 240
    yb = active.y + 45
    c.polyline([(xb, backoff.y), (xb, yb), (active.x, yb)], source="backoffQ", target="activeQ",
               label=f"{go_name(q.flush_backoff_q_completed)} / {go_name(q.activate)}")
    y = yb + 18
    for line in [go_name(q.flush_backoff_q_completed),
                 _("every {period}: backoff over").format(period=k["flushBackoffQCompleted period"]),
                 go_name(q.activate)]:
        c.text(xb - 8, y, line, anchor="end", **label)
        y += s * LEADING
    # unschedulablePods -> activeQ (backoff over) and -> backoffQ (still backing off).
    causes = [go_name(q.move_all_to_active_or_backoff_queue), "AssignedPodAdded/Updated",
              go_name(q.flush_unschedulable_pods_leftover),
              _("(every {period}, after {duration})").format(period=k["flushUnschedulablePodsLeftover period"],
                                                             duration=k["podMaxInUnschedulablePodsDuration"]),
              go_name(q.update)]
    xu = 680
    yu = active.y + 30
    c.polyline([(xu, unsched.y), (xu, yu), (active.right, yu)], source="unschedulablePods", target="activeQ",
               label=" / ".join(causes + [go_name(q.activate)]))
    y = active.bottom + 18
    c.text(xu - 8, y, _("backoff over:"), anchor="end", size=s, bold=True)
    for line in causes[:-1] + [f"{causes[-1]}, {go_name(q.activate)}"]:
        y += s * LEADING
        c.text(xu - 8, y, line, anchor="end", **label)
    yd = unsched.bottom + 24
    c.polyline([(xu + 40, unsched.bottom), (xu + 40, yd), (150, yd), (150, backoff.bottom)],
               source="unschedulablePods", target="backoffQ", label=" / ".join(causes))
    c.text(160, yd + 16, _("still backing off: {causes}").format(causes=", ".join(causes[:3] + causes[4:])),
           size=s, bold=False, fill="#333")
    # A new pod: Add, or gated.
    c.polyline([(new.cx, new.y), (new.cx, active.bottom)], source="new", target="activeQ", label=go_name(q.add))
    c.text(new.cx + 6, new.y - 12, f"{go_name(q.add)} ({_events.POD_ADD})", **label)
    c.polyline([(new.right, new.cy + 6), (unsched.x, new.cy + 6)], source="new", target="unschedulablePods",
               label="gated")
    c.lines(new.right + 6, new.cy - 10, _split(_("PreEnqueue\nrefuses: gated")), **label)
    y = yd + 34

    if table:
        y = _moves_table(c, moves, y + 6)
    if events:
        y = _events_panel(c, registered, raised, gates, y + 10)
    c.height = y + 8
    return Picture("queue_moves", c, title, moves=moves,
                   constants=constants, registered=registered, raised=raised, pre_enqueue=gates)


# Where a move starts or ends when that is no part of the queue (Move.source and Move.targets keep the English).
STATE_NAMES = {"new": N_("new"), "gone": N_("gone"), "any part": N_("any part")}


def _state_name(state: str) -> str:
    return _(STATE_NAMES[state]) if state in STATE_NAMES else state


def _moves_table(c: Canvas, moves: Sequence[Move], y: float) -> float:
    """One row per move: from -> to, caused by, trace label, when."""
    cols = ((_("move"), 18, 150), (_("caused by"), 168, 196), (_("trace label"), 364, 150), (_("when"), 514, 370))
    s = SMALL_FONT
    rows = []
    for m in moves:
        move = f"{_state_name(m.source)} \u2192 {' / '.join(_state_name(t) for t in m.targets)}"
        if m.hints is not None:
            move = (_("{move} (hints on)") if m.hints else _("{move} (hints off)")).format(move=move)
        rows.append([wrap(move, cols[0][2] - 10, s),
                     wrap(m.cause + (f" ({m.action})" if m.action else ""), cols[1][2] - 10, s),
                     wrap(", ".join(m.labels) or "\u2014", cols[2][2] - 10, s),
                     wrap(m.when, cols[3][2] - 10, s)])
    heights = [max(len(cell) for cell in row) * s * LEADING + 6 for row in rows]
    total = 26 + 18 + sum(heights) + 6
    c.rect(12, y, WIDTH - 24, total, fill="white", stroke="#bbbbbb", rx=4, name="movesTable")
    c.text(18, y + 18, _("Every move, as the queue records it (QueueEvent: action and trace label)"), size=BODY_FONT,
           bold=True, box="movesTable")
    y += 26
    for title, x, _width in cols:
        c.text(x, y + 12, title, size=s, bold=True, fill="#555", box="movesTable")
    y += 18
    for i, (row, h) in enumerate(zip(rows, heights)):
        if i % 2 == 0:
            c.rect(14, y, WIDTH - 28, h, fill="#f4f4f4", stroke="none", rx=0)
        for (_title, x, _width), cell in zip(cols, row):
            c.lines(x, y + s + 2, cell, size=s, box="movesTable")
        y += h
    return y + 6


def _events_panel(c: Canvas, registered: Sequence[RegisteredEvent], raised: Sequence[str], gates: Sequence[str],
                  y: float) -> float:
    """The cluster events the plugins registered, and the ones the handlers raise."""
    s = SMALL_FONT
    width = WIDTH - 24 - 2 * PAD
    lines = [_Line(_("What moves a pod out of unschedulablePods: the cluster events its rejecting plugins "
                     "registered"), BODY_FONT, bold=True)]
    lines += _wrapped(_("A pod leaves only on an event that one of the plugins that rejected it registered "
                        "(EventsToRegister, as the queue's queueing-hint map holds them); a pod gated by "
                        "{gates} waits for its own update.").format(gates=", ".join(gates) or "PreEnqueue"),
                      width, gap=2, italic=True, fill="#555")
    profiles = sorted({e.profile for e in registered})
    for e in registered:
        head = f"{e.resource} {e.actions}" + (f" [{e.profile}]" if len(profiles) > 1 else "") + ":"
        lines += _listed(head, list(e.plugins), width, s, gap=1)
    lines += _listed(_("the events the informers raise (events.go):"), list(raised), width, s, gap=6)
    box = _panel(c, "eventsPanel", 12, y, WIDTH - 24, lines, ("#fbfbfb", "#bbbbbb"))
    return box.bottom


# --- 3. the extension points and their status codes ---------------------------------------------


@dataclass(frozen=True)
class Cell:
    """What the runtime does when a plugin at one point returns one code.

    ``kind``: "ok" (goes on), "skip", "reject" (the pod, or the node, is rejected),
    "wait", "error" (the Error path; "→ Error": a code this point does not take, which the
    runtime turns into an Error), "gate" (PreEnqueue: the pod waits, gated) or "none"
    (the point never yields it).
    """

    kind: str
    text: str  # English, as the tests read it; the picture shows it in the course's language (cell_text)
    meaning: str  # in the course's language (the cell's tooltip)


def cell_text(cell: Cell) -> str:
    """What the picture writes in ``cell``: its text in the course's language."""
    head, sep, wait = cell.text.partition(" \u2264 ")
    if sep and head == "wait":
        return _("wait \u2264 {duration}").format(duration=wait)
    return _(cell.text) if cell.text else cell.text


CELL_COLOURS = {"ok": ("#dcefd9", "#2e7d32"), "skip": ("#d6eef2", "#00796b"), "reject": ("#fde2cc", "#b85000"),
                "wait": ("#fff1bf", "#8a6d00"), "error": ("#f7d4d8", "#a61e2d"), "gate": ("#eadff4", "#6a1b9a"),
                "none": ("#f2f2f2", "#9a9a9a")}
# (kind, meaning); the meaning shown with _()
CELL_LEGEND = (("ok", N_("goes on (next plugin, next point)")), ("skip", N_("the plugin stands aside")),
               ("reject", N_("the pod (Filter: the node) is rejected")), ("wait", N_("the pod waits at Permit")),
               ("error", N_("Error path; \u2192 Error: a code the point does not take")),
               ("gate", N_("the pod waits in unschedulablePods, gated")), ("none", N_("never produced here")))

_S, _E, _U, _UU, _W, _K, _P = (Code.Success, Code.Error, Code.Unschedulable, Code.UnschedulableAndUnresolvable,
                                Code.Wait, Code.Skip, Code.Pending)
_REJECTED = (_U, _UU, _P)


def _error(where: str) -> Cell:
    """``where``: "scheduling cycle" or "binding cycle"."""
    meaning = {"scheduling cycle": _("the scheduling cycle fails with an Error; the pod backs off and is retried"),
               "binding cycle": _("the binding cycle fails with an Error; the pod backs off and is retried")}[where]
    return Cell("error", "Error", meaning)


def _converted(point: str) -> Cell:
    return Cell("error", "\u2192 Error",
                _("not a {point} code: the runtime turns it into an Error").format(point=point))


def _codes(point: str, where: str, cells: dict[Code, Cell]) -> dict[Code, Cell]:
    """Every code: the given cells, Error as an error of ``where``, the rest turned into an Error."""
    out = {}
    for code in Code:
        out[code] = cells.get(code) or (_error(where) if code == _E else _converted(point))
    return out


def status_table() -> dict[str, Optional[dict[Code, Cell]]]:
    """Extension point -> code -> what the v1.30.4 runtime does with it; None for a point with no Status.

    From framework/runtime/framework.go (the Run*Plugins functions and WaitOnPermit), interface.go
    (IsRejected: Unschedulable, UnschedulableAndUnresolvable and Pending) and scheduling_queue.go
    (runPreEnqueuePlugins). tests/viz/test_machine.py checks every cell against the port's runtime.
    """
    wait = go_duration(MAX_PERMIT_TIMEOUT)
    nxt = Cell("ok", N_("next"), _("the next plugin runs; the point passes when all do"))
    reject_cycle = Cell("reject", N_("reject"), _("the scheduling cycle fails: Unreserve in reverse order, the "
                                                  "assumed pod is forgotten, the pod goes back to the queue"))
    reject_binding = Cell("reject", N_("reject"), _("the binding cycle fails: Unreserve, the assumed pod is "
                                                    "forgotten, the pod goes back to the queue"))
    gated = Cell("gate", N_("gated"), _("any code but Success gates the pod: it waits in unschedulablePods for an "
                                        "update or event that lets this plugin pass"))
    return {
        "PreEnqueue": {code: (Cell("ok", "activeQ", _("every PreEnqueue plugin passed: the pod enters activeQ"))
                              if code == _S else gated) for code in Code},
        "QueueSort": None,
        "PreFilter": _codes("PreFilter", "scheduling cycle", {
            _S: Cell("ok", N_("next"), _("the next plugin runs; its PreFilterResult may narrow the nodes to filter")),
            _U: Cell("reject", N_("reject after the rest"), _("the other PreFilter plugins still run, then the cycle "
                                                              "fails; PostFilter (preemption) may help")),
            _UU: Cell("reject", N_("reject at once"), _("the cycle fails at once, the remaining plugins do not run; "
                                                        "preemption will not help")),
            _K: Cell("skip", N_("skip its Filter"), _("its Filter (and its PreFilterExtensions) are skipped in this "
                                                      "cycle")),
        }),
        "Filter": _codes("Filter", "scheduling cycle", {
            _S: Cell("ok", N_("next"), _("the next plugin runs; the node is feasible when all pass")),
            _U: Cell("reject", N_("node out"), _("this node is infeasible; preemption may try it")),
            _UU: Cell("reject", N_("node out"), _("this node is infeasible; preemption will not try it")),
            _P: Cell("reject", N_("node out"), _("this node is infeasible (a rejection, like Unschedulable)")),
        }),
        "PostFilter": _codes("PostFilter", "scheduling cycle", {
            _S: Cell("ok", N_("stop, nominated"), _("a plugin made room (preemption): the pod is nominated to a node; "
                                                    "the cycle still fails and the pod retries")),
            _U: Cell("reject", N_("try next"), _("this plugin could not help: the next PostFilter plugin runs")),
            _UU: Cell("reject", N_("stop"), _("no PostFilter plugin can help: the rest do not run")),
            _P: Cell("reject", N_("try next"), _("like Unschedulable: the next PostFilter plugin runs")),
        }),
        "PreScore": _codes("PreScore", "scheduling cycle", {
            _S: nxt, _K: Cell("skip", N_("skip its Score"), _("its Score is skipped in this cycle"))}),
        "Score": _codes("Score", "scheduling cycle", {_S: nxt}),
        "NormalizeScore": _codes("NormalizeScore", "scheduling cycle", {_S: nxt}),
        "Reserve": _codes("Reserve", "scheduling cycle", {_S: nxt, **{c: reject_cycle for c in _REJECTED}}),
        "Permit": _codes("Permit", "scheduling cycle", {
            _S: nxt, **{c: reject_cycle for c in _REJECTED},
            _W: Cell("wait", f"wait \u2264 {wait}", _("the pod waits (at most {wait} per plugin) for Allow or Reject; "
                                                      "its binding cycle blocks in WaitOnPermit").format(wait=wait))}),
        "WaitOnPermit": {
            code: (Cell("ok", N_("allowed"), _("every waiting plugin allowed the pod: the binding cycle goes on"))
                   if code == _S else
                   Cell("reject", N_("rejected or timed out"), _("Reject, or a plugin's wait timed out: "
                                                                 "Unschedulable; Unreserve, forget, back to the queue"))
                   if code == _U else
                   Cell("none", "\u2014", _("a wait ends allowed (Success) or rejected (Unschedulable)")))
            for code in Code},
        "PreBind": _codes("PreBind", "binding cycle", {_S: nxt, **{c: reject_binding for c in _REJECTED}}),
        "Bind": _codes("Bind", "binding cycle", {
            _S: Cell("ok", N_("bound"), _("the pod is bound: no other Bind plugin runs")),
            _K: Cell("skip", N_("next binder"), _("this plugin does not bind this pod: the next Bind plugin tries")),
            **{c: reject_binding for c in _REJECTED}}),
        "PostBind": None,
        "Unreserve": None,
    }


# For points with no Status: what they return instead.
# (English, marked for the catalogs; the picture shows each with _().)
NO_STATUS = {
    "QueueSort": N_("Less(pod1, pod2) bool: orders activeQ; one QueueSort plugin for all profiles"),
    "PostBind": N_("returns nothing: told that the pod is bound"),
    "Unreserve": N_("returns nothing: every Reserve plugin's Unreserve, in reverse order, after any failure from "
                    "Reserve on"),
}
POINT_NOTES = {
    "PreEnqueue": N_("before activeQ"), "QueueSort": N_("orders activeQ"), "PreFilter": N_("once per cycle"),
    "Filter": N_("per node"), "PostFilter": N_("when no node fits"), "PreScore": N_("once"), "Score": N_("per node"),
    "NormalizeScore": N_("per plugin"), "Reserve": N_("on the chosen node"), "Permit": N_("may hold the pod"),
    "WaitOnPermit": N_("first in the goroutine"), "PreBind": N_("e.g. volumes"), "Bind": N_("until one binds"),
    "PostBind": N_("after binding"), "Unreserve": N_("undoes Reserve"),
}
PHASES = ((N_("in the queue"), ("PreEnqueue", "QueueSort"), "queue"),
          (N_("scheduling cycle (one pod at a time)"), ("PreFilter", "Filter", "PostFilter", "PreScore", "Score",
                                                         "NormalizeScore", "Reserve", "Permit"), "scheduling"),
          (N_("binding cycle (a goroutine per pod)"), ("WaitOnPermit", "PreBind", "Bind", "PostBind"), "binding"),
          (N_("on failure, from Reserve on"), ("Unreserve",), "unschedulablePods"))


@dataclass(frozen=True)
class PointRow:
    """One row of the picture: an extension point, its phase, the profile's plugins there, and its cells."""

    point: str
    phase: str
    plugins: tuple[str, ...]
    cells: Optional[dict[str, Cell]]  # code name -> cell; None: the point returns no Status
    note: str = ""


def extension_points(profile: Any = None, name: Optional[str] = None) -> Picture:
    """The extension points in the order a pod meets them, each with the profile's plugins and what the
    v1.30.4 runtime does with each status code a plugin returns there.

    ``profile``: a Framework, or a Scheduler, Simulation or configuration (its profile
    ``name``, else the first); None: the default configuration. The picture's data:
    ``rows`` (:class:`PointRow`), ``plugins`` (:func:`profile_plugins`) and ``profile``.
    """
    fwk = framework_of(profile, name)
    plugins = profile_plugins(fwk)
    table = status_table()
    codes = [code.name for code in Code]
    rows = []
    for phase, points, _colour in PHASES:
        for point in points:
            cells = table[point]
            rows.append(PointRow(point, phase, tuple(_plugin_names(plugins[point], weights=point == "Score")),
                                 {code.name: cell for code, cell in cells.items()} if cells is not None else None,
                                 NO_STATUS.get(point, "")))

    s = SMALL_FONT
    code_w = {"Success": 72, "Error": 56, "Unschedulable": 98, "UnschedulableAndUnresolvable": 98, "Wait": 64,
              "Skip": 66, "Pending": 60}
    x_point, w_point = 12.0, 126.0
    x_plugins = x_point + w_point
    w_plugins = WIDTH - 12 - x_plugins - sum(code_w.values())
    x_codes = {}
    x = x_plugins + w_plugins
    for code in codes:
        x_codes[code] = x
        x += code_w[code]

    c = Canvas(WIDTH, 100)
    title = _("Extension points: the plugins and what each status code does")
    top = _title(c, title, _("profile \u201c{profile}\u201d; codes as framework/runtime/framework.go (v1.30.4) "
                             "treats them").format(profile=fwk.profile_name))
    y = top + 6
    # Column heads.
    head_lines = {code: (["Unschedulable", "And", "Unresolvable"] if code == "UnschedulableAndUnresolvable"
                         else [code]) for code in codes}
    c.text(x_point + 4, y + 40, _("extension point"), size=s, bold=True, fill="#555")
    c.text(x_plugins + 4, y + 40, _("plugins (run order)"), size=s, bold=True, fill="#555")
    for code in codes:
        lines = head_lines[code]
        c.lines(x_codes[code] + code_w[code] / 2, y + 40 - (len(lines) - 1) * s * LEADING, lines, size=s,
                anchor="middle", fill="#555")
    y += 50
    for phase, points, colour in PHASES:
        fill, stroke = COLOURS[colour]
        c.rect(x_point, y, WIDTH - 24, 20, fill=fill, stroke="none", rx=3)
        c.text(x_point + 6, y + 14.5, _(phase), size=s, bold=True, italic=True, fill=stroke)
        y += 22
        for row in (r for r in rows if r.point in points):
            plugin_lines = wrap_list("", list(row.plugins) or [_("(none)")], w_plugins - 12, s, indent="")
            cell_lines = {}
            if row.cells is not None:
                for code in codes:
                    cell_lines[code] = wrap(cell_text(row.cells[code]), code_w[code] - 10, s)
            note_lines = wrap(_(row.note), sum(code_w.values()) - 12, s) if row.cells is None else []
            n_cell = max([2] + [len(v) for v in cell_lines.values()])
            n = max(len(plugin_lines), len(note_lines), n_cell)
            h = n * s * LEADING + 10
            name = f"row:{row.point}"
            c.rect(x_point, y, WIDTH - 24, h, fill="white", stroke="#d0d0d0", rx=2, name=name)
            c.text(x_point + 6, y + 17, row.point, size=BODY_FONT, bold=True, box=name)
            c.text(x_point + 6, y + 17 + s * LEADING, _(POINT_NOTES[row.point]) if row.point in POINT_NOTES else "",
                   size=s, italic=True, fill="#666", box=name)
            c.region(f"plugins:{row.point}", x_plugins, y, w_plugins, h)
            c.lines(x_plugins + 6, y + 16, plugin_lines, size=s, box=f"plugins:{row.point}",
                    fill="#999" if not row.plugins else "#222")
            if row.cells is None:
                c.lines(x_codes[codes[0]] + 6, y + 16, note_lines, size=s, italic=True, fill="#555", box=name)
            else:
                for code in codes:
                    cell = row.cells[code]
                    cfill, cstroke = CELL_COLOURS[cell.kind]
                    cname = f"cell:{row.point}:{code}"
                    ch = min(h - 6, n_cell * s * LEADING + 12)
                    c.rect(x_codes[code] + 2, y + (h - ch) / 2, code_w[code] - 4, ch, fill=cfill, stroke=cstroke,
                           width=0.8, rx=4, name=cname, title=f"{row.point}, {code}: {cell.meaning}")
                    lines = cell_lines[code]
                    first = y + h / 2 - (len(lines) - 1) * s * LEADING / 2 + s * 0.35
                    c.lines(x_codes[code] + code_w[code] / 2, first, lines, size=s, anchor="middle", fill=cstroke,
                            box=cname)
            y += h
        y += 4
    # Legend.
    y += 8
    x = x_point
    for kind, meaning in CELL_LEGEND:
        meaning = _(meaning)
        cfill, cstroke = CELL_COLOURS[kind]
        w = 16 + text_width(meaning, s) + 18
        if x + w > WIDTH - 12:
            x, y = x_point, y + 22
        c.rect(x, y, 12, 12, fill=cfill, stroke=cstroke, width=0.8, rx=2)
        c.text(x + 16, y + 10.5, meaning, size=s, fill="#333")
        x += w
    c.height = y + 24
    return Picture("extension_points", c, title, rows=rows,
                   plugins=plugins, profile=fwk.profile_name)


# --- 4. the scheduling cycle and the binding cycle on one time line ----------------------------

BINDING_POINTS = ("PreBind", "Bind", "PostBind", "Unreserve")


@dataclass
class Slot:
    """One box of the time line: something one lane did, read off consecutive events of the trace.

    ``lane`` is "queue", "ScheduleOne" or "binding #N"; ``kind`` is "queue" (the queue moved
    pods on its own account or an informer's), "cycle" (a pod's scheduling cycle, from Pop
    to its end), "requeue" (ScheduleOne sending the failed pod back) or "binding" (work of
    cycle N's binding goroutine). ``first`` and ``last`` index the trace's events.
    """

    lane: str
    kind: str
    time: float
    end_time: float
    title: str
    detail: str
    first: int
    last: int
    cycle: int = 0
    pod: str = ""
    points: list[str] = field(default_factory=list)
    x: float = 0.0
    w: float = 0.0
    row: int = 0


@dataclass(frozen=True)
class Overlap:
    """Cycle ``binding_cycle``'s binding goroutine was alive while cycle ``scheduling_cycle`` was scheduled."""

    binding_cycle: int
    binding_pod: str
    scheduling_cycle: int
    scheduling_pod: str


def _short_names(pods: Iterable[str]) -> Callable[[str], str]:
    pods = list(pods)
    namespaces = {p.split("/")[0] for p in pods if "/" in p}
    if len(namespaces) <= 1:
        return lambda p: p.split("/")[-1]
    return lambda p: p


def _pods_text(pods: Sequence[str], short: Callable[[str], str]) -> str:
    names = [short(p) for p in pods]
    return ", ".join(names) if len(names) <= 3 else f"{', '.join(names[:3])} +{len(names) - 3}"


def timeline_slots(recorder: Any, until: Optional[float] = None, cycles: Optional[int] = None) -> list[Slot]:
    """The time line's boxes, in trace order: queue moves, scheduling cycles, requeues and binding work.

    Stops before the first event later than ``until`` (virtual seconds) and before the Pop of
    scheduling cycle ``cycles + 1``.
    """
    events = recorder_of(recorder).events
    pods = [e.pod for e in events if isinstance(e, (QueueEvent, CycleEvent))]
    short = _short_names(pods)
    slots: list[Slot] = []
    open_cycle: Optional[Slot] = None
    started = 0
    tail: Optional[Slot] = None  # the last closed cycle, whose failure ScheduleOne may still requeue
    queue_pods: list[str] = []

    for i, e in enumerate(events):
        t = getattr(e, "time", 0.0)
        if until is not None and t > until:
            break
        if isinstance(e, QueueEvent):
            target = TRACE_QUEUE_NAMES.get(e.queue, e.queue or "gone")
            if e.action == "pop":
                if cycles is not None and started >= cycles:
                    break
                open_cycle = Slot("ScheduleOne", "cycle", t, t, f"{short(e.pod)}", "", i, i, pod=e.pod)
                slots.append(open_cycle)
                tail = None
                continue
            last = slots[-1] if slots else None
            if e.action == "requeue" and last is not None and last.pod == e.pod and last.kind == "binding":
                last.detail = f"{last.detail}, \u2192 {target}"
                last.last, last.end_time = i, t
                continue
            if e.action == "requeue" and tail is not None and tail.pod == e.pod:
                slots.append(Slot("ScheduleOne", "requeue", t, t, f"requeue {short(e.pod)}", f"\u2192 {target}", i, i,
                                  cycle=tail.cycle, pod=e.pod))
                tail = None
                continue
            detail = f"\u2192 {target}" + (f" on {e.event}" if e.action in ("move", "gated") and e.event else "")
            if (last is not None and last.kind == "queue" and last.detail == detail
                    and last.title.split(" ")[0] == e.action):
                queue_pods.append(e.pod)
                last.title = f"{e.action} {_pods_text(queue_pods, short)}"
                last.last, last.end_time = i, t
                continue
            queue_pods = [e.pod]
            slots.append(Slot("queue", "queue", t, t, f"{e.action} {short(e.pod)}", detail, i, i, pod=e.pod))
            continue
        if isinstance(e, CycleEvent):
            if open_cycle is None:
                continue
            if e.kind == "start":
                started += 1
                open_cycle.cycle = e.cycle
                open_cycle.title = f"#{e.cycle} {short(e.pod)}"
                open_cycle.detail = "running"
            elif e.cycle == open_cycle.cycle:
                open_cycle.detail = f"\u2192 {e.node}" if e.kind == "scheduled" else e.kind
                open_cycle.last, open_cycle.end_time = i, t
                tail, open_cycle = open_cycle, None
            continue
        cycle = getattr(e, "cycle", None)
        in_cycle = open_cycle is not None and cycle == open_cycle.cycle
        if isinstance(e, PluginEvent):
            if e.point == "PreEnqueue" or e.dry_run:
                continue
            if in_cycle and e.point not in ("PreBind", "Bind", "PostBind"):
                if e.point not in open_cycle.points:
                    open_cycle.points.append(e.point)
                open_cycle.last = i
                continue
            if e.point in BINDING_POINTS:
                _binding_slot(slots, e.cycle, e.pod, t, i, short).points.append(e.point)
            continue
        if isinstance(e, BindEvent):
            if in_cycle:
                open_cycle.last = i
                continue
            if e.kind in ("bound", "forget"):
                slot = _binding_slot(slots, e.cycle, e.pod, t, i, short)
                slot.detail = f"bound on {e.node}" if e.kind == "bound" else f"forget on {e.node}"
            continue
        if isinstance(e, PermitEvent):
            slot = _binding_slot(slots, e.cycle, e.pod, t, i, short)
            slot.points.append("WaitOnPermit")
            slot.detail = {"wait": f"waits for {', '.join(e.plugins)}", "allowed": "allowed",
                           "rejected": "rejected", "timeout": "timed out"}.get(e.kind, e.kind)
    for slot in slots:
        if slot.kind == "binding":
            points = list(dict.fromkeys(slot.points))
            slot.title = ", ".join(points) if points else "bindingCycle"
            slot.detail = slot.detail or "running"
    return slots


def _binding_slot(slots: list[Slot], cycle: int, pod: str, t: float, i: int, short: Callable[[str], str]) -> Slot:
    """The binding slot of ``cycle`` that the event at ``i`` belongs to: the last slot if it is one at time ``t``."""
    last = slots[-1] if slots else None
    if last is not None and last.kind == "binding" and last.cycle == cycle and last.end_time == t:
        last.last = i
        return last
    slot = Slot(f"binding #{cycle}", "binding", t, t, "", "", i, i, cycle=cycle, pod=pod)
    slots.append(slot)
    return slot


def _time_text(a: float, b: float) -> str:
    return f"t={a:g}s" if a == b else f"t={a:g}\u2013{b:g}s"


def cycles_timeline(source: Any, until: Optional[float] = None, cycles: Optional[int] = None) -> Picture:
    """The scheduling loop and the binding goroutines on one time line, from a run's trace.

    ``source``: a Recorder, or a Simulation (or Scheduler) that records into one. Left to
    right is the order of the trace's events; boxes under one bracket happened at the same
    virtual time (a scheduling cycle takes none). One lane for the queue's own moves, one
    for ScheduleOne (a pod's scheduling cycle, then its requeue when it failed), and one per
    binding goroutine, a thin band while it waits to run. ``until`` and ``cycles`` cut the
    trace (see :func:`timeline_slots`). The picture's data: ``slots``, ``lanes`` and
    ``overlaps`` (:class:`Overlap`: a binding cycle still running while a later pod was scheduled).
    """
    rec = recorder_of(source)
    slots = timeline_slots(rec, until, cycles)
    pods = [e.pod for e in rec.events if isinstance(e, (QueueEvent, CycleEvent))]
    short = _short_names(pods)
    title = _("The scheduling cycle and the binding cycle on one time line")
    c = Canvas(WIDTH, 100)
    top = _title(c, title, _("read off the trace: ScheduleOne runs one pod at a time; each binding cycle runs in a "
                             "goroutine of its own"))
    if not slots:
        c.text(12, top + 20, _("the trace holds no scheduling cycle"), size=BODY_FONT, italic=True)
        c.height = top + 34
        return Picture("cycles_timeline", c, title, slots=[], lanes=[], overlaps=[])

    # Lanes, and when each binding goroutine lives (slot positions, from its cycle's end to its last work).
    lanes: list[str] = []
    if any(s.kind == "queue" for s in slots):
        lanes.append("queue")
    lanes.append("ScheduleOne")
    born: dict[int, int] = {}
    for n, s in enumerate(slots):
        if s.kind == "cycle" and s.detail.startswith("\u2192"):
            born[s.cycle] = n
    ended: dict[int, int] = {}
    finished: set[int] = set()
    for n, s in enumerate(slots):
        if s.kind == "binding":
            born.setdefault(s.cycle, n)
            ended[s.cycle] = n
            if s.detail.startswith(("bound", "forget", "rejected", "timed out")):
                finished.add(s.cycle)
    lanes += [f"binding #{cycle}" for cycle in sorted(born)]
    overlaps = []
    for cycle, start in sorted(born.items()):
        stop = ended.get(cycle, len(slots)) if cycle in finished else len(slots)
        owner = slots[start]
        for s in slots[start + 1:stop]:
            if s.kind == "cycle":
                overlaps.append(Overlap(cycle, owner.pod, s.cycle, s.pod))

    # Widths and positions, row by row.
    label_w, x0, gap, seg_gap = 150.0, 164.0, 6.0, 16.0
    right = WIDTH - 12
    for s in slots:
        s.w = max(56.0, text_width(s.title, BODY_FONT, True) + 14, text_width(s.detail, SMALL_FONT) + 14)
    segments: list[list[Slot]] = []
    for s in slots:
        if segments and (segments[-1][0].time, segments[-1][-1].end_time) == (s.time, s.time) == (s.time, s.end_time):
            segments[-1].append(s)
        else:
            segments.append([s])
    for seg in segments:
        need = text_width(_time_text(seg[0].time, seg[-1].end_time), SMALL_FONT) + 10
        have = sum(s.w for s in seg) + gap * (len(seg) - 1)
        if need > have:
            seg[-1].w += need - have
    # A virtual instant with more boxes than a row holds goes on over several rows.
    chunks: list[list[Slot]] = []
    for seg in segments:
        chunks.append([])
        width = 0.0
        for s in seg:
            if chunks[-1] and width + s.w > right - x0:
                chunks.append([])
                width = 0.0
            chunks[-1].append(s)
            width += s.w + gap
    rows: list[list[list[Slot]]] = [[]]
    x = x0
    for seg in chunks:
        width = sum(s.w for s in seg) + gap * (len(seg) - 1)
        if rows[-1] and x + width > right:
            rows.append([])
            x = x0
        rows[-1].append(seg)
        x += width + seg_gap

    lane_h, ruler_h = 46.0, 26.0
    y = top + 10
    index = {id(s): n for n, s in enumerate(slots)}
    for r, row in enumerate(rows):
        row_slots = [s for seg in row for s in seg]
        first, last = index[id(row_slots[0])], index[id(row_slots[-1])]
        shown = [lane for lane in lanes
                 if lane == "ScheduleOne" or any(s.lane == lane for s in row_slots)
                 or (lane.startswith("binding #") and _alive_in(int(lane[9:]), born, ended, finished, first, last))]
        # Positions.
        x = x0
        for seg in row:
            for s in seg:
                s.x, s.row = x, r
                x += s.w + gap
            x += seg_gap - gap
        row_right = x - seg_gap
        # Ruler: one bracket per virtual instant.
        for seg in row:
            a, b = seg[0].x, seg[-1].x + seg[-1].w
            c.polyline([(a, y + ruler_h - 6), (a, y + ruler_h - 2), (b, y + ruler_h - 2), (b, y + ruler_h - 6)],
                       stroke="#888", width=1.0, head=False)
            c.text((a + b) / 2, y + ruler_h - 8, _time_text(seg[0].time, seg[-1].end_time), size=SMALL_FONT,
                   anchor="middle", fill="#555")
        y += ruler_h
        lane_y = {}
        for k, lane in enumerate(shown):
            ly = y + k * lane_h
            lane_y[lane] = ly
            c.rect(12, ly, right - 12, lane_h - 2, fill="#f7f7f7" if k % 2 == 0 else "#ffffff", stroke="none", rx=0)
            if lane == "queue":
                head, sub = _("scheduling queue"), _("moves of its own")
            elif lane == "ScheduleOne":
                head, sub = "ScheduleOne", _("scheduling cycles")
            else:
                cycle = int(lane[9:])
                head = "bindingCycle"
                sub = _("of #{cycle} {pod}").format(cycle=cycle, pod=short(slots[born[cycle]].pod))
            c.region(f"lane:{r}:{lane}", 12, ly, label_w, lane_h - 2)
            c.text(18, ly + 19, head, size=BODY_FONT, bold=True, box=f"lane:{r}:{lane}")
            c.text(18, ly + 34, sub, size=SMALL_FONT, italic=True, fill="#555", box=f"lane:{r}:{lane}")
        # Binding goroutines alive: a thin band from where they start (or the row's start) to their last work.
        for lane in shown:
            if not lane.startswith("binding #"):
                continue
            cycle = int(lane[9:])
            start = born[cycle]
            stop = ended.get(cycle, len(slots)) if cycle in finished else len(slots)
            bx0 = slots[start].x + slots[start].w if first <= start <= last else x0 - 8
            own = [s for s in row_slots if s.lane == lane]
            bx1 = own[-1].x if own and stop <= last else row_right + 4
            if cycle in finished and stop <= last and own:
                bx1 = own[-1].x
            ly = lane_y[lane] + lane_h / 2 - 5
            if bx1 > bx0:
                c.rect(bx0, ly, bx1 - bx0, 8, fill="#cfe9cf", stroke="#2ca02c", width=0.8, rx=3, dashed=True,
                       title=_("bindingCycle of #{cycle}: started, not done yet").format(cycle=cycle))
            if first <= start <= last and slots[start].lane == "ScheduleOne":
                src = slots[start]
                c.polyline([(src.x + src.w - 6, lane_y["ScheduleOne"] + lane_h - 7),
                            (src.x + src.w - 6, ly)], stroke="#2ca02c", width=1.0, dashed=True,
                           source=f"#{cycle}", target=lane)
        # Slots.
        for s in row_slots:
            ly = lane_y[s.lane]
            colours = {"queue": COLOURS["queue"], "cycle": COLOURS["scheduling"],
                       "requeue": COLOURS["unschedulablePods"] if "unschedulable" in s.detail
                       else COLOURS["backoffQ"] if "backoff" in s.detail else COLOURS["queue"],
                       "binding": COLOURS["binding"]}[s.kind]
            name = f"slot:{index[id(s)]}"
            tip = f"{_time_text(s.time, s.end_time)}: {s.title}, {s.detail}"
            if s.points:
                tip += " \u2014 " + ", ".join(dict.fromkeys(s.points))
            c.rect(s.x, ly + 4, s.w, lane_h - 10, fill=colours[0], stroke=colours[1], width=1.2, rx=5, name=name,
                   title=tip)
            c.text(s.x + 7, ly + 19, s.title, size=BODY_FONT, bold=True, box=name)
            c.text(s.x + 7, ly + 33, s.detail, size=SMALL_FONT, fill="#333", box=name)
        # Instants apart: a dotted rule between brackets.
        for seg in row[1:]:
            xs = seg[0].x - seg_gap / 2
            c.polyline([(xs, y - 4), (xs, y + len(shown) * lane_h - 4)], stroke="#bbb", width=1.0, dashed=True,
                       head=False)
        y += len(shown) * lane_h + 14

    notes = [_("Left to right: the order of the trace's events; boxes under one bracket share a virtual time "
               "(a scheduling cycle takes none).")]
    for o in overlaps[:4]:
        notes.append(_("The binding cycle of #{binding} ({binding_pod}) was still running while #{scheduling} "
                       "({scheduling_pod}) was scheduled.").format(
                           binding=o.binding_cycle, binding_pod=short(o.binding_pod), scheduling=o.scheduling_cycle,
                           scheduling_pod=short(o.scheduling_pod)))
    if len(overlaps) > 4:
        notes.append(_("\u2026 and {count} more overlaps.").format(count=len(overlaps) - 4))
    for note in notes:
        for line in wrap(note, WIDTH - 24, SMALL_FONT):
            c.text(12, y + 4, line, size=SMALL_FONT, italic=True, fill="#444")
            y += SMALL_FONT * LEADING
    c.height = y + 8
    return Picture("cycles_timeline", c, title, slots=slots, lanes=lanes, overlaps=overlaps)


def _alive_in(cycle: int, born: dict[int, int], ended: dict[int, int], finished: set[int], first: int,
              last: int) -> bool:
    """Whether cycle's binding goroutine lives during slots ``first``..``last``."""
    start = born[cycle]
    stop = ended.get(cycle, 10**9) if cycle in finished else 10**9
    return start <= last and stop >= first
