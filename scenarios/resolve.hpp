// Resolution: scenario names and missing prices looked up in the catalog as of a date.
#pragma once

#include "pricing/catalog.hpp"
#include "scenarios/resolved.hpp"
#include "scenarios/scenario.hpp"

namespace gputco {

/// Resolves a parsed scenario against the catalog as of `scenario.as_of`:
/// - model, quant and every option's gpu must be catalog ids (ScenarioError otherwise, with
///   the nearest id as a suggestion);
/// - missing prices come from the catalog: buy: the latest price in the option's condition;
///   rent_hourly: the cheapest on-demand offer per device (optionally of one provider);
///   rent_monthly: the cheapest monthly offer for that device and count; tariff: the
///   catalog tariff named by [site] tariff;
/// - prices in another currency are converted with the catalog's FX rate as of the date;
/// - a missing device count is the smallest count that holds the model.
/// Every value lands in `inputs` with its provenance; every catalog price in `sources`
/// with its age at as_of and a stale flag (older than max_price_age_days).
/// Throws ScenarioError (bad input) naming the file, key and line; the serving model's
/// refusals (an unmeetable latency target, an engine that does not run the quant) too, at the
/// line of the key they name, else naming the file.
ResolvedScenario resolve(const Scenario& scenario, const Catalog& catalog);

}  // namespace gputco
