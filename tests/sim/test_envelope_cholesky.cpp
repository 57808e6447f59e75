// The envelope Cholesky of the two-level preconditioner's coarse solve (kernels/envelope_cholesky.h): a banded
// positive definite system solved to rounding, and a unknown with no stiffness dropped without disturbing the rest.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "kernels/envelope_cholesky.h"

using namespace frac;

namespace {

// A symmetric positive definite matrix of bandwidth 3 (a chain of springs plus a diagonal), dense row-major.
struct Banded {
  int n = 30;
  std::vector<double> a;
  std::vector<int> first;
  Banded() : a(size_t(n) * n, 0.0), first(size_t(n)) {
    for (int i = 0; i < n; ++i) {
      first[size_t(i)] = i >= 3 ? i - 3 : 0;
      for (int j = first[size_t(i)]; j <= i; ++j) {
        const double v = i == j ? 10.0 + 0.3 * i : -1.0 - 0.1 * std::sin(i + 2.0 * j);
        a[size_t(i) * n + j] = a[size_t(j) * n + i] = v;
      }
    }
  }
  double times(const std::vector<double>& x, int i) const {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += a[size_t(i) * n + j] * x[size_t(j)];
    return s;
  }
};

}  // namespace

TEST_CASE("envelope Cholesky solves a banded positive definite system, and drops an unknown with no stiffness") {
  SUBCASE("banded system: A x = b to 1e-12") {
    Banded m;
    std::vector<double> b(size_t(m.n)), l = m.a;
    for (int i = 0; i < m.n; ++i) b[size_t(i)] = std::cos(0.7 * i);
    std::vector<double> x = b;
    envelopeFactor(l.data(), m.first.data(), m.n);
    envelopeSolve(l.data(), m.first.data(), m.n, x.data());
    for (int i = 0; i < m.n; ++i) CHECK(m.times(x, i) == doctest::Approx(b[size_t(i)]).epsilon(1e-12));
  }
  SUBCASE("row and column 7 zero (a coarse mode of prescribed elements): x_7 = 0, the rest solves A without it") {
    Banded m;
    const int gone = 7;
    for (int k = 0; k < m.n; ++k) m.a[size_t(gone) * m.n + k] = m.a[size_t(k) * m.n + gone] = 0.0;
    std::vector<double> b(size_t(m.n)), l = m.a;
    for (int i = 0; i < m.n; ++i) b[size_t(i)] = i == gone ? 0.0 : 1.0 + 0.1 * i;
    std::vector<double> x = b;
    envelopeFactor(l.data(), m.first.data(), m.n);
    envelopeSolve(l.data(), m.first.data(), m.n, x.data());
    CHECK(x[size_t(gone)] == 0.0);
    for (int i = 0; i < m.n; ++i)
      if (i != gone) CHECK(m.times(x, i) == doctest::Approx(b[size_t(i)]).epsilon(1e-12));
  }
}
