#include "engine/money/books.hpp"

#include "engine/base/units.hpp"
#include "engine/money/cash_flow.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

namespace {

/// The plan year (0-based) of month m: month 0 belongs to year 1, month m to ceil(m / 12).
size_t year_of(size_t m) {
  return m == 0 ? 0 : (m - 1) / kMonthsPerYear;
}

}  // namespace

ProfitAndLoss profit_and_loss(const OptionInputs& o, const CashFlow& cf, const FinanceInputs& f) {
  validate_tax_rules(f.tax_devices, "tax depreciation of devices");
  validate_tax_rules(f.tax_host, "tax depreciation of the host");
  const size_t months = cf.total.size();
  const size_t years = months == 0 ? 0 : year_of(months - 1) + 1;
  ProfitAndLoss p;
  for (auto* row : {&p.operating_expenses, &p.vat, &p.depreciation, &p.interest, &p.disposal,
                    &p.total, &p.capex, &p.loan_principal, &p.book_value_written_off, &p.book_value,
                    &p.tax_depreciation_devices, &p.tax_depreciation_host, &p.tax_depreciation,
                    &p.tax_written_down_value, &p.tax_disposal, &p.tax_deductible}) {
    row->assign(years, 0.0);
  }
  p.cash = annual_costs(cf);
  const bool owned = o.kind == OptionKind::buy;
  const bool lease = owned && o.financing == Financing::lease;
  const bool loan = owned && o.financing == Financing::loan;
  const auto at = [](const std::vector<double>& row, size_t m) {
    return m < row.size() ? row[m] : 0.0;
  };
  for (size_t m = 0; m < months; ++m) {
    const size_t y = year_of(m);
    p.operating_expenses[y] += cf.energy[m] + cf.maintenance[m] + cf.hosting[m] +
                               at(cf.colo_extras, m) + cf.failures[m] + at(cf.licences, m) +
                               at(cf.support, m) + cf.rent[m] + at(cf.staff, m) +
                               at(cf.insurance, m) + (lease ? cf.financing[m] : 0.0);
    p.vat[y] += cf.vat[m];
    p.depreciation[y] += cf.depreciation[m];
    p.interest[y] += at(cf.interest, m);
    p.capex[y] += cf.capex[m];
    if (loan) p.loan_principal[y] += cf.financing[m] - at(cf.interest, m);
    p.book_value[y] = cf.book_value[m];
  }
  if (years > 0) {
    // Everything still on the books is written off when the hardware is sold at the horizon.
    const size_t last = years - 1;
    const double written_off = owned ? cf.book_value[months - 1] : 0.0;
    p.book_value_written_off[last] = written_off;
    p.disposal[last] = written_off + cf.resale[months - 1];
    p.book_value[last] = 0;
  }
  for (size_t y = 0; y < years; ++y) {
    p.total[y] =
        p.operating_expenses[y] + p.vat[y] + p.depreciation[y] + p.interest[y] + p.disposal[y];
  }

  // Tax: the capex of each year split into the asset classes by the unit's cost.
  const double unit_capex = capex_of(o);
  const double device_share = unit_capex > 0 ? o.count * o.price_per_gpu / unit_capex : 0.0;
  std::vector<double> devices(years, 0.0), host(years, 0.0);
  for (size_t y = 0; y < years; ++y) {
    devices[y] = p.capex[y] * device_share;
    host[y] = p.capex[y] - devices[y];
  }
  p.tax_depreciation_devices = tax_depreciation_by_year(devices, f.tax_devices);
  p.tax_depreciation_host = tax_depreciation_by_year(host, f.tax_host);
  double cost_to_date = 0, depreciation_to_date = 0;
  for (size_t y = 0; y < years; ++y) {
    p.tax_depreciation[y] = p.tax_depreciation_devices[y] + p.tax_depreciation_host[y];
    cost_to_date += p.capex[y];
    depreciation_to_date += p.tax_depreciation[y];
    p.tax_written_down_value[y] = cost_to_date - depreciation_to_date;
  }
  // Tax: the written-down value left is written off against the resale at the horizon.
  if (years > 0 && owned && !lease) {
    p.tax_disposal[years - 1] = p.tax_written_down_value[years - 1] + cf.resale[months - 1];
  }
  for (size_t y = 0; y < years; ++y) {
    p.tax_deductible[y] = p.operating_expenses[y] + p.vat[y] + p.interest[y] +
                          p.tax_depreciation[y] + p.tax_disposal[y];
  }
  return p;
}

}  // namespace gputco
