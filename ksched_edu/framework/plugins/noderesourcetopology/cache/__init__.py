"""Port of sigs.k8s.io/scheduler-plugins pkg/noderesourcetopology/cache (commit 37b7888a), passthrough only."""
