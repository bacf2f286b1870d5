//===- references.h - plain C++ references for the kernel corpus ---------===//
//
// Each function computes in double what the corpus kernel of the same name
// computes, from inputs already rounded to their storage type. Tests and
// experiment suites compare the interpreter, the PTX emulator and the GPU
// against these.
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace twintile::reference {

using Vec = std::vector<double>;

inline Vec vector_add(const Vec &x, const Vec &y) {
  Vec out(x.size());
  for (size_t i = 0; i < x.size(); ++i) out[i] = x[i] + y[i];
  return out;
}

/// Rows of `n_cols` values, `stride` apart; entries between rows are left as in `y`.
inline void softmax(const Vec &x, Vec &y, int rows, int n_cols, int stride) {
  for (int r = 0; r < rows; ++r) {
    const double *in = &x[r * stride];
    double m = -std::numeric_limits<double>::infinity(), s = 0;
    for (int c = 0; c < n_cols; ++c) m = std::max(m, in[c]);
    for (int c = 0; c < n_cols; ++c) s += std::exp(in[c] - m);
    for (int c = 0; c < n_cols; ++c) y[r * stride + c] = std::exp(in[c] - m) / s;
  }
}

inline void layernorm(const Vec &x, Vec &y, const Vec &w, const Vec &b, int rows, int n_cols, int stride,
                      double eps) {
  for (int r = 0; r < rows; ++r) {
    const double *in = &x[r * stride];
    double mean = 0, var = 0;
    for (int c = 0; c < n_cols; ++c) mean += in[c];
    mean /= n_cols;
    for (int c = 0; c < n_cols; ++c) var += (in[c] - mean) * (in[c] - mean);
    var /= n_cols;
    double rstd = 1 / std::sqrt(var + eps);
    for (int c = 0; c < n_cols; ++c) y[r * stride + c] = (in[c] - mean) * rstd * w[c] + b[c];
  }
}

inline void rmsnorm(const Vec &x, Vec &y, const Vec &w, int rows, int n_cols, int stride, double eps) {
  for (int r = 0; r < rows; ++r) {
    const double *in = &x[r * stride];
    double ms = 0;
    for (int c = 0; c < n_cols; ++c) ms += in[c] * in[c];
    double scale = 1 / std::sqrt(ms / n_cols + eps);
    for (int c = 0; c < n_cols; ++c) y[r * stride + c] = in[c] * scale * w[c];
  }
}

/// Row-major C[M, N] = A[M, K] @ B[K, N].
inline Vec matmul(const Vec &a, const Vec &b, int M, int N, int K) {
  Vec c(static_cast<size_t>(M) * N, 0.0);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n) c[m * N + n] += a[m * K + k] * b[k * N + n];
  return c;
}

/// Per head: O = softmax(Q K^T * scale) V, with [heads, seq, D] layouts.
inline Vec attention(const Vec &q, const Vec &k, const Vec &v, int heads, int seq, int D, double scale) {
  Vec o(q.size(), 0.0);
  std::vector<double> s(seq);
  for (int h = 0; h < heads; ++h) {
    size_t base = static_cast<size_t>(h) * seq * D;
    for (int i = 0; i < seq; ++i) {
      double m = -std::numeric_limits<double>::infinity(), sum = 0;
      for (int j = 0; j < seq; ++j) {
        double dotp = 0;
        for (int d = 0; d < D; ++d) dotp += q[base + i * D + d] * k[base + j * D + d];
        s[j] = dotp * scale;
        m = std::max(m, s[j]);
      }
      for (int j = 0; j < seq; ++j) sum += (s[j] = std::exp(s[j] - m));
      for (int d = 0; d < D; ++d) {
        double acc = 0;
        for (int j = 0; j < seq; ++j) acc += s[j] * v[base + j * D + d];
        o[base + i * D + d] = acc / sum;
      }
    }
  }
  return o;
}

/// The first index of each row's maximum, and the maximum.
inline void row_argmax(const Vec &x, std::vector<int> &index, Vec &value, int rows, int n_cols, int stride) {
  for (int r = 0; r < rows; ++r) {
    int best = 0;
    for (int c = 1; c < n_cols; ++c)
      if (x[r * stride + c] > x[r * stride + best]) best = c;
    index[r] = best;
    value[r] = x[r * stride + best];
  }
}

inline void row_cumsum(const Vec &x, Vec &y, int rows, int n_cols, int stride) {
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (int c = 0; c < n_cols; ++c) y[r * stride + c] = (s += x[r * stride + c]);
  }
}

inline Vec gelu(const Vec &x) {
  Vec y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    y[i] = 0.5 * x[i] * (1 + std::tanh(std::sqrt(2 / M_PI) * (x[i] + 0.044715 * x[i] * x[i] * x[i])));
  return y;
}

inline Vec swiglu(const Vec &a, const Vec &b) {
  Vec out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] / (1 + std::exp(-a[i])) * b[i];
  return out;
}

} // namespace twintile::reference
