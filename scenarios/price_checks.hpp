// Prices typed into a scenario (or taken from the catalog) against their market: the same
// bands as the catalog's plausibility checks (Catalog::price_plausibility,
// Catalog::rental_plausibility), so that a figure an import would refuse is not accepted
// silently when it is typed. A figure far outside the band is flagged in every report; one a
// hundred times off cannot be meant (a monthly price typed per hour is 730 x) and is refused.
#pragma once

#include <string>
#include <vector>

namespace gputco {

/// Where a price stands against the median of its market.
struct MarketVerdict {
  enum class Level {
    unknown,  ///< too few market observations for a verdict
    fine,     ///< within the band
    outlier,  ///< outside the band: a warning in every report
    absurd    ///< kAbsurdFactor or more from the median either way: an error (exit 2)
  };
  Level level = Level::unknown;
  double ratio = 0;   ///< value / median
  double median = 0;  ///< of the market, in the value's currency
  int peers = 0;      ///< market observations the median is taken over
};

/// A price this many times above or below its market's median cannot be meant: no GPU rents or
/// sells for a hundredth or a hundred times its going rate; the unit mistakes it catches (a
/// monthly price typed per hour: 730 x; an hourly rate typed as a purchase price: 1/10,000) are
/// far beyond it, and the widest legitimate spread at hand is 5 x (purchases, new launch price
/// against a five-year-old used card).
inline constexpr double kAbsurdFactor = 100;

/// Judges `value` against `market` (amounts in the same currency as `value`): the median of
/// `market` (the mean of the two middle ones for an even count), fine within [median /
/// `below`, median x `above`], absurd at or beyond kAbsurdFactor, unknown with fewer than
/// `min_peers` observations.
MarketVerdict judge_against_market(double value, std::vector<double> market, double below,
                                   double above, int min_peers);

/// "3.6 x" or "1/3.6 of": a ratio as a factor to one decimal, for messages.
std::string factor_text(double ratio);

/// What the ratio of an hourly figure to the hourly market suggests when it is near 730 (a
/// monthly price typed per hour) or near 1/730 (an hourly rate typed as a monthly price): a
/// sentence, or "" when neither fits (the ratio / 730 or ratio x 730 within the rental band).
std::string hours_per_month_hint(double ratio);

}  // namespace gputco
