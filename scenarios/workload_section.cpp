// The [workload] section: what is served and how hard (README "Scenario keys").
#include <boost/property_tree/ptree.hpp>
#include <string>
#include <vector>

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
                                                "availability"};

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
}

}  // namespace gputco::scenario_detail
