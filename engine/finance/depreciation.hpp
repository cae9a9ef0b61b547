// Depreciation schedules as spreadsheets and tax codes compute them: declining balance (DDB,
// and VDB's switch to straight line when that is larger), fixed declining balance (DB), and
// the tax schedule of owned hardware per asset class and plan year, apart from the book
// (straight-line, CashFlow::depreciation) schedule.
#pragma once

#include <vector>

namespace gputco {

/// Depreciation of period `period` (1..life) by the double-declining-balance method at
/// `factor` (2 = double): each period takes factor / life of the value left (the rate capped
/// at 1), never below `salvage`. Same value as the spreadsheet DDB(cost, salvage, life, period,
/// factor) (ECMA-376 Part 1, 18.17.7.87; OpenFormula 6.12.14). Throws EngineError unless cost
/// >= 0, 0 <= salvage, life >= 1, 1 <= period <= life and factor > 0, all finite.
double double_declining_balance(double cost, double salvage, int life, int period,
                                double factor = 2.0);

/// Depreciation of period `period` (1..life, or life + 1 with a short first year) by the
/// fixed-declining-balance method: rate = 1 - (salvage / cost)^(1 / life) rounded to three
/// decimals; the first period counts first_year_months / 12 of a year, and a short first year
/// leaves a last partial period life + 1. Same value as the spreadsheet DB(cost, salvage, life,
/// period, month) (ECMA-376 Part 1, 18.17.7.82; OpenFormula 6.12.13). Throws EngineError
/// unless cost > 0, 0 <= salvage, life >= 1, 1 <= first_year_months <= 12 and the period in
/// range.
double fixed_declining_balance(double cost, double salvage, int life, int period,
                               int first_year_months = 12);

/// The whole schedule, periods 1..life (index 0 = period 1), by declining balance at `factor`
/// with, when `switch_to_straight_line`, the switch tax codes make: from the first period in
/// which the straight line over the remaining life ((value left - salvage) / periods left) is
/// larger than the declining-balance amount, that straight line for every remaining period.
/// Without the switch, the DDB amounts (and what is left above the salvage stays). Each period
/// equals the spreadsheet VDB(cost, salvage, life, p - 1, p, factor, NOT switch) (ECMA-376
/// Part 1, 18.17.7.359). Throws EngineError as double_declining_balance.
std::vector<double> declining_balance_schedule(double cost, double salvage, int life, double factor,
                                               bool switch_to_straight_line);

/// How an asset class is depreciated for tax.
enum class TaxDepreciationMethod {
  straight_line,     ///< (cost) / life a year
  declining_balance  ///< factor / life of the value left a year, see declining_balance_schedule
};

/// The tax rules of one asset class (devices; the host system): method, life in years,
/// declining-balance factor and whether the schedule switches to straight line.
struct TaxClassRules {
  TaxDepreciationMethod method = TaxDepreciationMethod::straight_line;
  int life_years = 3;
  double factor = 2.0;                  ///< declining balance: 2 = double declining
  bool switch_to_straight_line = true;  ///< declining balance: switch when larger
};

/// The share of an asset's cost deducted in its year of age `age` (0 = the year it is bought,
/// the full-year convention) under `rules`, salvage 0: the schedule of a cost of 1. 0 from age
/// life_years on. The spreadsheet: VDB(1, 0, life, age, age + 1, factor, NOT switch), or
/// IF(age < life, 1 / life, 0) for straight line.
double tax_depreciation_share(const TaxClassRules& rules, int age);

/// Tax depreciation per plan year of the lots bought in each plan year (`cost_by_year`, index
/// 0 = year 1; the full-year convention: a lot depreciates from the start of the year it is
/// bought in): year y = sum over k <= y of cost_by_year[k] x tax_depreciation_share(y - k).
/// Salvage 0 (tax codes depreciate to nothing; the resale is taxed when it happens).
std::vector<double> tax_depreciation_by_year(const std::vector<double>& cost_by_year,
                                             const TaxClassRules& rules);

/// Throws EngineError naming `what` unless life_years is 1..50, the factor in (0, 10], finite.
void validate_tax_rules(const TaxClassRules& rules, const char* what);

}  // namespace gputco
