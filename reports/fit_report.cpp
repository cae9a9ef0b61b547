#include "reports/fit_report.hpp"

#include <fmt/format.h>
#include <cmath>
#include <nlohmann/json.hpp>

namespace gputco {

namespace {

using ordered = nlohmann::ordered_json;

/// A number, or null when it is not finite (never NaN or infinity in the output).
ordered number(double x) {
  return std::isfinite(x) ? ordered(x) : ordered(nullptr);
}

std::string verdict_text(Verdict v) {
  switch (v) {
    case Verdict::fits:
      return "fits";
    case Verdict::tight:
      return "tight";
    case Verdict::does_not_fit:
      return "no fit";
  }
  return "?";
}

}  // namespace

std::string fit_text(const FitRequest& request, const MemoryBreakdown& memory,
                     const std::vector<DeviceFit>& rows) {
  std::string out = fmt::format(
      "{} {}, {} tokens x {} stream(s), KV cache {}\n"
      "memory on one device: weights {:.2f} GiB + KV cache {:.2f} GiB + overhead {:.2f} GiB = "
      "{:.2f} GiB\n\n",
      request.model.id, request.quant.id, request.context_tokens, request.concurrent_streams,
      to_string(request.kv_cache), memory.weights_gib, memory.kv_cache_gib, memory.overhead_gib,
      memory.total_gib);
  out += fmt::format("{:<24} {:>5} {:>11} {:>11} {:<7} {:>10} {:>14}\n", "gpu", "count",
                     "usable GiB", "headroom", "fit", "tok/s", "aggregate tok/s");
  for (const auto& row : rows) {
    const bool fits = row.fit.verdict != Verdict::does_not_fit;
    out += fmt::format("{:<24} {:>5} {:>11.1f} {:>11.1f} {:<7} {:>10} {:>14}\n", row.device.id,
                       row.count, row.fit.usable_gib, row.fit.headroom_gib,
                       verdict_text(row.fit.verdict),
                       fits ? fmt::format("{:.1f}", row.speed.decode_tokens_per_s) : "-",
                       fits ? fmt::format("{:.1f}", row.speed.aggregate_tokens_per_s) : "-");
  }
  return out;
}

std::string fit_json(const FitRequest& request, const MemoryBreakdown& memory,
                     const std::vector<DeviceFit>& rows) {
  ordered j;
  j["model"] = request.model.id;
  j["quant"] = request.quant.id;
  j["context_tokens"] = request.context_tokens;
  j["concurrent_streams"] = request.concurrent_streams;
  j["kv_cache"] = to_string(request.kv_cache);
  j["memory"] = {{"weights_gib", number(memory.weights_gib)},
                 {"kv_cache_gib", number(memory.kv_cache_gib)},
                 {"overhead_gib", number(memory.overhead_gib)},
                 {"total_gib", number(memory.total_gib)}};
  ordered results = ordered::array();
  for (const auto& row : rows) {
    results.push_back({{"gpu", row.device.id},
                       {"count", row.count},
                       {"usable_gib", number(row.fit.usable_gib)},
                       {"required_gib", number(row.fit.memory.total_gib)},
                       {"headroom_gib", number(row.fit.headroom_gib)},
                       {"verdict", to_string(row.fit.verdict)},
                       {"decode_tokens_per_s", number(row.speed.decode_tokens_per_s)},
                       {"aggregate_tokens_per_s", number(row.speed.aggregate_tokens_per_s)}});
  }
  j["results"] = std::move(results);
  return j.dump(2) + "\n";
}

}  // namespace gputco
