// The plan shared by the tests of a blend (an owned option that rents its overflow, issue
// #21): its billing (engine_overflow_billing.cpp) and its energy (engine_overflow_energy.cpp).
#pragma once

#include <string>

#include "engine/plan_model/plan_inputs.hpp"

namespace gputco::test {

/// A workload of `tokens_per_day` output tokens a day, 10 h a day x 30 days a month (300 h of
/// use), over `horizon_months`, undiscounted; no options yet.
inline PlanInputs blend_plan(double tokens_per_day, int horizon_months) {
  PlanInputs in;
  in.workload.hours_per_day = 10;
  in.workload.days_per_month = 30;
  in.workload.tokens_per_day = tokens_per_day;
  in.finance.horizon_months = horizon_months;
  in.finance.discount_rate_per_year = 0;
  return in;
}

/// The owned option "own": one "card" (1,000 a GPU) serving 1e6 output tokens an hour, renting
/// its overflow from option "rent".
inline OptionInputs owned_renting_overflow() {
  OptionInputs own;
  own.id = "own";
  own.kind = OptionKind::buy;
  own.device.id = "card";
  own.price_per_gpu = 1000;
  own.capacity_tokens_per_hour = 1e6;
  own.overflow = Overflow::rent;
  own.overflow_option_id = "rent";
  return own;
}

/// The on-demand rental "rent" of `device_id`, 4.00 a GPU-hour, serving
/// `capacity_tokens_per_hour` output tokens an hour.
inline OptionInputs overflow_rental(const std::string& device_id, double capacity_tokens_per_hour) {
  OptionInputs rent;
  rent.id = "rent";
  rent.kind = OptionKind::rent_hourly;
  rent.device.id = device_id;
  rent.rate_per_gpu_hour = 4.0;
  rent.capacity_tokens_per_hour = capacity_tokens_per_hour;
  return rent;
}

}  // namespace gputco::test
