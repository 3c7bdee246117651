"""GPU topologies drawn, and a widget that steps through the GPUs a workload was given.

- :func:`draw_topology`: one server's GPUs as a networkx graph (from
  ``Topology.to_networkx()``): NVLink edges thick, one colour per bond
  (``NV1`` blue, ``NV2`` green, wider bonds purple), PCIe paths thin and grey
  (fainter the more hops), each GPU filled with the colour of the pod that
  holds it, its NUMA node written beside it (``N0``). A DGX-1 style hybrid
  cube-mesh (two NVLink quads) is drawn as two quads side by side.
- :func:`plot_gpu_usage`: for one or more recorded runs, each node's GPUs as
  a stacked bar, a segment per pod (binpacking against spreading).
- :class:`TopologyStepper`: steps through the ``GPUAllocationEvent`` records
  of a trace (GPUTopology's Reserve, Unreserve and the ledger's holds and
  releases) and draws every node's topology after each one; for a Reserve it
  tables why those GPUs: each feasible node's best set, its slowest link and
  its score, as the event recorded them.

Everything here reads a trace (:func:`ksched_edu.gpu.ledger.replay`) or a
topology; nothing re-runs the scheduler. matplotlib and networkx are imported
when a figure is drawn.
"""
from __future__ import annotations

import io
import math
from typing import Any, Mapping, Optional, Sequence

import ipywidgets as widgets

from ..gpu.ledger import replay
from ..gpu.topology import Topology
from ..i18n import _
from ..viz._figure import PALETTE, localize_fonts
from ._html import STYLE, column_header, escape
from .cycle_stepper import StepView, control_row

FREE_COLOUR = "#ffffff"
RING_COLOUR = "#37474f"
NUMA_TEXT_COLOUR = "#616161"
NVLINK_COLOUR = "#6a1b9a"  # bonds of three NVLinks or more (NVSwitch fabrics)
NVLINK_COLOURS = {1: "#1e88e5", 2: "#2e7d32"}  # NV1 blue, NV2 green
FONT_SIZE = 8  # every label of a figure, legible at the notebook's size
PCIE_STYLE = {"PIX": ("#616161", 1.6), "PXB": ("#757575", 1.3), "PHB": ("#9e9e9e", 1.1),
              "NODE": ("#bdbdbd", 0.9), "SYS": ("#e0e0e0", 0.7)}


def pod_colours(pods: Sequence[str]) -> dict[str, str]:
    """A fixed colour per pod, in the order given (the palette repeats after ten)."""
    out: dict[str, str] = {}
    for p in pods:
        if p not in out:
            out[p] = PALETTE[len(out) % len(PALETTE)]
    return out


def nvlink_colour(nvlinks: int) -> str:
    return NVLINK_COLOURS.get(nvlinks, NVLINK_COLOUR)


def nvlink_quads(top: Topology) -> Optional[tuple[list[int], list[int]]]:
    """The two NVLink quads of a hybrid cube-mesh (DGX-1), the second ordered twin by twin, else None.

    A cube-mesh: eight GPUs, two disjoint groups of four joined all-to-all by NVLink, and each
    GPU of the first joined by NVLink to exactly one "twin" in the second.
    """
    if len(top.gpus) != 8 or nvswitch_label(top):
        return None
    import networkx as nx

    quads = sorted(sorted(c) for c in nx.find_cliques(top.nvlink_graph()) if len(c) == 4)
    if len(quads) != 2 or set(quads[0]) & set(quads[1]):
        return None
    first, second = quads
    twins = []
    for g in first:
        joined = [h for h in second if top.links[g][h].is_nvlink]
        if len(joined) != 1:
            return None
        twins.append(joined[0])
    return first, twins


def layout(top: Topology) -> dict[int, tuple[float, float]]:
    """Where each GPU is drawn.

    A hybrid cube-mesh: two quads side by side, mirrored, each GPU level with its twin in the
    other quad; the four rows are at different heights, so no twin link crosses a GPU.
    Otherwise GPUs on a circle, GPU0 at the top, clockwise: NUMA nodes (numbered in order) fall in arcs.
    """
    quads = nvlink_quads(top)
    if quads is not None:
        corners = [(-1.15, 0.95), (-0.45, 0.35), (-1.15, -0.35), (-0.45, -0.95)]
        pos = {}
        for (x, y), g, twin in zip(corners, *quads):
            pos[g], pos[twin] = (x, y), (-x, y)
        return pos
    n = len(top.gpus)
    return {i: (round(math.sin(2 * math.pi * i / n), 6), round(math.cos(2 * math.pi * i / n), 6)) for i in range(n)}


def draw_topology(top: Topology, allocation: Optional[Mapping[int, str]] = None, ax: Any = None,
                  title: Optional[str] = None, colours: Optional[Mapping[str, str]] = None,
                  legend: bool = True) -> Any:
    """Draw ``top``; ``allocation`` maps GPU id -> pod and colours the GPUs. Returns the Figure."""
    import networkx as nx

    from ..viz._figure import new_axes

    fig, ax = new_axes(ax, figsize=(4.6, 4.6))
    allocation = dict(allocation or {})
    colours = dict(colours or pod_colours(sorted(set(allocation.values()))))
    g = top.to_networkx()
    pos = layout(top)
    switch = nvswitch_label(top)
    if switch:
        # Every pair the same NVLink bond: an NVSwitch fabric, drawn as a hub rather than a hairball.
        bond = top.links[0][1].nvlinks
        ax.plot([0], [0], marker="s", markersize=26, color=nvlink_colour(bond), zorder=1)
        ax.text(0, 0, "NV\nSwitch", ha="center", va="center", fontsize=FONT_SIZE, color="white", zorder=2)
        for i in g.nodes:
            ax.plot([0, pos[i][0]], [0, pos[i][1]], color=nvlink_colour(bond), lw=nvlink_width(bond), zorder=0)
    else:
        # Weak links first, so NVLinks are drawn on top.
        edges = sorted(g.edges(data=True), key=lambda e: (e[2]["nvlinks"], -_pcie_rank(e[2]["link"])))
        for i, j, d in edges:
            if d["nvlinks"]:
                colour, width = nvlink_colour(d["nvlinks"]), nvlink_width(d["nvlinks"])
            else:
                colour, width = PCIE_STYLE[d["link"]]
            nx.draw_networkx_edges(g, pos, edgelist=[(i, j)], ax=ax, edge_color=colour, width=width)
    fill = [colours.get(allocation[i], "#cccccc") if i in allocation else FREE_COLOUR for i in g.nodes]
    nx.draw_networkx_nodes(g, pos, ax=ax, node_color=fill, edgecolors=RING_COLOUR, linewidths=1.5, node_size=620)
    nx.draw_networkx_labels(g, pos, ax=ax, labels={i: f"GPU{i}" for i in g.nodes}, font_size=FONT_SIZE)
    quads = nvlink_quads(top) is not None
    for i in g.nodes:  # the GPU's NUMA node, just outside it (above or below it for the quads)
        x, y = pos[i]
        tx, ty = (x, y + math.copysign(0.24, y)) if quads else (1.24 * x, 1.24 * y)
        ax.text(tx, ty, f"N{top.gpus[i].numa_node}", ha="center", va="center", fontsize=FONT_SIZE,
                color=NUMA_TEXT_COLOUR)
    ax.set_title(title if title is not None else top.name, fontsize=10)
    ax.set_xlim(-1.4, 1.4)
    ax.set_ylim(-1.4, 1.4)
    ax.set_aspect("equal")
    ax.axis("off")
    if legend:
        _legend(ax, top, allocation, colours)
    return localize_fonts(fig)


def nvlink_width(nvlinks: int) -> float:
    return round(0.8 + 0.9 * math.sqrt(nvlinks), 2)


def nvswitch_label(top: Topology) -> str:
    """``"NV18"`` when every pair of GPUs has the same NVLink bond (an NVSwitch system), else ""."""
    labels = {top.links[i][j].label for i, j in top.pairs()}
    if len(top.gpus) > 2 and len(labels) == 1 and top.links[0][1].is_nvlink:
        return labels.pop()
    return ""


def _pcie_rank(label: str) -> int:
    order = ("PIX", "PXB", "PHB", "NODE", "SYS")
    return order.index(label) if label in order else -1


def link_handles(tops: Sequence[Topology]) -> list[Any]:
    """One legend line per link class found in ``tops``, drawn as the edges are (NVLink bonds first)."""
    from matplotlib.lines import Line2D

    labels: dict[str, bool] = {}
    for top in tops:
        for label in top.link_counts():
            labels[label] = labels.get(label, False) or bool(nvswitch_label(top))
    nv = sorted((label for label in labels if label.startswith("NV")), key=lambda label: int(label[2:]))
    pcie = sorted((label for label in labels if not label.startswith("NV")), key=_pcie_rank)
    handles = []
    for label in nv:
        bond = int(label[2:])
        text = _("{link} (every pair, via NVSwitch)").format(link=label) if labels[label] else label
        handles.append(Line2D([], [], color=nvlink_colour(bond), lw=nvlink_width(bond), label=text))
    for label in pcie:
        colour, width = PCIE_STYLE[label]
        handles.append(Line2D([], [], color=colour, lw=width + 1, label=label))
    return handles


def _legend(ax: Any, top: Topology, allocation: Mapping[int, str], colours: Mapping[str, str]) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = link_handles([top])
    for pod in sorted(set(allocation.values())):
        handles.append(Patch(facecolor=colours.get(pod, "#cccccc"), edgecolor="#555", label=pod))
    handles.append(Line2D([], [], ls="", label=_("N#: the GPU's NUMA node")))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=FONT_SIZE, frameon=False)


def final_allocations(recorder: Any) -> dict[str, dict[int, str]]:
    """node -> {gpu: pod} after the last GPUAllocationEvent of ``recorder``."""
    steps = replay(recorder.events)
    return steps[-1][1] if steps else {}


def plot_gpu_usage(runs: Mapping[str, Any], gpus_per_node: Mapping[str, int], ax: Any = None,
                   pending: Optional[Mapping[str, Sequence[str]]] = None) -> Any:
    """One panel per run (``{"Binpack": recorder, ...}``): each node's GPUs as a bar, a segment per pod.

    ``pending`` (run -> pods left unscheduled) is written under each panel.
    """
    from matplotlib.figure import Figure

    if ax is None:
        fig = Figure(figsize=(4.2 * len(runs), 3.4), layout="constrained")
        axes = list(fig.subplots(1, len(runs), sharey=True, squeeze=False)[0])
    else:
        axes = list(ax) if isinstance(ax, (list, tuple)) else [ax]
        fig = axes[0].figure
    finals = {name: final_allocations(rec) for name, rec in runs.items()}
    pods = sorted({p for alloc in finals.values() for slots in alloc.values() for p in slots.values()})
    colours = pod_colours(pods)
    nodes = list(gpus_per_node)
    for a, (name, alloc) in zip(axes, finals.items()):
        for x, node in enumerate(nodes):
            slots = alloc.get(node, {})
            for gpu in range(gpus_per_node[node]):
                pod = slots.get(gpu)
                a.bar(x, 1, bottom=gpu, color=colours[pod] if pod else FREE_COLOUR, edgecolor="#555", width=0.6)
                if pod and slots.get(gpu - 1) != pod:
                    size = sum(1 for p in slots.values() if p == pod)
                    a.text(x, gpu + size / 2, pod.split("/")[-1], ha="center", va="center", fontsize=FONT_SIZE)
        a.set_xticks(range(len(nodes)), nodes, fontsize=8)
        a.set_ylim(0, max(gpus_per_node.values()))
        a.set_title(name, fontsize=10)
        left = list((pending or {}).get(name, ()))
        if left:
            a.set_xlabel(_("pending: {pods}").format(pods=", ".join(p.split("/")[-1] for p in left)), fontsize=8)
        else:
            a.set_xlabel(_("pending: none"), fontsize=8)
    axes[0].set_ylabel("GPU")
    return localize_fonts(fig)


def render_png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    return buf.getvalue()


class TopologyStepper(StepView, widgets.VBox):
    """Step through a trace's GPU allocations; every node's topology is drawn after each step.

    ``TopologyStepper(recorder, topologies, step=0)``: ``topologies`` maps node name ->
    Topology (see :func:`node_topologies`). Step 0 is the state before the first recorded
    allocation, step ``n`` the state after the ``n``-th (the caption's "step n/N").
    ``.next()``, ``.back()``, ``.goto(n)`` move this widget; ``.cursor`` is the step shown.

    ``.at(n)`` returns a new, independent TopologyStepper over the same trace, standing at
    step ``n``: a cell that discusses step 2 shows ``lab_view.at(2)``. The root element carries
    the class ``ksched-at-<n>`` (``ksched-at-2``, see :func:`at_class`), swapped on every move.
    """

    def __init__(self, recorder: Any, topologies: Mapping[str, Topology], *, step: int = 0) -> None:
        self.recorder = recorder
        self.topologies = dict(topologies)
        self.steps = replay(recorder.events)
        pods = [e.pod for e, _ in self.steps]
        self.colours = pod_colours(pods)
        self._png: dict[int, bytes] = {}
        self._build(self._step_index(step))

    def at(self, step: Optional[int] = None) -> "TopologyStepper":
        """A new TopologyStepper over the same trace at ``step`` (None: this one's step); it moves
        independently of this one (the figures drawn so far are shared, not drawn again)."""
        cursor = self.cursor if step is None else self._step_index(step)
        view = type(self).__new__(type(self))
        view.recorder, view.topologies, view.steps, view.colours = (self.recorder, self.topologies, self.steps,
                                                                    self.colours)
        view._png = self._png
        view._build(cursor)
        return view

    def _build(self, cursor: int) -> None:
        """The child widgets, standing at step ``cursor``."""
        self.cursor = cursor
        self.header = widgets.HTML()
        self.reasons_html = widgets.HTML()
        self.image = widgets.Image(format="png")
        self.prev_button = widgets.Button(description=_("◀ Back"))
        self.next_button = widgets.Button(description=_("Step ▶"))
        self.slider = widgets.IntSlider(value=cursor, min=0, max=len(self.steps), description=_("step"))
        self.prev_button.on_click(lambda _: self.back())
        self.next_button.on_click(lambda _: self.next())
        self.slider.observe(lambda change: self.goto(change["new"]), names="value")
        self.controls = control_row([self.prev_button, self.next_button, self.slider])
        super().__init__([widgets.HTML(STYLE), self.header, self.controls, self.reasons_html, self.image])
        self.add_class("ksched-topology-stepper")
        self.reasons_html.add_class("ksched-topology-reasons")
        self._render()

    @property
    def step_label(self) -> str:
        """The step shown, as a number: the root element's class is ``ksched-at-<step>``."""
        return str(self.cursor)

    def _step_index(self, step: Any) -> int:
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(self.steps):
            raise ValueError(f"no step {step!r}: the trace's steps are 0..{len(self.steps)} (0 is before the "
                             f"first of its {len(self.steps)} GPU allocation(s))")
        return step

    def allocation(self) -> dict[str, dict[int, str]]:
        """node -> {gpu: pod} at the current step."""
        return self.steps[self.cursor - 1][1] if self.cursor else {}

    def time(self) -> Optional[float]:
        """The virtual time of the current step's event (None before the first step)."""
        return self.steps[self.cursor - 1][0].time if self.cursor else None

    def reasons(self) -> list[dict[str, Any]]:
        """Why the current step's GPUs: one row per node GPUTopology weighed for the pod.

        Read from the Reserve event: each feasible node's best GPU set, that set's slowest
        link (the pair and its class, from the node's topology) and GB/s, and the score; the
        row of the node the scheduler picked is marked ``chosen``. Empty for other steps.
        """
        if not self.cursor:
            return []
        e = self.steps[self.cursor - 1][0]
        rows = []
        for node, gpus, bottleneck, score in getattr(e, "candidates", ()):
            top = self.topologies.get(node)
            pair, label = _slowest_pair(top, gpus) if top is not None else (None, "")
            rows.append({"node": node, "GPUs": ",".join(map(str, gpus)),
                         "slowest link": f"GPU{pair[0]}-GPU{pair[1]} {label}" if pair else "-",
                         "GB/s": bottleneck, "score": score, "chosen": node == e.node and tuple(gpus) == e.gpus})
        return rows

    def caption(self) -> str:
        if not self.cursor:
            return _("before the first of {count} GPU allocation step(s)").format(count=len(self.steps))
        e = self.steps[self.cursor - 1][0]
        ids = ",".join(str(g) for g in e.gpus)
        return _("step {step}/{count} (t={time}s): {kind} {pod} on {node}: GPUs {gpus}").format(
            step=self.cursor, count=len(self.steps), time=f"{e.time:g}", kind=e.kind, pod=e.pod, node=e.node,
            gpus=ids)

    def next(self) -> None:
        """Go to the next step (stays on the last)."""
        self._go(min(self.cursor + 1, len(self.steps)))

    def back(self) -> None:
        """Go to the previous step (stays on step 0)."""
        self._go(max(self.cursor - 1, 0))

    def goto(self, step: int) -> None:
        """Show step ``step``: 0 (before the first allocation) to ``len(self.steps)``."""
        self._go(self._step_index(step))

    def _go(self, step: int) -> None:
        if step == self.cursor:
            return
        self.cursor = step
        self.slider.value = step
        self._render()

    def figure(self) -> Any:
        from matplotlib.figure import Figure

        n = len(self.topologies)
        cols = min(n, 3)
        rows = max(1, math.ceil(n / cols))
        fig = Figure(figsize=(3.4 * cols + 1.6, 3.4 * rows), layout="constrained")
        axes = fig.subplots(rows, cols, squeeze=False).flatten()
        alloc = self.allocation()
        for a, (node, top) in zip(axes, self.topologies.items()):
            draw_topology(top, alloc.get(node, {}), ax=a, title=f"{node} ({top.name})", colours=self.colours,
                          legend=False)
        for a in axes[n:]:
            a.axis("off")
        from matplotlib.patches import Patch

        held = sorted({p for slots in alloc.values() for p in slots.values()}, key=list(self.colours).index)
        handles = link_handles(list(self.topologies.values()))
        handles += [Patch(facecolor=self.colours[p], edgecolor="#555", label=p) for p in held]
        fig.legend(handles=handles, loc="outside right upper", fontsize=FONT_SIZE, frameon=False)
        when = self.time()
        if when is not None:
            title = _("step {step}/{count}, t={time}s").format(step=self.cursor, count=len(self.steps),
                                                               time=f"{when:g}")
        else:
            title = _("step {step}/{count}").format(step=self.cursor, count=len(self.steps))
        fig.suptitle(title, fontsize=10)
        return localize_fonts(fig)

    def _render(self) -> None:
        self._mark_step()
        self.header.value = f'<div class="ksched-head">{escape(self.caption())}</div>'
        self.prev_button.disabled = self.cursor == 0
        self.next_button.disabled = self.cursor == len(self.steps)
        self.reasons_html.value = self.reasons_table()
        if self.cursor not in self._png:
            self._png[self.cursor] = render_png(self.figure())
        self.image.value = self._png[self.cursor]

    def reasons_table(self) -> str:
        """:meth:`reasons` as an HTML table (empty when the step has none)."""
        rows = self.reasons()
        if not rows:
            return ""
        head = "".join(f"<th>{escape(column_header(k))}</th>"
                       for k in ("node", "best GPU set", "slowest link", "GB/s", "score"))
        body = []
        for r in rows:
            mark = ' style="font-weight:bold"' if r["chosen"] else ""
            score = _("not scored (one feasible node)") if r["score"] is None else str(r["score"])
            cells = (_("{node} (chosen)").format(node=r["node"]) if r["chosen"] else r["node"], r["GPUs"],
                     r["slowest link"], str(r["GB/s"]), score)
            body.append(f"<tr{mark}>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>")
        intro = _("why these GPUs (t={time}s): the best GPU set of each node GPUTopology weighed, its slowest link "
                  "and GPUTopology's score (one part of the node's total)").format(time=f"{self.time():g}")
        return (f'<div>{intro}</div>'
                f'<table class="ksched-grid"><tr>{head}</tr>{"".join(body)}</table>')

    def __repr__(self) -> str:
        return f"TopologyStepper({len(self.topologies)} nodes, {len(self.steps)} steps, at {self.cursor})"


def _slowest_pair(top: Topology, gpus: Sequence[int]) -> tuple[Optional[tuple[int, int]], str]:
    """The lowest-bandwidth pair of ``gpus`` in ``top`` (lowest ids first among equals) and its link class."""
    pairs = [(i, j) for k, i in enumerate(gpus) for j in gpus[k + 1:]]
    if not pairs:
        return None, ""
    i, j = min(pairs, key=lambda p: (top.links[p[0]][p[1]].bandwidth(), p))
    return (i, j), top.links[i][j].label


def node_topologies(sim: Any) -> dict[str, Topology]:
    """node name -> Topology for the nodes of ``sim`` that name one, read with GPUTopology's catalog."""
    from ..gpu.catalog import TopologyCatalog
    from ..gpu.plugins.gpu_topology import NAME

    catalog = None
    for fwk in sim.scheduler.profiles.values():
        plugin = fwk.plugins_map.get(NAME)
        if plugin is not None:
            catalog = plugin.catalog
            break
    catalog = catalog or TopologyCatalog()
    out = {}
    for node in sim.cluster.nodes:
        _, top = catalog.for_node(node)
        if top is not None:
            out[node.metadata.name] = top
    return out


def show_gpu_topology(sim: Any, step: int = 0) -> TopologyStepper:
    """A TopologyStepper over a simulation run with a recorder and GPUTopology, at ``step``."""
    return TopologyStepper(sim.recorder, node_topologies(sim), step=step)
