#include "engine/finance/depreciation.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/error.hpp"

namespace gputco {

namespace {

void check_declining(double cost, double salvage, int life, double factor) {
  GPUTCO_REQUIRE(std::isfinite(cost) && cost >= 0, "depreciation: cost must be >= 0, got " << cost);
  GPUTCO_REQUIRE(std::isfinite(salvage) && salvage >= 0,
                 "depreciation: salvage must be >= 0, got " << salvage);
  GPUTCO_REQUIRE(life >= 1, "depreciation: life must be at least 1 period, got " << life);
  GPUTCO_REQUIRE(std::isfinite(factor) && factor > 0,
                 "depreciation: the declining-balance factor must be above 0, got " << factor);
}

/// The declining-balance amount of a period that starts at `value`: rate x value, never
/// taking the value below the salvage, never negative.
double declining_amount(double value, double salvage, double rate) {
  const double after = value * (1.0 - rate);
  return std::max(0.0, after < salvage ? value - salvage : value - after);
}

}  // namespace

double double_declining_balance(double cost, double salvage, int life, int period, double factor) {
  check_declining(cost, salvage, life, factor);
  GPUTCO_REQUIRE(period >= 1 && period <= life,
                 "DDB: the period must be between 1 and the life " << life << ", got " << period);
  const double rate = std::min(1.0, factor / life);
  double value = cost;
  double amount = 0;
  for (int p = 1; p <= period; ++p) {
    amount = declining_amount(value, salvage, rate);
    value -= amount;
  }
  return amount;
}

double fixed_declining_balance(double cost, double salvage, int life, int period,
                               int first_year_months) {
  GPUTCO_REQUIRE(std::isfinite(cost) && cost > 0, "DB: cost must be above 0, got " << cost);
  GPUTCO_REQUIRE(std::isfinite(salvage) && salvage >= 0, "DB: salvage must be >= 0");
  GPUTCO_REQUIRE(life >= 1, "DB: life must be at least 1, got " << life);
  GPUTCO_REQUIRE(first_year_months >= 1 && first_year_months <= 12,
                 "DB: the first year's months must be 1-12, got " << first_year_months);
  const int last = first_year_months < 12 ? life + 1 : life;
  GPUTCO_REQUIRE(period >= 1 && period <= last,
                 "DB: the period must be between 1 and " << last << ", got " << period);
  // The rate rounded to three decimals, as the spreadsheet function does.
  const double rate = std::round((1.0 - std::pow(salvage / cost, 1.0 / life)) * 1000.0) / 1000.0;
  double taken = cost * rate * first_year_months / 12.0;
  if (period == 1) return taken;
  double amount = 0;
  for (int p = 2; p <= period; ++p) {
    amount = (cost - taken) * rate;
    if (p == life + 1) amount *= (12.0 - first_year_months) / 12.0;
    taken += amount;
  }
  return amount;
}

std::vector<double> declining_balance_schedule(double cost, double salvage, int life, double factor,
                                               bool switch_to_straight_line) {
  check_declining(cost, salvage, life, factor);
  const double rate = std::min(1.0, factor / life);
  std::vector<double> schedule(static_cast<size_t>(life), 0.0);
  double value = cost;
  bool straight = false;
  double straight_amount = 0;
  for (int p = 1; p <= life; ++p) {
    double amount = 0;
    if (straight) {
      amount = straight_amount;
    } else {
      amount = declining_amount(value, salvage, rate);
      // The straight line over the periods left, the first period it is larger (VDB).
      const double line = (value - salvage) / (life - p + 1);
      if (switch_to_straight_line && line > amount) {
        straight = true;
        straight_amount = line;
        amount = line;
      }
    }
    schedule[static_cast<size_t>(p - 1)] = amount;
    value -= amount;
  }
  return schedule;
}

double tax_depreciation_share(const TaxClassRules& rules, int age) {
  if (age < 0 || age >= rules.life_years) return 0.0;
  if (rules.method == TaxDepreciationMethod::straight_line) return 1.0 / rules.life_years;
  return declining_balance_schedule(1.0, 0.0, rules.life_years, rules.factor,
                                    rules.switch_to_straight_line)[static_cast<size_t>(age)];
}

std::vector<double> tax_depreciation_by_year(const std::vector<double>& cost_by_year,
                                             const TaxClassRules& rules) {
  validate_tax_rules(rules, "tax depreciation");
  std::vector<double> share(static_cast<size_t>(rules.life_years));
  for (int age = 0; age < rules.life_years; ++age) {
    share[static_cast<size_t>(age)] = tax_depreciation_share(rules, age);
  }
  std::vector<double> by_year(cost_by_year.size(), 0.0);
  for (size_t y = 0; y < by_year.size(); ++y) {
    for (size_t k = 0; k <= y; ++k) {
      const size_t age = y - k;
      if (age < share.size()) by_year[y] += cost_by_year[k] * share[age];
    }
  }
  return by_year;
}

void validate_tax_rules(const TaxClassRules& rules, const char* what) {
  GPUTCO_REQUIRE(rules.life_years >= 1 && rules.life_years <= 50,
                 what << ": the life must be 1 to 50 years, got " << rules.life_years);
  GPUTCO_REQUIRE(std::isfinite(rules.factor) && rules.factor > 0 && rules.factor <= 10,
                 what << ": the declining-balance factor must be above 0 and at most 10, got "
                      << rules.factor);
}

}  // namespace gputco
