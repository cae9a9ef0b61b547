// An api option's prices per million tokens and rate limits: typed, or the catalog's API
// price (converted to the plan currency), with a warning when the API serves another model
// than the plan's.
#include <optional>
#include <string>
#include <utility>

#include "scenarios/resolver.hpp"

namespace gputco::resolve_detail {

void Resolver::resolve_api(const ScenarioOption& o, OptionInputs& oi, const std::string& section) {
  // The provider runs the model: a serving engine or weight format of ours changes nothing.
  for (const auto& [key, value] : {std::pair<const char*, const std::string&>{"engine", o.engine},
                                   std::pair<const char*, const std::string&>{"quant", o.quant}}) {
    if (value.empty()) continue;
    r_.warnings.push_back("[" + section + "] " + key + " = " + value + " is ignored: " + o.id +
                          " is an api option, priced per token (the provider runs the model "
                          "with its own engine and weights)");
  }
  std::optional<ApiPrice> price;
  if (!o.api.empty()) {
    price = catalog_.api_price(o.api, s_.as_of);
    if (!price) {
      unknown(section, "api", "API price (as of " + s_.as_of + ")", o.api,
              ids_of(catalog_.api_prices(s_.as_of), [](const ApiPrice& a) { return a.id; }),
              "gputco catalog list apis");
    }
    oi.api_model = price->api_model;
    text(o.id, "api", "API (" + price->provider + ")", price->api_model,
         "catalog API price " + price->id);
    const std::string& model = r_.plan_inputs.model.id;
    if (!price->comparable_model_id.empty() || !model.empty()) {
      text(o.id, "comparable_model_id", "Open model it serves",
           price->comparable_model_id.empty() ? "none published (proprietary)"
                                              : price->comparable_model_id,
           price->comparable_model_id == model
               ? "catalog: the workload's model"
               : "catalog: not the workload's model (" + model + "); compare with care");
    }
    // Another model answers differently (quality, length): compared, but never silently.
    if (price->comparable_model_id != model) {
      oi.input_warnings.push_back(
          "serves " + price->api_model + " (" + price->provider + ", catalog API " + price->id +
          (price->comparable_model_id.empty() ? ", no open model published as comparable"
                                              : ", comparable to " + price->comparable_model_id) +
          "), not the plan's model " + model +
          ": its cost is compared as if it answered alike; judge the quality apart");
    }
  } else {
    oi.api_model = o.id;
  }
  const auto price_of = [&](const char* key, const std::optional<double>& given_value,
                            double catalog_amount, const char* label, const char* unit_text,
                            std::string& converted_from) {
    if (given_value) {
      number(o.id, key, label, *given_value, s_.currency + "/M tokens");
      return *given_value;
    }
    std::string provenance =
        source("API " + price->id + " " + unit_text, catalog_amount, price->currency,
               "per million " + std::string(unit_text), price->provenance);
    const double amount =
        convert(catalog_amount, price->currency, provenance, section, "api", converted_from);
    number(o.id, key, label, amount, s_.currency + "/M tokens", provenance);
    return amount;
  };
  oi.input_price_per_million = price_of(
      "input_price_per_million", o.input_price_per_million, price ? price->input_per_million : 0,
      "Price per million input tokens", "input tokens", oi.converted_from.input_price_per_million);
  oi.output_price_per_million =
      price_of("output_price_per_million", o.output_price_per_million,
               price ? price->output_per_million : 0, "Price per million output tokens",
               "output tokens", oi.converted_from.output_price_per_million);
  const auto limit = [&](const char* key, const std::optional<double>& given_value,
                         const std::optional<double>& catalog_value, const char* label,
                         const char* unit) -> std::optional<double> {
    if (given_value) {
      number(o.id, key, label, *given_value, unit);
      return given_value;
    }
    if (price && catalog_value) {
      number(o.id, key, label, *catalog_value, unit,
             "catalog: " + price->provenance.source + ", observed " +
                 price->provenance.observed_on +
                 (price->note.empty() ? "" : " (" + price->note + ")"));
      return catalog_value;
    }
    return std::nullopt;
  };
  oi.requests_per_minute_limit =
      limit("requests_per_minute_limit", o.requests_per_minute_limit,
            price ? price->requests_per_minute : std::nullopt, "Rate limit", "requests/min");
  oi.tokens_per_minute_limit =
      limit("tokens_per_minute_limit", o.tokens_per_minute_limit,
            price ? price->tokens_per_minute : std::nullopt, "Rate limit", "tokens/min");
}

}  // namespace gputco::resolve_detail
