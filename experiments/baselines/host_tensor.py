"""A NumPy array as Triton's interpreter reads a torch tensor, so that Triton
kernels run in interpreter mode (TRITON_INTERPRET=1) without PyTorch; and
bf16, which NumPy lacks, as its 16 bits.

Used by triton_check.py (the corpus's Triton kernels) and
experiments/realworld/check.py (the upstream libraries' kernels).
"""
import numpy as np


class HostTensor:
    """What Triton's interpreter reads of a torch tensor, over a NumPy array on the host."""

    def __init__(self, array):
        self.array = array
        self.device = "cpu"

    data = property(lambda self: self)
    shape = property(lambda self: self.array.shape)
    dtype = property(lambda self: self.array.dtype)

    def data_ptr(self):
        return self.array.ctypes.data

    def untyped_storage(self):
        return self

    def cpu(self):
        return self

    def new_empty(self, *args, **kwargs):
        return HostTensor(self.array)

    def set_(self, storage, offset, size, stride):
        self.array = storage.array
        return self

    def storage_offset(self):
        return 0

    def size(self):
        return self.array.shape

    def stride(self, *args):
        return tuple(s // self.array.itemsize for s in self.array.strides)

    def element_size(self):
        return self.array.itemsize

    def copy_(self, other):
        if other.array is not self.array:
            self.array[...] = other.array


def to_bf16_bits(x):
    """f32 -> bf16 bits, rounding to nearest even."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)
