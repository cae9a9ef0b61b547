#include "engine/serving/serving_calibration.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "engine/base/error.hpp"
#include "engine/serving/coordinate_descent.hpp"

namespace gputco {

namespace {

constexpr int kMinRows = 6;
constexpr double kStartStep = 0.25;  // log units (x 1.28) for the efficiencies
constexpr double kSmallestStep = 1e-3;
constexpr int kMaxRounds = 400;
constexpr double kFixedStepS = 2e-3;  // seconds, for the additive fixed cost
constexpr double kMaxFixedS = 0.05;

/// One fitted constant: its field, its bounds and first step (seconds for the additive fixed
/// cost; the others are log-stepped).
struct Knob {
  double ServingConstants::*field;
  DescentCoordinate coordinate;
};

constexpr std::array<Knob, 9> kKnobs{{
    {&ServingConstants::bandwidth_efficiency, {0.05, 1.2, 0}},
    {&ServingConstants::compute_efficiency, {0.05, 1.2, 0}},
    {&ServingConstants::step_fixed_s, {0.0, kMaxFixedS, kFixedStepS}},
    {&ServingConstants::amd_factor, {0.2, 1.5, 0}},
    {&ServingConstants::moe_read_factor, {0.2, 1.5, 0}},
    {&ServingConstants::tuned_factor, {0.5, 3.0, 0}},
    {&ServingConstants::fp4_factor, {0.2, 1.5, 0}},
    {&ServingConstants::tp_factor, {0.3, 1.2, 0}},
    {&ServingConstants::moe_compute_factor, {0.05, 1.5, 0}},
}};
constexpr std::size_t kAmdKnob = 3;
constexpr std::size_t kMoeReadKnob = 4;
constexpr std::size_t kTunedKnob = 5;
constexpr std::size_t kFp4Knob = 6;
constexpr std::size_t kTpKnob = 7;
constexpr std::size_t kMoeComputeKnob = 8;

/// Mean absolute log error (a row's error weighs by its size, not its square: one odd row
/// does not drag the constants every other row agrees on); a row the model refuses weighs as
/// a factor of 100.
double loss(const std::vector<ServingSample>& samples, const ServingConstants& c) {
  double sum = 0;
  for (const auto& s : samples) {
    double e = std::log(100.0);
    try {
      const double p = predict_serving(s, c);
      if (p > 0 && std::isfinite(p)) e = std::abs(std::log(p / s.measured));
    } catch (const EngineError&) {
    }
    sum += e;
  }
  return sum / static_cast<double>(samples.size());
}

}  // namespace

std::string to_string(ServingMetric metric) {
  switch (metric) {
    case ServingMetric::output_tokens_per_s:
      return "output_tokens_per_s";
    case ServingMetric::total_tokens_per_s_per_gpu:
      return "total_tokens_per_s_per_gpu";
    case ServingMetric::per_user_tokens_per_s:
      return "per_user_tokens_per_s";
    case ServingMetric::ttft_ms:
      return "ttft_ms";
  }
  return "unknown";
}

ServingMetric parse_serving_metric(const std::string& text) {
  for (ServingMetric m :
       {ServingMetric::output_tokens_per_s, ServingMetric::total_tokens_per_s_per_gpu,
        ServingMetric::per_user_tokens_per_s, ServingMetric::ttft_ms}) {
    if (to_string(m) == text) return m;
  }
  throw EngineError("unknown serving metric '" + text + "'");
}

double predict_serving(const ServingSample& sample, const ServingConstants& constants) {
  ServingRequest request = sample.request;
  request.constants = constants;
  const ServingCapacity c =
      serving_capacity(request, sample.device, sample.count, sample.layout, sample.goal);
  switch (sample.metric) {
    case ServingMetric::output_tokens_per_s:
      return c.output_tokens_per_s;
    case ServingMetric::total_tokens_per_s_per_gpu:
      return c.total_tokens_per_s_per_gpu;
    case ServingMetric::per_user_tokens_per_s:
      return c.per_user_tokens_per_s;
    case ServingMetric::ttft_ms:
      return c.ttft_ms;
  }
  return 0;
}

double serving_mape(const std::vector<ServingSample>& samples, const ServingConstants& constants) {
  GPUTCO_REQUIRE(!samples.empty(), "no serving rows to measure the error on");
  double sum = 0;
  for (const auto& s : samples) {
    sum += std::abs(predict_serving(s, constants) / s.measured - 1.0);
  }
  return sum / static_cast<double>(samples.size());
}

namespace {

/// Which constants the rows identify (the others keep their starting value).
std::array<bool, kKnobs.size()> identified(const std::vector<ServingSample>& samples) {
  const auto any = [&](auto predicate) {
    return std::any_of(samples.begin(), samples.end(), predicate);
  };
  std::array<bool, kKnobs.size()> free{};
  free.fill(true);
  free[kAmdKnob] = any([](const ServingSample& s) { return s.device.vendor == Vendor::amd; });
  free[kMoeReadKnob] = any([](const ServingSample& s) { return s.request.model.is_moe(); });
  free[kMoeComputeKnob] = free[kMoeReadKnob];
  free[kTunedKnob] = any([](const ServingSample& s) { return s.request.tuned; });
  free[kFp4Knob] = any([](const ServingSample& s) {
    return format_support(s.request.engine, s.request.quant.id, s.request.kv_cache, s.device)
               .compute == ComputePrecision::fp4;
  });
  free[kTpKnob] =
      any([](const ServingSample& s) { return s.count > 1 && !s.request.model.is_moe(); });
  return free;
}

/// `base` with the knobs' fields set to `values` (in kKnobs' order).
ServingConstants with_knobs(ServingConstants base, const std::vector<double>& values) {
  for (std::size_t k = 0; k < kKnobs.size(); ++k) base.*kKnobs[k].field = values[k];
  return base;
}

/// Coordinate descent (engine/serving/coordinate_descent.hpp) from `start` of the knobs `free`
/// marks; returns the constants and their loss.
std::pair<ServingConstants, double> descend(const std::vector<ServingSample>& samples,
                                            const ServingConstants& start,
                                            const std::array<bool, kKnobs.size()>& free) {
  std::vector<DescentCoordinate> coordinates;
  std::vector<double> values;
  for (std::size_t k = 0; k < kKnobs.size(); ++k) {
    coordinates.push_back(kKnobs[k].coordinate);
    coordinates.back().free = free[k];
    values.push_back(start.*kKnobs[k].field);
  }
  const DescentOptions options{kStartStep, kSmallestStep, kMaxRounds};
  const DescentResult result = coordinate_descent(
      coordinates, std::move(values), options,
      [&](const auto& trial) { return loss(samples, with_knobs(start, trial)); });
  return {with_knobs(start, result.values), result.loss};
}

}  // namespace

ServingFit fit_serving_constants(const std::vector<ServingSample>& samples,
                                 const ServingConstants& start) {
  GPUTCO_REQUIRE(samples.size() >= static_cast<std::size_t>(kMinRows),
                 "fitting the serving constants needs at least " << kMinRows << " rows, got "
                                                                 << samples.size());
  const auto free = identified(samples);
  // The loss has local minima where one roof's efficiency trades against the other's: descend
  // from `start` and from the corners where bandwidth or compute is the efficient one, and
  // keep the best.
  std::vector<ServingConstants> starts(3, start);
  starts[1].bandwidth_efficiency = 0.85;
  starts[1].compute_efficiency = 0.45;
  starts[2].bandwidth_efficiency = 0.5;
  starts[2].compute_efficiency = 0.85;
  std::pair<ServingConstants, double> best{start, std::numeric_limits<double>::infinity()};
  for (const auto& s : starts) {
    const auto result = descend(samples, s, free);
    if (result.second < best.second - 1e-12) best = result;
  }
  ServingFit fit;
  fit.constants = best.first;
  fit.constants.calibrated = true;
  fit.rows = static_cast<int>(samples.size());
  fit.mape = serving_mape(samples, fit.constants);
  return fit;
}

double serving_loo_mape(const std::vector<ServingSample>& samples, const ServingConstants& start) {
  double sum = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::vector<ServingSample> rest;
    for (std::size_t j = 0; j < samples.size(); ++j) {
      if (j != i) rest.push_back(samples[j]);
    }
    // Warm start: one descent from the constants of the whole set's fit.
    const auto result = descend(rest, start, identified(rest));
    sum += std::abs(predict_serving(samples[i], result.first) / samples[i].measured - 1.0);
  }
  return sum / static_cast<double>(samples.size());
}

}  // namespace gputco
