#include "engine/money/instalment.hpp"

#include "engine/base/units.hpp"
#include "engine/finance/finance.hpp"
#include "engine/money/cash_flow.hpp"

namespace gputco {

std::optional<FinancingInstalment> financing_instalment(const OptionInputs& option,
                                                        const CashFlow& cash_flow) {
  if (option.kind != OptionKind::buy || option.financing == Financing::cash ||
      cash_flow.units.empty() || cash_flow.capex.empty()) {
    return std::nullopt;
  }
  FinancingInstalment instalment;
  instalment.financing = option.financing;
  if (option.financing == Financing::loan) {
    const double principal = cash_flow.capex[0] * (1.0 - option.down_payment_fraction);
    instalment.per_month = annuity_payment(principal, option.loan_rate_per_year / kMonthsPerYear,
                                           option.loan_term_months);
    instalment.months = option.loan_term_months;
    instalment.down_payment = cash_flow.capex[0] * option.down_payment_fraction;
    instalment.rate = option.loan_rate_per_year;
    return instalment;
  }
  instalment.per_month = option.lease_rate_per_month * capex_of(option) * cash_flow.units[0];
  instalment.months = option.lease_term_months;
  instalment.rate = option.lease_rate_per_month;
  return instalment;
}

}  // namespace gputco
