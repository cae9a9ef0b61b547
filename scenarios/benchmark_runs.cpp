#include "scenarios/benchmark_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "engine/base/error.hpp"
#include "engine/serving/serving_measured.hpp"
#include "pricing/accelerator_names.hpp"
#include "scenarios/dates.hpp"

namespace gputco {

namespace {

/// A model's parameter count a llama-bench file may differ by from the catalog's (GGUF files
/// count a few tensors the catalog's figure rounds away).
constexpr double kParamTolerance = 0.10;
/// Runs of one shape: prompt and output lengths within 5 %, mean in flight within 10 %.
constexpr double kSameTokens = 0.05;
constexpr double kSameConcurrency = 0.10;
constexpr double kDisagreement = 2.0;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

/// The record's error: FILE[:LINE]: field: problem.
[[noreturn]] void refuse(const BenchmarkFile& file, const BenchmarkRecord& r,
                         const std::string& field, const std::string& problem) {
  throw BenchmarkFileError(file.path, r.line, field, problem);
}

/// Most requests in flight a run may state: beyond any engine's batch on any box (vLLM's and
/// SGLang's defaults are 256 to 1,024 sequences per replica), so a larger figure is a slip.
constexpr double kMostConcurrency = 1e6;

/// How far a run's output rate may exceed what Little's law allows at its mean TPOT: 10 %.
/// The file's mean TPOT is a mean over requests, not over tokens, and its requests in flight
/// are themselves a mean (Little's law on the request rate and mean latency, or the tool's
/// figure), so a consistent run can land a few percent above the bound; the contradictions
/// the check is for are several times it (6,000 tokens/s claimed at 64 in flight and 40 ms,
/// a bound of 1,606).
constexpr double kLittleTolerance = 0.10;

/// The most output tokens per second `concurrency` requests in flight emit at a mean time per
/// output token of `tpot_ms`, each request `output_tokens` long (Little's law, L = lambda W:
/// a request emits its n tokens over TTFT + (n - 1) x TPOT, so the output rate lambda x n is
/// at most L x n / ((n - 1) x TPOT)); 0 when the bound does not apply (no TPOT, n <= 1).
double littles_law_most_per_s(double concurrency, double tpot_ms, double output_tokens) {
  if (!(tpot_ms > 0) || !(output_tokens > 1) || !(concurrency > 0)) return 0;
  return concurrency * 1000.0 / tpot_ms * output_tokens / (output_tokens - 1);
}

/// Refuses a record no box could have measured: requests longer than the model's context
/// (its scaled context where one is documented), more requests in flight than the run sent or
/// than kMostConcurrency, an output rate above the box's dense tensor peak (each output
/// token costs at least 2 FLOPs per active parameter: Kaplan et al., Scaling Laws for Neural
/// Language Models, 2020, section 2.1), where the device states a peak, or an output rate
/// more than kLittleTolerance above what its requests in flight emit at its mean TPOT
/// (littles_law_most_per_s), where the file gives a mean TPOT. A p99 TPOT alone bounds
/// nothing: the mean may lie far below it (docs/calibrate.md). Throws BenchmarkFileError
/// naming the field.
void check_physical(const BenchmarkFile& file, const BenchmarkRecord& r, const ModelArch& model,
                    const Device& device, int gpu_count) {
  const int context = std::max(model.max_context, model.max_context_scaled);
  if (context > 0 && r.input_tokens + r.output_tokens > context) {
    refuse(file, r, "input_tokens",
           fmt::format("requests of {:.0f} prompt + {:.0f} output tokens are beyond {}'s context "
                       "of {} tokens: no engine served them",
                       r.input_tokens, r.output_tokens, model.id, context));
  }
  if (r.concurrency > kMostConcurrency || (r.requests > 0 && r.concurrency > r.requests)) {
    refuse(file, r, "concurrency",
           fmt::format("{:.6g} requests in flight on average{}: not a serving run", r.concurrency,
                       r.requests > 0 ? fmt::format(" of {} requests sent", r.requests) : ""));
  }
  const double peak_tflops =
      std::max({device.fp16_tflops, device.fp8_tflops, device.fp4_tflops}) * gpu_count;
  const double active_b = model.active_params_b > 0 ? model.active_params_b : model.params_b;
  // The most output tokens per second the box's peak computes (finite: no rate divides).
  const double most_per_s = active_b > 0 ? peak_tflops * 1e12 / (2 * active_b * 1e9) : 0;
  if (peak_tflops > 0 && active_b > 0 && r.output_tokens_per_s > most_per_s) {
    refuse(file, r, "output_throughput",
           fmt::format("{:.6g} output tokens/s is above the {:.0f} that {} x {}'s dense peak of "
                       "{:g} TFLOPS computes for {} (2 FLOPs per active parameter, {:g} "
                       "billion): not a measurement of this box",
                       r.output_tokens_per_s, most_per_s, gpu_count, device.id, peak_tflops,
                       model.id, active_b));
  }
  const double little_per_s =
      littles_law_most_per_s(r.concurrency, r.mean_tpot_ms, r.output_tokens);
  if (little_per_s > 0 && r.output_tokens_per_s > little_per_s * (1 + kLittleTolerance)) {
    refuse(file, r, "output_throughput",
           fmt::format("{:.6g} output tokens/s is above the {:.0f} that {:.6g} requests in flight "
                       "emit at a mean TPOT of {:.6g} ms (Little's law: in flight / TPOT x "
                       "output / (output - 1), {:.6g} output tokens per request; {:.0f} % "
                       "allowed over it): the throughput, the requests in flight or the TPOT "
                       "is not this run's",
                       r.output_tokens_per_s, little_per_s, r.concurrency, r.mean_tpot_ms,
                       r.output_tokens, kLittleTolerance * 100));
  }
}

/// A value the file states or the flag gives: the file's wins, and a flag that says otherwise
/// is refused by `same`.
struct Chosen {
  std::string value;
  std::string field;  ///< the file's field, or "--flag"
  bool from_file = false;
};

template <typename Same>
Chosen choose(const BenchmarkFile& file, const BenchmarkRecord& r, const StatedText& stated,
              const std::string& flag_value, const std::string& flag, Same same,
              const std::string& what) {
  if (!stated.value.empty()) {
    if (!flag_value.empty() && !same(stated.value, flag_value)) {
      refuse(file, r, stated.field,
             fmt::format("the file says {} '{}', the command line {} '{}': benchmark a run of the "
                         "{} you name, or drop the flag",
                         what, stated.value, flag, flag_value, what));
    }
    return {stated.value, stated.field, true};
  }
  return {flag_value, flag, false};
}

/// The catalog model a file's name is: an id, a Hugging Face id, or a path whose last part is
/// one.
std::optional<ModelArch> catalog_model(const Catalog& catalog, const std::string& name) {
  if (auto m = catalog.model(name)) return m;
  if (auto m = catalog.model_by_repo(name)) return m;
  std::string trimmed = name;
  while (!trimmed.empty() && trimmed.back() == '/') trimmed.pop_back();
  const std::string base = std::filesystem::path(trimmed).filename().string();
  if (!base.empty() && base != name) {
    if (auto m = catalog.model(base)) return m;
  }
  return std::nullopt;
}

/// A weight format as the tools write it, as the catalog names it ("bfloat16" -> BF16,
/// "W4A16_AWQ" -> INT4-AWQ); "" when none.
std::string quant_id(const std::string& stated) {
  const std::string u = upper(stated);
  if (u == "BFLOAT16" || u == "BF16") return "BF16";
  if (u == "FLOAT16" || u == "FP16" || u == "HALF" || u == "F16") return "F16";
  if (u == "FLOAT32" || u == "FP32" || u == "F32") return "F32";
  if (u.rfind("FP8", 0) == 0) return "FP8";
  if (u == "NVFP4" || u == "FP4") return "NVFP4";
  if (u == "MXFP4") return "MXFP4";
  if (u == "W4A16_AWQ" || u == "W4A16" || u == "AWQ" || u == "INT4-AWQ") return "INT4-AWQ";
  return stated;
}

/// A KV cache type as the tools write it, as the CLI names it; "" for the engine's default.
std::string kv_id(const std::string& stated) {
  const std::string l = lower(stated);
  if (l.empty() || l == "auto") return "";
  if (l.rfind("fp8", 0) == 0) return "fp8";
  if (l == "bfloat16" || l == "bf16" || l == "float16" || l == "fp16" || l == "half" ||
      l == "f16") {
    return "f16";
  }
  return l;
}

/// An engine as the tools and people write it, as ServingEngine names it.
std::string engine_id(const std::string& stated) {
  const std::string l = lower(stated);
  if (l == "trt" || l == "trt-llm" || l == "trtllm" || l == "tensorrt_llm" || l == "tensorrt") {
    return "tensorrt-llm";
  }
  if (l == "llamacpp" || l == "llama-cpp" || l == "llama_cpp") return "llama.cpp";
  return l;
}

bool near(double a, double b, double tolerance) {
  return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

}  // namespace

std::string device_chip(const std::string& device_id) {
  const std::string id = lower(device_id);
  std::size_t start = 0;
  while (start <= id.size()) {
    const std::size_t dash = id.find('-', start);
    const std::string part = id.substr(start, dash - start);
    if (std::any_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); })) {
      return id.substr(0, dash);
    }
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  return id;
}

ResolvedBenchmark resolve_benchmark(const BenchmarkFile& file, const BenchmarkFlags& flags,
                                    const Catalog& catalog, const std::string& file_date) {
  ResolvedBenchmark out;
  // A benchmark's GPU name ("NVIDIA H100 80GB HBM3") as the price importers read accelerator
  // names: derived from the catalog's device ids and names (pricing/accelerator_names.hpp).
  std::vector<DeviceNaming> namings;
  for (const Device& d : catalog.devices()) namings.push_back({d.id, d.name});
  const AcceleratorNames accelerator_names(namings);
  const auto same_text = [](const std::string& a, const std::string& b) {
    return lower(a) == lower(b);
  };
  std::optional<ModelArch> flag_model;
  if (!flags.model.empty()) {
    flag_model = catalog_model(catalog, flags.model);
    if (!flag_model) {
      throw BenchmarkFileError(file.path, 0, "--model",
                               "'" + flags.model +
                                   "' is no catalog model (gputco catalog list "
                                   "models)");
    }
  }
  bool noted_date = false, noted_model = false;
  for (const BenchmarkRecord& r : file.records) {
    MeasuredServingRun run;
    run.index_in_file = r.index;
    run.file_name = file.file_name;
    run.file_sha256 = file.sha256;
    run.format = to_string(file.format);

    // The model.
    std::optional<ModelArch> model;
    if (!r.model.value.empty()) {
      model = catalog_model(catalog, r.model.value);
      if (model && flag_model && lower(model->id) != lower(flag_model->id)) {
        refuse(file, r, r.model.field,
               fmt::format("'{}' is the catalog model {}, not {} as --model says: this file "
                           "measured another model",
                           r.model.value, model->id, flag_model->id));
      }
      if (!model && flag_model) {
        if (!noted_model) {
          out.notes.push_back(fmt::format("{}: {} '{}' is no catalog model: taken as {} (--model)",
                                          file.file_name, r.model.field, r.model.value,
                                          flag_model->id));
          noted_model = true;
        }
      }
    }
    if (!model) model = flag_model;
    if (!model) {
      refuse(file, r, r.model.field.empty() ? "model" : r.model.field,
             r.model.value.empty()
                 ? "the file does not name the model: give --model"
                 : "'" + r.model.value + "' is no catalog model: give --model (a catalog id)");
    }
    if (r.model_params_b > 0 && model->params_b > 0 &&
        !near(r.model_params_b, model->params_b, kParamTolerance)) {
      refuse(file, r, "model_n_params",
             fmt::format("the file's model has {:.2f} B parameters, {} has {:.2f} B: this file "
                         "measured another model",
                         r.model_params_b, model->id, model->params_b));
    }
    run.model_id = model->id;

    // The weights.
    StatedText stated_quant = r.quant;
    stated_quant.value = quant_id(stated_quant.value);
    const Chosen q = choose(
        file, r, stated_quant, flags.quant, "--quant",
        [](const std::string& a, const std::string& b) {
          return upper(quant_id(a)) == upper(quant_id(b));
        },
        "weight format");
    if (q.value.empty())
      refuse(file, r, "quant", "the file does not say the weight format: give --quant");
    const auto quant = catalog.quant(q.value);
    if (!quant) {
      refuse(file, r, q.field,
             "'" + q.value + "' is no catalog weight format (gputco catalog list quants)");
    }
    run.quant = quant->id;

    // The device.
    std::string device_id;
    if (!r.device.value.empty()) {
      std::string name = r.device.value;
      int listed = 1;
      for (std::size_t comma = name.find(','); comma != std::string::npos;
           comma = name.find(',', comma + 1)) {
        ++listed;
      }
      name = name.substr(0, name.find(','));
      if (const auto d = catalog.device(name)) {
        device_id = d->id;
      } else if (const auto m = accelerator_names.map(name, "", "", 0)) {
        device_id = m->device_id;
      }
      if (!device_id.empty() && !flags.gpu.empty()) {
        const auto flag_device = catalog.device(flags.gpu);
        if (flag_device && device_chip(flag_device->id) != device_chip(device_id)) {
          refuse(file, r, r.device.field,
                 fmt::format("the file ran on '{}' ({}), --gpu says {}: a device the flags "
                             "contradict",
                             r.device.value, device_id, flag_device->id));
        }
        if (flag_device) device_id = flag_device->id;  // the flag may tell the form factor
      }
      if (device_id.empty() && flags.gpu.empty()) {
        refuse(
            file, r, r.device.field,
            "'" + r.device.value + "' is no catalog device: give --gpu (gputco catalog list gpus)");
      }
      if (r.gpu_count == 0 && listed > 1 && flags.gpu_count == 0) run.gpu_count = listed;
    }
    if (device_id.empty()) device_id = flags.gpu;
    if (device_id.empty()) {
      refuse(file, r, "gpu",
             "the file does not name the GPU: give --gpu (gputco catalog list gpus)");
    }
    const auto device = catalog.device(device_id);
    if (!device) {
      refuse(file, r, "--gpu",
             "'" + device_id + "' is no catalog device (gputco catalog list gpus)");
    }
    run.device_id = device->id;

    // The engine and its release.
    StatedText stated_engine = r.engine;
    stated_engine.value = engine_id(stated_engine.value);
    const Chosen e = choose(
        file, r, stated_engine, engine_id(flags.engine), "--engine",
        [](const std::string& a, const std::string& b) { return engine_id(a) == engine_id(b); },
        "engine");
    if (e.value.empty()) {
      refuse(file, r, "engine",
             "the file does not say which engine served it: give --engine (vllm, sglang, "
             "tensorrt-llm or llama.cpp)");
    }
    const auto engine = parse_serving_engine(e.value);
    if (!engine) {
      refuse(
          file, r, e.field,
          "'" + e.value + "' is no engine gputco models (vllm, sglang, tensorrt-llm, llama.cpp)");
    }
    run.engine = *engine;
    run.engine_version = choose(
                             file, r, r.engine_version, flags.engine_version, "--engine-version",
                             [](const std::string& a, const std::string& b) {
                               return engine_version_matches(b, a) || engine_version_matches(a, b);
                             },
                             "engine release")
                             .value;
    const Chosen kv = choose(file, r, StatedText{kv_id(r.kv_cache.value), r.kv_cache.field},
                             kv_id(flags.kv_cache), "--kv-cache", same_text, "KV cache");
    if (!kv.value.empty() && !parse_kv_cache_type(kv.value)) {
      refuse(file, r, kv.field, "'" + kv.value + "' is no KV cache type (f16, fp8, q8_0, q4_0)");
    }
    run.kv_cache = kv.value;

    // The box.
    const auto number_flag = [&](int stated, const std::string& field, int flag, const char* name) {
      if (stated > 0 && flag > 0 && stated != flag) {
        refuse(file, r, field, fmt::format("the file says {}, {} says {}", stated, name, flag));
      }
      return stated > 0 ? stated : flag;
    };
    run.tp = number_flag(r.tp, "tp", flags.tp, "--tp");
    run.pp = number_flag(r.pp, "pp", flags.pp, "--pp");
    const int count = number_flag(r.gpu_count, "gpu_count", flags.gpu_count, "--count");
    if (count > 0) run.gpu_count = count;
    if (run.gpu_count < 1 || (count == 0 && run.gpu_count == 1)) {
      run.gpu_count = std::max({1, run.gpu_count, std::max(run.tp, 1) * std::max(run.pp, 1)});
    }

    // The figures.
    if (!(r.duration_s > 0)) {
      refuse(file, r, r.duration_field.empty() ? "duration" : r.duration_field,
             "the run lasted 0 seconds: no speed can be measured from it");
    }
    if (!(r.output_tokens_per_s > 0) && !(r.prefill_tokens_per_s > 0)) {
      refuse(file, r, "output_throughput", "the run measured no output throughput");
    }
    if (!(r.input_tokens > 0) || !(r.output_tokens >= 1)) {
      refuse(file, r, "total_output_tokens",
             "the run's requests have no prompt or no output tokens");
    }
    if (!(r.concurrency >= 0.5)) {
      refuse(file, r, "concurrency",
             fmt::format("{:.2f} requests in flight on average: not a serving run", r.concurrency));
    }
    check_physical(file, r, *model, *device, run.gpu_count);
    run.input_tokens = r.input_tokens;
    run.output_tokens = r.output_tokens;
    run.concurrency = std::max(1.0, r.concurrency);
    run.output_tokens_per_s = r.output_tokens_per_s;
    run.mean_tpot_ms = r.mean_tpot_ms;
    run.mean_ttft_ms = r.mean_ttft_ms;
    run.p99_tpot_ms = r.p99_tpot_ms;
    run.p99_ttft_ms = r.p99_ttft_ms;
    run.prefill_tokens_per_s = r.prefill_tokens_per_s;
    run.duration_s = r.duration_s;
    run.requests = r.requests;

    // The date.
    const Chosen day =
        choose(file, r, r.measured_on, flags.measured_on, "--measured-on", same_text, "date");
    run.measured_on = day.value;
    if (run.measured_on.empty()) {
      run.measured_on = file_date;
      if (!noted_date) {
        out.notes.push_back(file.file_name +
                            ": the file is not dated: its runs are dated by its modification "
                            "day, " +
                            file_date + " (--measured-on to say otherwise)");
        noted_date = true;
      }
    }
    if (!parse_date(run.measured_on)) {
      refuse(file, r, day.field.empty() ? "measured_on" : day.field,
             "'" + run.measured_on + "' is not a date YYYY-MM-DD");
    }

    // The serving model must place it: the engine serves the format on the device, the
    // layout divides the box and the weights fit.
    ServingRequest request;
    request.model = *model;
    request.quant = *quant;
    request.engine = run.engine;
    request.backend = default_backend(*device);
    request.engine_version = run.engine_version;
    try {
      MeasuredCalibration published;
      published.constants = engine_profile(run.engine, device->memory_nameplate_gb).constants;
      (void)estimate_run(request, *device, run, published);
    } catch (const EngineError& ex) {
      refuse(file, r, "",
             fmt::format("{} on {} x {}: {}", model->id, run.gpu_count, device->id, ex.what()));
    }
    out.runs.push_back(run);
  }
  return out;
}

std::vector<std::string> disagreeing_runs(const std::vector<MeasuredServingRun>& fresh,
                                          const std::vector<MeasuredServingRun>& stored) {
  std::vector<std::string> problems;
  const auto same_shape = [](const MeasuredServingRun& a, const MeasuredServingRun& b) {
    const ServingLayout la = run_layout(a), lb = run_layout(b);
    return lower(a.model_id) == lower(b.model_id) && lower(a.quant) == lower(b.quant) &&
           lower(a.device_id) == lower(b.device_id) && a.gpu_count == b.gpu_count &&
           la.tp == lb.tp && la.pp == lb.pp && a.engine == b.engine &&
           (a.engine_version.empty() || b.engine_version.empty() ||
            engine_version_matches(a.engine_version, b.engine_version) ||
            engine_version_matches(b.engine_version, a.engine_version)) &&
           a.kv_cache == b.kv_cache && near(a.input_tokens, b.input_tokens, kSameTokens) &&
           near(a.output_tokens, b.output_tokens, kSameTokens) &&
           near(a.concurrency, b.concurrency, kSameConcurrency);
  };
  const auto name = [](const MeasuredServingRun& r) {
    return r.id.empty() ? fmt::format("{} (run {})", r.file_name, r.index_in_file + 1)
                        : fmt::format("{} ({}, run {})", r.id, r.file_name, r.index_in_file + 1);
  };
  const auto compare = [&](const MeasuredServingRun& a, const MeasuredServingRun& b) {
    if (!same_shape(a, b)) return;
    const auto check = [&](double x, double y, const char* field, const char* unit) {
      if (!(x > 0) || !(y > 0)) return false;
      const double ratio = std::max(x, y) / std::min(x, y);
      if (ratio <= kDisagreement) return false;
      problems.push_back(fmt::format(
          "{}: {}: {:.1f} {} is {:.1f} x the {:.1f} of {} at the same model, box, engine, "
          "tokens and concurrency: the runs disagree by more than 2 x, so one of them did not "
          "measure what it says (another model, GPU or setting)",
          name(a), field, x, unit, ratio, y, name(b)));
      return true;
    };
    if (!check(a.output_tokens_per_s, b.output_tokens_per_s, "output_tokens_per_s", "tokens/s")) {
      check(a.mean_tpot_ms, b.mean_tpot_ms, "mean_tpot_ms", "ms");
    }
  };
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) compare(fresh[i], fresh[j]);
    for (const auto& s : stored) {
      if (s.file_sha256 == fresh[i].file_sha256 && s.index_in_file == fresh[i].index_in_file) {
        continue;  // the same run again
      }
      compare(fresh[i], s);
    }
  }
  return problems;
}

}  // namespace gputco
