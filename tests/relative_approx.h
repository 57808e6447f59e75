#pragma once
// doctest's Approx(x).epsilon(e) passes when |a - x| < e (1 + max(|a|, |x|)): with its default scale of 1 the bound
// is absolute for values below 1 (a tip deflection of 0.068 m passed as 0.106 m "within 5%"). The tests state
// relative bounds, so they compare through RelApprox: doctest's Approx with scale 0, |a - x| < e max(|a|, |x|).
// A comparison with 0 is an absolute bound and says so (std::abs(a) < tolerance, or Approx(0).scale(...)).
#include <doctest/doctest.h>

inline doctest::Approx RelApprox(double expected) { return doctest::Approx(expected).scale(0.0); }
