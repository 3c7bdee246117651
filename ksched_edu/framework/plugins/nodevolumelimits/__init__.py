"""Port of pkg/scheduler/framework/plugins/nodevolumelimits (v1.30): the CSI
volume limits (NodeVolumeLimits, csi.go) and the in-tree ones (EBSLimits,
GCEPDLimits, AzureDiskLimits, CinderLimits, non_csi.go)."""
from .csi import CSI_NAME, CSILimits, new_csi
from .non_csi import (AZURE_DISK_NAME, CINDER_NAME, EBS_NAME, GCEPD_NAME, NonCSILimits, new_azure_disk, new_cinder,
                      new_ebs, new_gcepd)

__all__ = ["CSI_NAME", "CSILimits", "new_csi", "AZURE_DISK_NAME", "CINDER_NAME", "EBS_NAME", "GCEPD_NAME",
           "NonCSILimits", "new_azure_disk", "new_cinder", "new_ebs", "new_gcepd"]
