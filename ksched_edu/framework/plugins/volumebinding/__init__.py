"""Port of pkg/scheduler/framework/plugins/volumebinding (v1.30): the plugin
itself (volume_binding.go); the volume binder (binder.go) is not ported."""
from .volume_binding import NAME, VolumeBinding, new

__all__ = ["NAME", "VolumeBinding", "new"]
