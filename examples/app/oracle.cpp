// app_oracle: the kernel library's functions on the PTX emulator against the
// same functions on the tile IR interpreter (twintile::launch's oracle), bit
// for bit: the library's PTX computes what its kernel means. Exit status 0
// when they agree.
#include "app_kernels.h"

#include "launch/Devices.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace rt = twintile::runtime;

template <class T> bool sameBits(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() && !std::memcmp(a.data(), b.data(), a.size() * sizeof(T));
}

int main() {
  std::string why;
  std::unique_ptr<rt::Device> emu = twintile::makeDevice("emu", why), interp = twintile::makeDevice("interp", why);
  if (!emu || !interp) {
    std::fprintf(stderr, "app_oracle: %s\n", why.c_str());
    return 1;
  }
  const int rows = 5, cols = 173, stride = 176;
  std::vector<float> bias(cols);
  for (int c = 0; c < cols; ++c) bias[c] = 0.125f * (c % 11) - 0.5f;
  int failures = 0;
  auto check = [&](bool ok, const std::string &what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    failures += !ok;
  };

  std::vector<float> x(rows * stride);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i * 53 % 97) - 48) / 6;
  std::vector<float> y1(x.size()), y2(x.size()), m1(rows), m2(rows);
  rt::Call a = app_kernels::bias_relu_rowmax_f32(*emu, {rows}, x, bias, y1, m1, cols, stride, 0.75f);
  rt::Call b = app_kernels::bias_relu_rowmax_f32(*interp, {rows}, x, bias, y2, m2, cols, stride, 0.75f);
  check(a.ok() && b.ok() && sameBits(y1, y2) && sameBits(m1, m2),
        "bias_relu_rowmax<f32>: emu ('" + a.variant + "') = interp" + (a.ok() ? "" : ": " + a.error) +
            (b.ok() ? "" : ": " + b.error));

  std::vector<rt::f16> h(rows * stride), h1(h.size()), h2(h.size());
  for (size_t i = 0; i < h.size(); ++i) h[i] = rt::f16::of(float(int(i * 29 % 61) - 30) / 3);
  a = app_kernels::bias_relu_rowmax_f16(*emu, {rows}, h, bias, h1, m1, cols, stride, 1.25f);
  b = app_kernels::bias_relu_rowmax_f16(*interp, {rows}, h, bias, h2, m2, cols, stride, 1.25f);
  check(a.ok() && b.ok() && sameBits(h1, h2) && sameBits(m1, m2),
        "bias_relu_rowmax<f16>: emu ('" + a.variant + "') = interp" + (a.ok() ? "" : ": " + a.error) +
            (b.ok() ? "" : ": " + b.error));
  return failures ? 1 : 0;
}
