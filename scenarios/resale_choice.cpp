#include "scenarios/resale_choice.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gputco {

bool usable_curve(const std::vector<ResalePoint>& curve) {
  return std::any_of(curve.begin(), curve.end(),
                     [](const ResalePoint& p) { return p.age_months > 0; });
}

ResaleChoice resale_at(const std::vector<ResalePoint>& curve, double age_months) {
  const auto describe = [](const ResalePoint& p) {
    return std::to_string(p.age_months) + " months: " + fmt::format("{:.3f}", p.fraction);
  };
  ResaleChoice out;
  out.fraction = 1.0;  // unreachable for a usable curve (two points at least)
  std::vector<ResalePoint> points;
  std::vector<bool> from_catalog;  // false for the implicit 0-month point
  if (curve.front().age_months > 0) {
    points.push_back({0, 1.0, {}});
    from_catalog.push_back(false);
  }
  for (const ResalePoint& p : curve) {
    points.push_back(p);
    from_catalog.push_back(true);
  }
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (age_months == points[i].age_months) {  // on a point: that point alone
      out.how = "point at " + describe(points[i]);
      if (from_catalog[i]) out.points.push_back(points[i]);
      out.fraction = std::clamp(points[i].fraction, 0.0, 1.0);
      return out;
    }
    if (age_months < points[i].age_months || i + 1 == points.size()) {
      const ResalePoint& a = points[i - 1];
      const ResalePoint& b = points[i];
      const double t = (age_months - a.age_months) / (b.age_months - a.age_months);
      out.how = (age_months < b.age_months ? "interpolated between points at "
                                           : "extrapolated (last slope continued, floored at 0) "
                                             "from points at ") +
                describe(a) + " and " + describe(b);
      if (from_catalog[i - 1]) out.points.push_back(a);
      if (from_catalog[i]) out.points.push_back(b);
      out.fraction = std::clamp(a.fraction + t * (b.fraction - a.fraction), 0.0, 1.0);
      return out;
    }
  }
  return out;
}

std::optional<ResaleChoice> choose_resale(const Catalog& catalog, const std::string& device_class,
                                          const std::string& condition, double age_months,
                                          const std::string& as_of) {
  const auto curve = catalog.resale_curve(device_class, condition, as_of);
  if (usable_curve(curve)) {
    ResaleChoice choice = resale_at(curve, age_months);
    choice.curve = device_class;
    return choice;
  }
  if (device_class == "host") return std::nullopt;
  // No curve of its own: the lowest of the other device classes' curves at that age.
  std::optional<ResaleChoice> lowest;
  for (const char* other : {"consumer", "workstation", "datacenter", "unified"}) {
    if (other == device_class) continue;
    const auto other_curve = catalog.resale_curve(other, condition, as_of);
    if (!usable_curve(other_curve)) continue;
    ResaleChoice choice = resale_at(other_curve, age_months);
    if (!lowest || choice.fraction < lowest->fraction) {
      choice.curve = other;
      choice.own_class = false;
      lowest = std::move(choice);
    }
  }
  return lowest;
}

}  // namespace gputco
