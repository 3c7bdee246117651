"""The framework diagram lists every plugin of a profile, inside its box, readable on a laptop.

Chapter 03 says the diagram lists the default profile's plugins under each extension point:
all of them (Filter has 15), none cut mid-word, each list inside its own box, no label on a
box, and big enough to read when the figure is shown as wide as a notebook at 1366 px with
the file browser open (about 930 px).
"""
from __future__ import annotations

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.patches import FancyBboxPatch

from ksched_edu import viz
from ksched_edu.viz.diagram import FIG_W, LAYOUT, MIN_FONT_SIZE, _plugin_lists, _words, wrap_name

pytestmark = pytest.mark.ch03

NOTEBOOK_WIDTH_PX = 930  # a notebook's output area at 1366 px with the file browser open
READABLE_PX = 9.0
LABELS = {"Pop", "no node fits", "on failure", "binding cycle, later"}


def _drawn(fig):
    """(renderer, boxes as [(point, extent)], texts as [(text, extent)]), in display pixels."""
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    patches = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    names = [t for t in ax.texts if t.get_text() in LAYOUT]
    assert len(patches) == len(names) == len(LAYOUT)
    boxes = []
    for patch in patches:
        extent = patch.get_window_extent(renderer)
        point = next(t.get_text() for t in names if extent.contains(*t.get_window_extent(renderer).get_points()[1]))
        boxes.append((point, extent))
    return renderer, boxes, [(t, t.get_window_extent(renderer)) for t in ax.texts if t.get_text()]


def _inside(inner, outer, slack: float = 1.0) -> bool:
    return (inner.x0 >= outer.x0 - slack and inner.x1 <= outer.x1 + slack
            and inner.y0 >= outer.y0 - slack and inner.y1 <= outer.y1 + slack)


@pytest.fixture(scope="module")
def default_profile(teaching_sim):
    return teaching_sim.scheduler.profiles["default-scheduler"]


def test_every_plugin_is_listed_in_its_box(default_profile):
    fig = viz.draw_framework_diagram(plugins=default_profile)
    _, boxes, texts = _drawn(fig)
    lists = _plugin_lists(default_profile)
    assert len(lists["Filter"]) == 15 and len(lists["PreFilter"]) == 12  # the default profile's, v1.30.4
    shown = {}
    for text, extent in texts:
        if text.get_text() in LAYOUT or text.get_text() in LABELS:
            continue
        owner = [point for point, box in boxes if _inside(extent, box)]
        if owner:
            # a wrapped name's continuation is indented: join it back to the line before
            shown[owner[0]] = text.get_text().replace("\n  ", "").split("\n")
    assert not any("more" in line for names in shown.values() for line in names)
    assert shown == {point: names for point, names in lists.items()}


def test_a_long_name_wraps_where_its_words_meet():
    name = "NodeResourcesBalancedAllocation ×1"
    lines = wrap_name(name, 1.8)
    assert len(lines) > 1 and lines[0] == "NodeResourcesBalanced" and lines[1:] == ["  Allocation ×1"]
    assert "".join(line.strip() for line in lines) == name
    boundaries, at = set(), 0  # where the name's words start
    for word in _words(name.split(" ")[0]):
        boundaries.add(at)
        at += len(word)
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line.strip())
    assert set(starts) <= boundaries, f"a line starts mid-word: {lines}"
    assert wrap_name("NodeName", 1.8) == ["NodeName"]
    # a single word wider than the box stays whole: a line too wide beats a word cut in two
    assert wrap_name("averyveryverylongpluginnamewithoutanyword", 0.5) == ["averyveryverylongpluginnamewithoutanyword"]
    assert wrap_name("my_plugin.with-parts", 0.5) == ["my_", "  plugin.", "  with-", "  parts"]


def test_lists_and_labels_stay_clear_of_other_boxes(default_profile):
    fig = viz.draw_framework_diagram(highlight="Score", plugins=default_profile)
    _, boxes, texts = _drawn(fig)
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            assert not box_a.overlaps(box_b), f"{a} and {b} overlap"
    for text, extent in texts:
        holders = [point for point, box in boxes if extent.overlaps(box)]
        content = text.get_text()
        if content in LABELS or content.startswith("The scheduling framework") or content.startswith("scheduling") \
                or content == "binding cycle":
            assert not holders, f"{content!r} lies on {holders}"
        else:
            assert len(holders) == 1 and _inside(extent, dict(boxes)[holders[0]]), \
                f"{content.splitlines()[0]!r}… is not inside one box: {holders}"


def test_the_chapter_figure_keeps_its_size_and_is_readable_at_1366_px(default_profile):
    """Chapter 03 prints <Figure size 1400x680 with 1 Axes>; shown 930 px wide, every text is at least 9 px."""
    fig = viz.draw_framework_diagram(plugins=default_profile)
    assert tuple(fig.get_size_inches()) == (14.0, 6.8)
    texts = [t for t in fig.axes[0].texts if t.get_text()]
    px_per_pt = NOTEBOOK_WIDTH_PX / (FIG_W * 72)
    small = {t.get_text()[:30]: round(t.get_fontsize() * px_per_pt, 1) for t in texts
             if t.get_fontsize() * px_per_pt < READABLE_PX}
    assert not small, f"below {READABLE_PX} px at {NOTEBOOK_WIDTH_PX} px wide: {small}"
    assert min(t.get_fontsize() for t in texts) >= MIN_FONT_SIZE
    assert tuple(viz.draw_framework_diagram().get_size_inches()) == (14.0, 5.2)


def test_a_longer_profile_makes_a_taller_figure_not_a_cut_list():
    many = {"filter": [f"Plugin{i}" for i in range(40)]}
    fig = viz.draw_framework_diagram(plugins=many)
    assert fig.get_size_inches()[1] > 6.8
    _, boxes, texts = _drawn(fig)
    listed = [t for t, _ in texts if t.get_text().startswith("Plugin0")]
    assert listed and listed[0].get_text().split("\n") == many["filter"]
    assert all(_inside(extent, box) for (t, extent) in texts if t in listed for p, box in boxes if p == "Filter")
