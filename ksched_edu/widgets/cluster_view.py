"""ClusterView: every node's requested vs allocatable resources, as a heat-coloured table.

What it shows and where upstream does it (kubernetes pkg/scheduler, v1.30):

- The rows are the scheduler cache's NodeInfos (internal/cache/cache.go), read
  the way the cache dumper reads them when the scheduler gets SIGUSR2
  (internal/cache/debugger/dumper.go: each node's requested and allocatable
  resources and its pods): a copy taken at one moment, so the view does not
  change while the simulation runs on; ``refresh()`` takes a new copy.
- Requested is NodeInfo.Requested (the sum of the pods' requests, as
  framework/types.go computes it), allocatable is NodeInfo.Allocatable; pods
  counts the NodeInfo's pods against the node's pod capacity. Extended
  resources such as ``nvidia.com/gpu`` get a column when some node has them.
- A pod the scheduler assumed but the API server has not yet confirmed bound
  (optimistic binding, schedule_one.go assume) is marked "(assumed)".

The cell colour goes from white (idle) to red (full).
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import ipywidgets as widgets

from ..i18n import _
from ..viz.readers import NodeUsage, format_amount, node_usage, resources_in
from ._html import STYLE, Section, escape, render_section

def heat_colour(fraction: float) -> str:
    """White at 0, amber at 0.5, red at 1 (and beyond)."""
    f = max(0.0, min(fraction, 1.0))
    if f <= 0.5:
        t = f / 0.5
        r, g, b = 255, round(255 - t * (255 - 224)), round(255 - t * (255 - 160))
    else:
        t = (f - 0.5) / 0.5
        r, g, b = round(255 - t * (255 - 229)), round(224 - t * (224 - 115)), round(160 - t * (160 - 115))
    return f"#{r:02x}{g:02x}{b:02x}"


def usage_section(usage: Sequence[NodeUsage], resources: Sequence[str]) -> Section:
    cols = ["node"] + list(resources) + ["pods on node"]
    s = Section(_("requested / allocatable"), cols)
    for u in usage:
        row: dict[str, Any] = {"node": u.node}
        cells: dict[str, str] = {}
        titles: dict[str, str] = {}
        for r in resources:
            frac = u.fraction(r)
            row[r] = (f"{format_amount(r, u.requested.get(r, 0))} / {format_amount(r, u.allocatable.get(r, 0))} "
                      f"({round(100 * frac)}%)")
            cells[r] = f"ksched-heat-{min(10, int(frac * 10))}"
            titles[r] = _("{resource}: {percent}% requested").format(resource=r, percent=round(100 * frac))
        assumed = set(u.assumed)
        row["pods on node"] = ", ".join(p + (" (assumed)" if p in assumed else "") for p in u.pods)
        shown = {"pods on node": ", ".join(_("{pod} (assumed)").format(pod=p) if p in assumed else p for p in u.pods)}
        s.add(row, cells=cells, titles=titles, shown=shown)
    return s


def _heat_style() -> str:
    rules = "".join(f".ksched-grid td.ksched-heat-{i} {{background: {heat_colour(i / 10)};}}\n" for i in range(11))
    return f"<style>\n{rules}</style>"


class ClusterView(widgets.VBox):
    """Nodes as a table of requested vs allocatable, coloured by how full each resource is.

    ``ClusterView(sim)`` reads the scheduler cache now; also accepts a
    Scheduler, a Cache, a Snapshot or NodeInfos. ``.rows()`` is what the table
    shows, ``.usage`` the numbers behind it, ``.refresh()`` reads again.
    """

    def __init__(self, source: Any, *, resources: Optional[Sequence[str]] = None, title: str = "") -> None:
        self.source = source
        self._resources = list(resources) if resources is not None else None
        self.title = title
        self.usage: list[NodeUsage] = []
        self.resources: list[str] = []
        self.style_html = widgets.HTML(STYLE + _heat_style())
        self.header = widgets.HTML()
        self.header.add_class("ksched-header")
        self.table = widgets.HTML()
        self.table.add_class("ksched-cluster")
        # Its own width, at the left (a VBox would stretch it across the output).
        self.refresh_button = widgets.Button(description=_("⟳ Refresh"), tooltip=_("Read the scheduler cache again"),
                                             layout=widgets.Layout(width="auto", flex="0 0 auto",
                                                                   align_self="flex-start"))
        self.refresh_button.on_click(lambda _: self.refresh())
        super().__init__(children=[self.style_html, self.header, self.refresh_button, self.table])
        self.add_class("ksched-cluster-view")
        self.refresh()

    def refresh(self) -> None:
        """Copy the nodes' state from the source again and redraw."""
        self.usage = node_usage(self.source)
        self.resources = self._resources or resources_in(self.usage)
        self._section = usage_section(self.usage, self.resources)
        clock = getattr(getattr(self.source, "clock", None), "now", None)
        total_pods = sum(len(u.pods) for u in self.usage)
        title = "<b>" + escape(self.title or _("Nodes in the scheduler cache")) + "</b>"
        if clock is not None:
            head = _("{title} at t={time}s · {nodes} node(s), {pods} pod(s)").format(
                title=title, time=f"{clock:g}", nodes=len(self.usage), pods=total_pods)
        else:
            head = _("{title} · {nodes} node(s), {pods} pod(s)").format(title=title, nodes=len(self.usage),
                                                                        pods=total_pods)
        self.header.value = f'<div class="ksched-head">{head}</div>'
        self.table.value = render_section(self._section)

    def rows(self) -> list[dict[str, Any]]:
        """The table's rows: node, one "requested / allocatable (percent)" per resource, its pods."""
        return [dict(r) for r in self._section.rows]

    def fractions(self) -> dict[str, dict[str, float]]:
        """node -> resource -> requested / allocatable."""
        return {u.node: {r: u.fraction(r) for r in self.resources} for u in self.usage}

    @property
    def table_html(self) -> str:
        return self.table.value

    def __repr__(self) -> str:
        return f"ClusterView(nodes={len(self.usage)}, resources={self.resources})"
