#include "reports/text_after_tax.hpp"

#include <fmt/format.h>

#include "reports/text_report.hpp"
#include "reports/text_table.hpp"

namespace gputco {

std::string after_tax_text(const Plan& plan, const OptionName& name) {
  if (!plan.tax_rate) return "";
  constexpr auto L = TextAlign::left;
  constexpr auto R = TextAlign::right;
  std::string out =
      fmt::format("\nAfter tax at {:.2f} %, {}:\n", *plan.tax_rate * 100, plan.currency);
  TextTable table({{"option", L, 16},
                   {"pre-tax total", R, 13},
                   {"after-tax total", R, 15},
                   {"tax saved", R, 12},
                   {"pre-tax NPV", R, 12},
                   {"after-tax NPV", R, 13}});
  for (const auto& r : plan.options) {
    if (!r.after_tax || !r.feasible) {
      table.add_row({name(r.id), "-", "-", "-", "-", "-"});
      continue;
    }
    const AfterTax& a = *r.after_tax;
    table.add_row({name(r.id), whole_money_text(r.total_cost), whole_money_text(a.total_cost),
                   whole_money_text(r.total_cost - a.total_cost), whole_money_text(r.npv),
                   whole_money_text(a.npv)});
  }
  out += table.render();
  out += fmt::format("  {}.\n", kAfterTaxAssumption);
  if (plan.pre_tax_recommendation && plan.recommendation &&
      *plan.pre_tax_recommendation != *plan.recommendation) {
    out += fmt::format("  Pre-tax the lowest NPV is {}; after tax it is {}.\n",
                       name(*plan.pre_tax_recommendation), name(*plan.recommendation));
  }
  return out;
}

std::string equity_irr_text(const Plan& plan, const OptionName& name) {
  std::string out;
  const auto percent = [](double x) { return fmt::format("{:.1f} %", x * 100); };
  for (const auto& r : plan.options) {
    if (r.irr_basis != "equity" || !r.feasible || plan.baseline_option_id.empty()) continue;
    if (!r.irr && !r.project_irr) continue;
    out += fmt::format(
        "{}: IRR {} is the equity IRR (the saving after the loan's proceeds and instalments, on "
        "the down payment); project IRR (as if bought for cash): {}\n",
        name(r.id), r.irr ? percent(*r.irr) : std::string("n/a"),
        r.project_irr ? percent(*r.project_irr) : "n/a (" + r.project_irr_na_reason + ")");
  }
  return out;
}

}  // namespace gputco
