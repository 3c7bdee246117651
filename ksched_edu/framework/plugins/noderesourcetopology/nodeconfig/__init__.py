"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/nodeconfig (commit 37b7888a)."""
