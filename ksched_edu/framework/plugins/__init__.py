"""The in-tree plugins of kube-scheduler, one package per upstream directory
under pkg/scheduler/framework/plugins (v1.30)."""
