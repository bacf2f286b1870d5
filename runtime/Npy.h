//===- Npy.h - NumPy .npy files, and kernel buffers saved as them ---------===//
//
// Reads and writes the .npy format (versions 1.0, 2.0 and 3.0): a magic
// string, a Python dict literal header ({'descr': '<f4', 'fortran_order':
// False, 'shape': (3,), }) padded to 64 bytes, then the raw data. The
// runtime reads only what it can use as a buffer: C order, little-endian,
// numbers (bool, int, uint, float, complex). Fortran order, big-endian data,
// Python objects, strings and structured dtypes are refused with a message
// naming the file and what to do instead.
//
// An IR element type is saved as the NumPy dtype with the same bits, except
// bf16, which NumPy lacks: it is widened (exactly) to float32, and read back
// from float32 (rounded to nearest even) or from uint16 (the raw bits).
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace twintile::runtime {

struct NpyArray {
  std::string descr;          // "<f4", "|b1": '<' for little-endian, '|' when the item is one byte
  std::vector<size_t> shape;  // {} for a 0-d array (one element)
  std::vector<uint8_t> data;  // count() items in C order, little-endian
  std::string path;           // the file it was read from, for messages ("" if none)

  size_t count() const;      // elements: the product of shape
  size_t itemBytes() const;  // of one element: the number in descr
};

/// Reads a .npy file; throws std::runtime_error("FILE: what is wrong") if it
/// cannot be read or is malformed (bad magic, a truncated header or data, a
/// header that is not the dict NumPy writes, data not matching the shape) or
/// is a kind the runtime refuses.
NpyArray readNpy(const std::string &path);

/// Writes `a` as a .npy file (version 1.0, or 2.0 for huge headers); throws
/// std::runtime_error("FILE: ...") if the file cannot be written or `a` is
/// inconsistent (a descr readNpy would refuse, data not matching the shape).
void writeNpy(const std::string &path, const NpyArray &a);

/// The dtype an IR element type is saved as: f16 "<f2", f32 "<f4", f64
/// "<f8", bf16 "<f4", i1 "|b1", i8 "|i1", i16 "<i2", i32 "<i4", i64 "<i8".
/// Throws std::runtime_error for anything else.
std::string npyDescrOf(const std::string &elem);

/// A dtype in NumPy's words: "<f4" is "float32", "|b1" "bool".
std::string numpyName(const std::string &descr);

/// `count` elements of type `elem` from `bytes` (at least count times the
/// element's size) as a 1-D array, converted as npyDescrOf says.
NpyArray toNpy(const std::string &elem, std::span<const uint8_t> bytes, size_t count);

/// The bytes of a buffer of `elem` holding `a`'s elements (any shape, C
/// order). `a` must hold npyDescrOf(elem), except that bf16 also takes
/// "<u2" (raw bits) and i1 "|u1"/"|i1" holding only 0 and 1. Otherwise
/// throws std::runtime_error naming the file, the parameter and the fix:
/// "x.npy holds float64, but 'x' is ptr<f32>: save it with x.astype(np.float32)".
std::vector<uint8_t> fromNpy(const NpyArray &a, const std::string &elem, const std::string &paramName);

} // namespace twintile::runtime
