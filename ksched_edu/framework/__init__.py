"""The Scheduling Framework: contracts, runtime and plugins (pkg/scheduler/framework)."""
