// The coordinate descent behind both serving fits (engine/serving/coordinate_descent.hpp), on
// losses whose minimum is known by hand: separable quadratics, a minimum beyond a bound, and a
// count of the loss's evaluations that follows the step rule one round at a time.
#include "engine/serving/coordinate_descent.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/base/error.hpp"

namespace gputco {
namespace {

DescentCoordinate additive(double lo, double hi, double step) {
  return {lo, hi, step, true};
}
DescentCoordinate multiplicative(double lo, double hi) {
  return {lo, hi, 0, true};
}

// (x - 0.5)^2 + (y - 3)^2: y steps by whole units from 0, so it lands on 3 exactly (0 -> 1 ->
// 2 -> 3 are exact in binary, then every smaller step makes it worse); x is log-stepped from 1
// and stops when a step below 2 x 1e-3 (log units) improves neither way, so for a convex loss
// |ln x - ln 0.5| < 2e-3: |x - 0.5| < 0.5 x (e^0.002 - 1) = 0.0010.
TEST(CoordinateDescent, separableQuadraticReachesItsMinimum) {
  const auto loss = [](const std::vector<double>& v) {
    return (v[0] - 0.5) * (v[0] - 0.5) + (v[1] - 3) * (v[1] - 3);
  };
  const DescentOptions options{0.25, 1e-3, 400};
  const DescentResult r =
      coordinate_descent({multiplicative(0.05, 2), additive(0, 10, 1)}, {1.0, 0.0}, options, loss);
  ASSERT_EQ(r.values.size(), 2u);
  EXPECT_NEAR(r.values[0], 0.5, 0.0010);
  EXPECT_DOUBLE_EQ(r.values[1], 3.0);
  EXPECT_DOUBLE_EQ(r.loss, loss(r.values));
  EXPECT_LT(r.loss, 1e-6);  // (0.0010)^2
}

// A minimum beyond a bound ends on the bound exactly (the step is clamped to it): z wants 5
// but stops at hi = 2; w wants 0.01 but stops at lo = 0.05.
TEST(CoordinateDescent, aMinimumBeyondABoundEndsOnTheBound) {
  const auto loss = [](const std::vector<double>& v) {
    return (v[0] - 5) * (v[0] - 5) + (v[1] - 0.01) * (v[1] - 0.01);
  };
  const DescentResult r = coordinate_descent({additive(0, 2, 0.5), multiplicative(0.05, 1.2)},
                                             {0.0, 1.0}, DescentOptions{}, loss);
  EXPECT_DOUBLE_EQ(r.values[0], 2.0);
  EXPECT_DOUBLE_EQ(r.values[1], 0.05);
  EXPECT_DOUBLE_EQ(r.loss, 9 + 0.04 * 0.04);
}

// A coordinate not free keeps its start, even where moving it would lower the loss.
TEST(CoordinateDescent, aFixedCoordinateKeepsItsStart) {
  const auto loss = [](const std::vector<double>& v) {
    return (v[0] - 1) * (v[0] - 1) + (v[1] - 4) * (v[1] - 4);
  };
  DescentCoordinate fixed = additive(0, 10, 1);
  fixed.free = false;
  const DescentResult r =
      coordinate_descent({additive(0, 10, 1), fixed}, {0.0, 7.0}, DescentOptions{}, loss);
  EXPECT_DOUBLE_EQ(r.values[0], 1.0);
  EXPECT_DOUBLE_EQ(r.values[1], 7.0);
  EXPECT_DOUBLE_EQ(r.loss, 9.0);
}

// (y - 1)^2 from 0, step 1, smallest 0.25 x 1: the start (1 evaluation); round 1: y = 1
// improves (1); round 2: 2 and 0 do not (2), step 0.5; round 3: 1.5 and 0.5 do not (2), step
// 0.25 (not below 0.25); round 4: 1.25 and 0.75 do not (2), step 0.125 < 0.25 -> 0; done:
// 8 evaluations. With max_rounds = 1 the search stops after round 1: 2 evaluations.
TEST(CoordinateDescent, stepsHalveUntilBelowTheSmallestThenStop) {
  int calls = 0;
  const auto loss = [&](const std::vector<double>& v) {
    ++calls;
    return (v[0] - 1) * (v[0] - 1);
  };
  const DescentResult r =
      coordinate_descent({additive(-10, 10, 1)}, {0.0}, DescentOptions{0.25, 0.25, 400}, loss);
  EXPECT_DOUBLE_EQ(r.values[0], 1.0);
  EXPECT_EQ(calls, 8);
  calls = 0;
  coordinate_descent({additive(-10, 10, 1)}, {0.0}, DescentOptions{0.25, 0.25, 1}, loss);
  EXPECT_EQ(calls, 2);
}

TEST(CoordinateDescent, startOfAnotherSizeIsRefused) {
  const auto loss = [](const std::vector<double>&) { return 0.0; };
  EXPECT_THROW(coordinate_descent({additive(0, 1, 0.1)}, {0.0, 0.0}, DescentOptions{}, loss),
               EngineError);
}

}  // namespace
}  // namespace gputco
