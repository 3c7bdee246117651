"""Mirrors component-helpers scheduling/corev1/helpers_test.go (TestFindMatchingUntoleratedTaint)
and k8s.io/api core/v1 toleration_test.go / taint_test.go (v1.30)."""
from __future__ import annotations

import pytest

from ksched_edu.api.tolerations import (find_matching_untolerated_taint, pod_priority, taint_match_taint,
                                        taint_to_string, toleration_match_toleration, toleration_tolerates_taint,
                                        tolerations_tolerate_taint)
from ksched_edu.api.types import ObjectMeta, Pod, PodSpec, Taint, Toleration
from ksched_edu.framework.plugins.helper.taint import do_not_schedule_taints_filter_func

TOLERATES_CASES = [
    # An empty key matches every key and Equal compares values: "" == "".
    ("empty toleration tolerates a taint without value", Toleration(), Taint("foo", "NoSchedule"), True),
    ("empty toleration does not tolerate a taint with a value", Toleration(), Taint("foo", "NoSchedule", "bar"),
     False),
    ("tolerates all taints when key is empty and operator is Exists",
     Toleration(operator="Exists"), Taint("foo", "NoSchedule", "bar"), True),
    ("empty effect matches every effect", Toleration(key="foo", operator="Exists"),
     Taint("foo", "NoExecute"), True),
    ("effect must match when given", Toleration(key="foo", operator="Exists", effect="NoSchedule"),
     Taint("foo", "NoExecute"), False),
    ("key must match when given", Toleration(key="foo", operator="Exists"), Taint("bar", "NoSchedule"), False),
    ("Equal needs the same value", Toleration(key="foo", operator="Equal", value="bar"),
     Taint("foo", "NoSchedule", "bar"), True),
    ("Equal with another value", Toleration(key="foo", operator="Equal", value="bar"),
     Taint("foo", "NoSchedule", "baz"), False),
    ("empty operator means Equal", Toleration(key="foo", operator="", value="bar"),
     Taint("foo", "NoSchedule", "bar"), True),
    ("unknown operator tolerates nothing", Toleration(key="foo", operator="In", value="bar"),
     Taint("foo", "NoSchedule", "bar"), False),
]


@pytest.mark.parametrize("toleration,taint,want", [c[1:] for c in TOLERATES_CASES],
                         ids=[c[0] for c in TOLERATES_CASES])
def test_tolerates_taint(toleration, taint, want):
    assert toleration_tolerates_taint(toleration, taint) is want
    assert tolerations_tolerate_taint([toleration], taint) is want


UNTOLERATED_CASES = [
    ("empty tolerations tolerate empty taints", [], [], None),
    ("non-empty tolerations tolerate empty taints", [Toleration(key="foo", operator="Exists", effect="NoSchedule")],
     [], None),
    ("tolerations match all taints, expect untolerated is None",
     [Toleration(key="foo", operator="Exists", effect="NoSchedule")], [Taint("foo", "NoSchedule")], None),
    ("tolerations match some taints, expect the first untolerated one",
     [Toleration(key="foo", operator="Exists", effect="NoSchedule")],
     [Taint("foo", "NoSchedule"), Taint("bar", "NoSchedule")], Taint("bar", "NoSchedule")),
    ("tolerations don't match taints, but no taints apply to the filter",
     [Toleration(key="foo", operator="Exists", effect="NoSchedule")], [Taint("bar", "PreferNoSchedule")], None),
    ("no filter-passing taints are tolerated, the first NoExecute one is returned",
     [], [Taint("a", "PreferNoSchedule"), Taint("b", "NoExecute"), Taint("c", "NoSchedule")],
     Taint("b", "NoExecute")),
]


@pytest.mark.parametrize("tolerations,taints,want", [c[1:] for c in UNTOLERATED_CASES],
                         ids=[c[0] for c in UNTOLERATED_CASES])
def test_find_matching_untolerated_taint(tolerations, taints, want):
    assert find_matching_untolerated_taint(taints, tolerations, do_not_schedule_taints_filter_func()) == want


def test_find_without_filter_considers_every_taint():
    assert find_matching_untolerated_taint([Taint("a", "PreferNoSchedule")], []) == Taint("a", "PreferNoSchedule")


def test_match_helpers_and_string():
    assert taint_match_taint(Taint("k", "NoSchedule", "v1"), Taint("k", "NoSchedule", "v2"))
    assert not taint_match_taint(Taint("k", "NoSchedule"), Taint("k", "NoExecute"))
    assert toleration_match_toleration(Toleration("k", "Equal", "v", "NoSchedule"),
                                       Toleration("k", "Equal", "v", "NoSchedule", toleration_seconds=5))
    assert [taint_to_string(t) for t in (Taint("k", ""), Taint("k", "", "v"), Taint("k", "NoSchedule"),
                                         Taint("k", "NoSchedule", "v"))] == ["k", "k=v:", "k:NoSchedule",
                                                                             "k=v:NoSchedule"]


def test_pod_priority():
    assert pod_priority(Pod(ObjectMeta())) == 0
    assert pod_priority(Pod(ObjectMeta(), PodSpec(priority=7))) == 7
