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
