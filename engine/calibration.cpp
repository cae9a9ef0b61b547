#include "engine/calibration.hpp"

#include <algorithm>
#include <cmath>

#include "engine/error.hpp"

namespace gputco {

namespace {

// Fitted by fit_decode_constants on the single-device rows of
// tests/data/reference/decode_measured.csv (selection: MeasuredDecode::used_for_decode_fit in
// tests/support/reference_data.hpp: no power-limited rows, no 2023 builds). Recompute with
// scripts/calibrate-decode; the DecodeCalibration tests fail when these drift.
// MAPE on the fitted rows: cuda 12.7 % (17 rows), metal 7.6 % (39), vulkan 11.1 % (8).
// CUDA misses the 10 % target: the fixed cost differs by GPU generation (Blackwell GeForce
// ~1 ms, A100/H100 ~3 ms per token on the same build), which no device field expresses.
constexpr DecodeConstants kCuda{0.9101, 0.001839, true};
constexpr DecodeConstants kMetal{0.8891, 0.005436, true};
constexpr DecodeConstants kVulkan{0.7937, 0.001075, true};
// Not calibrated: no ROCm or SYCL rows in the measured file. ROCm: llama.cpp's HIP backend
// shares the CUDA kernels but not CUDA graphs, so CUDA's eta with a larger fixed cost.
// SYCL: Intel's backend reaches less of peak than Vulkan does on the same Arc cards.
constexpr DecodeConstants kRocm{0.85, 0.0025, false};
constexpr DecodeConstants kSycl{0.65, 0.0030, false};

// Fitted by fit_split_boundary_s on the two layer-split rows (2 x RTX 4090 on Llama 3 70B
// Q4_K_M, 6 x RTX 3090 on Llama 3 70B F16) with the CUDA constants above.
constexpr double kLayerSplitBoundaryS = 0.002112;

constexpr double kNvlinkHopS = 1.5e-6;
constexpr double kPcieHopS = 6e-6;
constexpr double kPcieGbps = 32;

}  // namespace

DecodeConstants decode_constants(Backend backend) {
  switch (backend) {
    case Backend::cuda:
      return kCuda;
    case Backend::metal:
      return kMetal;
    case Backend::vulkan:
      return kVulkan;
    case Backend::rocm:
      return kRocm;
    case Backend::sycl:
      return kSycl;
  }
  return kVulkan;
}

double layer_split_boundary_s() {
  return kLayerSplitBoundaryS;
}

double tensor_parallel_allreduce_s(const Device& device, int count, double message_bytes) {
  GPUTCO_REQUIRE(count > 0, "device count must be positive, got " << count);
  GPUTCO_REQUIRE(std::isfinite(message_bytes) && message_bytes >= 0,
                 "message bytes must not be negative, got " << message_bytes);
  if (count == 1) return 0;
  const bool nvlink = device.nvlink_gbps > 0;
  const double hop_s = nvlink ? kNvlinkHopS : kPcieHopS;
  const double link_bytes_per_s = (nvlink ? device.nvlink_gbps : kPcieGbps) * 1e9;
  const double hops = 2.0 * (count - 1);
  return hops * (hop_s + message_bytes / count / link_bytes_per_s);
}

double prefill_efficiency(Backend backend) {
  switch (backend) {
    case Backend::cuda:
    case Backend::metal:
      return 0.5;
    case Backend::vulkan:
    case Backend::rocm:
    case Backend::sycl:
      return 0.4;
  }
  return 0.4;
}

DecodeFit fit_decode_constants(const std::vector<DecodeSample>& samples) {
  GPUTCO_REQUIRE(samples.size() >= 2, "a decode fit needs at least 2 rows, got " << samples.size());
  // Normal equations of min sum (a u_i + t0 v_i - 1)^2 with u = x / y, v = 1 / y.
  double suu = 0, suv = 0, svv = 0, su = 0, sv = 0;
  for (const auto& s : samples) {
    GPUTCO_REQUIRE(s.bytes_per_token > 0 && s.bandwidth_gbps > 0 && s.measured_tokens_per_s > 0,
                   "decode sample values must be positive, got bytes "
                       << s.bytes_per_token << ", bandwidth " << s.bandwidth_gbps << " GB/s, speed "
                       << s.measured_tokens_per_s << " tokens/s");
    const double x = s.bytes_per_token / (s.bandwidth_gbps * 1e9);
    const double y = 1.0 / s.measured_tokens_per_s;
    const double u = x / y;
    const double v = 1.0 / y;
    suu += u * u;
    suv += u * v;
    svv += v * v;
    su += u;
    sv += v;
  }
  const double det = suu * svv - suv * suv;
  GPUTCO_REQUIRE(std::abs(det) > 1e-12 * suu * svv,
                 "decode fit is degenerate (all rows have the same bytes/bandwidth)");
  const double a = (su * svv - sv * suv) / det;
  const double t0 = (suu * sv - suv * su) / det;
  GPUTCO_REQUIRE(a >= 1 / 1.2 && t0 >= 0,
                 "decode fit is unphysical: eta " << 1 / a << ", t0 " << t0 << " s");
  DecodeFit fit;
  fit.eta = 1.0 / a;
  fit.t0_s = t0;
  fit.rows = static_cast<int>(samples.size());
  fit.mape = decode_mape(samples, {fit.eta, fit.t0_s, true});
  return fit;
}

double decode_mape(const std::vector<DecodeSample>& samples, const DecodeConstants& c) {
  GPUTCO_REQUIRE(!samples.empty(), "MAPE needs at least one row");
  GPUTCO_REQUIRE(c.eta > 0, "eta must be positive, got " << c.eta);
  double sum = 0;
  for (const auto& s : samples) {
    GPUTCO_REQUIRE(s.bytes_per_token > 0 && s.bandwidth_gbps > 0 && s.measured_tokens_per_s > 0,
                   "decode sample values must be positive");
    const double t = s.bytes_per_token / (c.eta * s.bandwidth_gbps * 1e9) + c.t0_s;
    sum += std::abs(1.0 / t - s.measured_tokens_per_s) / s.measured_tokens_per_s;
  }
  return sum / static_cast<double>(samples.size());
}

double fit_split_boundary_s(const std::vector<SplitSample>& samples) {
  GPUTCO_REQUIRE(!samples.empty(), "a boundary fit needs at least one row");
  double num = 0, den = 0;
  for (const auto& s : samples) {
    GPUTCO_REQUIRE(
        s.predicted_without_boundaries_s > 0 && s.boundaries > 0 && s.measured_tokens_per_s > 0,
        "split sample values must be positive");
    const double y = 1.0 / s.measured_tokens_per_s;
    num += (y - s.predicted_without_boundaries_s) * s.boundaries / (y * y);
    den += static_cast<double>(s.boundaries) * s.boundaries / (y * y);
  }
  return std::max(0.0, num / den);
}

}  // namespace gputco
