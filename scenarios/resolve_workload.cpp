// The workload: the model and its weight format, the context and streams, the hours and days
// of use, the demand and its token mix.
#include "scenarios/resolver.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "engine/fleet/serving_capacity_plan.hpp"

namespace gputco::resolve_detail {

void Resolver::resolve_workload() {
  auto& p = r_.plan_inputs;
  const ResolvedModel resolved_model = resolve_model();
  const ModelArch* model = &resolved_model.model;
  const Quant quant_value = resolve_quant(resolved_model);
  const Quant* quant = &quant_value;
  for (const std::string& note : resolved_model.notes) {
    r_.warnings.push_back(resolved_model.source + ": " + note);
  }
  p.model = *model;
  p.quant = *quant;
  // The user's measured runs of the model (gputco calibrate); the serving model takes those of
  // each option's device and engine.
  p.measured_runs = catalog_.serving_runs(model->id);
  // The default context is capped at the model's own; a context given is checked.
  const int context_tokens = given("workload", "context_tokens")
                                 ? s_.context_tokens
                                 : default_context_tokens(*model, s_.context_tokens);
  if (const std::string why = context_beyond_model_reason(*model, context_tokens); !why.empty()) {
    fail("workload", "context_tokens",
         "context_tokens = " + why + "; lower it or choose a model with a longer context");
  }
  if (const std::string warning = context_scaling_warning(*model, context_tokens);
      !warning.empty()) {
    r_.warnings.push_back(warning);
  }
  if (s_.prompt_tokens_per_request && s_.output_tokens_per_request &&
      *s_.prompt_tokens_per_request + *s_.output_tokens_per_request > context_tokens) {
    fail("workload", "prompt_tokens_per_request",
         fmt::format("a request of {} prompt + {} output tokens does not fit in "
                     "context_tokens = {} (each stream holds one request's tokens)",
                     *s_.prompt_tokens_per_request, *s_.output_tokens_per_request, context_tokens));
  }
  p.workload.context_tokens = context_tokens;
  p.workload.concurrent_streams = s_.concurrent_streams;
  p.workload.hours_per_day = s_.hours_per_day;
  p.workload.days_per_month = s_.days_per_month;
  p.workload.hours_per_month_convention =
      s_.hours_per_month_convention == "720"        ? HoursConvention::h720
      : s_.hours_per_month_convention == "calendar" ? HoursConvention::calendar
                                                    : HoursConvention::h730;
  const bool days_given = given("workload", "days_per_month");
  if (!days_given) {
    p.workload.days_per_month =
        average_hours_per_month(p.workload.hours_per_month_convention) / 24.0;
    p.workload.days_follow_convention =
        p.workload.hours_per_month_convention == HoursConvention::calendar;
  }
  p.workload.growth_per_month = s_.growth_per_month;
  p.workload.tokens_per_day = s_.tokens_per_day;
  p.workload.users = s_.users;
  p.workload.kv_cache =
      KvCacheTypes{*parse_kv_cache_type(s_.cache_type_k), *parse_kv_cache_type(s_.cache_type_v)};
  const std::string from_file =
      resolved_model.native_quant ? "; " + resolved_model.source : std::string();
  text("workload", "model", "Model", model->id, s_.provenance("workload", "model") + from_file);
  text("workload", "quant", "Weight format", quant->id,
       s_.quant.empty() ? "the model file's own format" + from_file : "");
  number("workload", "context_tokens", "Context per stream", context_tokens, "tokens");
  number("workload", "hours_per_day", "Hours of use per day", s_.hours_per_day, "h/day",
         s_.hourly_profile.empty() || given("workload", "hours_per_day")
             ? ""
             : "derived: the hours of hourly_profile with a share > 0");
  resolve_peak();
  resolve_serving_workload();
  p.workload.availability =
      s_.availability == "24x7" ? Availability::around_the_clock : Availability::hours_of_use;
  text("workload", "availability", "Hours the service must be reachable",
       to_string(p.workload.availability),
       s_.availability.empty()
           ? "default: hours_of_use (hours_per_day x days of use; 24x7 for a service reachable "
             "around the clock)"
           : "");
  text("scenario", "hours_per_month_convention", "Hours per month convention",
       s_.hours_per_month_convention,
       given("scenario", "hours_per_month_convention")
           ? ""
           : "default: 730 h (365 x 24 / 12, the cloud providers' month)");
  number("workload", "days_per_month", "Days of use per month", p.workload.days_per_month,
         "days/month",
         days_given ? ""
         : p.workload.days_follow_convention
             ? "default: the days of each calendar month (average shown: 365.25 / 12)"
         : p.workload.hours_per_month_convention == HoursConvention::h720
             ? "default: 720 h per month at 24 h/day (30 days)"
             : "default: 730 h per month at 24 h/day (365 x 24 / 12)");
  number("workload", "growth_per_month", "Demand growth per month", s_.growth_per_month,
         "fraction per month", given("workload", "growth_per_month") ? "" : "default: 0");
  resolve_token_mix();
  if (s_.users) number("workload", "users", "Users", *s_.users, "users");
  text("workload", "kv_cache", "KV cache type (K/V)", to_string(p.workload.kv_cache),
       given("workload", "cache_type_k") || given("workload", "cache_type_v")
           ? "scenario file (cache_type_k, cache_type_v)"
           : "");
}

void Resolver::resolve_peak() {
  auto& w = r_.plan_inputs.workload;
  w.peak_factor = s_.peak_factor.value_or(1.0);
  w.hourly_profile = s_.hourly_profile;
  if (!w.hourly_profile.empty()) {
    std::string shares;
    for (double share : w.hourly_profile) {
      shares += (shares.empty() ? "" : ",") + fmt::format("{:g}", share);
    }
    text("workload", "hourly_profile", "Share of the day's demand by clock hour 0-23", shares);
    return;
  }
  number("workload", "peak_factor", "Peak hour's demand over the mean hour of use", w.peak_factor,
         "ratio",
         s_.peak_factor ? ""
                        : "default: 1 (the demand spread evenly over the hours of use; give "
                          "peak_factor or hourly_profile to size for a peak)");
}

void Resolver::resolve_serving_workload() {
  auto& w = r_.plan_inputs.workload;
  w.prompt_tokens_per_request = s_.prompt_tokens_per_request;
  w.output_tokens_per_request = s_.output_tokens_per_request;
  w.tpot_p99_ms = s_.tpot_ms;
  w.ttft_p99_ms = s_.ttft_ms;
  w.user_tokens_per_s = s_.user_tokens_per_s;
  text("workload", "engine", "Serving engine (the options' default)",
       s_.engine.empty() ? "llama.cpp" : s_.engine,
       s_.engine.empty() ? "default: llama.cpp (the llama.cpp model at concurrent_streams; vllm, "
                           "sglang or tensorrt-llm size options by the serving model)"
                         : "");
  if (s_.tpot_ms) {
    number("workload", "tpot_ms", "Time per output token, 99th percentile (target)", *s_.tpot_ms,
           "ms");
  }
  if (s_.ttft_ms) {
    number("workload", "ttft_ms", "Time to first token under load, 99th percentile (target)",
           *s_.ttft_ms, "ms");
  }
  if (s_.user_tokens_per_s) {
    number("workload", "user_tokens_per_s", "Per-user speed (target, 1 / mean TPOT)",
           *s_.user_tokens_per_s, "tokens/s");
  }
  // Streams in flight per replica where given; never the fleet's (issue #43): an option sized
  // by the serving model runs each replica at the batch its targets allow, and the demand
  // decides how many replicas (engine/fleet/fleet_load.hpp), not one box holding every stream.
  number("workload", "concurrent_streams", "Concurrent streams", s_.concurrent_streams, "streams",
         given("workload", "concurrent_streams") || !s_.requests_per_day
             ? ""
             : "default: 1 (the streams a replica must hold at the context; the demand in "
               "requests sizes the fleet)");
}

void Resolver::require_request_shape() {
  const auto& p = r_.plan_inputs;
  if (p.workload.prompt_tokens_per_request && p.workload.output_tokens_per_request) return;
  for (const auto& o : p.options) {
    if (!sized_by_serving_model(o, p.workload)) continue;
    const std::string why = o.engine != ServingEngine::llama_cpp
                                ? "option '" + o.id + "' runs on " + to_string(o.engine)
                                : std::string("a latency target is stated");
    fail("workload", "prompt_tokens_per_request",
         "missing: " + why +
             ", so its capacity comes from the serving model, which batches requests: set "
             "prompt_tokens_per_request and output_tokens_per_request (the mean request)");
  }
}

void Resolver::resolve_token_mix() {
  auto& w = r_.plan_inputs.workload;
  if (s_.requests_per_day) {
    w.requests_per_day = *s_.requests_per_day;
    w.tokens_per_day = *s_.requests_per_day * *s_.output_tokens_per_request;
    number("workload", "requests_per_day", "Requests per day in month 1", *s_.requests_per_day,
           "requests/day");
  }
  if (s_.prompt_tokens_per_request && s_.output_tokens_per_request) {
    number("workload", "prompt_tokens_per_request", "Prompt (input) tokens per request",
           *s_.prompt_tokens_per_request, "tokens");
    number("workload", "output_tokens_per_request", "Generated (output) tokens per request",
           *s_.output_tokens_per_request, "tokens");
    w.input_tokens_per_output_token = *s_.prompt_tokens_per_request / *s_.output_tokens_per_request;
    number("workload", "input_tokens_per_output_token", "Input tokens per output token",
           *w.input_tokens_per_output_token, "ratio",
           "derived: prompt_tokens_per_request / output_tokens_per_request");
  } else if (s_.input_tokens_per_output_token) {
    w.input_tokens_per_output_token = *s_.input_tokens_per_output_token;
    number("workload", "input_tokens_per_output_token", "Input tokens per output token",
           *w.input_tokens_per_output_token, "ratio");
  }
  if (w.tokens_per_day) {
    number("workload", "tokens_per_day", "Tokens per day in month 1 (generated, output)",
           *w.tokens_per_day, "tokens/day",
           s_.requests_per_day ? "derived: requests_per_day x output_tokens_per_request" : "");
  }
}

void Resolver::require_api_volume() {
  const auto fail = [&](const std::string&, const std::string& key, const std::string& problem) {
    const int line = s_.line_of("workload", key);
    throw ScenarioError(s_.file, line > 0 ? line : s_.line_of("workload", ""), "[workload] " + key,
                        problem);
  };
  for (const auto& o : s_.options) {
    if (o.kind != "api") continue;
    const auto& w = r_.plan_inputs.workload;
    if (!w.tokens_per_day) {
      fail("workload", "tokens_per_day",
           "missing: option '" + o.id +
               "' is a pay-per-token API: state the volume, requests_per_day with "
               "prompt_tokens_per_request and output_tokens_per_request, or tokens_per_day "
               "with input_tokens_per_output_token");
    }
    if (!w.input_tokens_per_output_token) {
      fail("workload", "input_tokens_per_output_token",
           "missing: option '" + o.id +
               "' is a pay-per-token API and input tokens are billed: set "
               "input_tokens_per_output_token (or prompt_tokens_per_request and "
               "output_tokens_per_request)");
    }
    return;
  }
}

}  // namespace gputco::resolve_detail
