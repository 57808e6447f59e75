#pragma once
// What the lab probes share: smoothing a sampled load curve and a least-squares line through it.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace frac {

// Centred moving average of one field of `curve` with `half` samples on each side (fewer at the ends).
template <class Sample>
std::vector<double> movingAverage(const std::vector<Sample>& curve, double Sample::*field, size_t half) {
  const size_t n = curve.size();
  std::vector<double> prefix(n + 1, 0.0), out(n);
  for (size_t k = 0; k < n; ++k) prefix[k + 1] = prefix[k] + curve[k].*field;
  for (size_t k = 0; k < n; ++k) {
    const size_t lo = k >= half ? k - half : 0, hi = std::min(n, k + half + 1);
    out[k] = (prefix[hi] - prefix[lo]) / double(hi - lo);
  }
  return out;
}

// The index of the largest value (the first of equal ones); 0 for an empty list.
inline size_t peakIndex(const std::vector<double>& values) {
  return values.empty() ? 0 : size_t(std::max_element(values.begin(), values.end()) - values.begin());
}

// The samples a modulus is fitted over: from the first at which the smoothed `load` reaches `low` of its value at
// `peak` to the first after that at which it reaches `high` (both inclusive; empty when it never does), a stretch of
// the run's time. Not every sample whose load lies in [low, high] of the peak: an explicit run's load rings about the
// quasi-static curve, and a band on the load keeps the low swings at its bottom and the high ones at its top, which
// flattens a least-squares slope of load over displacement (a peridynamic beam at the lab's rate read its bending E
// 5% low so; docs/materials.md, "Fitting a modulus on a ringing curve").
struct FitRange {
  size_t first = 0, last = 0;
  bool empty = true;
  // The smoothing the fit takes its samples from: a moving average over an eighth of the range on each side (at least
  // `half`), long enough for many periods of the ringing to cancel. Load and displacement averaged with the same
  // weights keep a linear relation between them exactly, so this bends no straight curve.
  size_t smoothing(size_t half) const { return empty ? half : std::max(half, (last - first) / 8); }
};
inline FitRange fitRange(const std::vector<double>& load, size_t peak, double low, double high) {
  FitRange r;
  if (load.empty() || peak >= load.size()) return r;
  const double top = load[peak];
  size_t k = 0;
  while (k <= peak && load[k] < low * top) ++k;
  if (k > peak) return r;
  r.first = k;
  while (k < peak && load[k] < high * top) ++k;
  r.last = k;
  r.empty = false;
  return r;
}

// Least-squares slope of y over x.
class LineFit {
 public:
  void add(double x, double y) {
    sx_ += x, sy_ += y, sxx_ += x * x, sxy_ += x * y;
    ++n_;
  }
  int count() const { return n_; }
  // 0 with fewer than two distinct x.
  double slope() const {
    const double d = n_ * sxx_ - sx_ * sx_;
    return n_ >= 2 && d > 0.0 ? (n_ * sxy_ - sx_ * sy_) / d : 0.0;
  }

 private:
  double sx_ = 0, sy_ = 0, sxx_ = 0, sxy_ = 0;
  int n_ = 0;
};

}  // namespace frac
