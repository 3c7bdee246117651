"""Port of apimachinery pkg/labels/selector.go and metav1 LabelSelectorAsSelector (v1.30).

A :class:`Selector` is a list of requirements that all must hold on a label
set. ``selector_from_label_selector(None)`` selects nothing and an empty
``LabelSelector`` selects everything, exactly as upstream.

Deviations:
- Requirements are not sorted or validated here; the loader validates operators.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from ..anchors import SCHEDULER_PLUGINS, plumbing, ports
from .types import LabelSelector


@ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "Requirement", 141, 148, repo=SCHEDULER_PLUGINS)
@dataclass(frozen=True)
class Requirement:
    key: str
    operator: str  # In, NotIn, Exists, DoesNotExist, Equals
    values: tuple[str, ...] = ()

    @ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "(*Requirement).Matches", 223, 267, repo=SCHEDULER_PLUGINS)
    def matches(self, labels: Mapping[str, str]) -> bool:
        op = self.operator
        if op in ("In", "Equals", "="):
            return self.key in labels and labels[self.key] in self.values
        if op in ("NotIn", "!="):
            return self.key not in labels or labels[self.key] not in self.values
        if op == "Exists":
            return self.key in labels
        if op == "DoesNotExist":
            return self.key not in labels
        return False


@ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "internalSelector", 110, 110, repo=SCHEDULER_PLUGINS)
@dataclass(frozen=True)
class Selector:
    requirements: tuple[Requirement, ...] = ()
    nothing: bool = False

    @ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "(internalSelector).Matches", 385, 392, repo=SCHEDULER_PLUGINS)
    def matches(self, labels: Mapping[str, str]) -> bool:
        if self.nothing:
            return False
        return all(r.matches(labels) for r in self.requirements)

    @ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "(internalSelector).Empty", 300, 305, repo=SCHEDULER_PLUGINS)
    def empty(self) -> bool:
        """True for the selector that matches everything."""
        return not self.nothing and not self.requirements


EVERYTHING = Selector()
NOTHING = Selector(nothing=True)


@ports("vendor/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go", "LabelSelectorAsSelector", 34, 72, repo=SCHEDULER_PLUGINS)
def selector_from_label_selector(ls: Optional[LabelSelector]) -> Selector:
    """Upstream metav1.LabelSelectorAsSelector."""
    if ls is None:
        return NOTHING
    if not ls.match_labels and not ls.match_expressions:
        return EVERYTHING
    reqs = [Requirement(k, "In", (v,)) for k, v in sorted(ls.match_labels.items())]
    reqs += [Requirement(e.key, e.operator, tuple(e.values)) for e in ls.match_expressions]
    return Selector(tuple(reqs))


@ports("vendor/k8s.io/apimachinery/pkg/labels/selector.go", "SelectorFromSet", 914, 916, repo=SCHEDULER_PLUGINS)
def selector_from_set(labels: Mapping[str, str]) -> Selector:
    """Upstream labels.SelectorFromSet: an empty set selects everything."""
    return Selector(tuple(Requirement(k, "In", (v,)) for k, v in sorted(labels.items())))


@plumbing("combines two selectors' requirements")
def merge_selectors(a: Selector, b: Selector) -> Selector:
    """A selector holding the requirements of both."""
    if a.nothing or b.nothing:
        return NOTHING
    return Selector(a.requirements + b.requirements)
