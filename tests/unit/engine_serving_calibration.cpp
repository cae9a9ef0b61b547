// The serving constants compiled into engine/serving/serving_profile.cpp are those the fit on the
// measured rows gives (tests/data/reference/serving_measured.csv with serving_configs.csv);
// the in-sample, leave-one-out and held-out errors (serving_validation.csv, never fitted) stay
// within bounds set just above today's figures. scripts/calibrate-serving runs these tests
// with GPUTCO_CALIBRATION_VERBOSE=1 to print every row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/serving/serving_calibration.hpp"
#include "tests/support/serving_data.hpp"

namespace gputco {
namespace {

bool verbose() {
  return std::getenv("GPUTCO_CALIBRATION_VERBOSE") != nullptr;
}

/// |estimate / measured - 1| of a row, or nullopt when the model refuses it.
std::optional<double> relative_error(const ServingSample& s, const ServingConstants& c) {
  try {
    return std::abs(predict_serving(s, c) / s.measured - 1.0);
  } catch (const EngineError&) {
    return std::nullopt;
  }
}

void print_row(const test::ServingRow& row) {
  const ServingSample& s = row.sample;
  std::printf("  %-4s %-13s %-13s %-15s %-6s %-22s x%-2d ", row.id.c_str(), row.use.c_str(),
              to_string(s.request.engine).c_str(), s.request.model.id.c_str(),
              s.request.quant.id.c_str(), s.device.id.c_str(), s.count);
  if (!row.estimable) {
    std::printf("measured %10.2f  not estimated: %s\n", s.measured, row.note.c_str());
    return;
  }
  try {
    const ServingCapacity c = serving_capacity(s.request, s.device, s.count, s.layout, s.goal);
    const double estimate = predict_serving(s, fitted_serving_constants());
    std::printf("TP%dxPP%d b%-5d %-14s %-26s measured %10.2f estimated %10.2f %+6.1f %%", c.tp,
                c.pp, c.batch_per_replica, to_string(c.bound).c_str(), to_string(s.metric).c_str(),
                s.measured, estimate, 100 * (estimate / s.measured - 1));
    // The step of the operating point, ms: GEMMs, attention, communication, fixed; the
    // prefill its replacing prompts add per step.
    const double prefill_ms = c.batch_per_replica * static_cast<double>(s.request.input_tokens) /
                              s.request.output_tokens * c.prefill_ms_per_token;
    std::printf("  step %.1f = gemm %.1f + attn %.1f + comm %.1f + fixed %.1f; prefill %.1f\n",
                c.step.total_s * 1e3, c.step.weights_s * 1e3, c.step.attention_s * 1e3,
                c.step.communication_s * 1e3, c.step.fixed_s * 1e3, prefill_ms);
  } catch (const EngineError& e) {
    std::printf("refused: %s\n", e.what());
  }
}

/// Median and share within 25 % of the relative errors (a refused row counts as missed).
struct Spread {
  double median = 0;
  double within_25 = 0;
  std::size_t rows = 0;
};

Spread spread(std::vector<double> errors) {
  Spread s;
  s.rows = errors.size();
  if (errors.empty()) return s;
  std::sort(errors.begin(), errors.end());
  s.median = errors.size() % 2 == 1
                 ? errors[errors.size() / 2]
                 : 0.5 * (errors[errors.size() / 2 - 1] + errors[errors.size() / 2]);
  const auto within =
      std::count_if(errors.begin(), errors.end(), [](double e) { return e <= 0.25; });
  s.within_25 = static_cast<double>(within) / static_cast<double>(errors.size());
  return s;
}

TEST(ServingCalibration, compiledConstantsAreTheFitOfTheMeasuredRows) {
  const auto samples = test::fitted_serving_samples();
  ASSERT_EQ(samples.size(), 26u);  // 20 rows + T14-T19, Llama 4's 1000/1000 cells
  const ServingConstants compiled = fitted_serving_constants();
  const ServingFit fit = fit_serving_constants(samples, compiled);
  const ServingConstants& f = fit.constants;
  std::printf(
      "fitted on %d rows: bandwidth %.6f compute %.6f fixed %.6f ms AMD %.6f MoE read %.6f "
      "tuned %.6f FP4 %.6f TP %.6f MoE compute %.6f; in-sample MAPE %.1f %%\n",
      fit.rows, f.bandwidth_efficiency, f.compute_efficiency, f.step_fixed_s * 1e3, f.amd_factor,
      f.moe_read_factor, f.tuned_factor, f.fp4_factor, f.tp_factor, f.moe_compute_factor,
      100 * fit.mape);
  if (verbose()) {
    for (const auto& row : test::serving_config_rows()) print_row(row);
  }
  const auto expect = [](const char* name, double compiled_value, double fitted_value) {
    EXPECT_NEAR(compiled_value, fitted_value, 1e-3 * std::abs(fitted_value))
        << name << " compiled " << compiled_value << ", refitted " << fitted_value
        << ": run scripts/calibrate-serving and update engine/serving/serving_profile.cpp";
  };
  expect("bandwidth_efficiency", compiled.bandwidth_efficiency, f.bandwidth_efficiency);
  expect("compute_efficiency", compiled.compute_efficiency, f.compute_efficiency);
  expect("step_fixed_s", compiled.step_fixed_s, f.step_fixed_s);
  expect("amd_factor", compiled.amd_factor, f.amd_factor);
  expect("moe_read_factor", compiled.moe_read_factor, f.moe_read_factor);
  expect("moe_compute_factor", compiled.moe_compute_factor, f.moe_compute_factor);
  expect("tuned_factor", compiled.tuned_factor, f.tuned_factor);
  expect("fp4_factor", compiled.fp4_factor, f.fp4_factor);
  expect("tp_factor", compiled.tp_factor, f.tp_factor);
  // Today 15.7 %.
  EXPECT_LE(serving_mape(samples, compiled), 0.16);
}

TEST(ServingCalibration, leaveOneOutErrorStaysWithinItsBound) {
  const auto samples = test::fitted_serving_samples();
  const double loo = serving_loo_mape(samples, fitted_serving_constants());
  std::printf("leave-one-out MAPE %.1f %% over %zu rows\n", 100 * loo, samples.size());
  EXPECT_LE(loo, 0.32);  // today 31.3 %
}

TEST(ServingCalibration, heldOutRowsStayWithinTheirBounds) {
  const ServingConstants c = fitted_serving_constants();
  std::vector<double> all, dense, moe, llama4_rows, earlier_rows;
  std::map<std::string, std::vector<double>> by_source;
  for (const auto& row : test::serving_validation_rows()) {
    if (verbose()) print_row(row);
    const double e = relative_error(row.sample, c).value_or(1e9);
    all.push_back(e);
    (row.sample.request.model.is_moe() ? moe : dense).push_back(e);
    by_source[row.id.substr(0, 1) == "M" ? "MLPerf v5.0" : "TensorRT-LLM perf overview"].push_back(
        e);
    // P205-P275: the Llama 4 cells of the same table, held out since 2026-12-03.
    const bool llama4 = row.id[0] == 'P' && std::stoi(row.id.substr(1)) >= 205;
    (llama4 ? llama4_rows : earlier_rows).push_back(e);
  }
  const Spread s = spread(all);
  std::printf("held-out %zu rows: median error %.1f %%, within 25 %%: %.1f %%\n", s.rows,
              100 * s.median, 100 * s.within_25);
  for (const auto& [name, group] :
       std::map<std::string, std::vector<double>>{{"dense models", dense}, {"MoE models", moe}}) {
    const Spread g = spread(group);
    std::printf("  %-28s %3zu rows: median %.1f %%, within 25 %%: %.1f %%\n", name.c_str(), g.rows,
                100 * g.median, 100 * g.within_25);
  }
  by_source["Llama 4 (P205-P275)"] = llama4_rows;
  by_source["the others (P001-P204, M)"] = earlier_rows;
  for (const auto& [name, group] : by_source) {
    const Spread g = spread(group);
    std::printf("  %-28s %3zu rows: median %.1f %%, within 25 %%: %.1f %%\n", name.c_str(), g.rows,
                100 * g.median, 100 * g.within_25);
  }
  // Today: median 17.9 %, 67.8 % within 25 % (194 of 286 rows): the goal (15 % and
  // 70 %) is not met; dense models meet it, MoE models do not (README's accuracy section).
  EXPECT_LE(s.median, 0.185);
  EXPECT_GE(s.within_25, 0.67);
}

TEST(ServingCalibration, latencyRowsArePrinted) {
  // S12 (TTFT under load), S17 and S31 (per-user speed at a latency target): reported beside
  // the fit, not fitted; bounded loosely so that a change of the latency model shows.
  for (const auto& row : test::serving_config_rows()) {
    if (row.use != "latency") continue;
    print_row(row);
    const double estimate = predict_serving(row.sample, fitted_serving_constants());
    EXPECT_GT(estimate, row.sample.measured / 8) << row.id;
    EXPECT_LT(estimate, row.sample.measured * 8) << row.id;
  }
}

}  // namespace
}  // namespace gputco
