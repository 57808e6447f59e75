#pragma once
// The few atomic operations that parallel loops which combine results across indices need (fragment labelling,
// instance summaries), the same call on host (GCC builtins under OpenMP) and device (CUDA atomics). The physics
// steps never use them: their loops gather, so results do not depend on the order threads run in.
#include <cstdint>

#include "core/math.h"

namespace frac {

FRAC_HD inline int32_t atomicLoadInt(const int32_t* p) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const volatile int32_t*>(p);
#else
  return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

FRAC_HD inline void atomicStoreInt(int32_t* p, int32_t value) {
#if defined(__CUDA_ARCH__)
  *static_cast<volatile int32_t*>(p) = value;
#else
  __atomic_store_n(p, value, __ATOMIC_RELAXED);
#endif
}

// *p = min(*p, value), atomically.
FRAC_HD inline void atomicMinInt(int32_t* p, int32_t value) {
#if defined(__CUDA_ARCH__)
  atomicMin(reinterpret_cast<int*>(p), int(value));
#else
  int32_t seen = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (value < seen && !__atomic_compare_exchange_n(p, &seen, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

// *p = max(*p, value), atomically.
FRAC_HD inline void atomicMaxInt(int32_t* p, int32_t value) {
#if defined(__CUDA_ARCH__)
  atomicMax(reinterpret_cast<int*>(p), int(value));
#else
  int32_t seen = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (value > seen && !__atomic_compare_exchange_n(p, &seen, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

// Returns *p and adds value to it, atomically.
FRAC_HD inline int32_t atomicAddInt(int32_t* p, int32_t value) {
#if defined(__CUDA_ARCH__)
  return int32_t(atomicAdd(reinterpret_cast<int*>(p), int(value)));
#else
  return __atomic_fetch_add(p, value, __ATOMIC_RELAXED);
#endif
}

// *p += value for 64-bit integers (fixed-point sums that come out the same in any order), atomically.
FRAC_HD inline void atomicAddLong(int64_t* p, int64_t value) {
#if defined(__CUDA_ARCH__)
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(value));
#else
  __atomic_fetch_add(p, value, __ATOMIC_RELAXED);
#endif
}

// *p |= bits, atomically.
FRAC_HD inline void atomicOrInt(int32_t* p, int32_t bits) {
#if defined(__CUDA_ARCH__)
  atomicOr(reinterpret_cast<int*>(p), int(bits));
#else
  __atomic_fetch_or(p, bits, __ATOMIC_RELAXED);
#endif
}

// Sets *p to desired when it holds expected; true when this call did (claims a slot for one thread only).
FRAC_HD inline bool atomicClaimInt(int32_t* p, int32_t expected, int32_t desired) {
#if defined(__CUDA_ARCH__)
  return atomicCAS(reinterpret_cast<int*>(p), int(expected), int(desired)) == int(expected);
#else
  return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#endif
}

// A float as an int32 whose signed order is the float's order (NaN aside), for atomic float min and max.
FRAC_HD inline int32_t orderedFloatBits(float f) {
  int32_t bits;
  memcpy(&bits, &f, sizeof(bits));
  return bits >= 0 ? bits : bits ^ 0x7fffffff;
}
FRAC_HD inline float floatFromOrderedBits(int32_t bits) {
  const int32_t raw = bits >= 0 ? bits : bits ^ 0x7fffffff;
  float f;
  memcpy(&f, &raw, sizeof(f));
  return f;
}

}  // namespace frac
