"""Port of pkg/scheduler/framework/plugins/helper (v1.30): small functions
several plugins share (score normalization, broken-linear shapes, taint
filters, the default spreading selector)."""
