"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/resourcerequests (commit 37b7888a)."""
