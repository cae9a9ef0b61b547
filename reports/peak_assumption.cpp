#include "reports/peak_assumption.hpp"

#include <fmt/format.h>

#include <vector>

#include "engine/capacity.hpp"
#include "engine/plan_inputs.hpp"

namespace gputco {

std::string peak_assumption_text(const ResolvedScenario& scenario) {
  const PlanInputs& in = scenario.plan_inputs;
  const WorkloadInputs& workload = in.workload;
  const DailyLoadShape shape = load_shape_of(workload);
  std::string text = "peak: ";
  if (!workload.hourly_profile.empty()) {
    text += fmt::format("hourly profile over {:.0f} hours: the peak hour at {:.2f} x the mean hour",
                        workload.hours_per_day, shape.peak_multiplier);
  } else if (!shape.flat) {
    text += fmt::format("peak factor {:g}: the peak hour at {:.2f} x the mean hour",
                        workload.peak_factor, shape.peak_multiplier);
  } else {
    text += fmt::format("demand spread evenly over the {:.1f} hours of use (peak factor 1)",
                        workload.hours_per_day);
  }
  // On-demand and spot rentals (a reserved term bills every hour whatever the demand).
  std::vector<const OptionInputs*> hourly;
  bool all_always_on = true;
  for (const OptionInputs& o : in.options) {
    if (o.kind != OptionKind::rent_hourly || term_months(o.term) > 0) continue;
    hourly.push_back(&o);
    all_always_on = all_always_on && o.hourly_billing.billing == Billing::always_on;
  }
  const std::string hours = workload.availability == Availability::around_the_clock
                                ? "around the clock"
                                : "for the hours of use";
  if (hourly.empty()) return text;
  if (all_always_on) {
    return text + "; hourly rentals billed always on " + hours + " (the instances the peak needs)";
  }
  text += "; hourly rentals:";
  for (size_t i = 0; i < hourly.size(); ++i) {
    const OptionInputs& o = *hourly[i];
    text += (i == 0 ? " " : ", ") + o.id;
    if (o.hourly_billing.billing == Billing::always_on) {
      text += " always on " + hours;
    } else {
      text += fmt::format(" autoscaled hour by hour (min {} instance(s), per {})",
                          o.hourly_billing.min_instances, to_string(o.hourly_billing.granularity));
    }
  }
  return text;
}

}  // namespace gputco
