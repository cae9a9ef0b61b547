#include "engine/hardware/calibration.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "engine/base/error.hpp"

namespace gputco {

namespace {

// Fitted by fit_decode_constants on the single-device rows of
// tests/data/reference/decode_measured.csv (selection: MeasuredDecode::used_for_decode_fit in
// tests/support/reference_data.hpp: no power-limited rows, no rows whose note names a superseded
// llama.cpp build: CUDA of December 2023, Vulkan b4327 of December 2024), with CUDA's
// constants as the shape of the parameters a family's rows do not identify. Recompute with
// scripts/calibrate-decode; the DecodeCalibration tests fail when these drift.
// MAPE on the fitted rows, in-sample / leave-one-out (one eta and a constant t0 per family
// before: cuda 12.7 / 14.2 %, metal 7.6 / 8.0 %, vulkan 11.1 / 13.5 %):
//   cuda   6.6 / 7.9 % (17 rows)
//   metal  7.1 / 7.7 % (39 rows)
//   vulkan 8.8 / 10.8 % (18 rows; 10.2 % on all 19). Llama 2 7B Q4_0 on seven devices
//          (llama.cpp disc. #10879) and, since issue #41, Llama 3.2 3B, DeepSeek-R1-Distill-
//          Qwen 14B and gpt-oss 20B on an RTX 4090, RTX 2080 Ti, RTX 3060 and Radeon AI Pro
//          R9700 of one host (geerlingguy/ai-benchmarks, late-2025 builds), which identify
//          the MoE layer cost too (it comes out below the dense one: gpt-oss's 24 layers run
//          faster on Vulkan than CUDA's ratio says; 7.5 / 11.0 % on the first 7 rows before).
//          The Arc B580 stays the largest miss (+26 %: Intel's Vulkan driver reaches less of
//          peak; one row cannot fit a vendor term). The nineteenth row, a Radeon Pro W7900 on
//          build b4327 (December 2024), decodes at 50 % of its bound where the 2025 builds reach
//          70-82 % on the other cards; it is reported, not fitted.
constexpr DecodeConstants kCuda{0.8278, 0.4413, 34.68e-6, 70.84e-6, true};
// A family without HBM rows takes CUDA's HBM/GDDR ratio (the memory, not the API, limits the
// share); one without MoE rows CUDA's MoE/dense layer-cost ratio (the graph, not the API,
// sets the kernels per layer). Not measured: stated in decode_constants' documentation.
constexpr double hbm_of(double eta) {
  return eta * kCuda.eta_hbm / kCuda.eta;
}
constexpr double moe_of(double layer_s) {
  return layer_s * kCuda.moe_layer_s / kCuda.layer_s;
}
constexpr DecodeConstants kMetal{0.8972, hbm_of(0.8972), 175.36e-6, 224.77e-6, true};
constexpr DecodeConstants kVulkan{0.7385, hbm_of(0.7385), 19.64e-6, 16.33e-6, true};
// Not calibrated: no ROCm or SYCL rows in the measured file. ROCm: llama.cpp's HIP backend
// shares the CUDA kernels but not CUDA graphs: CUDA's eta, a larger fixed cost (2.5 ms per
// step of a 32-layer dense model instead of ~1.1). SYCL: Intel's backend reaches less of peak
// than Vulkan does on the same Arc cards, at ~3 ms per step. HBM and MoE layers in CUDA's
// ratios.
constexpr double kRocmLayerS = 0.0025 / 32;
constexpr double kSyclLayerS = 0.0030 / 32;
constexpr DecodeConstants kRocm{kCuda.eta, hbm_of(kCuda.eta), kRocmLayerS, moe_of(kRocmLayerS),
                                false};
constexpr DecodeConstants kSycl{0.65, hbm_of(0.65), kSyclLayerS, moe_of(kSyclLayerS), false};

// Fitted by fit_split_boundary_s on the two layer-split rows (2 x RTX 4090 on Llama 3 70B
// Q4_K_M, 6 x RTX 3090 on Llama 3 70B F16) with the CUDA constants above: the floor. With the
// per-layer fixed cost (80 layers: 2.8 ms per step) the single-card model already explains
// them: the 2 x RTX 4090 row alone would want +1.7 ms per boundary, the 6 x RTX 3090 F16 row
// -2.8 ms (F16 reaches more of peak than the quantized rows the eta is fitted on).
constexpr double kLayerSplitBoundaryFloorS = 25e-6;
constexpr double kLayerSplitBoundaryS = 25e-6;
// Fitted the same way on the one Vulkan layer-split row (2 x RX 7900 XTX, Llama 2 7B Q4_0,
// 129.8 tokens/s, build b7361) with the Vulkan constants above: an exact fit of one row (1.831
// ms with the Vulkan constants before issue #41).
constexpr double kVulkanLayerSplitBoundaryS = 1.737e-3;

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

double layer_split_boundary_s(Backend backend) {
  return backend == Backend::vulkan ? kVulkanLayerSplitBoundaryS : kLayerSplitBoundaryS;
}

double layer_split_boundary_floor_s() {
  return kLayerSplitBoundaryFloorS;
}

bool nvlink_joins(const Device& device, int group) {
  return group > 1 && device.nvlink_gbps > 0 &&
         (device.nvlink_domain_gpus <= 0 || group <= device.nvlink_domain_gpus);
}

double tensor_parallel_allreduce_s(const Device& device, int count, double message_bytes) {
  GPUTCO_REQUIRE(count > 0, "device count must be positive, got " << count);
  GPUTCO_REQUIRE(std::isfinite(message_bytes) && message_bytes >= 0,
                 "message bytes must not be negative, got " << message_bytes);
  if (count == 1) return 0;
  const bool nvlink = nvlink_joins(device, count);
  const double hop_s = nvlink ? kNvlinkHopS : kPcieHopS;
  // nvlink_gbps is the vendors' sum of both directions (H100 SXM: 900 = 450 each way), while a
  // ring sends each step's share one way: the rate taken here is twice the physical one. The
  // serving constants (engine/serving_calibration) were fitted on communication times computed
  // with it, so halving it means refitting them; until then it stays as fitted.
  const double link_bytes_per_s = (nvlink ? device.nvlink_gbps : kPcieGbps) * 1e9;
  const double hops = 2.0 * (count - 1);
  return hops * (hop_s + message_bytes / count / link_bytes_per_s);
}

double device_send_s(const Device& device, int group, double bytes) {
  GPUTCO_REQUIRE(group > 1, "a send needs a group of 2 devices or more, got " << group);
  GPUTCO_REQUIRE(std::isfinite(bytes) && bytes >= 0, "bytes must not be negative, got " << bytes);
  const bool nvlink = nvlink_joins(device, group);
  const double link_bytes_per_s = (nvlink ? device.nvlink_gbps : kPcieGbps) * 1e9;
  return (nvlink ? kNvlinkHopS : kPcieHopS) + bytes / link_bytes_per_s;
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

bool is_hbm(const Device& device) {
  const std::string& t = device.memory_type;
  return t.size() >= 3 && std::toupper(static_cast<unsigned char>(t[0])) == 'H' &&
         std::toupper(static_cast<unsigned char>(t[1])) == 'B' &&
         std::toupper(static_cast<unsigned char>(t[2])) == 'M';
}

double decode_eta(const DecodeConstants& c, const Device& device) {
  return is_hbm(device) ? c.eta_hbm : c.eta;
}

double decode_fixed_s(const DecodeConstants& c, const ModelArch& model) {
  GPUTCO_REQUIRE(model.layers > 0,
                 "model " << model.id << ": layers must be positive, got " << model.layers);
  return model.layers * (model.is_moe() ? c.moe_layer_s : c.layer_s);
}

double decode_step_s(const DecodeConstants& c, const DecodeSample& s) {
  GPUTCO_REQUIRE(s.bytes_per_token > 0 && s.bandwidth_gbps > 0,
                 "decode sample: bytes and bandwidth must be positive, got bytes "
                     << s.bytes_per_token << ", bandwidth " << s.bandwidth_gbps << " GB/s");
  GPUTCO_REQUIRE(s.dense_layers >= 0 && s.moe_layers >= 0 && s.dense_layers + s.moe_layers > 0,
                 "decode sample: needs layers, got " << s.dense_layers << " dense, " << s.moe_layers
                                                     << " MoE");
  const double eta = s.hbm ? c.eta_hbm : c.eta;
  GPUTCO_REQUIRE(eta > 0, "eta must be positive, got " << eta);
  return s.bytes_per_token / (eta * s.bandwidth_gbps * 1e9) + s.dense_layers * c.layer_s +
         s.moe_layers * c.moe_layer_s;
}

namespace {

constexpr double kMaxEta = 1.2;

// Solves the k x k system a x = b by Gaussian elimination with partial pivoting; false when
// a pivot vanishes against the matrix's scale (a degenerate fit).
bool solve(std::vector<std::vector<double>> a, std::vector<double> b, std::vector<double>& x) {
  const std::size_t k = b.size();
  double scale = 0;
  for (const auto& row : a) {
    for (double v : row) scale = std::max(scale, std::abs(v));
  }
  for (std::size_t c = 0; c < k; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < k; ++r) {
      if (std::abs(a[r][c]) > std::abs(a[p][c])) p = r;
    }
    if (std::abs(a[p][c]) <= 1e-12 * scale) return false;
    std::swap(a[p], a[c]);
    std::swap(b[p], b[c]);
    for (std::size_t r = 0; r < k; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (std::size_t j = c; j < k; ++j) a[r][j] -= f * a[c][j];
      b[r] -= f * b[c];
    }
  }
  x.resize(k);
  for (std::size_t c = 0; c < k; ++c) x[c] = b[c] / a[c][c];
  return true;
}

}  // namespace

DecodeFit fit_decode_constants(const std::vector<DecodeSample>& samples,
                               const DecodeConstants& shape) {
  GPUTCO_REQUIRE(shape.eta > 0 && shape.eta_hbm > 0 && shape.layer_s > 0 && shape.moe_layer_s > 0,
                 "decode fit: the shape needs positive eta, eta_hbm and layer costs");
  bool any_hbm = false, any_other = false, any_dense = false, any_moe = false;
  for (const auto& s : samples) {
    GPUTCO_REQUIRE(s.bytes_per_token > 0 && s.bandwidth_gbps > 0 && s.measured_tokens_per_s > 0 &&
                       s.dense_layers >= 0 && s.moe_layers >= 0 &&
                       s.dense_layers + s.moe_layers > 0,
                   "decode sample values must be positive, got bytes "
                       << s.bytes_per_token << ", bandwidth " << s.bandwidth_gbps << " GB/s, speed "
                       << s.measured_tokens_per_s << " tokens/s, layers " << s.dense_layers
                       << " dense + " << s.moe_layers << " MoE");
    (s.hbm ? any_hbm : any_other) = true;
    any_dense = any_dense || s.dense_layers > 0;
    any_moe = any_moe || s.moe_layers > 0;
  }
  // Columns: the bandwidth terms (1 / eta, 1 / eta_hbm, or one tied by the shape) and the
  // layer terms (layer_s, moe_layer_s, or one tied by the shape).
  const bool split_eta = any_hbm && any_other;
  const bool split_layers = any_dense && any_moe;
  const double hbm_ratio = shape.eta_hbm / shape.eta;          // eta_hbm / eta
  const double moe_ratio = shape.moe_layer_s / shape.layer_s;  // moe_layer_s / layer_s
  const std::size_t k = (split_eta ? 2 : 1) + (split_layers ? 2 : 1);
  GPUTCO_REQUIRE(samples.size() >= k, "a decode fit of " << k << " parameters needs at least " << k
                                                         << " rows, got " << samples.size());
  auto features = [&](const DecodeSample& s) {
    const double x = s.bytes_per_token / (s.bandwidth_gbps * 1e9);
    std::vector<double> f;
    if (split_eta) {
      f.push_back(s.hbm ? 0 : x);
      f.push_back(s.hbm ? x : 0);
    } else {
      f.push_back(x);  // 1 / the eta of the one memory class present
    }
    if (split_layers) {
      f.push_back(s.dense_layers);
      f.push_back(s.moe_layers);
    } else {
      f.push_back(s.dense_layers + s.moe_layers);  // the one layer kind present
    }
    return f;
  };
  // Normal equations of min sum (f_i . theta / y_i - 1)^2.
  std::vector<std::vector<double>> a(k, std::vector<double>(k, 0));
  std::vector<double> b(k, 0);
  for (const auto& s : samples) {
    const double y = 1.0 / s.measured_tokens_per_s;
    std::vector<double> g = features(s);
    for (double& v : g) v /= y;
    for (std::size_t i = 0; i < k; ++i) {
      b[i] += g[i];
      for (std::size_t j = 0; j < k; ++j) a[i][j] += g[i] * g[j];
    }
  }
  std::vector<double> theta;
  GPUTCO_REQUIRE(solve(a, b, theta),
                 "decode fit is degenerate (the rows do not separate bandwidth and layer terms)");
  DecodeConstants c;
  c.calibrated = true;
  std::size_t i = 0;
  if (split_eta) {
    c.eta = 1.0 / theta[i++];
    c.eta_hbm = 1.0 / theta[i++];
  } else {
    const double eta = 1.0 / theta[i++];
    c.eta = any_hbm ? eta / hbm_ratio : eta;
    c.eta_hbm = any_hbm ? eta : eta * hbm_ratio;
  }
  if (split_layers) {
    c.layer_s = theta[i++];
    c.moe_layer_s = theta[i++];
  } else {
    const double l = theta[i++];
    c.layer_s = any_moe ? l / moe_ratio : l;
    c.moe_layer_s = any_moe ? l : l * moe_ratio;
  }
  GPUTCO_REQUIRE(c.eta > 0 && c.eta <= kMaxEta && c.eta_hbm > 0 && c.eta_hbm <= kMaxEta &&
                     c.layer_s >= 0 && c.moe_layer_s >= 0,
                 "decode fit is unphysical: eta " << c.eta << ", eta_hbm " << c.eta_hbm
                                                  << ", layer " << c.layer_s << " s, MoE layer "
                                                  << c.moe_layer_s << " s");
  DecodeFit fit;
  fit.constants = c;
  fit.rows = static_cast<int>(samples.size());
  fit.hbm_fitted = split_eta || (any_hbm && !any_other);
  fit.moe_fitted = split_layers;
  fit.mape = decode_mape(samples, c);
  return fit;
}

double decode_loo_mape(const std::vector<DecodeSample>& samples, const DecodeConstants& shape) {
  GPUTCO_REQUIRE(samples.size() >= 2, "leave-one-out needs at least 2 rows");
  double sum = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::vector<DecodeSample> rest;
    rest.reserve(samples.size() - 1);
    for (std::size_t j = 0; j < samples.size(); ++j) {
      if (j != i) rest.push_back(samples[j]);
    }
    const DecodeFit fit = fit_decode_constants(rest, shape);
    sum += decode_mape({samples[i]}, fit.constants);
  }
  return sum / static_cast<double>(samples.size());
}

double decode_mape(const std::vector<DecodeSample>& samples, const DecodeConstants& c) {
  GPUTCO_REQUIRE(!samples.empty(), "MAPE needs at least one row");
  double sum = 0;
  for (const auto& s : samples) {
    GPUTCO_REQUIRE(s.measured_tokens_per_s > 0, "decode sample: measured speed must be positive");
    const double t = decode_step_s(c, s);
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
  return std::max(kLayerSplitBoundaryFloorS, num / den);
}

}  // namespace gputco
