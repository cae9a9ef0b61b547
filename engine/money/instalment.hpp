// What a financed purchase costs the buyer a month: the loan's or the lease's instalment, the
// figure a customer signs for.
#pragma once

#include <optional>

#include "engine/plan_model/plan_inputs.hpp"
#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// The monthly instalment of a financed purchase: what a customer signs for, plan currency, VAT
/// excluded.
struct FinancingInstalment {
  Financing financing = Financing::loan;  ///< loan or lease
  double per_month = 0;                   ///< the instalment a month
  int months = 0;                         ///< instalments: the loan's or the lease's term
  double down_payment = 0;                ///< loan: paid at the start; lease: 0
  /// As the scenario gives it: loan, the nominal rate a year (0.065); lease, the fee a month
  /// as a fraction of the hardware price (0.0305).
  double rate = 0;
};

/// The monthly instalment of an owned option bought on a loan or leased, for the units it
/// takes at the start (month 0), plan currency, VAT excluded as every cash flow:
/// - loan: the annuity that repays capex[0] x (1 - down_payment_fraction) over
///   loan_term_months at loan_rate_per_year / 12 a month (annuity_payment,
///   engine/finance/finance.hpp: PMT = r P / (1 - (1 + r)^-n), the spreadsheet PMT); down_payment =
///   capex[0] x down_payment_fraction, paid at the start;
/// - lease: lease_rate_per_month x unit capex (count x price_per_gpu + host_cost) x units[0],
///   the fee option_cash_flow charges each month (engine/money/cash_flow.hpp); no down payment.
/// nullopt for cash purchases and every other kind, or a cash flow without month 0. Units added
/// later (overflow = buy) are financed the same way and raise the monthly figure from then on:
/// the Cash flow's financing row has them month by month. Throws EngineError as annuity_payment
/// for a loan with a term below 1 or a rate at or below -100 % (make_plan validates both first).
/// The reports call it with the option's inputs as resolved and its plan's cash flow (what the
/// plan charges month by month, so the two agree).
std::optional<FinancingInstalment> financing_instalment(const OptionInputs& option,
                                                        const CashFlow& cash_flow);

}  // namespace gputco
