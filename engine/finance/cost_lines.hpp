// The running costs a finance team adds to the hardware: staff and operations, software
// licences, support contracts, insurance and colocation extras. Each is a row of its own in
// the cash flow (CashFlow::staff ... colo_extras); a line the scenario does not enter is
// "not entered" (nullopt), counted as 0 and said so in every report, never a silent 0.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gputco {

/// The cost lines of one option, plan currency, each nullopt when not entered.
/// Staff: hours a month x a rate, and/or a share of full-time employees x a yearly salary
/// (fully loaded: salary, social charges, overhead); both pairs may be given and add up.
/// Licences and support: per month, per year (spread evenly over its months), and per device
/// in service per year; the three add up. Insurance: a fraction per year of the purchase value
/// of the hardware in service (insured at replacement cost, not book value). Colocation
/// extras: per unit (server) in a colocation rack a month (remote hands, cross-connects,
/// bandwidth).
struct CostLines {
  std::optional<double> staff_hours_per_month;
  std::optional<double> staff_rate_per_hour;
  std::optional<double> staff_fte;              ///< share of full-time employees (0.25 = a quarter)
  std::optional<double> staff_salary_per_year;  ///< per full-time employee, fully loaded
  std::optional<double> licence_per_month;
  std::optional<double> licence_per_year;
  std::optional<double> licence_per_gpu_per_year;
  std::optional<double> support_per_month;
  std::optional<double> support_per_year;
  std::optional<double> support_per_gpu_per_year;
  std::optional<double> insurance_per_year;     ///< fraction of the hardware's purchase value
  std::optional<double> colo_extras_per_month;  ///< per unit in colocation
};

/// Which cost lines apply to an option: staff, licences and support to every option; per
/// device licences and support to options with devices (not api); insurance to owned
/// hardware (bought, financed or leased); colocation extras to colocated hardware.
struct CostLineScope {
  bool devices = true;     ///< the option runs devices of its own or rented (not api)
  bool owned = false;      ///< owned hardware (kind buy)
  bool colocated = false;  ///< owned hardware in a colocation rack
};

/// Staff and operations a month: staff_hours_per_month x staff_rate_per_hour + staff_fte x
/// staff_salary_per_year / 12 (each pair 0 when not entered).
double staff_per_month(const CostLines& lines);

/// Software licences a month with `devices` devices in service: licence_per_month +
/// licence_per_year / 12 + licence_per_gpu_per_year x devices / 12.
double licences_per_month(const CostLines& lines, double devices);

/// Support contracts a month: support_per_month + support_per_year / 12 +
/// support_per_gpu_per_year x devices / 12.
double support_per_month(const CostLines& lines, double devices);

/// Insurance a month of hardware whose purchase value is `insured_value`:
/// insurance_per_year x insured_value / 12.
double insurance_per_month(const CostLines& lines, double insured_value);

/// The lines of `scope` that were not entered, as report labels ("staff and operations",
/// "software licences", "support contracts", "insurance", "colocation extras"), in that order.
/// A line counts as entered when any of its keys is (staff: either pair).
std::vector<std::string> cost_lines_not_entered(const CostLines& lines, const CostLineScope& scope);

/// Throws EngineError naming the option and the line unless every entered value is a finite,
/// non-negative number (insurance_per_year at most 1, staff_fte at most 10000), and each staff
/// pair is entered whole (hours with a rate, FTE with a salary).
void validate_cost_lines(const CostLines& lines, const std::string& option_id);

}  // namespace gputco
