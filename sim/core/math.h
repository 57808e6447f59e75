#pragma once
#include <cstdint>
#include <cstring>
// Shared math for host and device code: glm types, the FRAC_HD macro and quaternion helpers.
// glm detects nvcc by itself and marks its functions __host__ __device__ (no GLM_FORCE_CUDA).
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#if defined(__CUDACC__)
#define FRAC_HD __host__ __device__
#else
#define FRAC_HD __attribute__((always_inline))  // the step is a few large loops: inline the physics into them
#endif

namespace frac {

using vec3 = glm::vec3;
using quat = glm::quat;  // glm stores (x, y, z, w); constructor order is (w, x, y, z)

constexpr float kPi = 3.14159265358979323846f;

// Rotate vector v by unit quaternion q: q (x) v (x) conj(q)  (Lu 2021 eq. 5).
FRAC_HD inline vec3 rotate(const quat& q, const vec3& v) {
  const vec3 u(q.x, q.y, q.z);
  const vec3 t = 2.0f * glm::cross(u, v);
  return v + q.w * t + glm::cross(u, t);
}

// Hamilton product a (x) b.
FRAC_HD inline quat mul(const quat& a, const quat& b) {
  return quat(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
              a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
              a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}

FRAC_HD inline quat conjugate(const quat& q) { return quat(q.w, -q.x, -q.y, -q.z); }

FRAC_HD inline quat normalized(const quat& q) {
  const float n = sqrtf(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return n > 0.0f ? quat(q.w / n, q.x / n, q.y / n, q.z / n) : quat(1, 0, 0, 0);
}

// Rotation vector (axis * angle) -> quaternion, exact for any angle. Up to 0.5 rad (|w| dt of every element in
// practice) sin(h)/h and cos(h), h = angle / 2, come from their Taylor series, exact to float rounding there
// (first omitted terms below 3e-14) and free of libm: CPU and CUDA, whose sinf/cosf round differently, then get
// the same bits. Larger angles halve the vector until it is below 0.5 rad and square the quaternion as often
// (q(2 r) = q(r) q(r)): still no libm.
FRAC_HD inline quat fromRotationVector(const vec3& r) {
  int halvings = 0;
  vec3 small = r;
  while (glm::dot(small, small) >= 0.25f && halvings < 64) {
    small *= 0.5f;  // exact
    ++halvings;
  }
  const float h2 = 0.25f * glm::dot(small, small);
  const float sinc = 1.0f - h2 / 6.0f * (1.0f - h2 / 20.0f * (1.0f - h2 / 42.0f * (1.0f - h2 / 72.0f)));
  const float c = 1.0f - h2 / 2.0f * (1.0f - h2 / 12.0f * (1.0f - h2 / 30.0f * (1.0f - h2 / 56.0f * (1.0f - h2 / 90.0f))));
  const float s = 0.5f * sinc;  // sin(h) / angle
  quat q(c, s * small.x, s * small.y, s * small.z);
  for (int k = 0; k < halvings; ++k) q = mul(q, q);
  return q;
}

// Quaternion -> rotation vector theta * a with theta in [0, pi] (Lu 2021 eq. 13, shortest arc).
// theta / |Im q| = 2 atan(s / w) / s with s = |Im q|; for s < 0.1 w its series in (s / w)^2 needs no sqrt or libm.
// The series branch of toRotationVector alone, without branches, so that a loop over bonds vectorises: exact for
// |Im q| < 0.1 w (rotations below about 0.2 rad, every intact bond in practice); `accurate` is false otherwise, and
// the caller must use toRotationVector. Bit-identical to toRotationVector wherever `accurate` is true.
FRAC_HD inline vec3 toRotationVectorSeries(const quat& q, bool& accurate) {
  const float sign = q.w < 0.0f ? -1.0f : 1.0f;  // shortest arc: q and -q are the same rotation
  const float w = sign * q.w;
  const vec3 im = sign * vec3(q.x, q.y, q.z);
  const float s2 = glm::dot(im, im);
  accurate = s2 < 0.01f * w * w;  // false for w = 0 (a half turn) too: s2 >= 0
  const float invW = 1.0f / w, r2 = s2 * invW * invW;
  return (2.0f * invW * (1.0f - r2 * (1.0f / 3.0f - r2 * (1.0f / 5.0f - r2 * (1.0f / 7.0f))))) * im;
}

// Any rotation: beyond the series' range the half-angle identity atan(s / w) = 2 atan(s / (w + sqrt(w^2 + s^2)))
// (w >= 0 on the shortest arc) is applied 4 times, which brings s / w below tan(pi / 32) < 0.1, and the series of the
// result times 16 is the answer: no atan2f, whose CPU and CUDA versions round differently.
FRAC_HD inline vec3 toRotationVector(quat q) {
  bool accurate;
  const vec3 series = toRotationVectorSeries(q, accurate);
  if (accurate) return series;
  if (q.w < 0.0f) q = quat(-q.w, -q.x, -q.y, -q.z);
  const vec3 im(q.x, q.y, q.z);
  const float s2 = glm::dot(im, im);
  if (s2 < 1e-24f) return 2.0f * im;
  float w = q.w;
  for (int k = 0; k < 4; ++k) w = w + sqrtf(w * w + s2);  // each halves the angle (the scale of q does not matter)
  return 16.0f * toRotationVectorSeries(quat(w, im.x, im.y, im.z), accurate);
}

// Cube root of a >= 0 from basic operations only (a bit-level first guess, then Newton steps y = (2 y + a / y^2) / 3),
// so that CPU and CUDA, whose cbrtf round differently, compute the same bits. Relative error below 1e-7.
FRAC_HD inline float cubeRoot(float a) {
  if (!(a > 0.0f)) return 0.0f;
  uint32_t bits;
  memcpy(&bits, &a, sizeof bits);
  bits = bits / 3u + 709921077u;  // exponent / 3 (0x2a51067f: the classic cbrt first guess)
  float y;
  memcpy(&y, &bits, sizeof y);
  for (int k = 0; k < 4; ++k) y = (2.0f * y + a / (y * y)) * (1.0f / 3.0f);
  return y;
}

// Natural logarithm of a > 0 from basic operations only (like cubeRoot: CPU and CUDA logf round differently):
// a = m 2^e with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, by its series to
// s^9 (first omitted term below 2e-9). Relative error below 3e-7; 0 and negatives give -infinity.
FRAC_HD inline float logBasic(float a) {
  if (!(a > 0.0f)) return -INFINITY;
  uint32_t bits;
  memcpy(&bits, &a, sizeof bits);
  int exponent = int((bits >> 23) & 0xffu) - 127;
  bits = (bits & 0x007fffffu) | 0x3f800000u;  // m in [1, 2) (normal numbers; the barrier never sees subnormals)
  float m;
  memcpy(&m, &bits, sizeof m);
  if (m > 1.41421356f) {
    m *= 0.5f;
    ++exponent;
  }
  const float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
  const float series = 2.0f * s * (1.0f + s2 * (1.0f / 3.0f + s2 * (1.0f / 5.0f + s2 * (1.0f / 7.0f + s2 * (1.0f / 9.0f)))));
  return float(exponent) * 0.693147180559945f + series;
}

// e^x from basic operations only (as logBasic): x = k ln 2 + r, |r| <= ln(2) / 2, e^r by its series to r^8 (first
// omitted term below 1e-9), 2^k from the exponent bits. Relative error below 3e-7 for |x| < 80; beyond, 0 or infinity.
FRAC_HD inline float expBasic(float x) {
  if (!(x > -80.0f)) return 0.0f;
  if (x > 80.0f) return INFINITY;
  const float k = floorf(x * 1.44269504088896f + 0.5f);
  const float r = (x - k * 0.693145751953125f) - k * 1.428606765330187e-06f;  // ln 2 split: exact k * high part
  const float series = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6.0f + r * (1.0f / 24.0f + r * (1.0f / 120.0f +
           r * (1.0f / 720.0f + r * (1.0f / 5040.0f + r * (1.0f / 40320.0f))))))));
  const uint32_t bits = uint32_t(int(k) + 127) << 23;
  float scale;
  memcpy(&scale, &bits, sizeof scale);
  return series * scale;
}

// a^b for a > 0 from logBasic and expBasic (0 for a <= 0): the same bits on every backend.
FRAC_HD inline float powBasic(float a, float b) { return a > 0.0f ? expBasic(b * logBasic(a)) : 0.0f; }

// c ? a : b per component: a select the vectoriser takes (a ternary on whole vectors becomes a pointer choice).
FRAC_HD inline vec3 select(bool c, const vec3& a, const vec3& b) {
  return vec3(c ? a.x : b.x, c ? a.y : b.y, c ? a.z : b.z);
}

// x clamped to [lo, hi] by two comparisons: fminf and fmaxf are library calls on x86 (their NaN and signed-zero rules),
// which cost a hot loop its inlining. The same values as fminf(fmaxf(x, lo), hi) for lo and hi not NaN (a NaN x gives
// lo), on every backend.
FRAC_HD inline float clampBetween(float x, float lo, float hi) {
  const float atLeast = x > lo ? x : lo;
  return atLeast < hi ? atLeast : hi;
}

FRAC_HD inline float length2(const vec3& v) { return glm::dot(v, v); }

// Distance along the ray from `origin` in the unit `direction` to where it enters the sphere, or -1 when it misses the
// sphere, or starts inside it or beyond it.
FRAC_HD inline float raySphereEntry(const vec3& origin, const vec3& direction, const vec3& centre, float radius) {
  const vec3 c = centre - origin;
  const float b = glm::dot(c, direction), h = b * b - (glm::dot(c, c) - radius * radius);
  if (h < 0.0f) return -1.0f;
  const float t = b - sqrtf(h);
  return t > 0.0f ? t : -1.0f;
}

}  // namespace frac
