// [tax]: the tax depreciation rules of owned hardware per asset class, apart from the book.
#include <string>

#include "engine/base/units.hpp"
#include "scenarios/resolver.hpp"

namespace gputco::resolve_detail {

void Resolver::resolve_tax() {
  auto& f = r_.plan_inputs.finance;
  f.tax_rate = s_.tax_rate;
  if (f.tax_rate) {
    number("tax", "rate",
           "Tax rate on the deductible costs (after-tax cash flow, NPV and recommendation)",
           *f.tax_rate, "fraction");
  }
  const int book_years = (s_.useful_life_months + kMonthsPerYear - 1) / kMonthsPerYear;
  const std::string as_book = "default: straight line over the book's useful life (" +
                              std::to_string(s_.useful_life_months) + " months, " +
                              std::to_string(book_years) + " year(s)): tax as the book";
  const auto rules = [&](const std::string& what, const std::string& method,
                         const std::optional<int>& life, TaxClassRules& out) {
    const std::string label = what == "devices" ? "Devices" : "Host system";
    out.method = method == "declining_balance" ? TaxDepreciationMethod::declining_balance
                                               : TaxDepreciationMethod::straight_line;
    out.life_years = life.value_or(book_years);
    out.factor = s_.tax_declining_balance_factor.value_or(2.0);
    out.switch_to_straight_line = s_.tax_switch_to_straight_line.value_or(true);
    text("tax", what + "_method", label + ": tax depreciation method",
         method.empty() ? "straight_line" : method, method.empty() ? as_book : "");
    number("tax", what + "_life_years", label + ": tax life", out.life_years, "years",
           life ? "" : as_book);
  };
  rules("devices", s_.tax_devices_method, s_.tax_devices_life_years, f.tax_devices);
  rules("host", s_.tax_host_method, s_.tax_host_life_years, f.tax_host);
  if (f.tax_devices.method == TaxDepreciationMethod::declining_balance ||
      f.tax_host.method == TaxDepreciationMethod::declining_balance) {
    number("tax", "declining_balance_factor",
           "Declining balance: multiple of the straight-line rate", f.tax_devices.factor, "factor",
           s_.tax_declining_balance_factor ? "" : "default: 2 (double declining balance)");
    number("tax", "switch_to_straight_line",
           "Declining balance: switch to straight line when larger (1 = yes)",
           f.tax_devices.switch_to_straight_line ? 1.0 : 0.0, "flag",
           s_.tax_switch_to_straight_line
               ? ""
               : "default: true, as tax codes do (US MACRS, IRS Publication 946; Germany, "
                 "section 7(3) EStG): the straight line over the years left once larger");
  }
}

}  // namespace gputco::resolve_detail
