// Included by declared_kernels_where.cpp: a kernel declared in a user's
// header, which is part of the kernel file's compile but not of the
// precompiled language header.
#pragma once
#include <twintile.h>

template <int B> TT_KERNEL void included(tt::Ptr<tt::f32> x, tt::Ptr<tt::f32> y) {
  store(y + tt::arange(0, B), load(x + tt::arange(0, B)));
}
