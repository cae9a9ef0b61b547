#include "scenarios/price_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "pricing/catalog.hpp"

namespace gputco {

MarketVerdict judge_against_market(double value, std::vector<double> market, double below,
                                   double above, int min_peers) {
  MarketVerdict v;
  v.peers = static_cast<int>(market.size());
  if (v.peers < std::max(min_peers, 1)) return v;
  std::sort(market.begin(), market.end());
  const std::size_t n = market.size();
  v.median = n % 2 == 1 ? market[n / 2] : (market[n / 2 - 1] + market[n / 2]) / 2;
  if (!(v.median > 0)) return v;  // a market of zeros says nothing
  v.ratio = value / v.median;
  if (v.ratio >= kAbsurdFactor || v.ratio <= 1 / kAbsurdFactor) {
    v.level = MarketVerdict::Level::absurd;
  } else if (v.ratio > above || v.ratio < 1 / below) {
    v.level = MarketVerdict::Level::outlier;
  } else {
    v.level = MarketVerdict::Level::fine;
  }
  return v;
}

std::string factor_text(double ratio) {
  const auto tenths = [](double x) { return fmt::format("{}", std::round(x * 10) / 10); };
  return ratio >= 1 ? tenths(ratio) + " x" : "1/" + tenths(1 / ratio) + " of";
}

std::string hours_per_month_hint(double ratio) {
  const double hours = Catalog::kHoursPerMonth;
  const auto within = [](double r) {
    return r >= 1 / Catalog::kRentalPlausibleBelow && r <= Catalog::kRentalPlausibleAbove;
  };
  if (within(ratio / hours)) {
    return fmt::format("a monthly price typed per hour? (a month is {} h)", hours);
  }
  if (within(ratio * hours)) {
    return fmt::format("an hourly rate typed as a monthly price? (a month is {} h)", hours);
  }
  return "";
}

}  // namespace gputco
