#include "engine/serving/coordinate_descent.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "engine/base/error.hpp"

namespace gputco {

namespace {

double first_step(const DescentCoordinate& c, const DescentOptions& options) {
  if (!c.free) return 0;
  return c.additive_step > 0 ? c.additive_step : options.log_start_step;
}

double smallest_step(const DescentCoordinate& c, const DescentOptions& options) {
  return c.additive_step > 0 ? options.smallest_step * c.additive_step : options.smallest_step;
}

/// `value` moved one step in `direction` (+1 or -1), clamped to the coordinate's bounds.
double stepped(const DescentCoordinate& c, double value, double step, double direction) {
  const double x =
      c.additive_step > 0 ? value + direction * step : value * std::exp(direction * step);
  return std::clamp(x, c.lo, c.hi);
}

}  // namespace

DescentResult coordinate_descent(const std::vector<DescentCoordinate>& coordinates,
                                 std::vector<double> start, const DescentOptions& options,
                                 const std::function<double(const std::vector<double>&)>& loss) {
  GPUTCO_REQUIRE(start.size() == coordinates.size(),
                 "coordinate descent: " << start.size() << " starting values for "
                                        << coordinates.size() << " coordinates");
  DescentResult best{std::move(start), 0};
  best.loss = loss(best.values);
  std::vector<double> step(coordinates.size());
  for (std::size_t k = 0; k < coordinates.size(); ++k)
    step[k] = first_step(coordinates[k], options);
  for (int round = 0; round < options.max_rounds; ++round) {
    bool any = false;
    for (std::size_t k = 0; k < coordinates.size(); ++k) {
      if (step[k] <= 0) continue;
      const DescentCoordinate& c = coordinates[k];
      bool improved = false;
      for (double direction : {1.0, -1.0}) {
        std::vector<double> trial = best.values;
        trial[k] = stepped(c, trial[k], step[k], direction);
        if (trial[k] == best.values[k]) continue;
        const double l = loss(trial);
        if (l < best.loss - kDescentMinImprovement) {
          best = {std::move(trial), l};
          improved = true;
          break;
        }
      }
      if (!improved) step[k] /= 2;
      if (step[k] < smallest_step(c, options)) step[k] = 0;
      any = any || step[k] > 0;
    }
    if (!any) break;
  }
  return best;
}

}  // namespace gputco
