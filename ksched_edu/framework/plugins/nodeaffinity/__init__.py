"""Port of pkg/scheduler/framework/plugins/nodeaffinity (v1.30): the NodeAffinity plugin."""
