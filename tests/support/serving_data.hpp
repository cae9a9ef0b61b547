// The measured serving rows for the engine tests: tests/data/reference/serving_measured.csv
// (the published measurements the constants are fitted on, ids as in shared/reference) with
// the configuration of each in serving_configs.csv, and the held-out rows of
// serving_validation.csv. Test-only I/O: the engine reads no files.
#pragma once

#include <string>
#include <vector>

#include "engine/serving/serving_calibration.hpp"

namespace gputco::test {

/// One row of serving_configs.csv or serving_validation.csv, resolved against the catalog's
/// CSV rows (pricing/data).
struct ServingRow {
  std::string id;
  /// fit (the constants are fitted on it), latency (a latency metric: estimated, not fitted),
  /// validation (held out), or why it is not estimated (input_unknown, superseded).
  std::string use;
  std::string source;  ///< where the figure was published (validation rows; "" otherwise)
  std::string note;
  bool estimable = false;  ///< has what the model needs (input and output tokens)
  ServingSample sample;
};

/// Every row of serving_configs.csv. Throws std::runtime_error when a row's measured value
/// differs from serving_measured.csv's `value` (or `per_gpu_value` for per-GPU metrics) for
/// its id, or an id, engine, metric or mode is unknown.
std::vector<ServingRow> serving_config_rows();

/// The rows the constants are fitted on (use == "fit").
std::vector<ServingSample> fitted_serving_samples();

/// Every row of serving_validation.csv (held out: never fitted).
std::vector<ServingRow> serving_validation_rows();

}  // namespace gputco::test
