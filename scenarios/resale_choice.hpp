// Resale at the horizon from the catalog's resale curves: which curve a plan takes for the
// devices of an owned option and which for its host, and the value it reads off it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pricing/catalog.hpp"

namespace gputco {

/// A resale fraction read off a catalog curve.
struct ResaleChoice {
  double fraction = 0;    ///< of the purchase price, 0..1
  std::string curve;      ///< the curve's class: consumer, datacenter, host, ...
  bool own_class = true;  ///< false: the class asked for has no curve; the lowest other's
  std::string how;        ///< "interpolated between points at 24 months: 0.600 and ...", ...
  std::vector<ResalePoint> points;  ///< the catalog points the value rests on (not the 0 point)
};

/// True when `curve` says something about an age after purchase: a point past 0 months (the
/// point at 0 is 1 by definition). A curve of its 0-month point only counts as no curve.
bool usable_curve(const std::vector<ResalePoint>& curve);

/// The value of a usable curve at `age_months`: the curve's points, with (0 months, 1) added by
/// definition when it has no point at 0, linear between two points; past the last point the
/// last segment's slope continued (never flat: resale keeps falling at the rate of the last
/// segment), floored at 0; capped at 1. Fills `how` and `points` of the result.
ResaleChoice resale_at(const std::vector<ResalePoint>& curve, double age_months);

/// The resale of class `device_class` ("consumer", "datacenter", "workstation", "unified",
/// "host") bought in `condition`, `age_months` after purchase, from the catalog's curves as of
/// `as_of`: the class's own curve; without one, the lowest value of the other device classes'
/// curves at that age (conservative: a class resells no better than the worst of them; the
/// host class is never borrowed for devices, nor devices' for the host); nullopt when none.
std::optional<ResaleChoice> choose_resale(const Catalog& catalog, const std::string& device_class,
                                          const std::string& condition, double age_months,
                                          const std::string& as_of);

}  // namespace gputco
