// A scenario after resolution: every number known, each with where it came from.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/plan/plan.hpp"
#include "engine/plan/sensitivity.hpp"

namespace gputco {

/// One input as shown on the workbook's Inputs sheet.
struct InputRow {
  std::string section;          ///< "scenario", "workload", "site", or the option id
  std::string key;              ///< scenario key, e.g. "price_per_gpu"
  std::string label;            ///< human label, e.g. "Purchase price per GPU"
  std::optional<double> value;  ///< numeric inputs
  std::string text;             ///< text inputs (ids, names) when value is empty
  std::string unit;             ///< "EUR", "EUR/kWh", "h/day", "fraction", ...
  /// Where the value came from: "scenario file line 12", "default", or
  /// "catalog: <source>, observed <date>".
  std::string provenance;
  /// A cost line the scenario did not enter (value empty, counted as 0): the workbook shows
  /// an empty input cell the formulas read as 0, and "not entered" beside it.
  bool not_entered = false;
  /// A value converted from another currency: the amount as published and its currency. The
  /// workbook shows the amount as an input and `value` as amount x the rate fx.CURRENCY.
  std::optional<double> published_amount = std::nullopt;
  std::string published_currency = {};
  /// A fraction read off a catalog resale curve at the horizon: the curve's points (age in
  /// months, fraction), the 0-month point at 1 included, so that the workbook reads it off
  /// the same curve at an edited horizon. Empty: not read off a curve.
  std::vector<std::pair<double, double>> horizon_curve = {};
};

/// One catalog price used by the plan, for the Sources sheet.
struct SourceRow {
  std::string what;   ///< "rtx-3090 purchase (used)", "RunPod 1x_H100 on_demand", ...
  double amount = 0;  ///< in `currency`, as published
  std::string currency;
  std::string unit;  ///< "per device", "per device-hour", "per kWh", "per month"
  std::string observed_on;
  std::string source;
  int age_days = 0;    ///< at the scenario's as_of date
  bool stale = false;  ///< older than the scenario's max_price_age_days
};

/// Who offers the quote: the scenario's [seller] section, shown on the workbook's Cover.
struct Seller {
  std::string company;
  std::string contact;    ///< a name, an e-mail address, a telephone number: as given
  std::string logo_path;  ///< a PNG or JPEG file that exists (checked when resolved); "" none
  int logo_width_px = 0;  ///< the logo's size, read from the file's header
  int logo_height_px = 0;
  std::string terms;  ///< the seller's terms, as given
};

struct ResolvedScenario {
  std::string file;  ///< the scenario file path as given
  std::string name;
  std::string customer;
  std::string quote_id;
  std::string paper = "a4";  ///< page size of the workbook: a4 | letter (scenario key `paper`)
  /// Why that paper: "scenario key paper", or the currency's default ("the default for USD").
  std::string paper_reason = "the default";
  Seller seller;
  /// The option the seller proposes ([scenario] proposed); "" when the scenario names none.
  std::string proposed_option_id;
  /// Display names of options ([option:ID] label), by option id; an option without one is
  /// shown by its id (option_label).
  std::map<std::string, std::string> option_labels;
  int valid_days = 30;  ///< days the quote is valid after as_of (scenario key `valid_days`)
  std::string start;    ///< YYYY-MM, first month of the horizon
  std::string as_of;    ///< YYYY-MM-DD, prices are taken as of this date
  int max_price_age_days = 90;
  PlanInputs plan_inputs;
  /// The Monte Carlo's uncertain inputs: RiskModel's symmetric defaults, replaced by the
  /// scenario's [risk] ranges (plan's Sensitivity sheet, gputco risk).
  RiskModel risk_model;
  std::vector<InputRow> inputs;
  std::vector<SourceRow> sources;
  /// What resolving assumed that the reader must know, one sentence each: a context beyond
  /// the model's trained maximum within its RoPE scaling, a model file's assumptions. The
  /// plan command adds them to the plan's warnings.
  std::vector<std::string> warnings;
};

/// The name a person reads for option `id`: its label, else the id itself.
inline const std::string& option_label(const ResolvedScenario& scenario, const std::string& id) {
  const auto it = scenario.option_labels.find(id);
  return it != scenario.option_labels.end() ? it->second : id;
}

}  // namespace gputco
