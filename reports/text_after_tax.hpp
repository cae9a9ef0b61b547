// The terminal report's after-tax table and its project and equity IRR lines (issue #40):
// apart from text_report.cpp, which formats everything else.
#pragma once

#include <functional>
#include <string>

#include "engine/plan_model/plan_result.hpp"

namespace gputco {

/// How the report names an option by its id (its label when it has one).
using OptionName = std::function<std::string(const std::string&)>;

/// With a tax rate (Plan::tax_rate): "After tax at 25.00 %, EUR:", a table of each option's
/// pre-tax and after-tax total and NPV and the tax saved over the horizon (whole currency
/// units), the assumptions (kAfterTaxAssumption) and, when it differs, the recommendation made
/// pre-tax. "" without a rate. Throws nothing but bad_alloc.
std::string after_tax_text(const Plan& plan, const OptionName& name);

/// One line per loan-financed option compared with the baseline whose IRR or project IRR is
/// known: the IRR is the equity IRR (on the down payment), the project IRR (as if bought for
/// cash) beside it, percent a year with one decimal. "" when the plan has none.
std::string equity_irr_text(const Plan& plan, const OptionName& name);

}  // namespace gputco
