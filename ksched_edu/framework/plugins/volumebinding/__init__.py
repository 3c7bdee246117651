"""Port of pkg/scheduler/framework/plugins/volumebinding (v1.30): the plugin
(volume_binding.go), the volume binder (binder.go) and its caches
(assume_cache.go)."""
from .volume_binding import NAME, VolumeBinding, new

__all__ = ["NAME", "VolumeBinding", "new"]
