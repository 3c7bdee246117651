"""The checks of chapters 00-05 speak the course's language.

Under zh_CN every verdict line a check prints is Chinese: the message, and after the Chinese
label 提示： the hint. In English (the default) each line is byte for byte the line the check
printed before its messages were marked for translation (:data:`ENGLISH`, recorded then).

The answers come from the checks' wrong-answer tables in tests/exercises/: for each check its
unanswered row (None or ...), a wrong answer that runs the engine, and the right answer.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from ksched_edu import exercises
from ksched_edu.exercises import ch03, core
from ksched_edu.exercises.core import FAIL_MARK, PASS_MARK
from ksched_edu.i18n import get_language, set_language
from ksched_edu.schedule_one import schedule_pod, select_host
from tests.exercises.test_ch02 import _forever, _label
from tests.exercises.test_ch03 import _PreferZoneA, _WrongNode
from tests.exercises.test_ch03 import _config as score_config
from tests.exercises.test_ch03 import _registry as score_registry
from tests.exercises.test_ch04 import TAINT_RIGHT
from tests.exercises.test_ch05 import RIGHT_OUTCOMES, RIGHT_QUEUES, Misnamed, TeamPermit, factory

CJK = re.compile(r"[\u4e00-\u9fff]")
EN_LABEL = " Hint: "
ZH_LABEL = "提示："

RIGHT_HINTS = {"uncordon n2": False, "uncordon n3": True, "add n4": True, "add n4 cordoned": False}


def _does_nothing(api: Any) -> None:
    return None


# check name -> [(row id, args, kwargs)]: the unanswered row, wrong answers, the right answer.
ROWS: dict[str, list[tuple[str, tuple, dict]]] = {
    # chapter 00
    "check_tour_cpu_request": [("None", (None,), {}), ("500m: still n3", ("500m",), {}),
                               ("not a quantity", ("lots",), {}), ("zero", ("0",), {}),
                               ("4 CPUs: fits nowhere", ("4",), {}), ("right", ("2",), {})],
    "check_tour_prediction": [("None", (None,), {}), ("no such node", ("n9",), {}), ("n2", ("n2",), {}),
                              ("right", ("n3",), {})],
    "check_tour_upstream": [("None", (None,), {}), ("the Go name", ("selectHost",), {}),
                            ("a number", (42,), {}), ("one level up", (schedule_pod,), {}),
                            ("right", (select_host,), {})],
    # chapter 01
    "check_node_tree_order": [("None", (None,), {}), ("too few", (["x1", "y1", "z1"],), {}),
                              ("creation order", (["x1", "x2", "y1", "x3", "z1", "y2"],), {}),
                              ("right", (["x1", "y1", "z1", "x2", "y2", "x3"],), {})],
    "check_non_zero_cpu": [("...", (..., ...), {}), ("no default", (500, 500), {}),
                           ("default in requested too", (600, 600), {}), ("right", (500, 600), {})],
    "check_unschedulable_flush_times": [("None", (None,), {}), ("a string", ("330, 660",), {}),
                                        ("every 300 s", ([300, 600],), {}), ("only the first", ([330],), {}),
                                        ("right", ([330, 660],), {})],
    # chapter 02
    "check_second_attempt": [("None", (None, 330), {}), ("not a part", ("inFlight", 330), {}),
                             ("a string time", ("unschedulablePods", "330"), {}),
                             ("gate off", ("backoffQ", 2), {}), ("one flush late", ("unschedulablePods", 360), {}),
                             ("right", ("unschedulablePods", 330), {})],
    "check_free_the_pod": [("None", (None,), {"seconds": 0.5}), ("does nothing", (_does_nothing,), {"seconds": 0.5}),
                           ("label the tainted node", (_label("n2"),), {"seconds": 0.5}),
                           ("endless loop", (_forever,), {"seconds": 0.5}),
                           ("right", (_label("n1"),), {"seconds": 0.5})],
    "check_flush_prediction": [("...", (...,), {}), ("a string", ("420",), {}), ("event time + 300", (400,), {}),
                               ("one flush early", (390,), {}), ("one flush late", (450,), {}),
                               ("right", (420,), {})],
    "check_hint_predictions": [("None", (None,), {}), ("missing changes", ({"uncordon n2": False},), {}),
                               ("an int", ({**RIGHT_HINTS, "uncordon n3": 1},), {}),
                               ("every change moves it", ({c: True for c in RIGHT_HINTS},), {}),
                               ("right", (RIGHT_HINTS,), {})],
    # chapter 03
    "check_score_plugin": [("None", (None, None), {}), ("config of the wrong type", (score_registry(), {}), {}),
                           ("not registered", (__import__("ksched_edu.framework.plugins.registry", fromlist=["x"])
                                               .new_in_tree_registry(), score_config()), {}),
                           ("enabled at a point it lacks", (score_registry(), score_config("filter")), {}),
                           ("scores the wrong node", (score_registry(_WrongNode), score_config()), {}),
                           ("right", (score_registry(_PreferZoneA), score_config()), {})],
    "check_pre_enqueue_count": [("None", (None,), {}), ("a string", ("4",), {}), ("once", (1,), {}),
                                ("right", (4,), {})],
    # chapter 04
    "check_normalized_scores": [("None", (None,), {}), ("a node missing", ({"n1": 0, "n2": 0, "n3": 100},), {}),
                                ("not reversed", ({"n1": 100, "n2": 100, "n3": 0, "n4": 100},), {}),
                                ("the tolerated taint counted", ({"n1": 50, "n2": 0, "n3": 100, "n4": 50},), {}),
                                ("right", (TAINT_RIGHT,), {})],
    "check_filter_counts": [("...", (..., ...), {}), ("a string", ("266", 200), {}),
                            ("the adaptive default", (560, 420), {}), ("one too many counted", (267, 200), {}),
                            ("rejected nodes not counted", (200, 200), {}), ("right", (266, 200), {})],
    "check_next_start_index": [("None", (None,), {}), ("a string", ("370",), {}),
                               ("the index does not move", (360,), {}), ("modulo the narrowed list", (0,), {}),
                               ("right", (370,), {})],
    # chapter 05
    "check_team_permit": [("None", (None,), {}), ("wrong name", (factory(Misnamed),), {}),
                          ("right", (factory(TeamPermit),), {})],
    "check_pods_binding": [("...", (...,), {}), ("a float", (4.0,), {}), ("off by one", (3,), {}),
                           ("right", (2,), {})],
    "check_first_failure_queues": [("None", (None,), {}),
                                   ("every pod backs off", ({**RIGHT_QUEUES, "default/e": "backoffQ"},), {}),
                                   ("short names", ({"b": "backoffQ", "d": "backoffQ", "e": "unschedulablePods"},), {}),
                                   ("right", (RIGHT_QUEUES,), {})],
    "check_permit_outcomes": [("...", (...,), {}), ("another word", ({**RIGHT_OUTCOMES, "default/job-2": "timed out"},),
                                                    {}),
                              ("a pod missing", ({p: o for p, o in RIGHT_OUTCOMES.items() if p != "default/job-5"},),
                               {}),
                              ("every wait times out", ({p: "timeout" for p in RIGHT_OUTCOMES},), {}),
                              ("right", (RIGHT_OUTCOMES,), {})],
}

# What each row printed in English before the checks' messages were marked for translation.
ENGLISH: dict[tuple[str, str], str] = {
    ('check_tour_cpu_request', 'None'):
        "✘ cpu_request is not set yet. Hint: set it to a CPU quantity string; write each node's total as a "
        "function of the request: NodeResourcesFit's LeastAllocated scores each resource as the share of "
        'allocatable left free and averages CPU and memory (noderesources/least_allocated.go L30-61), '
        'BalancedAllocation rewards CPU and memory fractions that stay close '
        "(noderesources/balanced_allocation.go L138-173), and section 5 has both nodes' numbers at 500m; "
        'remember that Filter runs first (noderesources/fit.go fitsRequest, L421-501)\n',
    ('check_tour_cpu_request', '500m: still n3'):
        "✘ with 500m CPU, default/web still lands on n3. Hint: write each node's total as a function of the "
        "request: NodeResourcesFit's LeastAllocated scores each resource as the share of allocatable left "
        'free and averages CPU and memory (noderesources/least_allocated.go L30-61), BalancedAllocation '
        'rewards CPU and memory fractions that stay close (noderesources/balanced_allocation.go L138-173), '
        "and section 5 has both nodes' numbers at 500m; remember that Filter runs first (noderesources/fit.go "
        'fitsRequest, L421-501)\n',
    ('check_tour_cpu_request', 'not a quantity'):
        "✘ 'lots' is not a quantity (quantities must match the regular expression "
        '\'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'). Hint: write it as a quantity string, such as "750m" '
        'or "1"\n',
    ('check_tour_cpu_request', 'zero'):
        "✘ '0' is not a positive amount of CPU. Hint: write each node's total as a function of the request: "
        "NodeResourcesFit's LeastAllocated scores each resource as the share of allocatable left free and "
        'averages CPU and memory (noderesources/least_allocated.go L30-61), BalancedAllocation rewards CPU '
        'and memory fractions that stay close (noderesources/balanced_allocation.go L138-173), and section 5 '
        "has both nodes' numbers at 500m; remember that Filter runs first (noderesources/fit.go fitsRequest, "
        'L421-501)\n',
    ('check_tour_cpu_request', '4 CPUs: fits nowhere'):
        '✘ with 4 CPU, default/web fits nowhere: 0/3 nodes are available: 1 node(s) had untolerated taint '
        '{dedicated: batch}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not '
        "helpful for scheduling, 2 No preemption victims found for incoming pod. Hint: write each node's "
        "total as a function of the request: NodeResourcesFit's LeastAllocated scores each resource as the "
        'share of allocatable left free and averages CPU and memory (noderesources/least_allocated.go '
        'L30-61), BalancedAllocation rewards CPU and memory fractions that stay close '
        "(noderesources/balanced_allocation.go L138-173), and section 5 has both nodes' numbers at 500m; "
        'remember that Filter runs first (noderesources/fit.go fitsRequest, L421-501)\n',
    ('check_tour_cpu_request', 'right'):
        '✔ with 2 CPU, default/web lands on n1.\n',
    ('check_tour_prediction', 'None'):
        '✘ winner is not set yet. Hint: set it to "n1", "n2" or "n3"; with the toleration n2 passes every '
        "Filter; compare the three nodes' scores plugin by plugin: TaintToleration counts PreferNoSchedule "
        "taints only (tainttoleration/taint_toleration.go L125-154), and NodeResourcesFit's LeastAllocated "
        'compares fractions of each node, not amounts (noderesources/least_allocated.go L30-61)\n',
    ('check_tour_prediction', 'no such node'):
        "✘ 'n9' is not one of the nodes n1, n2, n3. Hint: with the toleration n2 passes every Filter; compare "
        "the three nodes' scores plugin by plugin: TaintToleration counts PreferNoSchedule taints only "
        "(tainttoleration/taint_toleration.go L125-154), and NodeResourcesFit's LeastAllocated compares "
        'fractions of each node, not amounts (noderesources/least_allocated.go L30-61)\n',
    ('check_tour_prediction', 'n2'):
        '✘ default/web does not land on n2. Hint: with the toleration n2 passes every Filter; compare the '
        "three nodes' scores plugin by plugin: TaintToleration counts PreferNoSchedule taints only "
        "(tainttoleration/taint_toleration.go L125-154), and NodeResourcesFit's LeastAllocated compares "
        'fractions of each node, not amounts (noderesources/least_allocated.go L30-61)\n',
    ('check_tour_prediction', 'right'):
        '✔ right: even when it may use n2, default/web lands on n3.\n',
    ('check_tour_upstream', 'None'):
        '✘ picker is not set yet. Hint: in SourceView(schedule_pod), beside schedulePod (schedule_one.go '
        'L390-438), the scheduling cycle scores the feasible nodes (prioritize_nodes) and then calls one more '
        'function to choose among them; import that function from ksched_edu.schedule_one and assign the '
        'function itself\n',
    ('check_tour_upstream', 'the Go name'):
        "✘ 'selectHost' is a string. Hint: give the Python function, not its name; in "
        'SourceView(schedule_pod), beside schedulePod (schedule_one.go L390-438), the scheduling cycle scores '
        'the feasible nodes (prioritize_nodes) and then calls one more function to choose among them; import '
        'that function from ksched_edu.schedule_one and assign the function itself\n',
    ('check_tour_upstream', 'a number'):
        '✘ int is not a function of ksched_edu with an upstream anchor. Hint: in SourceView(schedule_pod), '
        'beside schedulePod (schedule_one.go L390-438), the scheduling cycle scores the feasible nodes '
        '(prioritize_nodes) and then calls one more function to choose among them; import that function from '
        'ksched_edu.schedule_one and assign the function itself\n',
    ('check_tour_upstream', 'one level up'):
        '✘ ksched_edu.schedule_one.schedule_pod ports (*Scheduler).schedulePod '
        '(pkg/scheduler/schedule_one.go), not the function that picks the winner. Hint: in '
        'SourceView(schedule_pod), beside schedulePod (schedule_one.go L390-438), the scheduling cycle scores '
        'the feasible nodes (prioritize_nodes) and then calls one more function to choose among them; import '
        'that function from ksched_edu.schedule_one and assign the function itself\n',
    ('check_tour_upstream', 'right'):
        '✔ ksched_edu.schedule_one.select_host ports selectHost (pkg/scheduler/schedule_one.go#L861-L908): it '
        'picks the winner, breaking ties at random.\n',
    ('check_node_tree_order', 'None'):
        "✘ order is not set yet. Hint: set it to a list of the six node names; read the node tree's addNode "
        'and list (pkg/scheduler/internal/cache/node_tree.go L51-67 and L119-143): in which order does it '
        'keep the zones, and what does each pass of list take from each zone?\n',
    ('check_node_tree_order', 'too few'):
        "✘ ['x1', 'y1', 'z1'] is not a list of the six nodes x1, x2, x3, y1, y2, z1. Hint: read the node "
        "tree's addNode and list (pkg/scheduler/internal/cache/node_tree.go L51-67 and L119-143): in which "
        'order does it keep the zones, and what does each pass of list take from each zone?\n',
    ('check_node_tree_order', 'creation order'):
        "✘ position 1 should hold y1, not x2. Hint: read the node tree's addNode and list "
        '(pkg/scheduler/internal/cache/node_tree.go L51-67 and L119-143): in which order does it keep the '
        'zones, and what does each pass of list take from each zone?\n',
    ('check_node_tree_order', 'right'):
        '✔ the scheduler walks x1, y1, z1, x2, y2, x3.\n',
    ('check_non_zero_cpu', '...'):
        '✘ both numbers must be set. Hint: `requested` adds up what the containers ask for; '
        '`non_zero_requested` first gives a container without a CPU request a default: read '
        'GetNonzeroRequests and the defaults above it (pkg/scheduler/util/pod_resources.go L33-46), and '
        'NodeInfo.update, which adds both sums (pkg/scheduler/framework/types.go L846-865)\n',
    ('check_non_zero_cpu', 'no default'):
        '✘ non_zero_requested.milli_cpu is not 500. Hint: `requested` adds up what the containers ask for; '
        '`non_zero_requested` first gives a container without a CPU request a default: read '
        'GetNonzeroRequests and the defaults above it (pkg/scheduler/util/pod_resources.go L33-46), and '
        'NodeInfo.update, which adds both sums (pkg/scheduler/framework/types.go L846-865)\n',
    ('check_non_zero_cpu', 'default in requested too'):
        '✘ requested.milli_cpu is not 600. Hint: `requested` adds up what the containers ask for; '
        '`non_zero_requested` first gives a container without a CPU request a default: read '
        'GetNonzeroRequests and the defaults above it (pkg/scheduler/util/pod_resources.go L33-46), and '
        'NodeInfo.update, which adds both sums (pkg/scheduler/framework/types.go L846-865)\n',
    ('check_non_zero_cpu', 'right'):
        '✔ requested 500m, non-zero requested 600m: the BestEffort pod counts for 100m when NodeResourcesFit '
        'scores nodes (BalancedAllocation and Filter read `requested`).\n',
    ('check_unschedulable_flush_times', 'None'):
        '✘ times is not set yet. Hint: set it to a list of numbers (seconds); read three places in '
        'pkg/scheduler/internal/queue/scheduling_queue.go: when the flush runs ((*PriorityQueue).Run, '
        'L393-400: wait.Until every 30 s, and when is its first call?), the test it makes on each pod '
        '(flushUnschedulablePodsLeftover, L863-879: which comparison, against which timestamp?), and where '
        'that timestamp is set again (addUnschedulableWithoutQueueingHint, L742-743); then follow the pod '
        'from its first failure at t=0.001\n',
    ('check_unschedulable_flush_times', 'a string'):
        "✘ '330, 660' is not a list of numbers. Hint: write e.g. [100, 200]; read three places in "
        'pkg/scheduler/internal/queue/scheduling_queue.go: when the flush runs ((*PriorityQueue).Run, '
        'L393-400: wait.Until every 30 s, and when is its first call?), the test it makes on each pod '
        '(flushUnschedulablePodsLeftover, L863-879: which comparison, against which timestamp?), and where '
        'that timestamp is set again (addUnschedulableWithoutQueueingHint, L742-743); then follow the pod '
        'from its first failure at t=0.001\n',
    ('check_unschedulable_flush_times', 'every 300 s'):
        '✘ move 1 did not happen at t=300 s. Hint: read three places in '
        'pkg/scheduler/internal/queue/scheduling_queue.go: when the flush runs ((*PriorityQueue).Run, '
        'L393-400: wait.Until every 30 s, and when is its first call?), the test it makes on each pod '
        '(flushUnschedulablePodsLeftover, L863-879: which comparison, against which timestamp?), and where '
        'that timestamp is set again (addUnschedulableWithoutQueueingHint, L742-743); then follow the pod '
        'from its first failure at t=0.001\n',
    ('check_unschedulable_flush_times', 'only the first'):
        '✘ 1 move(s) predicted; the queue recorded 2 up to t=700 s. Hint: read three places in '
        'pkg/scheduler/internal/queue/scheduling_queue.go: when the flush runs ((*PriorityQueue).Run, '
        'L393-400: wait.Until every 30 s, and when is its first call?), the test it makes on each pod '
        '(flushUnschedulablePodsLeftover, L863-879: which comparison, against which timestamp?), and where '
        'that timestamp is set again (addUnschedulableWithoutQueueingHint, L742-743); then follow the pod '
        'from its first failure at t=0.001\n',
    ('check_unschedulable_flush_times', 'right'):
        '✔ the flush moved default/web back to activeQ at t=330, 660 s.\n',
    ('check_second_attempt', 'None'):
        '✘ goes_to and next_attempt are not both set yet. Hint: goes_to is "activeQ", "backoffQ" or '
        '"unschedulablePods"; find the event that reached the queue during big\'s first attempt (web\'s bind: '
        'addPodToCache, pkg/scheduler/eventhandlers.go L194-208, then AssignedPodAdded, '
        'pkg/scheduler/internal/queue/scheduling_queue.go L1064-1068), then what AddUnschedulableIfNotPresent '
        'does with it when the gate is on: determineSchedulingHintForInFlightPod (L676-732) asks '
        'isPodWorthRequeuing (L442-513) about the plugins that rejected big; section 2 prints the events they '
        'registered\n',
    ('check_second_attempt', 'not a part'):
        "✘ 'inFlight' is not one of the queue's parts activeQ, backoffQ, unschedulablePods. Hint: find the "
        "event that reached the queue during big's first attempt (web's bind: addPodToCache, "
        'pkg/scheduler/eventhandlers.go L194-208, then AssignedPodAdded, '
        'pkg/scheduler/internal/queue/scheduling_queue.go L1064-1068), then what AddUnschedulableIfNotPresent '
        'does with it when the gate is on: determineSchedulingHintForInFlightPod (L676-732) asks '
        'isPodWorthRequeuing (L442-513) about the plugins that rejected big; section 2 prints the events they '
        'registered\n',
    ('check_second_attempt', 'a string time'):
        '✘ next_attempt should be a virtual time in seconds, not str. Hint: once you know where big waits, '
        'find what moves it next: flushBackoffQCompleted (L830-859) or flushUnschedulablePodsLeftover '
        '(L863-879), how often (*PriorityQueue).Run calls each '
        '(pkg/scheduler/internal/queue/scheduling_queue.go L393-400), and the timestamp each compares (set at '
        'L805)\n',
    ('check_second_attempt', 'gate off'):
        '✘ with the gate on, big did not go to backoffQ after its first attempt. Hint: find the event that '
        "reached the queue during big's first attempt (web's bind: addPodToCache, "
        'pkg/scheduler/eventhandlers.go L194-208, then AssignedPodAdded, '
        'pkg/scheduler/internal/queue/scheduling_queue.go L1064-1068), then what AddUnschedulableIfNotPresent '
        'does with it when the gate is on: determineSchedulingHintForInFlightPod (L676-732) asks '
        'isPodWorthRequeuing (L442-513) about the plugins that rejected big; section 2 prints the events they '
        'registered\n',
    ('check_second_attempt', 'one flush late'):
        "✘ big's second attempt did not start at t=360 s. Hint: once you know where big waits, find what "
        'moves it next: flushBackoffQCompleted (L830-859) or flushUnschedulablePodsLeftover (L863-879), how '
        'often (*PriorityQueue).Run calls each (pkg/scheduler/internal/queue/scheduling_queue.go L393-400), '
        'and the timestamp each compares (set at L805)\n',
    ('check_second_attempt', 'right'):
        "✔ right: with the gate on, web's bind was replayed through the hints of the plugins that rejected "
        'big, none of which registered it, so big waited in unschedulablePods from t=0.003 s until the '
        '30-second flush of t=330 s; with the gate off, section 1 retried it at t=2 s.\n',
    ('check_free_the_pod', 'None'):
        '✘ free is not a function yet. Hint: ssd-job wants a node labelled disk=ssd that it may use; label a '
        "node (take a copy of it with copy.deepcopy(api.get('Node', '', name)), change the copy, "
        'api.update(copy)) or create a new node; leave the pod alone\n',
    ('check_free_the_pod', 'does nothing'):
        '✘ no cluster event moved ssd-job out of unschedulablePods. Hint: ssd-job wants a node labelled '
        "disk=ssd that it may use; label a node (take a copy of it with copy.deepcopy(api.get('Node', '', "
        'name)), change the copy, api.update(copy)) or create a new node; leave the pod alone\n',
    ('check_free_the_pod', 'label the tainted node'):
        '✘ no cluster event moved ssd-job out of unschedulablePods. Hint: ssd-job wants a node labelled '
        "disk=ssd that it may use; label a node (take a copy of it with copy.deepcopy(api.get('Node', '', "
        'name)), change the copy, api.update(copy)) or create a new node; leave the pod alone\n',
    ('check_free_the_pod', 'endless loop'):
        '✘ free(api) did not return: your code is still running after 0.5 s (a loop that never ends?) Hint: '
        'ssd-job wants a node labelled disk=ssd that it may use; label a node (take a copy of it with '
        "copy.deepcopy(api.get('Node', '', name)), change the copy, api.update(copy)) or create a new node; "
        'leave the pod alone\n',
    ('check_free_the_pod', 'right'):
        '✔ NodeLabelChange moved ssd-job to Backoff; it was bound to n1 at t=4s.\n',
    ('check_flush_prediction', '...'):
        '✘ predicted is not a time yet. Hint: with hints off the label change moves web and it is retried at '
        'once; the failure refreshes its timestamp. flushUnschedulablePodsLeftover runs at t=0, 30, 60, ... '
        'and moves a pod that has waited strictly longer than 5 minutes (300 s) since that timestamp\n',
    ('check_flush_prediction', 'a string'):
        '✘ predicted should be a number of seconds, not str. Hint: with hints off the label change moves web '
        'and it is retried at once; the failure refreshes its timestamp. flushUnschedulablePodsLeftover runs '
        'at t=0, 30, 60, ... and moves a pod that has waited strictly longer than 5 minutes (300 s) since '
        'that timestamp\n',
    ('check_flush_prediction', 'event time + 300'):
        '✘ no flush runs at t=400s, and waiting exactly 300 s is not enough. Hint: with hints off the label '
        'change moves web and it is retried at once; the failure refreshes its timestamp. '
        'flushUnschedulablePodsLeftover runs at t=0, 30, 60, ... and moves a pod that has waited strictly '
        'longer than 5 minutes (300 s) since that timestamp\n',
    ('check_flush_prediction', 'one flush early'):
        '✘ at t=390s web has not waited 5 minutes since its last failure. Hint: with hints off the label '
        'change moves web and it is retried at once; the failure refreshes its timestamp. '
        'flushUnschedulablePodsLeftover runs at t=0, 30, 60, ... and moves a pod that has waited strictly '
        'longer than 5 minutes (300 s) since that timestamp\n',
    ('check_flush_prediction', 'one flush late'):
        '✘ web leaves unschedulablePods before t=450s. Hint: with hints off the label change moves web and it '
        'is retried at once; the failure refreshes its timestamp. flushUnschedulablePodsLeftover runs at t=0, '
        '30, 60, ... and moves a pod that has waited strictly longer than 5 minutes (300 s) since that '
        'timestamp\n',
    ('check_flush_prediction', 'right'):
        '✔ the flush at t=420s moved web (UnschedulableTimeout): it had waited since its failure at t=100s, '
        'and the flush at t=390s was too early.\n',
    ('check_hint_predictions', 'None'):
        '✘ predicted is not a dict {change: True or False} yet. Hint: a node event first meets the pre-check '
        '(preCheckForNode: resources, node affinity, ports, NoSchedule taints web does not tolerate); a pod '
        'that passes it is moved only if the hint of a plugin that rejected it (NodeUnschedulable: is the '
        'node schedulable now?) answers Queue\n',
    ('check_hint_predictions', 'missing changes'):
        "✘ no prediction for ['uncordon n3', 'add n4', 'add n4 cordoned']. Hint: a node event first meets the "
        'pre-check (preCheckForNode: resources, node affinity, ports, NoSchedule taints web does not '
        'tolerate); a pod that passes it is moved only if the hint of a plugin that rejected it '
        '(NodeUnschedulable: is the node schedulable now?) answers Queue\n',
    ('check_hint_predictions', 'an int'):
        "✘ the prediction for 'uncordon n3' should be True or False, not 1. Hint: a node event first meets "
        'the pre-check (preCheckForNode: resources, node affinity, ports, NoSchedule taints web does not '
        'tolerate); a pod that passes it is moved only if the hint of a plugin that rejected it '
        '(NodeUnschedulable: is the node schedulable now?) answers Queue\n',
    ('check_hint_predictions', 'every change moves it'):
        "✘ 2 prediction(s) off; for instance 'uncordon n2' did not move web. Hint: a node event first meets "
        'the pre-check (preCheckForNode: resources, node affinity, ports, NoSchedule taints web does not '
        'tolerate); a pod that passes it is moved only if the hint of a plugin that rejected it '
        '(NodeUnschedulable: is the node schedulable now?) answers Queue\n',
    ('check_hint_predictions', 'right'):
        '✔ right for all 4: only uncordon n3 and add n4 moved web.\n',
    ('check_score_plugin', 'None'):
        '✘ registry is not a plugin registry (a dict name -> factory) yet. Hint: define a class with name(), '
        'score(state, pod, node_name) -> (int, None) and score_extensions() -> None; registry = '
        'merge_registries(new_in_tree_registry(), {NAME: lambda args, handle: YourPlugin(handle)}); config = '
        'load_config_data(...) with a profile whose plugins.score.enabled lists NAME with a weight\n',
    ('check_score_plugin', 'config of the wrong type'):
        '✘ config is not a KubeSchedulerConfiguration yet (load_config_data returns one). Hint: define a '
        'class with name(), score(state, pod, node_name) -> (int, None) and score_extensions() -> None; '
        'registry = merge_registries(new_in_tree_registry(), {NAME: lambda args, handle: '
        'YourPlugin(handle)}); config = load_config_data(...) with a profile whose plugins.score.enabled '
        'lists NAME with a weight\n',
    ('check_score_plugin', 'not registered'):
        '✘ the registry holds only in-tree plugins. Hint: define a class with name(), score(state, pod, '
        'node_name) -> (int, None) and score_extensions() -> None; registry = '
        'merge_registries(new_in_tree_registry(), {NAME: lambda args, handle: YourPlugin(handle)}); config = '
        'load_config_data(...) with a profile whose plugins.score.enabled lists NAME with a weight\n',
    ('check_score_plugin', 'enabled at a point it lacks'):
        '✘ the scheduler could not run with your plugin: ConfigurationError: initializing profiles: creating '
        'profile for scheduler name default-scheduler: plugin "PreferZoneA" does not extend FilterPlugin '
        'plugin Hint: define a class with name(), score(state, pod, node_name) -> (int, None) and '
        'score_extensions() -> None; registry = merge_registries(new_in_tree_registry(), {NAME: lambda args, '
        'handle: YourPlugin(handle)}); config = load_config_data(...) with a profile whose '
        'plugins.score.enabled lists NAME with a weight\n',
    ('check_score_plugin', 'scores the wrong node'):
        "✘ default/web lands on n3; PreferZoneA gave the weighted scores {'n1': 0, 'n3': 100}. Hint: give "
        "n1's zone a high score (up to 100) and the others 0, with a weight of at least 1; n3 led by 13 "
        'points without your plugin\n',
    ('check_score_plugin', 'right'):
        '✔ PreferZoneA scored every feasible node, and default/web now lands on n1.\n',
    ('check_pre_enqueue_count', 'None'):
        '✘ no prediction yet. Hint: set `predicted` to a whole number of PreEnqueue calls.\n',
    ('check_pre_enqueue_count', 'a string'):
        "✘ '4' is not a whole number. Hint: set `predicted` to an int, e.g. 2.\n",
    ('check_pre_enqueue_count', 'once'):
        '✘ 1 is not the number of PreEnqueue calls for default/web. Hint: PreEnqueue runs each time the pod '
        'would enter activeQ: when it is added, when a flush takes it out of backoffQ (every whole second), '
        'when an event moves it straight to activeQ (its backoff over); a move into backoffQ runs none '
        '(addToActiveQ and its callers, internal/queue/scheduling_queue.go L560-578, L830-861, L1131-1169). '
        'Backoff after the 1st, 2nd, 3rd failure: 1 s, 2 s, 4 s, counted from the failure.\n',
    ('check_pre_enqueue_count', 'right'):
        "✔ the Doorman's PreEnqueue ran 4 times for default/web: t=0s (PodAdd), t=2s (BackoffComplete), "
        't=6.5s (NodeLabelChange), t=11s (BackoffComplete).\n',
    ('check_normalized_scores', 'None'):
        '✘ no prediction yet. Hint: write a dict {node name: normalized score}, one entry per node.\n',
    ('check_normalized_scores', 'a node missing'):
        "✘ no prediction for n4. Hint: predict every feasible node's score.\n",
    ('check_normalized_scores', 'not reversed'):
        '✘ 4 node(s) off, e.g. n1: you said 100. Hint: NormalizeScore passes reverse=true to '
        'DefaultNormalizeScore (taint_toleration.go L158): read what normalize_score.go L48-50 then does to '
        'each score.\n',
    ('check_normalized_scores', 'the tolerated taint counted'):
        '✘ 2 node(s) off, e.g. n1: you said 50. Hint: a taint the pod tolerates is not counted: read which '
        'taints countIntolerableTaintsPreferNoSchedule skips (taint_toleration.go L125-137).\n',
    ('check_normalized_scores', 'right'):
        '✔ TaintToleration normalized scores: n1=0, n2=0, n3=100, n4=0.\n',
    ('check_filter_counts', '...'):
        '✘ no prediction yet. Hint: set `evaluated` and `feasible` to whole numbers of nodes.\n',
    ('check_filter_counts', 'a string'):
        "✘ '266' is not a whole number of nodes. Hint: give two ints: whole numbers of nodes.\n",
    ('check_filter_counts', 'the adaptive default'):
        '✘ feasible = 420 is not what the cycle kept. Hint: that is the adaptive default; this configuration '
        'sets percentageOfNodesToScore: 20, which numFeasibleNodesToFind uses instead (schedule_one.go '
        'L661-680).\n',
    ('check_filter_counts', 'one too many counted'):
        '✘ evaluated = 267 is not what the cycle recorded. Hint: the node that stops the search (one feasible '
        'node too many) is filtered but not counted (checkNode, schedule_one.go L615-619): it is where the '
        'next cycle starts.\n',
    ('check_filter_counts', 'rejected nodes not counted'):
        '✘ evaluated = 200 is not what the cycle recorded. Hint: the tainted nodes rejected on the way count '
        'too: evaluated = feasible + the nodes with a failure status (schedule_one.go L435).\n',
    ('check_filter_counts', 'right'):
        '✔ the first cycle filtered its way through 266 nodes and kept 200 feasible ones; the next cycle '
        'starts at index 266.\n',
    ('check_next_start_index', 'None'):
        '✘ no prediction yet. Hint: set `predicted` to a node index (a whole number).\n',
    ('check_next_start_index', 'a string'):
        "✘ '370' is not a whole number. Hint: set `predicted` to an int: an index into the list of nodes.\n",
    ('check_next_start_index', 'the index does not move'):
        '✘ 360 is not where the next cycle starts. Hint: the index moves after every cycle, by '
        'processedNodes, whichever list was filtered (schedule_one.go L497-500).\n',
    ('check_next_start_index', 'modulo the narrowed list'):
        "✘ 0 is not where the next cycle starts. Hint: look at the modulo of L500: which list's length is it, "
        "the narrowed one or the snapshot's?\n",
    ('check_next_start_index', 'right'):
        "✔ default/pinned's cycle filtered the 10 nodes PreFilter left (8 feasible, 2 rejected): "
        'nextStartNodeIndex 360 -> 370.\n',
    ('check_team_permit', 'None'):
        '✘ no plugin factory yet. Hint: define `def new_team_permit(args, handle): return TeamPermit()`.\n',
    ('check_team_permit', 'wrong name'):
        "✘ the plugin's name() is 'Team'. Hint: name() must return 'TeamPermit'.\n",
    ('check_team_permit', 'right'):
        '✔ 2 team pod(s) bound, 1 refused at Permit: 0/1 nodes are available: 1 pod has no team label.\n',
    ('check_pods_binding', '...'):
        '✘ no prediction yet. Hint: set `predicted` to a whole number of pods.\n',
    ('check_pods_binding', 'a float'):
        '✘ 4.0 is not a whole number. Hint: set `predicted` to a whole number of pods.\n',
    ('check_pods_binding', 'off by one'):
        '✘ 3 is not the number of pods still binding when default/job-3 was scheduled. Hint: pods arrive '
        'every 0.2 s (web and job-0 at once) and bind 0.5 s after their cycle: which pods were scheduled less '
        'than 0.5 s before default/job-3?\n',
    ('check_pods_binding', 'right'):
        '✔ with binding taking 0.5 s, 2 pod(s) were assumed and still binding when default/job-3 was '
        'scheduled: default/job-1, default/job-2.\n',
    ('check_first_failure_queues', 'None'):
        '✘ predicted is not a dict {pod: queue} yet. Hint: a pod that fails goes to backoffQ when a move '
        'request came during its cycle (the bind of the pod scheduled just before it, landing while it was '
        "tried); otherwise to unschedulablePods. Which pod's scheduling cycle came right before each failing "
        "pod's, and did it bind?\n",
    ('check_first_failure_queues', 'every pod backs off'):
        '✘ 1 of 3 predictions are wrong: default/e. Hint: a pod that fails goes to backoffQ when a move '
        'request came during its cycle (the bind of the pod scheduled just before it, landing while it was '
        "tried); otherwise to unschedulablePods. Which pod's scheduling cycle came right before each failing "
        "pod's, and did it bind?\n",
    ('check_first_failure_queues', 'short names'):
        "✘ ['b', 'd', 'e'] are not namespace/name keys (a pod of this scenario is named like default/a). "
        'Hint: which pods can never fit? name each of them, as namespace/name.\n',
    ('check_first_failure_queues', 'right'):
        '✔ right: default/b → backoffQ, default/d → backoffQ, default/e → unschedulablePods.\n',
    ('check_permit_outcomes', '...'):
        '✘ predicted is not a dict {pod: outcome} yet. Hint: a wait ends at the first of: every plugin it '
        "waits for calls Allow; someone calls Reject; its own timer runs out (upstream's 'rejected due to "
        "timeout'). Once it has ended, the pod no longer waits, and a later Allow or Reject for it does "
        'nothing.\n',
    ('check_permit_outcomes', 'another word'):
        '✘ [\'timed out\'] are not outcomes. Hint: use "allowed", "rejected" or "timeout".\n',
    ('check_permit_outcomes', 'a pod missing'):
        '✘ you named 4 pod(s); 5 pods waited at Permit. Hint: name each pod of HOLD_TIMEOUTS, as '
        'namespace/name.\n',
    ('check_permit_outcomes', 'every wait times out'):
        '✘ 3 of 5 predictions are wrong: default/job-1, default/job-3, default/job-5. Hint: a wait ends at '
        'the first of: every plugin it waits for calls Allow; someone calls Reject; its own timer runs out '
        "(upstream's 'rejected due to timeout'). Once it has ended, the pod no longer waits, and a later "
        'Allow or Reject for it does nothing.\n',
    ('check_permit_outcomes', 'right'):
        '✔ right: default/job-1 allowed, default/job-2 timeout, default/job-3 rejected, default/job-4 '
        'timeout, default/job-5 allowed.\n',
}


@pytest.fixture(autouse=True)
def _english_afterwards() -> Any:
    """Every test starts and ends in English."""
    set_language(None)
    yield
    set_language(None)


def _run(capsys: pytest.CaptureFixture, check: str, args: tuple, kwargs: dict) -> tuple[bool, str]:
    result = getattr(exercises, check)(*args, **kwargs)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith(PASS_MARK if result else FAIL_MARK), out
    return result, out


def _assert_chinese(result: bool, out: str) -> None:
    """A verdict line in Chinese: the message, and (a ✘) the label 提示： and the hint after it."""
    assert EN_LABEL not in out, out
    if result:
        assert CJK.search(out[len(PASS_MARK):]), f"the verdict is not Chinese: {out!r}"
        return
    assert out.count(ZH_LABEL) >= 1, f"no {ZH_LABEL} label: {out!r}"
    message, hint = out[len(FAIL_MARK):].split(ZH_LABEL, 1)
    assert CJK.search(message), f"the message is not Chinese: {out!r}"
    assert CJK.search(hint), f"the hint is not Chinese: {out!r}"


@pytest.mark.parametrize("check", sorted(ROWS))
def test_a_check_speaks_chinese_and_its_english_is_unchanged(check: str, capsys: pytest.CaptureFixture) -> None:
    for row_id, args, kwargs in ROWS[check]:
        set_language(None)
        en_result, en = _run(capsys, check, args, kwargs)
        assert en == ENGLISH[check, row_id], f"{check} [{row_id}] changed in English:\n{en!r}"
        assert not CJK.search(en), en
        set_language("zh_CN")
        try:
            zh_result, zh = _run(capsys, check, args, kwargs)
        finally:
            set_language(None)
        assert zh_result is en_result, (row_id, zh)
        _assert_chinese(zh_result, zh)
        assert zh != en


def test_every_check_of_chapters_00_to_05_has_rows_and_an_unanswered_one() -> None:
    from ksched_edu.exercises import ch00, ch01, ch02, ch04, ch05

    checks = {name for module in (ch00, ch01, ch02, ch03, ch04, ch05) for name in dir(module)
              if name.startswith("check_")}
    assert set(ROWS) == checks
    for check, rows in ROWS.items():
        assert any(args and all(a is None or a is Ellipsis for a in args[:1]) for _, args, _ in rows), check
        assert {row_id for row_id, _, _ in rows} == {row_id for c, row_id in ENGLISH if c == check}, check


# --- core: the label, the time limits ------------------------------------------------------


def test_failed_keeps_the_english_label_and_translates_it_under_zh_cn(capsys: pytest.CaptureFixture) -> None:
    core.failed("not yet.", hint="try again")
    assert capsys.readouterr().out == "✘ not yet. Hint: try again\n"
    set_language("zh_CN")
    core.failed("没有。", hint="再试一次")
    core.passed("对了。")
    assert capsys.readouterr().out == "✘ 没有。 提示：再试一次\n✔ 对了。\n"


def test_the_time_limit_messages_are_chinese_under_zh_cn() -> None:
    err = core.CheckTimeout("still running after 0.5 s")
    assert core.describe_exception(err) == "your code is still running after 0.5 s (a loop that never ends?)"
    assert core.describe_exception(KeyError("x")) == "KeyError: 'x'"
    set_language("zh_CN")
    assert get_language() == "zh_CN"

    def endless() -> None:
        while True:
            pass

    ok, exc = core.call_answer(endless, seconds=0.3)
    assert not ok and isinstance(exc, core.CheckTimeout)
    said = core.describe_exception(exc)
    assert CJK.search(str(exc)) and "0.3" in str(exc), str(exc)
    assert CJK.search(said) and str(exc) in said, said
    # an exception's own text stays as Python wrote it
    assert core.describe_exception(KeyError("x")) == "KeyError: 'x'"


def test_a_simulation_that_never_stops_is_reported_in_chinese() -> None:
    class Busy:
        class scheduler:
            @staticmethod
            def busy() -> bool:
                return True

        @staticmethod
        def run(until: float) -> None:
            return None

    assert core.run_learner_simulation(Busy(), until=900.0) == (
        "pods were still being retried after 900 s of virtual time; every attempt failed, so the scheduler never "
        "stopped")
    set_language("zh_CN")
    said = core.run_learner_simulation(Busy(), until=900.0)
    assert said is not None and CJK.search(said) and "900" in said, said
