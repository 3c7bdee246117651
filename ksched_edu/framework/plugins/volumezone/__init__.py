"""Port of pkg/scheduler/framework/plugins/volumezone (v1.30)."""
from .volume_zone import NAME, VolumeZone, new

__all__ = ["NAME", "VolumeZone", "new"]
