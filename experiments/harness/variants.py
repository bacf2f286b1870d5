"""The ways twintile compiles each kernel in the code-generation comparison, named once: the
driver's flags for each, and the variant of a baseline it is compared with like with like
(a baseline's variants are `plain` and `assumed`, its alignment hints; its math is always its own
fast defaults, so twintile's --math=fast ones are the like-with-like rows)."""
from dataclasses import dataclass

# Every pointer promised 16-byte aligned and every integer divisible by 16: Triton's hints.
HINTS = ("--assume-aligned", "*", "--assume-divisible", "*")


@dataclass(frozen=True)
class Variant:
    name: str
    flags: tuple  # twintile compile's
    baseline: str  # the baseline variant it compares with


VARIANTS = {v.name: v for v in (
    Variant("plain", (), "plain"),
    Variant("assumed", HINTS, "assumed"),
    Variant("fast", HINTS + ("--math=fast",), "assumed"),
    Variant("fast_plain", ("--math=fast",), "plain"),
)}
