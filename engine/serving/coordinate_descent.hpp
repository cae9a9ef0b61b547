// Coordinate descent: the small deterministic search that fits the serving model's constants
// (engine/serving/serving_calibration.hpp on published measurements,
// engine/serving/serving_measured.hpp on a user's runs). The model is not smooth (the larger of two
// roofs, a batch set by memory or by latency targets), so no gradient: each coordinate in turn
// tries one step up, then one down, keeps the first that lowers the loss, and halves its step when
// neither does.
#pragma once

#include <functional>
#include <vector>

namespace gputco {

/// One coordinate searched: its bounds and how it steps.
struct DescentCoordinate {
  double lo = 0;  ///< lowest value tried (a step beyond is clamped to it)
  double hi = 0;  ///< highest value tried
  /// > 0: an additive coordinate, first step this much (the coordinate's own units); 0: a
  /// multiplicative one, stepped by a factor exp(+-step), first step the options' log step.
  double additive_step = 0;
  bool free = true;  ///< false: the coordinate keeps its starting value
};

/// How far and how long the search goes.
struct DescentOptions {
  double log_start_step = 0.25;  ///< first step of a multiplicative coordinate, natural-log units
  /// A coordinate stops once its step falls below this: natural-log units for a multiplicative
  /// coordinate; a fraction of the first step for an additive one.
  double smallest_step = 1e-3;
  int max_rounds = 400;  ///< rounds over all coordinates at most
};

/// Where the search ended.
struct DescentResult {
  std::vector<double> values;  ///< one per coordinate, in the order given
  double loss = 0;             ///< `loss` at `values`
};

/// A loss lower than the best so far by less than this is no improvement (rounding noise).
inline constexpr double kDescentMinImprovement = 1e-12;

/// Minimises `loss` over `coordinates` from `start` (one value per coordinate; each within its
/// bounds) by coordinate descent: in each round, each free coordinate whose step is not yet 0
/// tries value + step then value - step (additive) or value x exp(+step) then value x exp(-step)
/// (multiplicative), clamped to [lo, hi]; a trial equal to the current value is not evaluated;
/// the first trial whose loss is below the best by more than kDescentMinImprovement is kept,
/// else the step halves; a step below the smallest becomes 0. The search ends after a round with
/// every step 0, or after max_rounds. Deterministic: `loss` is called in a fixed order and must
/// itself be deterministic. Throws EngineError when `start` and `coordinates` differ in
/// size; whatever `loss` throws passes through.
DescentResult coordinate_descent(const std::vector<DescentCoordinate>& coordinates,
                                 std::vector<double> start, const DescentOptions& options,
                                 const std::function<double(const std::vector<double>&)>& loss);

}  // namespace gputco
