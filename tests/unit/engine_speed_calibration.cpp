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

TEST(DecodeCalibration, constantsMatchTheMeasuredRows) {
  for (Backend backend : {Backend::cuda, Backend::metal, Backend::vulkan}) {
    const DecodeFit fit = test::refit_decode(backend);
    const DecodeConstants compiled = decode_constants(backend);
    std::printf(
        "%-6s fitted eta %.4f t0 %.3f ms over %d rows, MAPE %.1f %% "
        "(compiled: eta %.4f t0 %.3f ms)\n",
        to_string(backend).c_str(), fit.eta, fit.t0_s * 1e3, fit.rows, 100 * fit.mape, compiled.eta,
        compiled.t0_s * 1e3);
    if (verbose()) print_rows(backend);
    EXPECT_TRUE(compiled.calibrated) << to_string(backend);
    EXPECT_NEAR(compiled.eta, fit.eta, 0.002)
        << to_string(backend) << ": eta compiled " << compiled.eta << ", refitted " << fit.eta
        << ": run scripts/calibrate-decode and update engine/calibration.cpp";
    EXPECT_NEAR(compiled.t0_s * 1e3, fit.t0_s * 1e3, 0.005)
        << to_string(backend) << ": t0 compiled " << compiled.t0_s * 1e3 << " ms, refitted "
        << fit.t0_s * 1e3 << " ms";
  }
}

// The target is a MAPE of at most 10 % per family. Metal meets it; CUDA (12.7 %) and Vulkan
// (11.1 %) do not: their fixed cost differs by GPU generation (CUDA: Blackwell GeForce ~1 ms,
// A100/H100 ~3 ms; Vulkan: RDNA3 W7900 and Arc B580 slower than RDNA4), which no device field
// expresses and which per-device factors would only hide. These bounds guard against
// regressions; they are not the target.
TEST(DecodeCalibration, mapePerFamily) {
  const std::pair<Backend, double> bounds[] = {
      {Backend::cuda, 0.13}, {Backend::metal, 0.10}, {Backend::vulkan, 0.12}};
  for (const auto& [backend, bound] : bounds) {
    const DecodeFit fit = test::refit_decode(backend);
    std::vector<DecodeSample> all_single;
    for (const auto& row : measured_decode_rows()) {
      if (row.backend == backend && row.count == 1) all_single.push_back(test::decode_sample(row));
    }
    const double all_mape = decode_mape(all_single, decode_constants(backend));
    std::printf("%-6s MAPE %.1f %% on %d fitted rows, %.1f %% on all %zu single-device rows\n",
                to_string(backend).c_str(), 100 * fit.mape, fit.rows, 100 * all_mape,
                all_single.size());
    EXPECT_LE(fit.mape, bound) << to_string(backend) << ": MAPE " << 100 * fit.mape << " %, bound "
                               << 100 * bound << " %";
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
