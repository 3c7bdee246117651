"""Port of pkg/coscheduling of kubernetes-sigs/scheduler-plugins (commit 37b7888a): gang scheduling with PodGroups."""
