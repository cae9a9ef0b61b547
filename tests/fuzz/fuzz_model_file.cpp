// libFuzzer harness: a model file (a Hugging Face config.json, or a GGUF header when built with
// GPUTCO_FUZZ_GGUF) through read_model_file, and, when it reads, through the fit estimate at
// the model's own format and default context (weights, KV cache, recurrent state, compute
// buffers).
//
// The input is written to a file of this process's private temporary folder (the readers take
// paths). Only the documented exceptions are caught: ScenarioError (ModelFileError is one) and
// EngineError. Any other exception, a crash, a sanitizer report or a memory figure that is NaN,
// infinite or negative is a finding (issue #39: model files whose integers crashed fit or were
// planned as a KV cache of 0).
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/base/error.hpp"
#include "engine/hardware/fit.hpp"
#include "scenarios/model_files.hpp"
#include "scenarios/scenario.hpp"

namespace {

namespace fs = std::filesystem;

#ifdef GPUTCO_FUZZ_GGUF
constexpr const char* kName = "model.gguf";
#else
constexpr const char* kName = "config.json";
#endif

const std::string& input_path() {
  static const std::string path = [] {
    const fs::path dir =
        fs::temp_directory_path() / ("gputco-fuzz-model-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return (dir / kName).string();
  }();
  return path;
}

void require_sane(double value, const char* what) {
  if (!std::isfinite(value) || value < 0) {
    std::fprintf(stderr, "memory figure %s is %g\n", what, value);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(input_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  gputco::ModelFile file;
  try {
    file = gputco::read_model_file(input_path());
  } catch (const gputco::ScenarioError&) {
    return 0;
  } catch (const gputco::EngineError&) {
    return 0;
  }
  try {
    gputco::FitRequest request;
    request.model = file.model;
    request.quant = file.native_quant;
    request.context_tokens = gputco::default_context_tokens(file.model);
    const gputco::MemoryBreakdown m = gputco::estimate_memory(request);
    require_sane(m.weights_gib, "weights_gib");
    require_sane(m.kv_cache_gib, "kv_cache_gib");
    require_sane(m.recurrent_state_gib, "recurrent_state_gib");
    require_sane(m.overhead_gib, "overhead_gib");
    require_sane(m.total_gib, "total_gib");
  } catch (const gputco::EngineError&) {
  }
  return 0;
}
