"""What a Triton caller writes to run softmax on a row whose element type and length it learns at
run time: the corpus kernel (experiments/baselines/triton_kernels.py) launched with its block
size computed from the row (a row no variant holds refused, as the CUDA dispatch refuses it);
the element type comes with the tensors, and Triton's JIT compiles the variant a call needs when
it first meets it. The claims suite counts the dispatch's lines and the variants
they name (between the markers) and imports this module so that the count is of code that loads."""
import triton

from experiments.baselines.triton_kernels import softmax as softmax_kernel


# dispatch: begin
def softmax(x, y):
    rows, n_cols = x.shape
    if not 1 <= n_cols <= 1024:
        raise ValueError(f"softmax: no variant holds a row of {n_cols} columns")
    softmax_kernel[(rows,)](x, y, n_cols, x.stride(0), BLOCK=max(128, triton.next_power_of_2(n_cols)))
# dispatch: end
