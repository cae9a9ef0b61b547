#include "engine/finance/load_shape.hpp"

#include <algorithm>
#include <cmath>

namespace gputco {

namespace {

DailyLoadShape flat_day(double hours_per_day) {
  DailyLoadShape shape;
  shape.stretches[0] = {std::max(0.0, hours_per_day), 1.0};
  shape.count = 1;
  return shape;
}

double total_hours(const DailyLoadShape& shape) {
  double hours = 0;
  for (int i = 0; i < shape.count; ++i) hours += shape.stretches[static_cast<size_t>(i)].hours;
  return hours;
}

}  // namespace

DailyLoadShape daily_load_shape(double hours_per_day, double peak_factor,
                                const std::vector<double>& hourly_profile) {
  const double h = std::isfinite(hours_per_day) ? std::max(0.0, hours_per_day) : 0.0;
  if (!hourly_profile.empty() && h > 0) {
    double sum = 0;
    int busy = 0;
    for (double share : hourly_profile) {
      if (std::isfinite(share) && share > 0) {
        sum += share;
        ++busy;
      }
    }
    if (busy == 0 || busy > 24 || !(sum > 0)) return flat_day(h);
    DailyLoadShape shape;
    shape.flat = false;
    shape.peak_multiplier = 0;
    for (double share : hourly_profile) {
      if (!(std::isfinite(share) && share > 0)) continue;
      const double multiplier = busy * share / sum;
      shape.stretches[static_cast<size_t>(shape.count++)] = {h / busy, multiplier};
      shape.peak_multiplier = std::max(shape.peak_multiplier, multiplier);
    }
    return shape;
  }
  if (std::isfinite(peak_factor) && peak_factor > 1 && h > 1) {
    const double peak = std::min(peak_factor, h);
    DailyLoadShape shape;
    shape.flat = false;
    shape.stretches[0] = {1.0, peak};
    shape.stretches[1] = {h - 1.0, (h - peak) / (h - 1.0)};
    shape.count = 2;
    shape.peak_multiplier = peak;
    return shape;
  }
  return flat_day(h);
}

double served_load(double load, double units, const DailyLoadShape& shape) {
  if (shape.flat || load * shape.peak_multiplier <= units) return std::min(load, units);
  const double hours = total_hours(shape);
  if (!(hours > 0)) return std::min(load, units);
  double served = 0;
  for (int i = 0; i < shape.count; ++i) {
    const LoadStretch& s = shape.stretches[static_cast<size_t>(i)];
    served += std::min(load * s.multiplier, units) * s.hours;
  }
  return served / hours;
}

}  // namespace gputco
