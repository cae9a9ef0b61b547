#include "scenarios/benchmark_file.hpp"

#include <fmt/format.h>
#include <nettle/sha2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pricing/catalog.hpp"
#include "pricing/csv_table.hpp"
#include "pricing/input_file.hpp"

namespace gputco {

namespace {

using nlohmann::json;

/// Largest benchmark file read: a vLLM result saved with --save-detailed holds every request's
/// token times; 64 MiB is far above that of 10,000 requests.
constexpr std::size_t kMaxBenchmarkFileBytes = std::size_t{64} * 1024 * 1024;
constexpr double kMs = 1000.0;

/// Where a record is read from, for its errors.
struct Place {
  const std::string& file;
  int line;
};

[[noreturn]] void fail(const Place& at, const std::string& field, const std::string& problem) {
  throw BenchmarkFileError(at.file, at.line, field, problem);
}

/// `text` with Python's bare Infinity, -Infinity and NaN (json.dumps of float('inf'), which
/// SGLang's bench_serving writes for request_rate inf) outside strings replaced by null.
std::string without_python_non_numbers(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    for (const char* word : {"-Infinity", "Infinity", "NaN"}) {
      const std::size_t n = std::char_traits<char>::length(word);
      if (text.compare(i, n, word) == 0) {
        out += "null";
        i += n - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

/// The value at a dotted `path` of `o` ("engine.model"), nullptr when absent.
const json* find(const json& o, const std::string& path) {
  const json* at = &o;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot - start);
    if (!at->is_object()) return nullptr;
    const auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
    if (dot == std::string::npos) return at;
    start = dot + 1;
  }
}

/// A number at `path`: nullopt when absent, null, or a text that is not a number (Python's
/// "inf" written as a string); refused when of another type, negative or not finite.
std::optional<double> number(const json& o, const std::string& path, const Place& at) {
  const json* v = find(o, path);
  if (v == nullptr || v->is_null()) return std::nullopt;
  double x = 0;
  if (v->is_number()) {
    x = v->get<double>();
  } else if (v->is_string()) {
    const std::string s = v->get<std::string>();
    try {
      std::size_t used = 0;
      x = std::stod(s, &used);
      if (used != s.size()) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  } else {
    fail(at, path, "expected a number, got " + std::string(v->type_name()));
  }
  if (!std::isfinite(x)) return std::nullopt;
  if (x < 0) fail(at, path, fmt::format("must not be negative, got {}", x));
  return x;
}

/// The first of `paths` that holds a number.
std::optional<double> first_number(const json& o, std::initializer_list<const char*> paths,
                                   const Place& at, std::string* which = nullptr) {
  for (const char* p : paths) {
    if (const auto x = number(o, p, at)) {
      if (which != nullptr) *which = p;
      return x;
    }
  }
  return std::nullopt;
}

double required(const json& o, std::initializer_list<const char*> paths, const Place& at,
                const std::string& what, std::string* which = nullptr) {
  if (const auto x = first_number(o, paths, at, which)) return *x;
  fail(at, *paths.begin(), "missing: the " + what + " is needed to calibrate on the run");
}

/// A text at `path` (a string, or the first string of a list), with the field it came from.
StatedText text(const json& o, const std::string& path) {
  const json* v = find(o, path);
  if (v == nullptr) return {};
  if (v->is_string()) return {v->get<std::string>(), path};
  if (v->is_array() && !v->empty() && (*v)[0].is_string())
    return {(*v)[0].get<std::string>(), path};
  if (v->is_number_integer()) return {std::to_string(v->get<long long>()), path};
  return {};
}

StatedText first_text(const json& o, std::initializer_list<const char*> paths) {
  for (const char* p : paths) {
    StatedText t = text(o, p);
    if (!t.value.empty()) return t;
  }
  return {};
}

int whole(std::optional<double> x) {
  return x ? static_cast<int>(std::lround(*x)) : 0;
}

/// YYYY-MM-DD from the first 8 digits of vLLM's "20250318-101500" or the first 10 characters
/// of an ISO timestamp ("2025-03-18T10:15:00Z"); "" when neither.
std::string date_of(const std::string& stamp) {
  if (stamp.size() >= 10 && stamp[4] == '-' && stamp[7] == '-') return stamp.substr(0, 10);
  if (stamp.size() >= 8 && std::all_of(stamp.begin(), stamp.begin() + 8,
                                       [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return stamp.substr(0, 4) + "-" + stamp.substr(4, 2) + "-" + stamp.substr(6, 2);
  }
  return "";
}

/// The server engine a request backend of vLLM's or SGLang's benchmark names; "" when it names
/// an API rather than an engine ("openai", "openai-chat": any OpenAI-compatible server).
std::string engine_of_backend(const std::string& backend) {
  const auto starts = [&](const char* prefix) { return backend.rfind(prefix, 0) == 0; };
  if (starts("sglang")) return "sglang";
  if (starts("vllm")) return "vllm";
  if (starts("trt") || starts("tensorrt")) return "tensorrt-llm";
  if (starts("llama.cpp") || starts("llamacpp")) return "llama.cpp";
  return "";
}

/// Mean requests in flight by Little's law: requests per second x mean end-to-end latency.
double littles_law(double requests_per_s, double latency_ms) {
  return requests_per_s * latency_ms / kMs;
}

/// The fields vLLM's `--metadata KEY=VALUE` may carry that name the box.
void read_metadata(const json& o, BenchmarkRecord& r, const Place& at) {
  r.device = first_text(o, {"gpu", "device", "hardware", "gpu_type", "accelerator"});
  r.engine_version = first_text(o, {"engine_version", "vllm_version", "sglang_version", "version"});
  r.kv_cache = first_text(o, {"kv_cache_dtype", "kv_cache"});
  r.tp = whole(first_number(o, {"tp", "tensor_parallel_size", "tp_size"}, at));
  r.pp = whole(first_number(o, {"pp", "pipeline_parallel_size", "pp_size"}, at));
  r.gpu_count = whole(first_number(o, {"gpu_count", "num_gpus", "gpus"}, at));
}

/// vLLM's `vllm bench serve --save-result` (vllm/benchmarks/serve.py main_async: result_json)
/// and SGLang's bench_serving JSONL (python/sglang/bench_serving.py benchmark: result), which
/// share most keys: total tokens, completed, duration, output_throughput, request_throughput,
/// mean/p99 TTFT and TPOT in ms; vLLM's mean_e2el_ms (or its latencies list, seconds) and
/// SGLang's mean_e2e_latency_ms and concurrency.
BenchmarkRecord read_serve_result(const json& o, const Place& at, bool sglang) {
  BenchmarkRecord r;
  read_metadata(o, r, at);
  r.model = first_text(o, {"model_id", "model", "tokenizer_id"});
  const std::string backend = text(o, "backend").value;
  if (const std::string e = engine_of_backend(backend); !e.empty()) r.engine = {e, "backend"};
  const double completed = required(o, {"completed"}, at, "number of completed requests");
  if (completed < 1) fail(at, "completed", "no request completed");
  r.requests = static_cast<int>(completed);
  r.input_tokens = required(o, {"total_input_tokens"}, at, "prompt token count") / completed;
  r.output_tokens = required(o, {"total_output_tokens"}, at, "output token count") / completed;
  r.output_tokens_per_s = required(o, {"output_throughput"}, at, "output throughput");
  r.duration_s = required(o, {"duration"}, at, "duration", &r.duration_field);
  r.mean_tpot_ms = number(o, "mean_tpot_ms", at).value_or(0);
  r.mean_ttft_ms = number(o, "mean_ttft_ms", at).value_or(0);
  r.p99_tpot_ms = number(o, "p99_tpot_ms", at).value_or(0);
  r.p99_ttft_ms = number(o, "p99_ttft_ms", at).value_or(0);
  const double rate = number(o, "request_throughput", at).value_or(completed / r.duration_s);
  double latency_ms = first_number(o, {"mean_e2el_ms", "mean_e2e_latency_ms"}, at).value_or(0);
  if (latency_ms == 0) {
    if (const json* list = find(o, "latencies");
        list != nullptr && list->is_array() && !list->empty()) {
      double sum = 0;
      for (const auto& x : *list) {
        if (x.is_number()) sum += x.get<double>();
      }
      latency_ms = sum / static_cast<double>(list->size()) * kMs;
    }
  }
  if (const auto c = number(o, "concurrency", at); sglang && c && *c > 0) {
    r.concurrency = *c;
    r.concurrency_basis = "the benchmark's concurrency (total request time / duration)";
  } else if (latency_ms > 0) {
    r.concurrency = littles_law(rate, latency_ms);
    r.concurrency_basis = "requests per second x mean end-to-end latency (Little's law)";
  } else if (r.mean_ttft_ms > 0 && r.mean_tpot_ms > 0) {
    r.concurrency =
        littles_law(rate, r.mean_ttft_ms + std::max(0.0, r.output_tokens - 1) * r.mean_tpot_ms);
    r.concurrency_basis = "requests per second x (TTFT + (output - 1) x TPOT) (Little's law)";
  } else if (const auto cap = number(o, "max_concurrency", at)) {
    r.concurrency = *cap;
    r.concurrency_basis = "max_concurrency (the client's cap)";
  } else {
    r.concurrency = completed;
    r.concurrency_basis = "every request at once (no cap, no latency in the file)";
  }
  r.measured_on = {date_of(text(o, "date").value), "date"};
  if (r.measured_on.value.empty()) r.measured_on = {};
  return r;
}

/// trtllm-bench --report_json (tensorrt_llm/bench/dataclasses/reporting.py
/// get_statistics_dict): engine, world_info, request_info, performance, streaming_metrics.
BenchmarkRecord read_trtllm(const json& o, const Place& at) {
  BenchmarkRecord r;
  r.model = first_text(o, {"engine.model", "engine.model_path"});
  r.engine = {"tensorrt-llm", "engine"};
  r.engine_version = text(o, "engine.version");
  const std::string quantization = text(o, "engine.quantization").value;
  const std::string dtype = text(o, "engine.dtype").value;
  if (!quantization.empty() && quantization != "None" && quantization != "NO_QUANT") {
    r.quant = {quantization, "engine.quantization"};
  } else if (!dtype.empty()) {
    r.quant = {dtype, "engine.dtype"};
  }
  const std::string kv = text(o, "engine.kv_cache_dtype").value;
  if (!kv.empty() && kv != "None") r.kv_cache = {kv, "engine.kv_cache_dtype"};
  r.tp = whole(number(o, "world_info.tp_size", at));
  r.pp = whole(number(o, "world_info.pp_size", at));
  r.gpu_count = whole(number(o, "world_info.world_size", at));
  r.requests = whole(required(o, {"request_info.num_requests"}, at, "number of requests"));
  r.input_tokens = required(o, {"request_info.avg_input_length"}, at, "mean input length");
  r.output_tokens = required(o, {"request_info.avg_output_length"}, at, "mean output length");
  r.output_tokens_per_s =
      required(o, {"performance.system_output_throughput_tok_s"}, at, "output throughput");
  r.duration_s =
      required(o, {"performance.total_latency_ms"}, at, "duration", &r.duration_field) / kMs;
  r.mean_tpot_ms = number(o, "streaming_metrics.avg_tpot_ms", at).value_or(0);
  r.mean_ttft_ms = number(o, "streaming_metrics.avg_ttft_ms", at).value_or(0);
  r.p99_tpot_ms = number(o, "streaming_metrics.tpot_percentiles.p99", at).value_or(0);
  r.p99_ttft_ms = number(o, "streaming_metrics.ttft_percentiles.p99", at).value_or(0);
  if (const auto c = number(o, "request_info.avg_num_concurrent_requests", at); c && *c > 0) {
    r.concurrency = *c;
    r.concurrency_basis = "request_info.avg_num_concurrent_requests";
  } else {
    r.concurrency = littles_law(number(o, "performance.request_throughput_req_s", at).value_or(0),
                                number(o, "performance.avg_request_latency_ms", at).value_or(0));
    r.concurrency_basis = "requests per second x mean request latency (Little's law)";
  }
  return r;
}

/// A time metric of genai-perf / AIPerf in ms, from its unit.
std::optional<double> milliseconds(const json& o, const std::string& metric,
                                   const std::string& stat, const Place& at) {
  const auto x = number(o, metric + "." + stat, at);
  if (!x) return std::nullopt;
  const std::string unit = text(o, metric + ".unit").value;
  if (unit == "s" || unit == "sec") return *x * kMs;
  if (unit == "us") return *x / kMs;
  if (unit == "ns") return *x / 1e6;
  return *x;  // "ms", the tools' unit for times
}

/// genai-perf's profile_export_genai_perf.json and AIPerf's profile_export_aiperf.json
/// (JsonExportData: each metric {unit, avg, p50, p99, ...}, input_config the run's settings).
BenchmarkRecord read_genai_perf(const json& o, const Place& at) {
  BenchmarkRecord r;
  r.model = first_text(
      o, {"input_config.endpoint.model_names", "input_config.model", "input_config.model_names"});
  r.output_tokens_per_s =
      required(o, {"output_token_throughput.avg"}, at, "output throughput (tokens/sec)");
  r.input_tokens = required(o, {"input_sequence_length.avg"}, at, "mean input length");
  r.output_tokens = required(o, {"output_sequence_length.avg"}, at, "mean output length");
  const double rate = required(o, {"request_throughput.avg"}, at, "request throughput");
  r.mean_ttft_ms = milliseconds(o, "time_to_first_token", "avg", at).value_or(0);
  r.p99_ttft_ms = milliseconds(o, "time_to_first_token", "p99", at).value_or(0);
  r.mean_tpot_ms = milliseconds(o, "inter_token_latency", "avg", at).value_or(0);
  r.p99_tpot_ms = milliseconds(o, "inter_token_latency", "p99", at).value_or(0);
  const double count = first_number(o, {"request_count.avg"}, at).value_or(0);
  r.requests = static_cast<int>(count);
  if (const auto d = number(o, "benchmark_duration.avg", at)) {
    const std::string unit = text(o, "benchmark_duration.unit").value;
    r.duration_s = unit == "ms" ? *d / kMs : *d;
    r.duration_field = "benchmark_duration.avg";
  } else if (count > 0 && rate > 0) {
    r.duration_s = count / rate;
    r.duration_field = "request_count.avg";
  } else {
    fail(at, "benchmark_duration", "missing: the duration is needed to calibrate on the run");
  }
  if (const auto latency = milliseconds(o, "request_latency", "avg", at)) {
    r.concurrency = littles_law(rate, *latency);
    r.concurrency_basis = "requests per second x mean request latency (Little's law)";
  } else if (const auto c = first_number(
                 o, {"input_config.loadgen.concurrency", "input_config.concurrency"}, at)) {
    r.concurrency = *c;
    r.concurrency_basis = "the configured concurrency";
  }
  r.measured_on = {date_of(text(o, "start_time").value), "start_time"};
  if (r.measured_on.value.empty()) r.measured_on = {};
  return r;
}

/// llama.cpp's model_type quant words as the catalog names the quant: "Q4_K - Medium" ->
/// Q4_K_M, "IQ4_XS - 4.25 bpw" -> IQ4_XS, "MXFP4 MoE" -> MXFP4; the last word after the size
/// ("llama 8B Q4_K - Medium").
std::string llama_quant(const std::string& model_type) {
  std::istringstream words(model_type);
  std::vector<std::string> w;
  for (std::string x; words >> x;) w.push_back(x);
  // The type follows the size word ("8B", "30B.A3B", "?B").
  std::size_t i = 0;
  while (i < w.size() && !(w[i].size() >= 2 && w[i].back() == 'B' &&
                           std::isdigit(static_cast<unsigned char>(w[i][0])) != 0)) {
    ++i;
  }
  if (i + 1 >= w.size()) return "";
  std::string q = w[i + 1];
  if (i + 3 < w.size() && w[i + 2] == "-") {
    const std::string size = w[i + 3];
    if (size == "Small") q += "_S";
    if (size == "Medium") q += "_M";
    if (size == "Large") q += "_L";
  }
  return q;
}

/// `llama-bench -o json`: an array of tests (tools/llama-bench json_printer), each with
/// n_prompt, n_gen, n_depth, avg_ns, avg_ts, the model's type, size and parameters, the GPU,
/// the build and test_time. A tg test (n_prompt 0) is one stream's decode, a pp test (n_gen
/// 0) its prefill; a pg test (both) mixes them and is left out.
void read_llama_bench(const json& array, const Place& at, BenchmarkFile& file) {
  int index = 0;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const json& o = array[i];
    const std::string where = fmt::format("[{}]", i);
    if (!o.is_object()) fail(at, where, "expected a test object");
    const Place here{at.file, at.line};
    const double n_prompt = number(o, "n_prompt", here).value_or(0);
    const double n_gen = number(o, "n_gen", here).value_or(0);
    if ((n_prompt > 0) == (n_gen > 0)) continue;  // a pg test, or an empty one
    BenchmarkRecord r;
    r.index = index++;
    r.model = first_text(o, {"model_filename"});
    const std::string type = text(o, "model_type").value;
    if (const std::string q = llama_quant(type); !q.empty()) r.quant = {q, "model_type"};
    r.model_params_b = number(o, "model_n_params", here).value_or(0) / 1e9;
    r.device = text(o, "gpu_info");
    r.engine = {"llama.cpp", "build_commit"};
    if (const auto build = number(o, "build_number", here)) {
      r.engine_version = {fmt::format("b{}", whole(build)), "build_number"};
    }
    r.kv_cache = text(o, "type_k");
    const double ts = required(o, {"avg_ts"}, here, "tokens per second (avg_ts)");
    r.duration_s = required(o, {"avg_ns"}, here, "duration (avg_ns)", &r.duration_field) / 1e9;
    r.duration_field = where + ".avg_ns";
    r.concurrency = 1;
    r.concurrency_basis = "one stream (llama-bench)";
    r.requests = 1;
    if (n_gen > 0) {
      r.output_tokens = n_gen;
      r.input_tokens = std::max(1.0, number(o, "n_depth", here).value_or(0));
      r.output_tokens_per_s = ts;
      r.mean_tpot_ms = ts > 0 ? kMs / ts : 0;
    } else {
      r.input_tokens = n_prompt;
      r.output_tokens = 1;
      r.prefill_tokens_per_s = ts;
    }
    r.measured_on = {date_of(text(o, "test_time").value), "test_time"};
    if (r.measured_on.value.empty()) r.measured_on = {};
    file.records.push_back(r);
  }
  if (file.records.empty()) {
    fail(at, "n_prompt",
         "no pp or tg test: llama-bench's pp (prompt) and tg (generation) tests "
         "are what calibrates; pg tests mix them");
  }
}

/// Our CSV's columns (docs/calibrate.md).
constexpr std::array<const char*, 20> kCsvColumns{"model",
                                                  "quant",
                                                  "gpu",
                                                  "gpu_count",
                                                  "tp",
                                                  "pp",
                                                  "engine",
                                                  "engine_version",
                                                  "kv_cache",
                                                  "input_tokens",
                                                  "output_tokens",
                                                  "concurrency",
                                                  "output_tokens_per_s",
                                                  "mean_tpot_ms",
                                                  "mean_ttft_ms",
                                                  "p99_tpot_ms",
                                                  "p99_ttft_ms",
                                                  "duration_s",
                                                  "requests",
                                                  "measured_on"};
constexpr std::array<const char*, 9> kCsvRequired{
    "model",      "input_tokens", "output_tokens", "concurrency", "output_tokens_per_s",
    "duration_s", "measured_on",  "gpu",           "engine"};

void read_csv(const std::string& text, const std::string& path, BenchmarkFile& file) {
  CsvTable table;
  try {
    table = parse_csv(text, path);
  } catch (const CatalogError& e) {
    throw BenchmarkFileError(path, 0, "", e.what());
  }
  for (const std::string& column : table.header) {
    if (std::find(kCsvColumns.begin(), kCsvColumns.end(), column) == kCsvColumns.end()) {
      fail({path, table.header_line}, column,
           "unknown column (the columns are those of docs/calibrate.md: model, quant, gpu, ...)");
    }
  }
  for (const char* column : kCsvRequired) {
    if (!table.column(column)) fail({path, table.header_line}, column, "missing column");
  }
  int index = 0;
  for (const CsvRow& row : table.rows) {
    const Place at{path, row.line};
    const auto cell = [&](const char* column) -> std::string {
      const auto c = table.column(column);
      if (!c || *c >= row.fields.size()) return "";
      return row.fields[*c];
    };
    const auto value = [&](const char* column, bool needed) -> double {
      const std::string t = cell(column);
      if (t.empty()) {
        if (needed) fail(at, column, "empty: a number is needed");
        return 0;
      }
      double x = 0;
      try {
        std::size_t used = 0;
        x = std::stod(t, &used);
        if (used != t.size()) throw std::invalid_argument(t);
      } catch (const std::exception&) {
        fail(at, column, "'" + t + "' is not a number");
      }
      if (!std::isfinite(x) || x < 0) fail(at, column, "'" + t + "' must be a number >= 0");
      return x;
    };
    BenchmarkRecord r;
    r.index = index++;
    r.line = row.line;
    for (auto [target, column] : {std::pair<StatedText*, const char*>{&r.model, "model"},
                                  {&r.quant, "quant"},
                                  {&r.device, "gpu"},
                                  {&r.engine, "engine"},
                                  {&r.engine_version, "engine_version"},
                                  {&r.kv_cache, "kv_cache"},
                                  {&r.measured_on, "measured_on"}}) {
      const std::string t = cell(column);
      if (!t.empty()) *target = {t, column};
    }
    r.gpu_count = static_cast<int>(value("gpu_count", false));
    r.tp = static_cast<int>(value("tp", false));
    r.pp = static_cast<int>(value("pp", false));
    r.input_tokens = value("input_tokens", true);
    r.output_tokens = value("output_tokens", true);
    r.concurrency = value("concurrency", true);
    r.concurrency_basis = "the file's concurrency (mean requests in flight)";
    r.output_tokens_per_s = value("output_tokens_per_s", true);
    r.mean_tpot_ms = value("mean_tpot_ms", false);
    r.mean_ttft_ms = value("mean_ttft_ms", false);
    r.p99_tpot_ms = value("p99_tpot_ms", false);
    r.p99_ttft_ms = value("p99_ttft_ms", false);
    r.duration_s = value("duration_s", true);
    r.duration_field = "duration_s";
    r.requests = static_cast<int>(value("requests", false));
    file.records.push_back(r);
  }
  if (file.records.empty()) fail({path, table.header_line}, "", "no runs: the file has no rows");
}

/// Which tool wrote the JSON object `o`.
std::optional<BenchmarkFormat> json_format(const json& o) {
  if (!o.is_object()) return std::nullopt;
  if (o.contains("world_info") && o.contains("performance")) return BenchmarkFormat::trtllm_bench;
  const json* tput = find(o, "request_throughput");
  if (o.contains("input_config") || (tput != nullptr && tput->is_object())) {
    return BenchmarkFormat::genai_perf;
  }
  if (!o.contains("output_throughput")) return std::nullopt;
  if (o.contains("total_output_tokens_retokenized") || o.contains("mean_e2e_latency_ms") ||
      o.contains("accept_length")) {
    return BenchmarkFormat::sglang_bench_serving;
  }
  if (o.contains("num_prompts") || o.contains("endpoint_type") || o.contains("date") ||
      o.contains("model_id")) {
    return BenchmarkFormat::vllm_bench_serve;
  }
  return BenchmarkFormat::sglang_bench_serving;
}

BenchmarkRecord read_object(const json& o, BenchmarkFormat format, const Place& at) {
  switch (format) {
    case BenchmarkFormat::vllm_bench_serve:
      return read_serve_result(o, at, false);
    case BenchmarkFormat::sglang_bench_serving:
      return read_serve_result(o, at, true);
    case BenchmarkFormat::trtllm_bench:
      return read_trtllm(o, at);
    case BenchmarkFormat::genai_perf:
      return read_genai_perf(o, at);
    case BenchmarkFormat::llama_bench:
    case BenchmarkFormat::csv:
      break;
  }
  fail(at, "", "internal: not a JSON object format");
}

const char* kKnownFormats =
    "not a benchmark file gputco reads (vllm bench serve --save-result JSON, SGLang "
    "bench_serving JSONL, trtllm-bench --report_json, genai-perf / AIPerf profile export JSON, "
    "llama-bench -o json, or gputco's CSV: docs/calibrate.md)";

}  // namespace

std::string to_string(BenchmarkFormat format) {
  switch (format) {
    case BenchmarkFormat::vllm_bench_serve:
      return "vllm-bench-serve";
    case BenchmarkFormat::sglang_bench_serving:
      return "sglang-bench-serving";
    case BenchmarkFormat::trtllm_bench:
      return "trtllm-bench";
    case BenchmarkFormat::genai_perf:
      return "genai-perf";
    case BenchmarkFormat::llama_bench:
      return "llama-bench";
    case BenchmarkFormat::csv:
      return "csv";
  }
  return "unknown";
}

std::optional<BenchmarkFormat> parse_benchmark_format(const std::string& text) {
  for (BenchmarkFormat f :
       {BenchmarkFormat::vllm_bench_serve, BenchmarkFormat::sglang_bench_serving,
        BenchmarkFormat::trtllm_bench, BenchmarkFormat::genai_perf, BenchmarkFormat::llama_bench,
        BenchmarkFormat::csv}) {
    if (text == to_string(f)) return f;
  }
  if (text == "vllm") return BenchmarkFormat::vllm_bench_serve;
  if (text == "sglang") return BenchmarkFormat::sglang_bench_serving;
  if (text == "trtllm") return BenchmarkFormat::trtllm_bench;
  if (text == "aiperf") return BenchmarkFormat::genai_perf;
  return std::nullopt;
}

std::string sha256_hex(const std::string& bytes) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
  sha256_digest(&ctx, digest.size(), digest.data());
  std::string hex;
  hex.reserve(2 * digest.size());
  for (std::uint8_t b : digest) hex += fmt::format("{:02x}", b);
  return hex;
}

BenchmarkFile read_benchmark_text(const std::string& raw, const std::string& path,
                                  std::optional<BenchmarkFormat> format) {
  BenchmarkFile file;
  file.path = path;
  file.file_name = std::filesystem::path(path).filename().string();
  file.sha256 = sha256_hex(raw);
  const std::size_t start = raw.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (start == std::string::npos) fail({path, 0}, "", "empty file: " + std::string(kKnownFormats));
  const bool looks_json = raw[start] == '{' || raw[start] == '[';
  if (format == BenchmarkFormat::csv || (!format && !looks_json)) {
    if (!format && raw.find("output_tokens_per_s") == std::string::npos) {
      fail({path, 0}, "", kKnownFormats);
    }
    file.format = BenchmarkFormat::csv;
    read_csv(raw, path, file);
    return file;
  }
  const std::string text = without_python_non_numbers(raw);
  // One JSON document, else one per line (JSONL: SGLang's output, vLLM's --append-result).
  std::vector<std::pair<int, json>> documents;
  try {
    documents.emplace_back(0, json::parse(text));
  } catch (const json::parse_error&) {
    std::istringstream lines(text);
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      try {
        documents.emplace_back(number, json::parse(line));
      } catch (const json::parse_error& e) {
        fail({path, number}, "", std::string("not JSON: ") + e.what());
      }
    }
  }
  const json& first = documents.front().second;
  if (first.is_array()) {
    if (format && format != BenchmarkFormat::llama_bench) {
      fail({path, documents.front().first}, "",
           "a JSON array: not a " + to_string(*format) + " file");
    }
    if (!format && (first.empty() || !first[0].is_object() || !first[0].contains("avg_ts"))) {
      fail({path, 0}, "", kKnownFormats);
    }
    file.format = BenchmarkFormat::llama_bench;
    read_llama_bench(first, {path, documents.front().first}, file);
    return file;
  }
  file.format = format ? *format : json_format(first).value_or(BenchmarkFormat::csv);
  if (file.format == BenchmarkFormat::csv || file.format == BenchmarkFormat::llama_bench) {
    fail({path, documents.front().first}, "", kKnownFormats);
  }
  int index = 0;
  for (const auto& [line, o] : documents) {
    if (!o.is_object()) fail({path, line}, "", "expected a JSON object per line");
    BenchmarkRecord r = read_object(o, file.format, {path, line});
    r.index = index++;
    r.line = line;
    file.records.push_back(r);
  }
  return file;
}

BenchmarkFile read_benchmark_file(const std::string& path, std::optional<BenchmarkFormat> format) {
  std::string bytes;
  try {
    bytes = read_input_file(path, kMaxBenchmarkFileBytes, "benchmark file");
  } catch (const InputFileError& e) {
    throw BenchmarkFileError(path, 0, "", e.what());
  }
  return read_benchmark_text(bytes, path, format);
}

}  // namespace gputco
