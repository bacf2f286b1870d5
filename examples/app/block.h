// The widest row bias_relu_rowmax takes by default: an include of the kernel
// file, so that a change here compiles the library again.
constexpr int kBlock = 256;
