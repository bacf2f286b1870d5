// app: calls the kernel library's functions on the PTX emulator (a GPU, with
// --device cuda) and checks each result against a loop on the host. Exit
// status 0 when all agree.
#include "app_kernels.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace rt = twintile::runtime;

namespace {

int failures = 0;

void expect(bool ok, const std::string &what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  failures += !ok;
}

/// The host's answer, rounding as the kernel does: f32 arithmetic, then the
/// output's type.
template <class T, class ToT>
void reference(const std::vector<T> &x, const std::vector<float> &bias, std::vector<T> &y, std::vector<float> &rowmax,
               int rows, int cols, int stride, float scale, float (*value)(T), ToT to) {
  for (int r = 0; r < rows; ++r) {
    float m = 0;
    for (int c = 0; c < cols; ++c) {
      float v = std::max(value(x[r * stride + c]) * scale + bias[c], 0.0f);
      y[r * stride + c] = to(v);
      m = std::max(m, v);
    }
    rowmax[r] = m;
  }
}

} // namespace

int main(int argc, char **argv) {
  std::string why;
  std::unique_ptr<rt::Device> device =
      argc > 2 && !std::strcmp(argv[1], "--device") && !std::strcmp(argv[2], "cuda") ? rt::makeCudaDevice(why)
                                                                                       : rt::makeEmuDevice();
  if (!device) {
    std::fprintf(stderr, "app: no device: %s\n", why.c_str());
    return 77;
  }
  std::printf("device: %s\n", device->describe().c_str());
  const int rows = 6, cols = 200, stride = 208;
  std::vector<float> bias(cols);
  for (int c = 0; c < cols; ++c) bias[c] = 0.25f * (c % 7) - 0.75f;

  // f32, every buffer aligned and n_cols divisible by 16 or not.
  for (int n : {cols, 192}) {
    std::vector<float> x(rows * stride), y(rows * stride), rowmax(rows), want(rows * stride), wantMax(rows);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i * 37 % 101) - 50) / 8;
    rt::Call call = app_kernels::bias_relu_rowmax_f32(*device, {rows}, x, bias, y, rowmax, n, stride, 1.5f);
    if (!call.ok()) {
      expect(false, "bias_relu_rowmax<f32>: " + call.error);
      continue;
    }
    reference<float>(x, bias, want, wantMax, rows, n, stride, 1.5f, [](float v) { return v; }, [](float v) { return v; });
    expect(y == want && rowmax == wantMax,
           "bias_relu_rowmax<f32>, n_cols " + std::to_string(n) + ": variant '" + call.variant + "' (" + call.target + ")");
  }

  // f16, x one element past an aligned address: the unaligned variant.
  std::vector<rt::f16> storage(rows * stride + 1), y(rows * stride), want(rows * stride);
  for (size_t i = 0; i < storage.size(); ++i) storage[i] = rt::f16::of(float(int(i * 13 % 29) - 14) / 4);
  std::span<rt::f16> x = std::span(storage).subspan(1);
  std::vector<float> rowmax(rows), wantMax(rows);
  rt::Call call = app_kernels::bias_relu_rowmax_f16(*device, {rows}, x, bias, y, rowmax, cols, stride, 0.5f);
  std::vector<rt::f16> xs(x.begin(), x.end());
  reference<rt::f16>(xs, bias, want, wantMax, rows, cols, stride, 0.5f, [](rt::f16 v) { return v.value(); },
                     [](float v) { return rt::f16::of(v); });
  expect(call.ok() && y == want && rowmax == wantMax,
         "bias_relu_rowmax<f16>, x unaligned: variant '" + call.variant + "'" + (call.ok() ? "" : ": " + call.error));

  // A buffer too short for the rows asked of it: on the emulator, which
  // checks every access, an error returned (a GPU need not notice).
  if (device->capabilities().onCpu) {
    std::vector<float> xs32(rows * stride), shortY(stride), rm(rows);
    rt::Call wrong = app_kernels::bias_relu_rowmax_f32(*device, {rows}, xs32, bias, shortY, rm, cols, stride, 1.0f);
    expect(!wrong.ok(), "a buffer too short is an error returned: " + wrong.error.substr(0, wrong.error.find('\n')));
  }
  return failures ? 1 : 0;
}
