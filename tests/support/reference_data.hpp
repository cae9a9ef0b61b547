// Reference data for the engine tests: the catalog's CSV rows (pricing/data) and the measured
// tables (tests/data/reference), read with libcsv. Test-only I/O: the engine reads no files.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/hardware/calibration.hpp"
#include "engine/hardware/hardware.hpp"

namespace gputco::test {

/// A CSV file as rows of column name -> text. Throws std::runtime_error when unreadable or
/// when a row has a different field count than the header.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path);

/// A model of pricing/data/models.csv. Throws std::runtime_error on an unknown id.
ModelArch reference_model(const std::string& id);

/// A device of pricing/data/devices.csv (the TFLOPS peaks and nvlink_gbps may be empty: 0).
/// Throws std::runtime_error on an unknown id.
Device reference_device(const std::string& id);

/// A quant of pricing/data/quants.csv. Throws std::runtime_error on an unknown id.
Quant reference_quant(const std::string& id);

/// One row of tests/data/reference/decode_measured.csv.
struct MeasuredDecode {
  std::string device_id;
  int count = 1;
  std::string split;  ///< "" for one device, else "layer"
  std::string model_id;
  std::string quant;
  int context_tokens = 0;  ///< tgN: N tokens generated after an empty prompt
  Backend backend = Backend::cuda;
  double decode_tokens_per_s = 0;
  double prefill_tokens_per_s = 0;
  std::string source;
  std::string note;
  /// Used to fit eta and t0: one device, no power limit, not from a superseded build. Rows
  /// whose note starts "superseded build:" name a llama.cpp build that predates their
  /// backend's current single-token kernels (CUDA: December 2023, before CUDA graphs, PR
  /// #6766; Vulkan: b4327 of 2024-12-14, before the mat-vec work of PRs #10991, #12505,
  /// #15355); they are reported, not fitted: the engine estimates current software. Only
  /// rows whose source states the build are marked; the others are fitted.
  bool used_for_decode_fit() const;
  int depth_tokens = 0;  ///< tgN @ dD: D tokens already cached (column depth_tokens; 0 if absent)
  /// Mean cached tokens during the run: D + N / 2 for tgN after D cached tokens.
  int mean_context_tokens() const { return depth_tokens + context_tokens / 2; }
};

/// All rows of tests/data/reference/decode_measured.csv (the calibration set).
std::vector<MeasuredDecode> measured_decode_rows();

/// All rows of tests/data/reference/decode_validation.csv: measured decode speeds from other
/// public sources, on llama.cpp builds of 2025-2026 (each row's source names its build),
/// never used to fit: the check that the constants generalise.
std::vector<MeasuredDecode> validation_decode_rows();

/// The engine's estimate for a measured row (mean context, f16 cache, its backend, its split).
/// decode_tokens_per_s of estimate_speed.
double estimated_decode_tokens_per_s(const MeasuredDecode& row);

/// The decode sample of a row: bytes per step at the row's mean context, device bandwidth
/// and memory class (is_hbm), the model's dense and MoE layers.
DecodeSample decode_sample(const MeasuredDecode& row);

/// The samples of the rows of one backend used for the fit (used_for_decode_fit).
std::vector<DecodeSample> fitted_decode_samples(Backend backend);

/// The constants fitted on the rows of one backend used for the fit, with the compiled CUDA
/// constants as the shape of parameters the family's rows do not identify.
DecodeFit refit_decode(Backend backend);

/// Leave-one-out MAPE (fraction) of the same fit on the same rows (decode_loo_mape).
double loo_decode_mape(Backend backend);

/// The boundary cost fitted on the multi-device layer-split rows of one backend, with the
/// compiled-in constants of that backend.
double refit_split_boundary_s(Backend backend);

/// One row of tests/data/reference/gguf_sizes.csv.
struct GgufSize {
  std::string model_id;
  std::string quant;
  double file_gib = 0;
  std::string source;
};
std::vector<GgufSize> gguf_sizes();

}  // namespace gputco::test
