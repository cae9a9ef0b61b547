// The decode constants compiled into engine/hardware/calibration.cpp are those a least-squares fit
// on tests/data/reference/decode_measured.csv gives. Prints the constants and the MAPE per backend
// family (scripts/calibrate-decode runs these tests).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "engine/base/error.hpp"
#include "engine/hardware/calibration.hpp"
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
                row.count > 1               ? "  (layer-split boundary fit)"
                : row.used_for_decode_fit() ? ""
                                            : "  (not fitted)");
  }
}

void expect_constant(Backend backend, const char* name, double compiled, double fitted,
                     double tolerance) {
  EXPECT_NEAR(compiled, fitted, tolerance)
      << to_string(backend) << ": " << name << " compiled " << compiled << ", refitted " << fitted
      << ": run scripts/calibrate-decode and update engine/hardware/calibration.cpp";
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

// The target is a MAPE of at most 10 % per family on the fitted rows, and out of sample
// (leave one row out, refit, predict it). CUDA and Metal meet both. Vulkan meets it in-sample
// (7.5 %) but not out of sample (11.0 %): its seven fitted rows are one model (Llama 2 7B
// Q4_0), so only the device varies, and the Arc B580 decodes slower than its bandwidth says
// (Intel's driver); one row cannot identify a vendor term and per-device factors would only
// hide it. Its leave-one-out bound guards against regressions; it is not the target.
TEST(DecodeCalibration, mapePerFamily) {
  struct Bound {
    Backend backend;
    double in_sample, leave_one_out, all_rows;
  };
  // all_rows: every single-device row with the compiled constants, the rows the fit leaves
  // out included (measured 10.1 %, 7.1 %, 11.4 %); a regression guard, not the target.
  const Bound bounds[] = {{Backend::cuda, 0.10, 0.10, 0.105},
                          {Backend::metal, 0.10, 0.10, 0.10},
                          {Backend::vulkan, 0.10, 0.115, 0.12}};
  for (const auto& [backend, in_bound, loo_bound, all_bound] : bounds) {
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
    EXPECT_LE(all_mape, all_bound) << to_string(backend) << ": MAPE on every row " << 100 * all_mape
                                   << " %, bound " << 100 * all_bound << " %";
  }
}

// The rows left out of the fit as superseded builds are exactly those whose source states an
// old llama.cpp build: the four XiongjieDai rows of December 2023 (CUDA) and the W7900 row
// measured on b4327 (Vulkan). A row marked without a stated build would be cherry-picking.
TEST(DecodeCalibration, onlyRowsWithAStatedOldBuildAreLeftOut) {
  int superseded = 0;
  for (const auto& row : measured_decode_rows()) {
    if (row.note.rfind("superseded build:", 0) != 0) continue;
    ++superseded;
    EXPECT_FALSE(row.used_for_decode_fit()) << row.device_id;
    const bool dated_source = row.source.find("(Dec 2023)") != std::string::npos ||
                              row.source.find("(build ba1cb19c)") != std::string::npos;
    EXPECT_TRUE(dated_source) << row.device_id << ": " << row.source;
  }
  EXPECT_EQ(superseded, 5);
}

TEST(DecodeCalibration, layerSplitBoundaryMatchesTheMultiCardRows) {
  for (const Backend backend : {Backend::cuda, Backend::vulkan}) {
    const double fitted = test::refit_split_boundary_s(backend);
    const double compiled = layer_split_boundary_s(backend);
    std::printf("%-6s layer split: fitted %.3f ms per boundary (compiled %.3f ms)\n",
                to_string(backend).c_str(), fitted * 1e3, compiled * 1e3);
    EXPECT_NEAR(compiled * 1e3, fitted * 1e3, 0.005)
        << to_string(backend) << ": boundary compiled " << compiled * 1e3 << " ms, refitted "
        << fitted * 1e3 << " ms";
  }
  // Backends without multi-card rows take CUDA's (the floor).
  EXPECT_EQ(layer_split_boundary_s(Backend::rocm), layer_split_boundary_s(Backend::cuda));
  EXPECT_EQ(layer_split_boundary_s(Backend::cuda), layer_split_boundary_floor_s());
}

// Rows generated from known constants are fitted back exactly: eta 0.8 (GDDR), 0.4 (HBM),
// 30 us per dense layer, 60 us per MoE layer. A 4 GB step on a 1000 GB/s GDDR card with 32
// dense layers: 4e9 / (0.8 x 1e12) + 32 x 30e-6 = 5.96 ms -> 167.79 tokens/s.
TEST(DecodeCalibration, fitRecoversKnownConstants) {
  const DecodeConstants truth{0.8, 0.4, 30e-6, 60e-6, true};
  const auto sample = [&](double bytes, double gbps, bool hbm, int dense, int moe) {
    DecodeSample s{bytes, gbps, hbm, dense, moe, 0};
    s.measured_tokens_per_s = 1 / decode_step_s(truth, s);
    return s;
  };
  const DecodeSample first = sample(4e9, 1000, false, 32, 0);
  EXPECT_NEAR(first.measured_tokens_per_s, 1 / 5.96e-3, 1e-9);
  const std::vector<DecodeSample> rows{first,
                                       sample(40e9, 1000, false, 80, 0),
                                       sample(4e9, 3350, true, 32, 0),
                                       sample(6e9, 2039, true, 32, 0),
                                       sample(2.5e9, 1792, false, 0, 24),
                                       sample(3.5e9, 1792, false, 0, 36)};
  const DecodeFit fit = fit_decode_constants(rows, decode_constants(Backend::cuda));
  EXPECT_NEAR(fit.constants.eta, 0.8, 1e-9);
  EXPECT_NEAR(fit.constants.eta_hbm, 0.4, 1e-9);
  EXPECT_NEAR(fit.constants.layer_s, 30e-6, 1e-12);
  EXPECT_NEAR(fit.constants.moe_layer_s, 60e-6, 1e-12);
  EXPECT_TRUE(fit.hbm_fitted && fit.moe_fitted);
  EXPECT_NEAR(fit.mape, 0, 1e-9);
  // Every row left out is predicted exactly: each kind keeps a row.
  EXPECT_NEAR(decode_loo_mape(rows, decode_constants(Backend::cuda)), 0, 1e-9);
  // Without HBM and MoE rows, those two follow the shape's ratios (here 0.5 and 2).
  const DecodeConstants shape{1, 0.5, 1e-6, 2e-6, true};
  const DecodeFit gddr_dense =
      fit_decode_constants({rows[0], rows[1]}, shape);  // eta 0.8, 30 us identified
  EXPECT_NEAR(gddr_dense.constants.eta_hbm, 0.4, 1e-9);
  EXPECT_NEAR(gddr_dense.constants.moe_layer_s, 60e-6, 1e-12);
  EXPECT_FALSE(gddr_dense.hbm_fitted || gddr_dense.moe_fitted);
  // Too few rows for the parameters, or rows that do not separate the terms: throws.
  EXPECT_THROW(fit_decode_constants({rows[0]}, shape), EngineError);
  EXPECT_THROW(fit_decode_constants({rows[0], rows[0]}, shape), EngineError);
}

TEST(DecodeCalibration, memoryClassAndLayerCost) {
  Device d = test::reference_device("h100-sxm");  // HBM3
  EXPECT_TRUE(is_hbm(d));
  EXPECT_DOUBLE_EQ(decode_eta(decode_constants(Backend::cuda), d),
                   decode_constants(Backend::cuda).eta_hbm);
  d.memory_type = "hbm2e";
  EXPECT_TRUE(is_hbm(d));
  for (const char* other : {"GDDR6X", "GDDR7", "LPDDR5X", "", "HB"}) {
    d.memory_type = other;
    EXPECT_FALSE(is_hbm(d)) << other;
  }
  const DecodeConstants c{0.8, 0.4, 30e-6, 60e-6, true};
  EXPECT_NEAR(decode_fixed_s(c, test::reference_model("gpt-oss-120b")), 36 * 60e-6, 1e-15);
  EXPECT_NEAR(decode_fixed_s(c, test::reference_model("llama-3.3-70b")), 80 * 30e-6, 1e-15);
}

// Issue #3: gpt-oss 120B on an RTX PRO 6000 was estimated 27 % too fast (248.9 against a
// measured 196.3, llama.cpp disc. #15396) with a per-token fixed cost: its 36 MoE layers (20B:
// 24) run the same expert bytes per layer (4 x 3 x 2880^2 MXFP4) but 1.5x the layers' fixed
// work. Every measured gpt-oss row is now within 10 %.
TEST(DecodeCalibration, gptOssRowsWithinTenPercent) {
  int seen = 0;
  for (const auto& row : measured_decode_rows()) {
    if (row.model_id.rfind("gpt-oss", 0) != 0) continue;
    ++seen;
    const double est = test::estimated_decode_tokens_per_s(row);
    // The Vulkan rows (issue #41: an RTX 4090, RTX 3060 and Radeon AI Pro R9700 of one host)
    // scatter more: the RTX 3060's is +18 %.
    const double bound = row.backend == Backend::vulkan ? 0.20 : 0.10;
    EXPECT_NEAR(est / row.decode_tokens_per_s, 1, bound)
        << row.device_id << " " << row.model_id << ": estimated " << est << ", measured "
        << row.decode_tokens_per_s;
  }
  EXPECT_EQ(seen, 8);
}

TEST(DecodeCalibration, uncalibratedFamiliesSaySo) {
  EXPECT_FALSE(decode_constants(Backend::rocm).calibrated);
  EXPECT_FALSE(decode_constants(Backend::sycl).calibrated);
}

// Held out: rows from other public sources on 2025-2026 builds, never fitted
// (tests/data/reference/decode_validation.csv). Prints every row's estimate and the MAPE per
// backend; the bounds sit just above today's figures, to catch a change that generalises
// worse. ROCm is not calibrated (no ROCm rows in the calibration set): its rows show how far
// the stated ROCm constants are from measurements.
TEST(DecodeValidation, heldOutRowsPerBackend) {
  struct Bound {
    Backend backend;
    double mape;
  };
  // Measured: CUDA 5.0 % (16 rows, DGX Spark, 4 of them at empty context and 12 after 4K to
  // 32K cached tokens: the KV cache term), Vulkan 17.8 % (24; 8.2 % without its one
  // outlier, Qwen3 30B-A3B BF16 on a Strix Halo whose Vulkan driver reports no bf16: 8.2
  // tokens/s where ROCm on the same machine gives 25.1 and the estimate 28.0; the 7 rows of
  // issue #41, NVIDIA cards on Vulkan, 13.5 %), ROCm 8.1 % (9; the RX 7900 XTX of issue #41
  // +13 %: ROCm is not calibrated). Before issue #41's Vulkan rows joined the fit: Vulkan
  // 19.3 % on its first 17 rows (5.1 % without the outlier; 5.9 % now), ROCm 6.6 % on 7.
  const Bound bounds[] = {{Backend::cuda, 0.06}, {Backend::vulkan, 0.185}, {Backend::rocm, 0.085}};
  const auto rows = test::validation_decode_rows();
  ASSERT_GE(rows.size(), 20u);
  for (const auto& [backend, bound] : bounds) {
    double sum = 0;
    int n = 0;
    for (const auto& row : rows) {
      if (row.backend != backend) continue;
      const double est = test::estimated_decode_tokens_per_s(row);
      ASSERT_TRUE(std::isfinite(est) && est > 0) << row.device_id << " " << row.model_id;
      sum += std::abs(est / row.decode_tokens_per_s - 1);
      ++n;
      if (verbose()) {
        std::printf("  %-18s %-14s %-6s tg%-4d @ d%-6d measured %7.2f estimated %7.2f  %+6.1f%%\n",
                    row.device_id.c_str(), row.model_id.c_str(), row.quant.c_str(),
                    row.context_tokens, row.depth_tokens, row.decode_tokens_per_s, est,
                    100 * (est / row.decode_tokens_per_s - 1));
      }
    }
    ASSERT_GT(n, 0) << to_string(backend);
    std::printf("%-6s held-out MAPE %.1f %% on %d rows\n", to_string(backend).c_str(),
                100 * sum / n, n);
    EXPECT_LE(sum / n, bound) << to_string(backend);
  }
}

}  // namespace
}  // namespace gputco
