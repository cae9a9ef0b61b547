#include "engine/money/books.hpp"

#include <algorithm>
#include <cmath>

#include "engine/base/error.hpp"
#include "engine/base/units.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

AfterTax after_tax(const CashFlow& cf, const ProfitAndLoss& pl, double tax_rate) {
  GPUTCO_REQUIRE(std::isfinite(tax_rate) && tax_rate >= 0 && tax_rate < 1,
                 "tax rate must be at least 0 and below 1, got " << tax_rate);
  const size_t months = cf.total.size();
  const size_t years = pl.tax_deductible.size();
  GPUTCO_REQUIRE(
      cf.discount_factor.size() == months &&
          years == (months <= 1 ? 0 : (months - 2) / static_cast<size_t>(kMonthsPerYear) + 1),
      "the cash flow's " << months << " months and the P&L's " << years << " years do not agree");
  AfterTax a;
  a.tax_rate = tax_rate;
  a.tax_by_year.assign(years, 0.0);
  a.tax.assign(months, 0.0);
  a.total.assign(months, 0.0);
  a.discounted.assign(months, 0.0);
  for (size_t y = 0; y < years; ++y) {
    a.tax_by_year[y] = -tax_rate * pl.tax_deductible[y];
    const size_t settled = std::min((y + 1) * static_cast<size_t>(kMonthsPerYear), months - 1);
    a.tax[settled] += a.tax_by_year[y];
  }
  for (size_t m = 0; m < months; ++m) {
    a.total[m] = cf.total[m] + a.tax[m];
    a.discounted[m] = a.total[m] * cf.discount_factor[m];
    a.total_cost += a.total[m];
    a.npv += a.discounted[m];
  }
  return a;
}

}  // namespace gputco
