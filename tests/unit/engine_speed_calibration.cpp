// The decode constants compiled into engine/calibration.cpp are those a least-squares fit on
// tests/data/reference/decode_measured.csv gives. Prints the constants and the MAPE per
// backend family (scripts/calibrate-decode runs these tests).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "engine/calibration.hpp"
#include "tests/support/reference_data.hpp"

namespace gputco {
namespace {

using test::measured_decode_rows;

bool verbose() {
  return std::getenv("GPUTCO_CALIBRATION_VERBOSE") != nullptr;
}

void print_rows(Backend backend) {
  for (const auto& row : measured_decode_rows()) {
    if (row.backend != backend) continue;
    const double est = test::estimated_decode_tokens_per_s(row);
    std::printf("  %-24s x%d %-14s %-7s tg%-4d measured %7.2f estimated %7.2f  %+6.1f%%%s\n",
                row.device_id.c_str(), row.count, row.model_id.c_str(), row.quant.c_str(),
                row.context_tokens, row.decode_tokens_per_s, est,
                100 * (est / row.decode_tokens_per_s - 1),
                row.used_for_decode_fit() ? "" : "  (not fitted)");
  }
}

void expect_constant(Backend backend, const char* name, double compiled, double fitted,
                     double tolerance) {
  EXPECT_NEAR(compiled, fitted, tolerance)
      << to_string(backend) << ": " << name << " compiled " << compiled << ", refitted " << fitted
      << ": run scripts/calibrate-decode and update engine/calibration.cpp";
}

TEST(DecodeCalibration, constantsMatchTheMeasuredRows) {
  for (Backend backend : {Backend::cuda, Backend::metal, Backend::vulkan}) {
    const DecodeFit fit = test::refit_decode(backend);
    const DecodeConstants& f = fit.constants;
    const DecodeConstants compiled = decode_constants(backend);
    std::printf(
        "%-6s fitted eta %.4f eta_hbm %.4f%s layer %.2f us MoE layer %.2f us%s over %d rows, "
        "MAPE %.1f %%\n"
        "       compiled eta %.4f eta_hbm %.4f layer %.2f us MoE layer %.2f us\n",
        to_string(backend).c_str(), f.eta, f.eta_hbm, fit.hbm_fitted ? "" : " (CUDA ratio)",
        f.layer_s * 1e6, f.moe_layer_s * 1e6, fit.moe_fitted ? "" : " (CUDA ratio)", fit.rows,
        100 * fit.mape, compiled.eta, compiled.eta_hbm, compiled.layer_s * 1e6,
        compiled.moe_layer_s * 1e6);
    if (verbose()) print_rows(backend);
    EXPECT_TRUE(compiled.calibrated) << to_string(backend);
    expect_constant(backend, "eta", compiled.eta, f.eta, 0.002);
    expect_constant(backend, "eta_hbm", compiled.eta_hbm, f.eta_hbm, 0.002);
    expect_constant(backend, "layer_s (us)", compiled.layer_s * 1e6, f.layer_s * 1e6, 0.05);
    expect_constant(backend, "moe_layer_s (us)", compiled.moe_layer_s * 1e6, f.moe_layer_s * 1e6,
                    0.05);
  }
}

// The target is a MAPE of at most 10 % per family, in-sample and out of sample (leave one
// row out, refit, predict it). CUDA and Metal meet it. Vulkan does not (11.1 % in-sample):
// its eight rows are one model (Llama 2 7B Q4_0), so only the device varies, and the Radeon
// Pro W7900 (864 GB/s, 112.8 tokens/s) is slower than the RX 9070 XT (640 GB/s, 137.1) and
// the Arc B580 slower than its bandwidth says: no bandwidth-based model with the device
// table's fields fits both, and per-device factors would only hide it. The Vulkan bounds
// guard against regressions; they are not the target.
TEST(DecodeCalibration, mapePerFamily) {
  struct Bound {
    Backend backend;
    double in_sample, leave_one_out;
  };
  const Bound bounds[] = {
      {Backend::cuda, 0.10, 0.10}, {Backend::metal, 0.10, 0.10}, {Backend::vulkan, 0.115, 0.14}};
  for (const auto& [backend, in_bound, loo_bound] : bounds) {
    const DecodeFit fit = test::refit_decode(backend);
    const double loo = test::loo_decode_mape(backend);
    std::vector<DecodeSample> all_single;
    for (const auto& row : measured_decode_rows()) {
      if (row.backend == backend && row.count == 1) all_single.push_back(test::decode_sample(row));
    }
    const double all_mape = decode_mape(all_single, decode_constants(backend));
    std::printf(
        "%-6s MAPE %.1f %% in-sample, %.1f %% leave-one-out on %d fitted rows; %.1f %% on all "
        "%zu single-device rows\n",
        to_string(backend).c_str(), 100 * fit.mape, 100 * loo, fit.rows, 100 * all_mape,
        all_single.size());
    EXPECT_LE(fit.mape, in_bound) << to_string(backend) << ": MAPE " << 100 * fit.mape
                                  << " %, bound " << 100 * in_bound << " %";
    EXPECT_LE(loo, loo_bound) << to_string(backend) << ": leave-one-out MAPE " << 100 * loo
                              << " %, bound " << 100 * loo_bound << " %";
  }
}

TEST(DecodeCalibration, layerSplitBoundaryMatchesTheMultiCardRows) {
  const double fitted = test::refit_split_boundary_s();
  std::printf("layer split: fitted %.3f ms per boundary (compiled %.3f ms)\n", fitted * 1e3,
              layer_split_boundary_s() * 1e3);
  EXPECT_NEAR(layer_split_boundary_s() * 1e3, fitted * 1e3, 0.005)
      << "boundary compiled " << layer_split_boundary_s() * 1e3 << " ms, refitted " << fitted * 1e3
      << " ms";
}

TEST(DecodeCalibration, uncalibratedFamiliesSaySo) {
  EXPECT_FALSE(decode_constants(Backend::rocm).calibrated);
  EXPECT_FALSE(decode_constants(Backend::sycl).calibrated);
}

}  // namespace
}  // namespace gputco
