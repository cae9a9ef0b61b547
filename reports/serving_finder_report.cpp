#include "reports/serving_finder_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "reports/calibration_report.hpp"
#include "reports/json_values.hpp"

namespace gputco {

namespace {

using json_values::number;
using json_values::optional_number;
using json_values::ordered;

constexpr const char* kCostFormula =
    "rate per GPU-hour x 1e6 / (3600 x tokens/s per GPU) (InferenceX; DOMAIN V9)";

std::string goal_text(const ServingGoal& g) {
  if (g.mode != ServingGoal::Mode::latency) return "as many sequences as memory allows";
  std::string t;
  const auto add = [&](const std::string& part) { t += (t.empty() ? "" : ", ") + part; };
  if (g.tpot_p99_ms) add(fmt::format("p99 TPOT <= {} ms", *g.tpot_p99_ms));
  if (g.ttft_p99_ms) add(fmt::format("p99 TTFT <= {} ms", *g.ttft_p99_ms));
  if (g.user_tokens_per_s) add(fmt::format(">= {} tokens/s per user", *g.user_tokens_per_s));
  return t;
}

// Days from `from` to `to` (both YYYY-MM-DD, valid: the catalog checks every date).
int days_before(const std::string& from, const std::string& to) {
  const auto day = [](const std::string& iso) {
    const int y = std::stoi(iso.substr(0, 4));
    const unsigned m = static_cast<unsigned>(std::stoi(iso.substr(5, 2)));
    const unsigned d = static_cast<unsigned>(std::stoi(iso.substr(8, 2)));
    return std::chrono::sys_days{std::chrono::year{y} / std::chrono::month{m} /
                                 std::chrono::day{d}};
  };
  return static_cast<int>((day(to) - day(from)).count());
}

std::string money(const std::optional<double>& x) {
  return x ? fmt::format("{:.3f}", *x) : "-";
}

}  // namespace

std::string serving_finder_text(const ServingRequest& r, const ServingGoal& goal,
                                const std::vector<ServingFinderRow>& rows,
                                const ServingPrices& prices) {
  const EngineProfile profile = engine_profile(r.engine);
  std::string out = fmt::format(
      "serving finder: {} in {} ({} KV cache) with {} {}, {} input / {} output tokens per "
      "request; goal: {}\n",
      r.model.id, r.quant.id, to_string(r.kv_cache), display_name(r.engine), profile.version,
      r.input_tokens, r.output_tokens, goal_text(goal));
  out += fmt::format(
      "cost of a million tokens = {}, at the on-demand rental a plan as of {} takes: the "
      "cheapest observed within {} days, else the cheapest of any date{}; output tokens counted, "
      "input + output beside\n\n",
      kCostFormula, prices.as_of, prices.max_age_days,
      prices.as_of_given
          ? ""
          : " (" + prices.as_of + ": the catalog's newest observation; --as-of to choose)");
  // The device column: 24 wide, or the longest device id (a user's own device may be longer).
  size_t device_width = 24;
  for (const auto& row : rows) device_width = std::max(device_width, row.device.id.size());
  out += fmt::format("{:<{}} {:>4} {:>7} {:>6} {:>10} {:>8} {:>9} {:>9} {:>10} {:>8} {:>9}\n",
                     "device", device_width, "GPUs", "layout", "batch", "out/s/GPU", "tok/s/u",
                     "TPOT p99", "TTFT p99", "rate/GPU-h", "per M", "per M i+o");
  std::vector<const ServingFinderRow*> refused;
  for (const auto& row : rows) {
    if (!row.refusal.empty()) {
      refused.push_back(&row);
      continue;
    }
    const ServingCapacity& c = row.capacity;
    // A box that misses the target serves nobody at it: no cost (issue #43: the best it
    // reaches, batch 1, priced 19,450,532 USD per million tokens).
    const std::string costs =
        c.target_met ? fmt::format("{:>8} {:>9}", money(row.cost_per_million_output_tokens),
                                   money(row.cost_per_million_total_tokens))
                     : fmt::format("{:>18}", "misses the target");
    out += fmt::format(
        "{:<{}} {:>4} {:>7} {:>6} {:>10.0f} {:>8.1f} {:>6.0f} ms {:>6.0f} ms {:>10} {}{}\n",
        row.device.id, device_width, row.count, fmt::format("TP{}xPP{}", c.tp, c.pp),
        c.batch_per_replica, c.output_tokens_per_s_per_gpu, c.per_user_tokens_per_s, c.tpot_p99_ms,
        c.ttft_p99_ms,
        row.rate_per_gpu_hour ? fmt::format("{:.2f} {}", row.rate_per_gpu_hour->amount,
                                            row.rate_per_gpu_hour->currency)
                              : std::string("-"),
        costs, c.calibration.runs > 0 ? "  measured" : "");
  }
  // The devices whose row rests on the user's measured runs (gputco calibrate).
  bool first = true;
  for (const auto& row : rows) {
    if (!row.refusal.empty() || row.capacity.calibration.runs == 0) continue;
    out += (first ? "\nmeasured:\n" : "") + std::string("  ") + row.device.id + ": " +
           calibration_sentence(row.capacity.calibration) + "\n";
    first = false;
  }
  if (!refused.empty()) {
    out += "\nnot served:\n";
    for (const auto* row : refused) out += "  " + row->device.id + ": " + row->refusal + "\n";
  }
  std::string stale;
  std::string notes;
  for (const auto& row : rows) {
    if (!row.refusal.empty()) continue;
    if (row.rate_stale) {
      stale += fmt::format("  {}: {:.2f} {} {}, {} days old\n", row.device.id,
                           row.rate_per_gpu_hour->amount, row.rate_per_gpu_hour->currency,
                           row.rate_source, days_before(row.rate_observed_on, prices.as_of));
    }
    for (const auto& note : row.rate_notes) notes += "  " + row.device.id + ": " + note + "\n";
  }
  if (!stale.empty()) {
    out += fmt::format("\nStale prices (older than {} days at {}):\n", prices.max_age_days,
                       prices.as_of) +
           stale;
  }
  if (!notes.empty()) out += "\nnotes:\n" + notes;
  return out;
}

std::string serving_finder_json(const ServingRequest& r, const ServingGoal& goal,
                                const std::vector<ServingFinderRow>& rows,
                                const ServingPrices& prices) {
  ordered j;
  j["mode"] = "serving_finder";
  j["model"] = r.model.id;
  j["quant"] = r.quant.id;
  j["kv_cache"] = to_string(r.kv_cache);
  j["engine"] = to_string(r.engine);
  j["engine_version"] = engine_profile(r.engine).version;
  j["input_tokens"] = r.input_tokens;
  j["output_tokens"] = r.output_tokens;
  j["goal"] = {{"mode", goal.mode == ServingGoal::Mode::latency ? "latency" : "max_batch"},
               {"tpot_p99_ms", optional_number(goal.tpot_p99_ms)},
               {"ttft_p99_ms", optional_number(goal.ttft_p99_ms)},
               {"user_tokens_per_s", optional_number(goal.user_tokens_per_s)}};
  j["tokens_counted"] = "output";
  j["cost_formula"] = kCostFormula;
  j["prices"] = {{"as_of", prices.as_of},
                 {"as_of_given", prices.as_of_given},
                 {"max_price_age_days", prices.max_age_days},
                 {"price_basis", "street"}};
  ordered results = ordered::array();
  for (const auto& row : rows) {
    const bool served = row.refusal.empty();
    const ServingCapacity& c = row.capacity;
    const auto when = [&](double x) { return served ? number(x) : ordered(nullptr); };
    ordered o;
    o["gpu"] = row.device.id;
    o["count"] = served ? ordered(row.count) : ordered(nullptr);
    o["tp"] = served ? ordered(c.tp) : ordered(nullptr);
    o["pp"] = served ? ordered(c.pp) : ordered(nullptr);
    o["replicas"] = served ? ordered(c.replicas) : ordered(nullptr);
    o["batch_per_replica"] = served ? ordered(c.batch_per_replica) : ordered(nullptr);
    o["output_tokens_per_s_per_gpu"] = when(c.output_tokens_per_s_per_gpu);
    o["total_tokens_per_s_per_gpu"] = when(c.total_tokens_per_s_per_gpu);
    o["per_user_tokens_per_s"] = when(c.per_user_tokens_per_s);
    o["tpot_p99_ms"] = when(c.tpot_p99_ms);
    o["ttft_p99_ms"] = when(c.ttft_p99_ms);
    o["bound"] = served ? ordered(to_string(c.bound)) : ordered(nullptr);
    o["target_met"] = served ? ordered(c.target_met) : ordered(nullptr);
    o["rate_per_gpu_hour"] = row.rate_per_gpu_hour
                                 ? ordered{{"amount", number(row.rate_per_gpu_hour->amount)},
                                           {"currency", row.rate_per_gpu_hour->currency}}
                                 : ordered(nullptr);
    o["rate_source"] = row.rate_source.empty() ? ordered(nullptr) : ordered(row.rate_source);
    o["rate_observed_on"] =
        row.rate_observed_on.empty() ? ordered(nullptr) : ordered(row.rate_observed_on);
    o["rate_stale"] = row.rate_per_gpu_hour ? ordered(row.rate_stale) : ordered(nullptr);
    o["rate_notes"] = row.rate_notes;
    // Missing the target: no cost (null), as the text says "misses the target".
    const bool priced = served && c.target_met;
    o["cost_per_million_output_tokens"] =
        priced ? optional_number(row.cost_per_million_output_tokens) : ordered(nullptr);
    o["cost_per_million_total_tokens"] =
        priced ? optional_number(row.cost_per_million_total_tokens) : ordered(nullptr);
    o["calibration"] = served && c.calibration.runs > 0
                           ? ordered{{"runs", c.calibration.runs},
                                     {"latest_measured_on", c.calibration.latest_measured_on},
                                     {"method", c.calibration.method}}
                           : ordered(nullptr);
    o["refusal"] = served ? ordered(nullptr) : ordered(row.refusal);
    results.push_back(std::move(o));
  }
  j["results"] = std::move(results);
  return j.dump(2) + "\n";
}

}  // namespace gputco
