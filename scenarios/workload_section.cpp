// The [workload] section: what is served and how hard (README "Scenario keys").
#include <fmt/format.h>

#include <boost/property_tree/ptree.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "engine/plan_model/plan_inputs.hpp"
#include "pricing/number_text.hpp"

#include "scenarios/section_reader.hpp"
#include "scenarios/workload_section.hpp"

namespace gputco::scenario_detail {

const std::vector<std::string> kWorkloadKeys = {"model",
                                                "quant",
                                                "context_tokens",
                                                "concurrent_streams",
                                                "hours_per_day",
                                                "days_per_month",
                                                "kv_cache",
                                                "cache_type_k",
                                                "cache_type_v",
                                                "growth_per_month",
                                                "tokens_per_day",
                                                "users",
                                                "overflow",
                                                "overflow_option",
                                                "requests_per_day",
                                                "prompt_tokens_per_request",
                                                "output_tokens_per_request",
                                                "input_tokens_per_output_token",
                                                "availability",
                                                "peak_factor",
                                                "hourly_profile",
                                                "engine",
                                                "tpot_ms",
                                                "ttft_ms",
                                                "user_tokens_per_s"};

namespace {

/// Hours in a day: an hourly profile holds one share per clock hour.
constexpr int kHoursPerDay = 24;

/// The 24 comma-separated shares of `hourly_profile`, each a number >= 0 and <= 1; refuses
/// another count, a share that is not a number, and a sum off 1 by more than 0.1 % (naming the
/// sum). Throws ScenarioError naming the key.
std::vector<double> read_hourly_profile(const SectionReader& r, const std::string& text) {
  std::vector<double> shares;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t first = item.find_first_not_of(" \t");
    const size_t last = item.find_last_not_of(" \t");
    item = first == std::string::npos ? "" : item.substr(first, last - first + 1);
    const auto share = parse_number_text(item);
    if (!share || *share < 0 || *share > 1) {
      r.fail("hourly_profile", fmt::format("share {} is '{}': expected a number from 0 to 1 (24 "
                                           "comma-separated shares of the day's demand, hours "
                                           "0-23)",
                                           shares.size() + 1, item));
    }
    shares.push_back(*share);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (shares.size() != kHoursPerDay) {
    r.fail("hourly_profile", fmt::format("expected 24 comma-separated shares (one per clock hour "
                                         "0-23), got {}",
                                         shares.size()));
  }
  double sum = 0;
  for (double share : shares) sum += share;
  if (std::abs(sum - 1.0) > kProfileSumTolerance) {
    r.fail("hourly_profile",
           fmt::format("the 24 shares sum to {:.4f}; they must sum to 1 (within 0.1 %)", sum));
  }
  return shares;
}

/// peak_factor and hourly_profile (issue #21): one or the other.
void read_peak(const SectionReader& r, Scenario& s) {
  r.number("peak_factor", s.peak_factor, 1, 24,
           "the peak hour's demand over the mean hour of use (1 = even, 3 = a peak hour three "
           "times the mean)");
  if (const auto text = r.text("hourly_profile")) s.hourly_profile = read_hourly_profile(r, *text);
  if (s.peak_factor && !s.hourly_profile.empty()) {
    r.fail("peak_factor",
           "give peak_factor or hourly_profile, not both (the profile's peak is its largest "
           "share x its hours of use)");
  }
  const bool hours_given = s.given.count("workload.hours_per_day") > 0;
  if (!s.hourly_profile.empty()) {
    // The profile's hours with a share are the hours of use.
    int busy = 0;
    for (double share : s.hourly_profile) busy += share > 0 ? 1 : 0;
    if (hours_given && std::abs(s.hours_per_day - busy) > 1e-9) {
      r.fail("hourly_profile",
             fmt::format("has {} hours with a share > 0 but hours_per_day = {:g}: drop "
                         "hours_per_day (the profile sets it) or make them agree",
                         busy, s.hours_per_day));
    }
    s.hours_per_day = busy;
  }
  if (s.peak_factor && *s.peak_factor > s.hours_per_day && *s.peak_factor > 1) {
    r.fail("peak_factor",
           fmt::format("{:g} is above hours_per_day = {:g}: the peak hour would carry more than "
                       "the whole day's demand",
                       *s.peak_factor, s.hours_per_day));
  }
}

}  // namespace

void read_workload_section(const boost::property_tree::ptree& tree, Scenario& s) {
  const std::string section = "workload";
  const auto& child = tree;
  SectionReader r(child, section, s, kWorkloadKeys);
  r.text("model", s.model);
  r.text("quant", s.quant);
  r.integer("context_tokens", s.context_tokens, 1, 10'000'000);
  r.integer("concurrent_streams", s.concurrent_streams, 1, 100'000);
  r.number("hours_per_day", s.hours_per_day, 0, 24, "hours per day");
  r.number("days_per_month", s.days_per_month, 0, 31, "days per month");
  const std::vector<std::string> cache_types = {"f32",  "f16",    "bf16", "q8_0", "q4_0",
                                                "q4_1", "iq4_nl", "q5_0", "q5_1"};
  r.choice("kv_cache", s.kv_cache, cache_types);
  s.cache_type_k = s.cache_type_v = s.kv_cache;
  r.choice("cache_type_k", s.cache_type_k, cache_types);
  r.choice("cache_type_v", s.cache_type_v, cache_types);
  r.fraction("growth_per_month", s.growth_per_month, -0.99, 1,
             "a fraction per month (0.03 for +3 %)");
  // Their own floors (1 token, 0.001 requests a day) are checked below, by name.
  r.number("tokens_per_day", s.tokens_per_day, 0, 1e15, "tokens per day", 0);
  r.number("requests_per_day", s.requests_per_day, 0, 1e12, "requests per day", 0);
  // A vanishing demand (1e-300 tokens a day) is a typo: it would put costs of 1e300 per
  // million tokens in every report.
  if (s.tokens_per_day && *s.tokens_per_day > 0 && *s.tokens_per_day < 1) {
    r.fail("tokens_per_day",
           "expected 0 or at least 1 token per day, got " + *r.text("tokens_per_day"));
  }
  if (s.requests_per_day && *s.requests_per_day > 0 && *s.requests_per_day < 0.001) {
    r.fail("requests_per_day",
           "expected 0 or at least 0.001 requests per day, got " + *r.text("requests_per_day"));
  }
  r.number("prompt_tokens_per_request", s.prompt_tokens_per_request, 0, 1e7,
           "prompt (input) tokens per request");
  r.number("output_tokens_per_request", s.output_tokens_per_request, 1, 1e7,
           "generated (output) tokens per request");
  r.number("input_tokens_per_output_token", s.input_tokens_per_output_token, 0, 1e6,
           "prompt tokens per generated token (4 for 800 in, 200 out)");
  const auto given_here = [&](const char* key) {
    return s.given.count(std::string("workload.") + key) > 0;
  };
  if (s.requests_per_day && s.tokens_per_day) {
    r.fail("requests_per_day",
           "give either requests_per_day (with prompt_tokens_per_request and "
           "output_tokens_per_request) or tokens_per_day, not both");
  }
  if (s.requests_per_day && (!s.prompt_tokens_per_request || !s.output_tokens_per_request)) {
    r.fail("requests_per_day",
           "needs prompt_tokens_per_request and output_tokens_per_request (the tokens of "
           "one request)");
  }
  if (given_here("input_tokens_per_output_token") &&
      (s.prompt_tokens_per_request || s.output_tokens_per_request)) {
    r.fail("input_tokens_per_output_token",
           "the token mix is given twice: drop it, or drop prompt_tokens_per_request and "
           "output_tokens_per_request");
  }
  if (s.prompt_tokens_per_request.has_value() != s.output_tokens_per_request.has_value()) {
    r.fail(s.prompt_tokens_per_request ? "output_tokens_per_request" : "prompt_tokens_per_request",
           "missing: the token mix needs both prompt_tokens_per_request and "
           "output_tokens_per_request");
  }
  r.number("users", s.users, 1, 1e9, "a number of users");
  r.choice("overflow", s.overflow, {"buy", "rent"});
  r.text("overflow_option", s.overflow_option);
  r.choice("availability", s.availability, {"hours_of_use", "24x7"});
  read_peak(r, s);
  r.choice("engine", s.engine, {"llama.cpp", "vllm", "sglang", "tensorrt-llm"});
  // Latency targets (issue #21): a tenth of a millisecond to ten minutes, up to 100,000 tokens/s.
  r.number("tpot_ms", s.tpot_ms, 0.1, 600'000,
           "time per output token at the 99th percentile, ms (50 for 20 tokens/s)");
  r.number("ttft_ms", s.ttft_ms, 0.1, 600'000,
           "time to first token under load at the 99th percentile, ms");
  r.number("user_tokens_per_s", s.user_tokens_per_s, 0.01, 100'000,
           "per-user speed, tokens/s (1 / mean time per output token)");
}

}  // namespace gputco::scenario_detail
