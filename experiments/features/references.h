// The feature cases' references: y = f(x) for every feature in features.json
// that some front end accepts, on the features' common signature
// (Ptr<f32> x, Ptr<f32> y, i32 n) over a grid of cdiv(n, 64). Shared by the
// feature test (tests/parse/FeaturesTest.cpp) and the expressiveness suite's
// probe (experiments/suites/FeatureProbe.cpp).
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace twintile::features {

using Vec = std::vector<double>;

constexpr int kBlock = 64;

/// y = f(x) for every feature that some front end accepts (n elements; the
/// first program's sums use the first 64 elements).
inline const std::map<std::string, std::function<Vec(const Vec &)>> &references() {
  auto each = [](double (*f)(double)) {
    return [f](const Vec &x) {
      Vec y(x.size());
      for (size_t i = 0; i < x.size(); ++i) y[i] = f(x[i]);
      return y;
    };
  };
  // Per program of 64: whether the program's sum is positive.
  auto perBlock = [](double (*pos)(double), double (*neg)(double)) {
    return [pos, neg](const Vec &x) {
      Vec y(x.size());
      for (size_t start = 0; start < x.size(); start += kBlock) {
        double s = 0;
        for (size_t i = start; i < std::min(x.size(), start + kBlock); ++i) s += x[i];
        for (size_t i = start; i < std::min(x.size(), start + kBlock); ++i) y[i] = s > 0 ? pos(x[i]) : neg(x[i]);
      }
      return y;
    };
  };
  static const std::map<std::string, std::function<Vec(const Vec &)>> refs = {
      {"native_if", perBlock([](double v) { return 2 * v; }, [](double v) { return v - 1; })},
      {"combinator_if_else", perBlock([](double v) { return 2 * v; }, [](double v) { return v - 1; })},
      {"native_if_no_else", [](const Vec &x) {
         Vec y = x;
         for (size_t i = 0; i < std::min<size_t>(x.size(), kBlock); ++i) y[i] = x[i] + 10;
         return y;
       }},
      {"native_for", each([](double v) { return 3 * v; })},
      {"native_while", each([](double v) { return v / 16; })},
      {"native_break", each([](double v) { return v + 4; })},      // k = 0..3, then break
      {"native_continue", each([](double v) { return v + 3; })},   // k = 0..3 but 1
      {"native_break_while", each([](double v) { return v * 4; })},  // k = 1, 2 double; 3 breaks
      {"member_of_temporary", each([](double v) { return v > 0 ? v : 0; })},
      {"struct_assignment", each([](double v) { return 2 * v; })},
      {"reference_parameter", each([](double v) { return 2 * v + 1; })},
      {"unsigned_host_loop", each([](double v) { return v + 3; })},   // i = 2, 1, 0, then it wraps
      {"block_scope", perBlock([](double v) { return v / 4; }, [](double v) { return v; })},
      {"loop_bound_changes", each([](double v) { return v + 50; })},  // n = 100: k < 100 - k, 50 times
      {"break_index", each([](double v) { return v + 3; })},
      {"native_nested_break", each([](double v) { return 8 * v + 28; })},  // ((v+2)*2 ...) three times
      {"combinator_while_loop", each([](double v) { return v / 16; })},
      {"host_unroll", each([](double v) { return v + v * 1 + v * 2; })},
      {"host_if", each([](double v) { return -v; })},
      {"helper_function", each([](double v) { return v * v + (v + 1) * (v + 1); })},
      {"function_template", each([](double v) { return 2 * v; })},
      {"lambda", each([](double v) { return 3 * v + 1; })},
      {"functor", each([](double v) { return 2 * v - 1; })},
      {"higher_order", each([](double v) { return v + 2; })},
      {"recursion_host", each([](double v) { return v * v * v; })},
      {"struct_of_tiles", each([](double v) { return v > 0 ? 2 * v : v; })},
      {"early_return_host", each([](double v) { return 2 * v; })},
      {"early_return_device", perBlock([](double) { return 0.0; }, [](double v) { return v; })},  // y starts 0
      {"early_return_loop", each([](double v) { return v + 4; })},  // k = 0..3, then the return
      {"short_circuit", each([](double v) { return v + 1; })},
      {"logical_not", perBlock([](double v) { return v; }, [](double v) { return -v; })},
      {"ternary_device", perBlock([](double v) { return v; }, [](double v) { return -v; })},
      {"early_return_helper", perBlock([](double v) { return 2 * v + 4; }, [](double v) { return v - 1 + 4; })},
      {"device_print", each([](double v) { return v; })},
      {"device_assert", each([](double v) { return v; })},
      {"combinator_for_range", each([](double v) { return v / 8 + (v + v / 2 + v / 4); })},
      {"mask_combination", each([](double v) { return v > 0 ? v : 0.1 * v; })},
      {"std_array_of_tiles", each([](double v) { return 6 * v; })},
      {"std_vector_of_tiles", each([](double v) { return v * (v + 1); })},
      {"runtime_block_size", each([](double v) { return v + 1; })},
      {"virtual_call", each([](double v) { return v + 1; })},
      {"exceptions", each([](double v) { return v; })},
      {"goto_statement", each([](double v) { return v; })},
      {"static_local", each([](double v) { return v; })},
      {"host_pointer", each([](double v) { return 6 * v; })},
      {"combine_function", [](const Vec &x) {  // per block: the running maximum less the maximum
         Vec y(x.size());
         for (size_t start = 0; start < x.size(); start += kBlock) {
           size_t end = std::min(x.size(), start + kBlock);
           double top = *std::max_element(x.begin() + static_cast<std::ptrdiff_t>(start), x.begin() + static_cast<std::ptrdiff_t>(end));
           double run = x[start];
           for (size_t i = start; i < end; ++i) y[i] = (run = std::max(run, x[i])) - top;
         }
         return y;
       }},
  };
  return refs;
}

} // namespace twintile::features
