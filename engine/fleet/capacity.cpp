#include "engine/fleet/capacity.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/units.hpp"

namespace gputco {

double capacity_tokens_per_hour(double aggregate_decode_tokens_per_s, double prefill_tokens_per_s,
                                double input_tokens_per_output_token) {
  if (!(aggregate_decode_tokens_per_s > 0) || !std::isfinite(aggregate_decode_tokens_per_s)) {
    return 0.0;
  }
  // Device-seconds per output token: its decode share plus its prompt tokens' prefill.
  double seconds = 1.0 / aggregate_decode_tokens_per_s;
  if (prefill_tokens_per_s > 0 && std::isfinite(prefill_tokens_per_s) &&
      input_tokens_per_output_token > 0) {
    seconds += input_tokens_per_output_token / prefill_tokens_per_s;
  }
  return kSecondsPerHour / seconds;
}

int prefill_prompt_tokens(const WorkloadInputs& w) {
  double prompt = w.context_tokens;
  if (w.prompt_tokens_per_request) {
    // The stated mean request: the same prompt whether the demand is given in requests or
    // in tokens per day (newcomer3 M2: tokens_per_day fell back to context_tokens).
    prompt = *w.prompt_tokens_per_request;
  } else if (w.tokens_per_day && w.input_tokens_per_output_token && w.requests_per_day &&
             *w.requests_per_day > 0) {
    prompt = *w.tokens_per_day * *w.input_tokens_per_output_token / *w.requests_per_day;
  }
  if (!std::isfinite(prompt)) prompt = w.context_tokens;
  return static_cast<int>(
      std::clamp(std::round(prompt), 1.0, std::max(1.0, static_cast<double>(w.context_tokens))));
}

double base_load(const OptionInputs& o, const WorkloadInputs& w) {
  if (o.kind == OptionKind::api) return 0.0;
  if (!w.tokens_per_day || o.capacity_tokens_per_hour <= 0) return 1.0;
  if (w.hours_per_day <= 0) return 0.0;
  return *w.tokens_per_day / (o.capacity_tokens_per_hour * w.hours_per_day);
}

DailyLoadShape load_shape_of(const WorkloadInputs& w) {
  return daily_load_shape(w.hours_per_day, w.peak_factor, w.hourly_profile);
}

double overflow_units_per_load(const OptionInputs& o, const WorkloadInputs& w) {
  if (!w.tokens_per_day || o.capacity_tokens_per_hour <= 0 ||
      o.overflow_capacity_tokens_per_hour <= 0) {
    return 1.0;
  }
  return o.capacity_tokens_per_hour / o.overflow_capacity_tokens_per_hour;
}

WorkloadInputs at_hours_per_day(const WorkloadInputs& w, double hours_per_day) {
  WorkloadInputs out = w;
  if (out.tokens_per_day && w.hours_per_day > 0) {
    out.tokens_per_day = *w.tokens_per_day * hours_per_day / w.hours_per_day;
  }
  if (out.requests_per_day && w.hours_per_day > 0) {
    out.requests_per_day = *w.requests_per_day * hours_per_day / w.hours_per_day;
  }
  out.hours_per_day = hours_per_day;
  return out;
}

void set_hours_per_day(const WorkloadInputs& base, double hours_per_day, WorkloadInputs& out) {
  out.tokens_per_day = base.tokens_per_day;
  out.requests_per_day = base.requests_per_day;
  out.hours_per_day = base.hours_per_day;
  if (hours_per_day == base.hours_per_day) return;  // the base's own figures, untouched
  if (out.tokens_per_day && base.hours_per_day > 0) {
    out.tokens_per_day = *base.tokens_per_day * hours_per_day / base.hours_per_day;
  }
  if (out.requests_per_day && base.hours_per_day > 0) {
    out.requests_per_day = *base.requests_per_day * hours_per_day / base.hours_per_day;
  }
  out.hours_per_day = hours_per_day;
}

WorkloadInputs at_tokens_per_day(const WorkloadInputs& w, double tokens_per_day) {
  WorkloadInputs out = w;
  if (out.requests_per_day) {
    out.requests_per_day = w.tokens_per_day && *w.tokens_per_day > 0
                               ? *w.requests_per_day * tokens_per_day / *w.tokens_per_day
                               : 0.0;
  }
  out.tokens_per_day = tokens_per_day;
  return out;
}

}  // namespace gputco
