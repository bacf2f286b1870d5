#include "ir/Interpreter.h"

#include "ir/Descriptor.h"
#include "ir/Float16.h"
#include "ir/Printer.h"
#include "ir/Semantics.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace twintile::ir {

//===-- Buffers -----------------------------------------------------------===//

Buffer::Buffer(ScalarKind elem, size_t count, std::string name)
    : elem_(elem), count_(count), name_(std::move(name)), bytes_(count * byteSize(elem)) {}

Buffer Buffer::fromValues(ScalarKind elem, const std::vector<double> &values, std::string name) {
  Buffer b(elem, values.size(), std::move(name));
  for (size_t i = 0; i < values.size(); ++i) b.set(i, values[i]);
  return b;
}

namespace {

template <typename T> T readAs(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T> void writeAs(uint8_t *p, T v) { std::memcpy(p, &v, sizeof v); }

Elem readElem(const uint8_t *p, ScalarKind k) {
  Elem e;
  switch (k) {
  case ScalarKind::I1: e.i = readAs<uint8_t>(p) & 1; break;
  case ScalarKind::I8: e.i = readAs<int8_t>(p); break;
  case ScalarKind::I16: e.i = readAs<int16_t>(p); break;
  case ScalarKind::I32: e.i = readAs<int32_t>(p); break;
  case ScalarKind::I64: case ScalarKind::U64: case ScalarKind::Ptr: e.i = readAs<int64_t>(p); break;
  case ScalarKind::U8: e.i = readAs<uint8_t>(p); break;
  case ScalarKind::U16: e.i = readAs<uint16_t>(p); break;
  case ScalarKind::U32: e.i = readAs<uint32_t>(p); break;
  case ScalarKind::F16: e.f = decodeF16(readAs<uint16_t>(p)); break;
  case ScalarKind::BF16: e.f = decodeBF16(readAs<uint16_t>(p)); break;
  case ScalarKind::F32: e.f = readAs<float>(p); break;
  case ScalarKind::F64: e.f = readAs<double>(p); break;
  }
  return e;
}

void writeElem(uint8_t *p, ScalarKind k, Elem e) {
  switch (k) {
  case ScalarKind::I1: writeAs<uint8_t>(p, static_cast<uint8_t>(e.i & 1)); break;
  case ScalarKind::I8: writeAs<int8_t>(p, static_cast<int8_t>(e.i)); break;
  case ScalarKind::I16: writeAs<int16_t>(p, static_cast<int16_t>(e.i)); break;
  case ScalarKind::I32: writeAs<int32_t>(p, static_cast<int32_t>(e.i)); break;
  case ScalarKind::I64: case ScalarKind::U64: case ScalarKind::Ptr: writeAs<int64_t>(p, e.i); break;
  case ScalarKind::U8: writeAs<uint8_t>(p, static_cast<uint8_t>(e.i)); break;
  case ScalarKind::U16: writeAs<uint16_t>(p, static_cast<uint16_t>(e.i)); break;
  case ScalarKind::U32: writeAs<uint32_t>(p, static_cast<uint32_t>(e.i)); break;
  case ScalarKind::F16: writeAs<uint16_t>(p, encodeF16(e.f)); break;
  case ScalarKind::BF16: writeAs<uint16_t>(p, encodeBF16(e.f)); break;
  case ScalarKind::F32: writeAs<float>(p, static_cast<float>(roundToFloat(e.f, ScalarKind::F32))); break;
  case ScalarKind::F64: writeAs<double>(p, e.f); break;
  }
}

} // namespace

double Buffer::get(size_t i) const {
  assert(i < count_ && "buffer index out of range");
  Elem e = readElem(bytes_.data() + i * byteSize(elem_), elem_);
  return isFloat(elem_) ? e.f : intToFloat(e.i, elem_, ScalarKind::F64);
}

int64_t Buffer::getInt(size_t i) const {
  assert(i < count_ && isInt(elem_) && "getInt needs an integer buffer and a valid index");
  return readElem(bytes_.data() + i * byteSize(elem_), elem_).i;
}

void Buffer::set(size_t i, double v) {
  assert(i < count_ && "buffer index out of range");
  Elem e;
  if (isFloat(elem_)) e.f = v;
  else e = evalCast(floatElem(v), ScalarKind::F64, elem_);  // truncates and saturates
  writeElem(bytes_.data() + i * byteSize(elem_), elem_, e);
}

void Buffer::setInt(size_t i, int64_t v) {
  assert(i < count_ && isInt(elem_) && "setInt needs an integer buffer and a valid index");
  Elem e;
  e.i = wrapInt(v, elem_);
  writeElem(bytes_.data() + i * byteSize(elem_), elem_, e);
}

std::vector<double> Buffer::values() const {
  std::vector<double> v(count_);
  for (size_t i = 0; i < count_; ++i) v[i] = get(i);
  return v;
}

//===-- The interpreter ---------------------------------------------------===//

namespace {

using Tile = std::vector<Elem>;

/// Pointers are virtual addresses: buffer b starts at (b + 1) << 40.
constexpr int kAddrShift = 40;
int64_t bufferBase(size_t b) { return static_cast<int64_t>(b + 1) << kAddrShift; }

struct Stop {
  Location loc;
  std::string message;
};

int64_t strideProduct(const Shape &s, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= s[i];
  return n;
}

class Machine {
public:
  Machine(const Func &f, std::vector<Buffer> &buffers, InterpretOptions opts, Grid grid)
      : f_(f), buffers_(buffers), opts_(opts), grid_(grid) {
    size_t n = 0;
    for (auto &a : f.body.args) slot_[a.get()] = n++;
    walk(f.body, [&](const Op &op) {
      for (auto &r : op.results) slot_[r.get()] = n++;
      for (auto &region : op.regions)
        for (auto &a : region->args) slot_[a.get()] = n++;
    });
    env_.resize(n);
    for (const Buffer &b : buffers_) stored_.emplace_back(b.size(), false);
  }

  void run(const std::vector<Tile> &params) {
    for (size_t i = 0; i < params.size(); ++i) env_[i] = params[i];
    for (pid_[2] = 0; pid_[2] < grid_.z; ++pid_[2])
      for (pid_[1] = 0; pid_[1] < grid_.y; ++pid_[1])
        for (pid_[0] = 0; pid_[0] < grid_.x; ++pid_[0]) runBlock(f_.body);
  }

  std::string printed() const { return printed_.str(); }
  /// Per buffer: how many distinct elements a store or an atomic wrote.
  std::vector<size_t> stored() const {
    std::vector<size_t> out;
    for (const std::vector<bool> &s : stored_) out.push_back(std::count(s.begin(), s.end(), true));
    return out;
  }

private:
  //===-- Helpers ---------------------------------------------------===//

  Tile &val(const Value *v) { return env_[slot_.at(v)]; }
  void set(const Value *v, Tile t) { env_[slot_.at(v)] = std::move(t); }

  [[noreturn]] void stop(const Op &op, const std::string &msg) {
    throw Stop{op.loc, msg + ", program " + programString()};
  }

  std::string programString() const {
    return "(" + std::to_string(pid_[0]) + ", " + std::to_string(pid_[1]) + ", " +
           std::to_string(pid_[2]) + ")";
  }


  /// Yielded values of the block's terminator (empty for return).
  std::vector<Tile> runBlock(const Block &b) {
    for (auto &op : b.ops) {
      if (++steps_ > opts_.maxSteps)
        stop(*op, "the interpreter's step limit of " + std::to_string(opts_.maxSteps) +
                      " ops was reached (a loop that does not terminate?)");
      if (op->kind == OpKind::Yield) {
        std::vector<Tile> out;
        for (Value *v : op->operands) out.push_back(val(v));
        return out;
      }
      if (op->kind == OpKind::Return) return {};
      exec(*op);
    }
    return {};
  }

  void bindArgs(const Block &b, const std::vector<Tile> &vals) {
    for (size_t i = 0; i < vals.size(); ++i) set(b.arg(i), vals[i]);
  }

  //===-- Memory ----------------------------------------------------===//

  /// Byte location of an address, or a stop naming the op and offset.
  uint8_t *deref(const Op &op, int64_t addr, ScalarKind elem, bool store = false) {
    int64_t id = ((addr + (int64_t(1) << (kAddrShift - 1))) >> kAddrShift) - 1;
    unsigned size = byteSize(elem);
    if (id < 0 || id >= static_cast<int64_t>(buffers_.size())) {
      std::ostringstream os;
      os << "'" << op.name() << "' of address 0x" << std::hex << addr
         << " outside every buffer (a wild pointer)";
      stop(op, os.str());
    }
    Buffer &b = buffers_[id];
    int64_t off = addr - bufferBase(id);
    if (off % size != 0 || b.elem() != elem)
      stop(op, "'" + std::string(op.name()) + "' of " + std::string(scalarName(elem)) +
                   " at byte offset " + std::to_string(off) + " of buffer '" + b.name() +
                   "', which holds " + std::string(scalarName(b.elem())));
    int64_t index = off / size;
    if (index < 0 || index >= static_cast<int64_t>(b.size()))
      stop(op, "out-of-bounds '" + std::string(op.name()) + "' at element offset " +
                   std::to_string(index) + " of buffer '" + b.name() + "' (" +
                   std::to_string(b.size()) + " elements)");
    if (store) stored_[id][index] = true;
    return b.bytes().data() + off;
  }

  //===-- Ops -------------------------------------------------------===//

  void exec(const Op &op) {
    const Type *rt = op.results.empty() ? nullptr : &op.result()->type;
    switch (op.kind) {
    TT_ARITH_CASES:
    case OpKind::Select: case OpKind::Cast: case OpKind::Bitcast: case OpKind::AddPtr:
      return execElementwise(op);
    case OpKind::ProgramId: return set(op.result(), {intElem(pid_[op.intAttr("axis")])});
    case OpKind::NumPrograms: {
      int64_t dims[3] = {grid_.x, grid_.y, grid_.z};
      return set(op.result(), {intElem(dims[op.intAttr("axis")])});
    }
    case OpKind::Constant: return set(op.result(), Tile(rt->numElements(), constantElem(op.attr("value"), rt->elem)));
    case OpKind::Arange: {
      Tile t(rt->numElements());
      for (size_t i = 0; i < t.size(); ++i) t[i] = intElem(op.intAttr("start") + static_cast<int64_t>(i));
      return set(op.result(), std::move(t));
    }
    case OpKind::Splat: return set(op.result(), Tile(rt->numElements(), val(op.operand(0))[0]));
    case OpKind::ExpandDims:
    case OpKind::Reshape: return set(op.result(), val(op.operand(0)));
    case OpKind::Broadcast: return execBroadcast(op);
    case OpKind::Trans: return execTrans(op);
    case OpKind::Load: return execLoad(op);
    case OpKind::Store:
    case OpKind::AtomicAdd: case OpKind::AtomicMax: case OpKind::AtomicMin: case OpKind::AtomicAnd:
    case OpKind::AtomicOr: case OpKind::AtomicXor: case OpKind::AtomicXchg: case OpKind::AtomicCas:
      return execStore(op);
    case OpKind::DescriptorLoad:
    case OpKind::DescriptorStore: return execDescriptor(op);
    case OpKind::Sum:
    case OpKind::Max:
    case OpKind::Min:
    case OpKind::Argmax:
    case OpKind::Argmin:
    case OpKind::Cumsum: return execReduce(op);
    case OpKind::Reduce:
    case OpKind::Scan: return execCombine(op);
    case OpKind::Dot: return execDot(op);
    case OpKind::Print: return execPrint(op);
    case OpKind::Assert: {
      const Tile &c = val(op.operand(0));
      for (size_t i = 0; i < c.size(); ++i)
        if (!c[i].i) stop(op, "device_assert failed: " + op.attr("msg").s + " (element " + std::to_string(i) + ")");
      return;
    }
    case OpKind::Barrier: return;  // a program's ops run in order here
    case OpKind::MultipleOf:
    case OpKind::MaxContiguous: return set(op.result(), val(op.operand(0)));  // promises to the backend, not checked
    case OpKind::For: return execFor(op);
    case OpKind::If: {
      const Block &b = op.region(val(op.operand(0))[0].i ? 0 : 1);
      std::vector<Tile> out = runBlock(b);
      for (size_t i = 0; i < out.size(); ++i) set(op.result(i), std::move(out[i]));
      return;
    }
    case OpKind::While: return execWhile(op);
    case OpKind::Yield:
    case OpKind::Return: break;  // the block that holds them reads them (runBlock)
    }
    throw InternalError("the interpreter reached '" + std::string(op.name()) + "', which its block ends with",
                        op.loc);
  }

  void execElementwise(const Op &op) {
    const Type &rt = op.result()->type;
    size_t n = rt.numElements();
    ScalarKind k = op.operand(0)->type.elem;
    Tile out(n);
    const Tile &a = val(op.operand(0));
    if (op.kind == OpKind::Cast) {
      for (size_t i = 0; i < n; ++i) out[i] = evalCast(a[i], k, rt.elem);
    } else if (op.kind == OpKind::Bitcast) {  // the bytes memory would hold, read as the other type
      for (size_t i = 0; i < n; ++i) {
        uint8_t bytes[8];
        writeElem(bytes, k, a[i]);
        out[i] = readElem(bytes, rt.elem);
      }
    } else if (op.kind == OpKind::AddPtr) {
      const Tile &b = val(op.operand(1));
      uint64_t size = byteSize(op.operand(0)->type.pointee);
      for (size_t i = 0; i < n; ++i)
        out[i] = intElem(static_cast<int64_t>(static_cast<uint64_t>(a[i].i) + static_cast<uint64_t>(b[i].i) * size));
    } else if (op.kind == OpKind::Select) {
      const Tile &b = val(op.operand(1)), &c = val(op.operand(2));
      for (size_t i = 0; i < n; ++i) out[i] = a[i].i ? b[i] : c[i];
    } else if (op.kind == OpKind::Fma) {
      const Tile &b = val(op.operand(1)), &c = val(op.operand(2));
      for (size_t i = 0; i < n; ++i) out[i] = evalFma(k, a[i], b[i], c[i]);
    } else if (op.info().has(Compare)) {
      const Tile &b = val(op.operand(1));
      for (size_t i = 0; i < n; ++i) out[i] = intElem(evalCompare(op.kind, k, a[i], b[i]));
    } else if (op.operands.size() == 2) {
      const Tile &b = val(op.operand(1));
      for (size_t i = 0; i < n; ++i) {
        std::optional<Elem> r = evalBinary(op.kind, k, a[i], b[i]);
        if (!r) stop(op, "integer division by zero in '" + std::string(op.name()) + "'");
        out[i] = *r;
      }
    } else {
      bool flush = opts_.fastMath && op.kind == OpKind::Rsqrt && (k == ScalarKind::F32 || k == ScalarKind::BF16);
      for (size_t i = 0; i < n; ++i) out[i] = evalUnary(op.kind, k, flush ? flushSubnormalF32(a[i]) : a[i]);
    }
    set(op.result(), std::move(out));
  }

  void execBroadcast(const Op &op) {
    const Shape &in = op.operand(0)->type.shape, &outShape = op.result()->type.shape;
    const Tile &a = val(op.operand(0));
    Tile out(numElements(outShape));
    size_t rank = outShape.size();
    std::vector<int64_t> idx(rank, 0);
    for (size_t i = 0; i < out.size(); ++i) {
      int64_t src = 0;
      for (size_t d = 0; d < rank; ++d) src = src * in[d] + (in[d] == 1 ? 0 : idx[d]);
      out[i] = a[src];
      for (size_t d = rank; d-- > 0;) {  // row-major increment
        if (++idx[d] < outShape[d]) break;
        idx[d] = 0;
      }
    }
    set(op.result(), std::move(out));
  }

  void execTrans(const Op &op) {
    const Shape &in = op.operand(0)->type.shape, &outShape = op.result()->type.shape;
    const std::vector<int64_t> &perm = op.attr("perm").ints;
    const Tile &a = val(op.operand(0));
    size_t rank = in.size();
    std::vector<int64_t> inStride(rank, 1);
    for (size_t d = rank - 1; d-- > 0;) inStride[d] = inStride[d + 1] * in[d + 1];
    Tile out(a.size());
    std::vector<int64_t> idx(rank, 0);
    for (size_t i = 0; i < out.size(); ++i) {
      int64_t src = 0;
      for (size_t d = 0; d < rank; ++d) src += idx[d] * inStride[perm[d]];
      out[i] = a[src];
      for (size_t d = rank; d-- > 0;) {
        if (++idx[d] < outShape[d]) break;
        idx[d] = 0;
      }
    }
    set(op.result(), std::move(out));
  }

  void execLoad(const Op &op) {
    const Tile &ptrs = val(op.operand(0));
    const Tile *mask = op.operands.size() > 1 ? &val(op.operand(1)) : nullptr;
    const Tile *other = op.operands.size() > 2 ? &val(op.operand(2)) : nullptr;
    ScalarKind k = op.result()->type.elem;
    Tile out(ptrs.size());
    for (size_t i = 0; i < ptrs.size(); ++i) {
      if (mask && !(*mask)[i].i) {
        out[i] = other ? (*other)[i] : (isFloat(k) ? floatElem(0) : intElem(0));
        continue;
      }
      out[i] = readElem(deref(op, ptrs[i].i, k), k);
    }
    set(op.result(), std::move(out));
  }

  void execStore(const Op &op) {
    const Tile &ptrs = val(op.operand(0)), &vals = val(op.operand(valueOperand(op.kind)));
    size_t maskIdx = static_cast<size_t>(maskOperand(op.kind));
    const Tile *mask = op.operands.size() > maskIdx ? &val(op.operand(maskIdx)) : nullptr;
    ScalarKind k = op.operand(0)->type.pointee;
    bool atomic = isAtomic(op.kind);
    Tile old(ptrs.size(), isFloat(k) ? floatElem(0) : intElem(0));
    for (size_t i = 0; i < ptrs.size(); ++i) {
      if (mask && !(*mask)[i].i) continue;
      uint8_t *p = deref(op, ptrs[i].i, k, /*store=*/true);
      Elem v = vals[i];
      if (atomic) {
        old[i] = readElem(p, k);
        if (op.kind == OpKind::AtomicCas) {  // integers only: equal values are equal bits
          if (old[i].i != val(op.operand(1))[i].i) continue;
        } else {
          v = evalAtomic(op.kind, k, old[i], v);
        }
      }
      writeElem(p, k, v);
    }
    if (atomic) set(op.result(), std::move(old));
  }

  /// A block of a strided tensor, element by element in row-major order:
  /// coordinates in the index type, wrapping as it does, the address offset in i64.
  void execDescriptor(const Op &op) {
    DescriptorOperands d(op);
    size_t rank = d.rank();
    ScalarKind index = d.shape(0)->type.elem, k = d.base()->type.pointee;
    auto scalar = [&](Value *v) { return val(v)[0].i; };
    auto add = [&](int64_t a, int64_t b) {
      return wrapInt(static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)), index);
    };
    auto wide = [](int64_t a, int64_t b) {  // the address offset: i64, wrapping
      return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    };
    auto mul = [](int64_t a, int64_t b) {
      return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    };
    int64_t base = scalar(d.base());
    bool load = op.kind == OpKind::DescriptorLoad;
    size_t n = static_cast<size_t>(numElements(d.block()));
    Tile out(load ? n : 0);
    const Tile *in = load ? nullptr : &val(d.value());
    std::vector<int64_t> idx(rank, 0);
    for (size_t i = 0; i < n; ++i) {
      bool inside = true;
      int64_t linear = 0;
      for (size_t dim = 0; dim < rank; ++dim) {
        int64_t c = add(scalar(d.offset(dim)), idx[dim]);
        inside = inside && c >= 0 && c < scalar(d.shape(dim));
        linear = wide(linear, d.stride(dim) ? mul(c, scalar(d.stride(dim))) : c);
      }
      if (inside) {
        int64_t addr = static_cast<int64_t>(static_cast<uint64_t>(base) +
                                            static_cast<uint64_t>(linear) * byteSize(k));
        if (load) out[i] = readElem(deref(op, addr, k), k);
        else writeElem(deref(op, addr, k, /*store=*/true), k, (*in)[i]);
      } else if (load) {
        out[i] = isFloat(k) ? floatElem(0) : intElem(0);
      }
      for (size_t dim = rank; dim-- > 0;) {  // row-major increment
        if (++idx[dim] < d.block()[dim]) break;
        idx[dim] = 0;
      }
    }
    if (load) set(op.result(), std::move(out));
  }

  void execReduce(const Op &op) {
    const Type &in = op.operand(0)->type;
    size_t axis = static_cast<size_t>(op.intAttr("axis"));
    int64_t outer = strideProduct(in.shape, 0, axis), n = in.shape[axis],
            inner = strideProduct(in.shape, axis + 1, in.shape.size());
    const Tile &a = val(op.operand(0));
    ScalarKind k = in.elem;
    bool fp = isFloat(k);
    // f16/bf16 accumulate in f32; f32 and f64 in themselves.
    ScalarKind acc = k == ScalarKind::F16 || k == ScalarKind::BF16 ? ScalarKind::F32 : k;
    bool scan = op.kind == OpKind::Cumsum;
    Tile out(scan ? a.size() : static_cast<size_t>(outer * inner));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t in_ = 0; in_ < inner; ++in_) {
        auto at = [&](int64_t j) { return static_cast<size_t>((o * n + j) * inner + in_); };
        size_t dst = static_cast<size_t>(o * inner + in_);
        if (op.kind == OpKind::Sum || scan) {
          double fs = -0.0;  // the identity of IEEE addition: a sum of -0s is -0
          int64_t is = 0;
          for (int64_t j = 0; j < n; ++j) {
            if (fp) fs = roundToFloat(fs + a[at(j)].f, acc);
            else is = wrapInt(static_cast<int64_t>(static_cast<uint64_t>(is) + static_cast<uint64_t>(a[at(j)].i)), k);
            if (scan) out[at(j)] = fp ? floatElem(roundToFloat(fs, k)) : intElem(is);
          }
          if (!scan) out[dst] = fp ? floatElem(roundToFloat(fs, k)) : intElem(is);
          continue;
        }
        // max, min, argmax, argmin: the first extreme, NaN ignored.
        bool wantMax = op.kind == OpKind::Max || op.kind == OpKind::Argmax;
        int64_t best = -1;
        for (int64_t j = 0; j < n; ++j) {
          Elem e = a[at(j)];
          if (fp && std::isnan(e.f)) continue;
          if (best < 0) { best = j; continue; }
          Elem b = a[at(best)];
          if (evalCompare(wantMax ? OpKind::Gt : OpKind::Lt, k, e, b)) best = j;
        }
        bool arg = op.kind == OpKind::Argmax || op.kind == OpKind::Argmin;
        if (arg) out[dst] = intElem(best < 0 ? 0 : best);
        else out[dst] = best < 0 ? floatElem(std::numeric_limits<double>::quiet_NaN()) : a[at(best)];
      }
    set(op.result(), std::move(out));
  }

  /// reduce and scan: the region combines left to right along the axis, the
  /// n tiles' elements together (the accumulated ones first).
  void execCombine(const Op &op) {
    const Type &in = op.operand(0)->type;
    size_t axis = static_cast<size_t>(op.intAttr("axis"));
    int64_t outer = strideProduct(in.shape, 0, axis), n = in.shape[axis],
            inner = strideProduct(in.shape, axis + 1, in.shape.size());
    size_t tiles = op.operands.size();
    std::vector<const Tile *> a;
    for (const Value *v : op.operands) a.push_back(&val(v));
    const Block &region = op.region(0);
    bool scan = op.kind == OpKind::Scan;
    std::vector<Tile> args(2 * tiles, Tile(1));
    auto combine = [&](std::vector<Elem> &acc, size_t at) {
      for (size_t t = 0; t < tiles; ++t) args[t][0] = acc[t], args[tiles + t][0] = (*a[t])[at];
      bindArgs(region, args);
      std::vector<Tile> r = runBlock(region);
      for (size_t t = 0; t < tiles; ++t) acc[t] = r.at(t)[0];
    };
    std::vector<Tile> out(tiles, Tile(scan ? a[0]->size() : static_cast<size_t>(outer * inner)));
    std::vector<Elem> acc(tiles);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t in_ = 0; in_ < inner; ++in_) {
        auto at = [&](int64_t j) { return static_cast<size_t>((o * n + j) * inner + in_); };
        auto put = [&](size_t dst) {
          for (size_t t = 0; t < tiles; ++t) out[t][dst] = acc[t];
        };
        for (size_t t = 0; t < tiles; ++t) acc[t] = (*a[t])[at(0)];
        if (scan) put(at(0));
        for (int64_t j = 1; j < n; ++j) {
          combine(acc, at(j));
          if (scan) put(at(j));
        }
        if (!scan) put(static_cast<size_t>(o * inner + in_));
      }
    for (size_t t = 0; t < tiles; ++t) set(op.result(t), std::move(out[t]));
  }

  void execDot(const Op &op) {
    const Type &at = op.operand(0)->type, &ct = op.operand(2)->type;
    int64_t M = at.shape[0], K = at.shape[1], N = ct.shape[1];
    const Tile &a = val(op.operand(0)), &b = val(op.operand(1));
    Tile c = val(op.operand(2));
    bool fp = ct.isFloat();
    auto it = op.attrs.find("precision");
    bool tf32 = it != op.attrs.end() && it->second.s == "tf32";
    auto operand = [&](Elem e) {  // TF32: the upper 19 bits of the f32
      if (tf32) e.f = std::bit_cast<float>(std::bit_cast<uint32_t>(static_cast<float>(e.f)) & 0xffffe000u);
      return e;
    };
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        Elem &acc = c[m * N + n];
        for (int64_t k = 0; k < K; ++k) {
          Elem x = operand(a[m * K + k]), y = operand(b[k * N + n]);
          if (fp) acc.f = roundToFloat(std::fma(x.f, y.f, acc.f), ct.elem);
          else acc.i = wrapInt(static_cast<int64_t>(static_cast<uint64_t>(acc.i) + static_cast<uint64_t>(x.i * y.i)), ct.elem);
        }
      }
    set(op.result(), std::move(c));
  }

  void execPrint(const Op &op) {
    printed_ << "pid " << programString() << " " << op.attr("prefix").s;
    for (Value *v : op.operands) {
      const Tile &t = val(v);
      printed_ << (v->type.isTile() ? " [" : " ");
      for (size_t i = 0; i < t.size(); ++i) {
        if (i) printed_ << ", ";
        if (v->type.isFloat()) printed_ << t[i].f;
        else if (v->type.isUnsigned()) printed_ << static_cast<uint64_t>(t[i].i);
        else printed_ << t[i].i;
      }
      if (v->type.isTile()) printed_ << "]";
    }
    printed_ << "\n";
  }

  void execFor(const Op &op) {
    int64_t lo = val(op.operand(0))[0].i, hi = val(op.operand(1))[0].i, step = val(op.operand(2))[0].i;
    if (step <= 0) stop(op, "'for' step must be positive, got " + std::to_string(step));
    std::vector<Tile> carried;
    for (size_t i = 3; i < op.operands.size(); ++i) carried.push_back(val(op.operand(i)));
    const Block &body = op.region(0);
    ScalarKind ivKind = op.operand(0)->type.elem;
    for (int64_t iv = lo; iv < hi;) {
      set(body.arg(0), {intElem(iv)});
      for (size_t i = 0; i < carried.size(); ++i) set(body.arg(i + 1), std::move(carried[i]));
      carried = runBlock(body);
      int64_t next = wrapInt(static_cast<int64_t>(static_cast<uint64_t>(iv) + static_cast<uint64_t>(step)), ivKind);
      if (next <= iv) break;  // the induction variable would wrap: the loop ends
      iv = next;
    }
    for (size_t i = 0; i < carried.size(); ++i) set(op.result(i), std::move(carried[i]));
  }

  void execWhile(const Op &op) {
    std::vector<Tile> carried;
    for (Value *v : op.operands) carried.push_back(val(v));
    while (true) {
      bindArgs(op.region(0), carried);
      if (!runBlock(op.region(0)).at(0)[0].i) break;
      bindArgs(op.region(1), carried);
      carried = runBlock(op.region(1));
    }
    for (size_t i = 0; i < carried.size(); ++i) set(op.result(i), std::move(carried[i]));
  }

  const Func &f_;
  std::vector<Buffer> &buffers_;
  InterpretOptions opts_;
  Grid grid_;
  int64_t pid_[3] = {0, 0, 0};
  int64_t steps_ = 0;
  std::unordered_map<const Value *, size_t> slot_;
  std::vector<Tile> env_;
  std::ostringstream printed_;
  std::vector<std::vector<bool>> stored_;  // per buffer, per element: written
};

/// Checks the launch against the kernel's signature and builds the
/// parameters' values; a message on mismatch.
std::string bindParams(const Func &f, Grid grid, const std::vector<KernelArg> &args,
                       const std::vector<Buffer> &buffers, std::vector<Tile> &params) {
  if (grid.x < 1 || grid.y < 1 || grid.z < 1)
    return "grid (" + std::to_string(grid.x) + ", " + std::to_string(grid.y) + ", " +
           std::to_string(grid.z) + ") must be positive in every dimension";
  if (args.size() != f.numParams())
    return "kernel '" + f.name + "' takes " + std::to_string(f.numParams()) + " arguments, got " +
           std::to_string(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Value *p = f.param(i);
    const KernelArg &a = args[i];
    std::string which = "argument " + std::to_string(i) +
                        (p->name.empty() ? "" : " ('" + p->name + "')") + " of type " + toString(p->type);
    if (p->type.isTile()) return which + ": tile parameters are not supported";
    Elem e;
    if (p->type.isPtr()) {
      if (a.kind != KernelArg::Kind::Buffer) return which + " needs a buffer";
      if (a.buffer >= buffers.size())
        return which + ": buffer " + std::to_string(a.buffer) + " does not exist";
      if (buffers[a.buffer].elem() != p->type.pointee)
        return which + ": buffer '" + buffers[a.buffer].name() + "' holds " +
               std::string(scalarName(buffers[a.buffer].elem()));
      e.i = bufferBase(a.buffer);
    } else if (p->type.isFloat()) {
      if (a.kind == KernelArg::Kind::Buffer) return which + " needs a number, got a buffer";
      e.f = roundToFloat(a.kind == KernelArg::Kind::Float ? a.f : intToFloat(a.i, ScalarKind::I64, p->type.elem), p->type.elem);
    } else {
      if (a.kind != KernelArg::Kind::Int) return which + " needs an integer";
      e.i = wrapInt(a.i, p->type.elem);
      if (e.i != a.i) return which + ": " + std::to_string(a.i) + " does not fit";
    }
    params.push_back({e});
  }
  return {};
}

} // namespace

RunResult interpret(const Func &f, Grid grid, const std::vector<KernelArg> &args,
                    std::vector<Buffer> &buffers, InterpretOptions opts) {
  RunResult result;
  std::vector<Tile> params;
  if (std::string e = bindParams(f, grid, args, buffers, params); !e.empty()) {
    result.error = Diagnostic{f.loc, e};
    return result;
  }
  Machine m(f, buffers, opts, grid);
  try {
    m.run(params);
  } catch (const Stop &s) {
    result.error = Diagnostic{s.loc, s.message};
  }
  result.printed = m.printed();
  result.stored = m.stored();
  return result;
}

} // namespace twintile::ir
