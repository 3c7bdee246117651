"""Port of k8s.io/kubernetes/pkg/kubelet/cm/topologymanager/bitmask/bitmask.go (v1.30).

A set of NUMA node ids (0..63) kept in one 64-bit integer, as the kubelet's
Topology Manager keeps its affinity hints. The NodeResourceTopologyMatch
plugin uses it to intersect, resource by resource, the NUMA nodes that could
hold a request.

Deviations:
- Methods that upstream names ``And``/``Or`` are ``and_``/``or_`` (Python keywords).
"""
from __future__ import annotations

from ....anchors import ports

_ALL_BITS = (1 << 64) - 1


@ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "bitMask", 45, 45)
class BitMask:
    def __init__(self, value: int = 0) -> None:
        self.value = value

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).Add", 64, 74)
    def add(self, *bits: int) -> None:
        """Set ``bits``; ValueError (and no change) if one is outside 0..63."""
        mask = self.value
        for i in bits:
            if i < 0 or i >= 64:
                raise ValueError("bit number must be in range 0-63")
            mask |= 1 << i
        self.value = mask

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).Remove", 77, 87)
    def remove(self, *bits: int) -> None:
        mask = self.value
        for i in bits:
            if i < 0 or i >= 64:
                raise ValueError("bit number must be in range 0-63")
            mask &= ~(1 << i) & _ALL_BITS
        self.value = mask

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).And", 90, 94)
    def and_(self, *masks: "BitMask") -> None:
        for m in masks:
            self.value &= m.value

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).Or", 97, 101)
    def or_(self, *masks: "BitMask") -> None:
        for m in masks:
            self.value |= m.value

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).Clear", 104, 106)
    def clear(self) -> None:
        self.value = 0

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).Fill", 109, 111)
    def fill(self) -> None:
        self.value = _ALL_BITS

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).IsEmpty", 114, 116)
    def is_empty(self) -> bool:
        return self.value == 0

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).IsSet", 119, 124)
    def is_set(self, bit: int) -> bool:
        if bit < 0 or bit >= 64:
            return False
        return bool(self.value & (1 << bit))

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).AnySet", 127, 134)
    def any_set(self, bits: list[int]) -> bool:
        return any(self.is_set(b) for b in bits)

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).IsEqual", 137, 139)
    def is_equal(self, mask: "BitMask") -> bool:
        return self.value == mask.value

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).IsNarrowerThan", 146, 151)
    def is_narrower_than(self, mask: "BitMask") -> bool:
        """Fewer bits set; on a tie, the mask with the lower-numbered bits."""
        if self.count() == mask.count():
            return self.is_less_than(mask)
        return self.count() < mask.count()

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).IsLessThan", 154, 156)
    def is_less_than(self, mask: "BitMask") -> bool:
        return self.value < mask.value

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).IsGreaterThan", 159, 161)
    def is_greater_than(self, mask: "BitMask") -> bool:
        return self.value > mask.value

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).Count", 175, 177)
    def count(self) -> int:
        return bin(self.value).count("1")

    @ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "(*bitMask).GetBits", 180, 188)
    def get_bits(self) -> list[int]:
        """The set bits, lowest first."""
        return [i for i in range(64) if self.value & (1 << i)]

    def __str__(self) -> str:
        grouping = 2
        for shift in range(64 - grouping, 0, -grouping):
            if self.value > (1 << shift):
                return format(self.value, f"0{shift + grouping}b")
        return format(self.value, f"0{grouping}b")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BitMask) and self.value == other.value

    def __repr__(self) -> str:
        return f"BitMask({self.get_bits()})"


@ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "NewEmptyBitMask", 48, 51)
def new_empty_bit_mask() -> BitMask:
    return BitMask(0)


@ports("pkg/kubelet/cm/topologymanager/bitmask/bitmask.go", "NewBitMask", 54, 61)
def new_bit_mask(*bits: int) -> BitMask:
    """A mask with ``bits`` set; ValueError if one is outside 0..63."""
    mask = BitMask(0)
    mask.add(*bits)
    return mask
