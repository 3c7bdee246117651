"""Port of pkg/scheduler/framework/plugins/volumerestrictions (v1.30)."""
from .volume_restrictions import NAME, VolumeRestrictions, new

__all__ = ["NAME", "VolumeRestrictions", "new"]
