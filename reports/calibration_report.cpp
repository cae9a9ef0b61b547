#include "reports/calibration_report.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "reports/grouped_number.hpp"
#include "reports/json_values.hpp"

namespace gputco {

namespace {

using json_values::number;
using json_values::ordered;

ordered measured(double x) {
  return x > 0 ? number(x) : ordered(nullptr);
}

}  // namespace

std::string measured_run_line(const MeasuredServingRun& r) {
  std::string box =
      fmt::format("{} {} on {} x {}, {}{}", r.model_id, r.quant, r.gpu_count, r.device_id,
                  display_name(r.engine), r.engine_version.empty() ? "" : " " + r.engine_version);
  if (r.tp > 0) box += fmt::format(", TP{}", r.tp);
  if (r.pp > 1) box += fmt::format(" x PP{}", r.pp);
  if (!r.kv_cache.empty()) box += ", " + r.kv_cache + " KV cache";
  std::string figures;
  if (r.output_tokens_per_s > 0) {
    figures = fmt::format("{} output tokens/s", grouped_number(r.output_tokens_per_s, 1));
    if (r.mean_tpot_ms > 0) figures += fmt::format(", TPOT {:.1f} ms", r.mean_tpot_ms);
    if (r.mean_ttft_ms > 0) figures += fmt::format(", TTFT {} ms", grouped_number(r.mean_ttft_ms));
  } else {
    figures = fmt::format("prefill {} tokens/s", grouped_number(r.prefill_tokens_per_s, 1));
  }
  const std::string tokens =
      r.output_tokens_per_s > 0
          ? fmt::format("{} in / {} out, {:.1f} in flight", grouped_number(r.input_tokens),
                        grouped_number(r.output_tokens), r.concurrency)
          : fmt::format("{} prompt tokens", grouped_number(r.input_tokens));
  return fmt::format("{}{}{}: {}: {} ({}, {} run {})", r.id, r.id.empty() ? "" : "  ", box, tokens,
                     figures, r.measured_on, r.file_name, r.index_in_file + 1);
}

std::string serving_runs_text(const std::vector<MeasuredServingRun>& runs) {
  if (runs.empty()) {
    return "no measured runs stored (gputco calibrate FILE imports a benchmark's result)\n";
  }
  std::string out;
  for (const auto& r : runs) out += measured_run_line(r) + "\n";
  return out;
}

std::string serving_runs_json(const std::vector<MeasuredServingRun>& runs) {
  ordered list = ordered::array();
  for (const auto& r : runs) {
    ordered j;
    j["id"] = r.id;
    j["model"] = r.model_id;
    j["quant"] = r.quant;
    j["kv_cache"] = r.kv_cache.empty() ? ordered(nullptr) : ordered(r.kv_cache);
    j["gpu"] = r.device_id;
    j["gpu_count"] = r.gpu_count;
    j["tp"] = r.tp > 0 ? ordered(r.tp) : ordered(nullptr);
    j["pp"] = r.pp > 0 ? ordered(r.pp) : ordered(nullptr);
    j["engine"] = to_string(r.engine);
    j["engine_version"] = r.engine_version.empty() ? ordered(nullptr) : ordered(r.engine_version);
    j["input_tokens"] = number(r.input_tokens);
    j["output_tokens"] = number(r.output_tokens);
    j["concurrency"] = number(r.concurrency);
    j["output_tokens_per_s"] = measured(r.output_tokens_per_s);
    j["mean_tpot_ms"] = measured(r.mean_tpot_ms);
    j["mean_ttft_ms"] = measured(r.mean_ttft_ms);
    j["p99_tpot_ms"] = measured(r.p99_tpot_ms);
    j["p99_ttft_ms"] = measured(r.p99_ttft_ms);
    j["prefill_tokens_per_s"] = measured(r.prefill_tokens_per_s);
    j["duration_s"] = number(r.duration_s);
    j["requests"] = r.requests;
    j["measured_on"] = r.measured_on;
    j["file"] = r.file_name;
    j["sha256"] = r.file_sha256;
    j["format"] = r.format;
    j["run_in_file"] = r.index_in_file + 1;
    list.push_back(j);
  }
  ordered out;
  out["runs"] = list;
  return out.dump(2) + "\n";
}

}  // namespace gputco
