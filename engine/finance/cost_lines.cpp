#include "engine/finance/cost_lines.hpp"

#include <cmath>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"

namespace gputco {

namespace {

double or_zero(const std::optional<double>& x) {
  return x.value_or(0.0);
}

/// A line of a per month, per year and per device per year amount.
double recurring_per_month(const std::optional<double>& per_month,
                           const std::optional<double>& per_year,
                           const std::optional<double>& per_gpu_per_year, double devices) {
  return or_zero(per_month) + or_zero(per_year) / kMonthsPerYear +
         or_zero(per_gpu_per_year) * devices / kMonthsPerYear;
}

}  // namespace

double staff_per_month(const CostLines& l) {
  return or_zero(l.staff_hours_per_month) * or_zero(l.staff_rate_per_hour) +
         or_zero(l.staff_fte) * or_zero(l.staff_salary_per_year) / kMonthsPerYear;
}

double licences_per_month(const CostLines& l, double devices) {
  return recurring_per_month(l.licence_per_month, l.licence_per_year, l.licence_per_gpu_per_year,
                             devices);
}

double support_per_month(const CostLines& l, double devices) {
  return recurring_per_month(l.support_per_month, l.support_per_year, l.support_per_gpu_per_year,
                             devices);
}

double insurance_per_month(const CostLines& l, double insured_value) {
  return or_zero(l.insurance_per_year) * insured_value / kMonthsPerYear;
}

std::vector<std::string> cost_lines_not_entered(const CostLines& l, const CostLineScope& scope) {
  std::vector<std::string> missing;
  if (!l.staff_hours_per_month && !l.staff_fte) missing.emplace_back("staff and operations");
  if (!l.licence_per_month && !l.licence_per_year && !l.licence_per_gpu_per_year) {
    missing.emplace_back("software licences");
  }
  if (!l.support_per_month && !l.support_per_year && !l.support_per_gpu_per_year) {
    missing.emplace_back("support contracts");
  }
  if (scope.owned && !l.insurance_per_year) missing.emplace_back("insurance");
  if (scope.colocated && !l.colo_extras_per_month) missing.emplace_back("colocation extras");
  return missing;
}

void validate_cost_lines(const CostLines& l, const std::string& id) {
  const auto check = [&](const std::optional<double>& x, const char* key, double max) {
    GPUTCO_REQUIRE(!x || (std::isfinite(*x) && *x >= 0 && *x <= max),
                   "option " << id << ": " << key << " must be a number between 0 and " << max
                             << ", got " << *x);
  };
  constexpr double kMaxMoney = 1e12;
  check(l.staff_hours_per_month, "staff_hours_per_month", 1e7);
  check(l.staff_rate_per_hour, "staff_rate_per_hour", kMaxMoney);
  check(l.staff_fte, "staff_fte", 1e4);
  check(l.staff_salary_per_year, "staff_salary_per_year", kMaxMoney);
  check(l.licence_per_month, "licence_per_month", kMaxMoney);
  check(l.licence_per_year, "licence_per_year", kMaxMoney);
  check(l.licence_per_gpu_per_year, "licence_per_gpu_per_year", kMaxMoney);
  check(l.support_per_month, "support_per_month", kMaxMoney);
  check(l.support_per_year, "support_per_year", kMaxMoney);
  check(l.support_per_gpu_per_year, "support_per_gpu_per_year", kMaxMoney);
  check(l.insurance_per_year, "insurance_per_year", 1);
  check(l.colo_extras_per_month, "colo_extras_per_month", kMaxMoney);
  GPUTCO_REQUIRE(l.staff_hours_per_month.has_value() == l.staff_rate_per_hour.has_value(),
                 "option " << id << ": staff_hours_per_month and staff_rate_per_hour go together");
  GPUTCO_REQUIRE(l.staff_fte.has_value() == l.staff_salary_per_year.has_value(),
                 "option " << id << ": staff_fte and staff_salary_per_year go together");
}

}  // namespace gputco
