#include "reports/peak_assumption.hpp"

#include <fmt/format.h>

#include <vector>

#include "engine/fleet/capacity.hpp"
#include "engine/plan_model/plan_inputs.hpp"

namespace gputco {

std::vector<PeakTextPiece> peak_assumption_pieces(const ResolvedScenario& scenario) {
  using Kind = PeakTextPiece::Kind;
  const PlanInputs& in = scenario.plan_inputs;
  const WorkloadInputs& workload = in.workload;
  const DailyLoadShape shape = load_shape_of(workload);
  std::vector<PeakTextPiece> pieces;
  const auto text = [&](std::string piece) {
    if (!pieces.empty() && pieces.back().kind == Kind::text) {
      pieces.back().text += piece;
    } else {
      pieces.push_back({Kind::text, std::move(piece), 0});
    }
  };
  text("peak: ");
  if (!workload.hourly_profile.empty()) {
    text("hourly profile over ");
    pieces.push_back({Kind::hours_per_day, "", 0});
    text(" hours: the peak hour at ");
    pieces.push_back({Kind::peak_multiplier, "", 2});
    text(" x the mean hour");
  } else if (!shape.flat) {
    text(fmt::format("peak factor {:g}: the peak hour at ", workload.peak_factor));
    pieces.push_back({Kind::peak_multiplier, "", 2});
    text(" x the mean hour");
  } else {
    text("demand spread evenly over the ");
    pieces.push_back({Kind::hours_per_day, "", 1});
    text(" hours of use (peak factor 1)");
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
  if (hourly.empty()) return pieces;
  if (all_always_on) {
    text("; hourly rentals billed always on " + hours + " (the instances the peak needs)");
    return pieces;
  }
  text("; hourly rentals:");
  for (size_t i = 0; i < hourly.size(); ++i) {
    const OptionInputs& o = *hourly[i];
    text((i == 0 ? " " : ", ") + o.id);
    if (o.hourly_billing.billing == Billing::always_on) {
      text(" always on " + hours);
    } else {
      text(fmt::format(" autoscaled hour by hour (min {} instance(s), per {})",
                       o.hourly_billing.min_instances, to_string(o.hourly_billing.granularity)));
    }
  }
  return pieces;
}

std::string peak_assumption_text(const ResolvedScenario& scenario) {
  const WorkloadInputs& workload = scenario.plan_inputs.workload;
  std::string text;
  for (const PeakTextPiece& piece : peak_assumption_pieces(scenario)) {
    switch (piece.kind) {
      case PeakTextPiece::Kind::text:
        text += piece.text;
        break;
      case PeakTextPiece::Kind::hours_per_day:
        text += fmt::format("{:.{}f}", workload.hours_per_day, piece.decimals);
        break;
      case PeakTextPiece::Kind::peak_multiplier:
        text += fmt::format("{:.{}f}", load_shape_of(workload).peak_multiplier, piece.decimals);
        break;
    }
  }
  return text;
}

}  // namespace gputco
