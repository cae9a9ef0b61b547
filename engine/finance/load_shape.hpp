// The shape of a day of use: how the demand of a day spreads over its hours of use (evenly,
// with a peak hour, or by an hourly profile), for sizing at the peak and for the bills and the
// energy that follow the hours (issue #21 item 3).
#pragma once

#include <array>
#include <vector>

namespace gputco {

/// One stretch of a day of use at a constant load: `hours` long, at `multiplier` x the mean
/// load over the hours of use (the load that tokens_per_day spread evenly would put there).
struct LoadStretch {
  double hours = 0;
  double multiplier = 1;
};

/// A day of use as at most 24 stretches of constant load. Invariant: the stretches' hours sum
/// to the hours of use a day, and sum(hours x multiplier) to the same (the day's demand is
/// the same however it is spread). peak_multiplier = the largest multiplier (>= 1).
struct DailyLoadShape {
  std::array<LoadStretch, 24> stretches{};
  int count = 0;
  double peak_multiplier = 1;
  /// true: one stretch at the mean (the demand spread evenly, the model before issue #21).
  bool flat = true;
};

/// The shape of a day of `hours_per_day` hours of use:
/// - `hourly_profile` (24 shares of the day's demand, clock hours 0-23; empty: none): one
///   stretch of hours_per_day / N hours per hour with a share s_i > 0 (N of them), at
///   multiplier N x s_i / sum(s): the profile's hours of use are hours_per_day (the resolver
///   sets hours_per_day = N), each at its own share. Peak = N x max(s) / sum(s).
/// - else `peak_factor` p > 1 with hours_per_day h > 1: the peak hour at min(p, h) x the mean
///   and the other h - 1 hours at (h - min(p, h)) / (h - 1) x the mean, so the day's demand is
///   unchanged (a peak factor says how high the peak is, not when: one busy hour is the
///   assumption). A peak above h would put more than the day's demand in one hour: capped.
/// - else flat: one stretch of h hours at the mean.
/// Throws nothing; negative or non-finite shares count as 0 (validate_plan_inputs refuses
/// them first).
DailyLoadShape daily_load_shape(double hours_per_day, double peak_factor,
                                const std::vector<double>& hourly_profile);

/// The mean load served by `units` units over the hours of use, when the mean load is `load`
/// (units of one unit's capacity): min(load, units) for a flat day or when the units cover the
/// peak (load x peak <= units); else sum over the stretches of min(load x multiplier, units) x
/// hours / the hours of use. What the units leave over (to rent) is load - served_load: the
/// stretches' hours x multipliers sum to the hours of use. Throws nothing.
double served_load(double load, double units, const DailyLoadShape& shape);

}  // namespace gputco
