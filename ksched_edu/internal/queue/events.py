"""Port of pkg/scheduler/internal/queue/events.go (v1.30).

The names of the events that move pods between the scheduling queue's three
parts. The first five are plain labels the queue writes when it moves a pod on
its own account; the rest are cluster events: a change in the cluster that may
make a waiting pod schedulable, matched against what each plugin registered.
"""
from __future__ import annotations

from ...framework.types import (CSI_DRIVER, CSI_NODE, CSI_STORAGE_CAPACITY, NODE, PERSISTENT_VOLUME,
                                PERSISTENT_VOLUME_CLAIM, POD, STORAGE_CLASS, WILDCARD, ActionType, ClusterEvent)

# Labels of the queue's own moves.
POD_ADD = "PodAdd"
SCHEDULE_ATTEMPT_FAILURE = "ScheduleAttemptFailure"
BACKOFF_COMPLETE = "BackoffComplete"
FORCE_ACTIVATE = "ForceActivate"
POD_UPDATE = "PodUpdate"

# Cluster events.
ASSIGNED_POD_ADD = ClusterEvent(POD, ActionType.Add, "AssignedPodAdd")
NODE_ADD = ClusterEvent(NODE, ActionType.Add, "NodeAdd")
ASSIGNED_POD_UPDATE = ClusterEvent(POD, ActionType.Update, "AssignedPodUpdate")
ASSIGNED_POD_DELETE = ClusterEvent(POD, ActionType.Delete, "AssignedPodDelete")
NODE_SPEC_UNSCHEDULABLE_CHANGE = ClusterEvent(NODE, ActionType.UpdateNodeTaint, "NodeSpecUnschedulableChange")
NODE_ALLOCATABLE_CHANGE = ClusterEvent(NODE, ActionType.UpdateNodeAllocatable, "NodeAllocatableChange")
NODE_LABEL_CHANGE = ClusterEvent(NODE, ActionType.UpdateNodeLabel, "NodeLabelChange")
NODE_ANNOTATION_CHANGE = ClusterEvent(NODE, ActionType.UpdateNodeAnnotation, "NodeAnnotationChange")
NODE_TAINT_CHANGE = ClusterEvent(NODE, ActionType.UpdateNodeTaint, "NodeTaintChange")
NODE_CONDITION_CHANGE = ClusterEvent(NODE, ActionType.UpdateNodeCondition, "NodeConditionChange")
PV_ADD = ClusterEvent(PERSISTENT_VOLUME, ActionType.Add, "PvAdd")
PV_UPDATE = ClusterEvent(PERSISTENT_VOLUME, ActionType.Update, "PvUpdate")
PVC_ADD = ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Add, "PvcAdd")
PVC_UPDATE = ClusterEvent(PERSISTENT_VOLUME_CLAIM, ActionType.Update, "PvcUpdate")
STORAGE_CLASS_ADD = ClusterEvent(STORAGE_CLASS, ActionType.Add, "StorageClassAdd")
STORAGE_CLASS_UPDATE = ClusterEvent(STORAGE_CLASS, ActionType.Update, "StorageClassUpdate")
CSI_NODE_ADD = ClusterEvent(CSI_NODE, ActionType.Add, "CSINodeAdd")
CSI_NODE_UPDATE = ClusterEvent(CSI_NODE, ActionType.Update, "CSINodeUpdate")
CSI_DRIVER_ADD = ClusterEvent(CSI_DRIVER, ActionType.Add, "CSIDriverAdd")
CSI_DRIVER_UPDATE = ClusterEvent(CSI_DRIVER, ActionType.Update, "CSIDriverUpdate")
CSI_STORAGE_CAPACITY_ADD = ClusterEvent(CSI_STORAGE_CAPACITY, ActionType.Add, "CSIStorageCapacityAdd")
CSI_STORAGE_CAPACITY_UPDATE = ClusterEvent(CSI_STORAGE_CAPACITY, ActionType.Update, "CSIStorageCapacityUpdate")
# Matches every resource and every action.
WILD_CARD_EVENT = ClusterEvent(WILDCARD, ActionType.All, "WildCardEvent")
# A pod stayed in unschedulablePods longer than podMaxInUnschedulablePodsDuration.
UNSCHEDULABLE_TIMEOUT = ClusterEvent(WILDCARD, ActionType.All, "UnschedulableTimeout")
