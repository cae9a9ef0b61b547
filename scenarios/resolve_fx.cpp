// Exchange rates: the plan currency per unit of another, from the scenario's [fx] or the
// catalog's dated reference rates (directly or crossed through EUR), and conversions with them.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "pricing/number_text.hpp"
#include "scenarios/resolver.hpp"

namespace gputco::resolve_detail {

std::optional<Resolver::FxQuote> Resolver::fx_quote(const std::string& from) const {
  const std::string& to = s_.currency;
  if (const auto typed = s_.fx.find(from); typed != s_.fx.end()) return FxQuote{typed->second, {}};
  if (auto fx = catalog_.fx_rate(from, to, s_.as_of)) return FxQuote{fx->rate, {*fx}};
  // ECB reference rates are quoted against the euro: a cross rate through it, both legs of one
  // date: the latest on or before as_of that both are observed on (gputco issue 38: CHF of
  // 2025-02 was crossed with USD of 2026-05). Without a common date, each leg's latest, both
  // dates named in the provenance and the plan's warnings (check_fx_dates).
  auto leg_in = catalog_.fx_rate(from, "EUR", s_.as_of);
  auto leg_out = catalog_.fx_rate("EUR", to, s_.as_of);
  if (!leg_in || !leg_out) return std::nullopt;
  auto in = leg_in;
  auto out = leg_out;
  while (in->provenance.observed_on != out->provenance.observed_on) {
    // Each step moves to the earlier of the two dates: the dates only go down, so it ends.
    const std::string earlier = std::min(in->provenance.observed_on, out->provenance.observed_on);
    auto a = catalog_.fx_rate(from, "EUR", earlier);
    auto b = catalog_.fx_rate("EUR", to, earlier);
    if (!a || !b) break;
    in = a;
    out = b;
  }
  if (in->provenance.observed_on == out->provenance.observed_on) {
    leg_in = in;
    leg_out = out;
  }
  return FxQuote{leg_in->rate * leg_out->rate, {*leg_in, *leg_out}};
}

void Resolver::check_fx_dates() {
  // Every catalog rate a conversion of this plan used, by its pair, with its date.
  std::map<std::string, std::string> dates;  // "BASE/QUOTE" -> observed_on
  for (const auto& [code, rate] : fx_rates_) {
    (void)rate;
    const auto quote = fx_quote(code);
    if (!quote) continue;
    for (const FxRate& leg : quote->legs) {
      dates[leg.base + "/" + leg.quote] = leg.provenance.observed_on;
    }
  }
  std::set<std::string> distinct;
  for (const auto& [pair, date] : dates) distinct.insert(date);
  if (distinct.size() < 2) return;
  std::string listed;
  for (const auto& [pair, date] : dates)
    listed += (listed.empty() ? "" : ", ") + pair + " of " + date;
  r_.warnings.push_back("exchange rates of different dates: " + listed +
                        " (the catalog has no later date they share on or before " + s_.as_of +
                        "; each amount is converted at its own currency's rate)");
}

double Resolver::fx_rate_to_plan(const std::string& from, const std::string& section,
                                 const std::string& key) {
  const std::string& to = s_.currency;
  if (const auto known = fx_rates_.find(from); known != fx_rates_.end()) return known->second;
  const auto quote = fx_quote(from);
  if (!quote) {
    fail(section, key,
         "the catalog has no " + from + "/" + to + " exchange rate as of " + s_.as_of +
             " (nor one through EUR); give it as [fx] " + from + " = " + to + " per " + from +
             ", or this value in " + to);
  }
  std::string provenance;
  if (quote->legs.empty()) {
    provenance = s_.provenance("fx", from);
  } else if (quote->legs.size() == 1) {
    provenance = listed_fx_source(quote->legs[0]);
  } else {
    const FxRate& in = quote->legs[0];
    const FxRate& out = quote->legs[1];
    provenance = "cross rate through EUR: " + fixed(in.rate, 6) + " EUR/" + from + " x " +
                 fixed(out.rate, 6) + " " + to + "/EUR (" + listed_fx_source(in) + "; " +
                 listed_fx_source(out) + ")";
  }
  fx_rates_[from] = quote->rate;
  number("fx", from, "Exchange rate: " + to + " per " + from, quote->rate, to + "/" + from,
         provenance);
  return quote->rate;
}

std::optional<double> Resolver::usd_rate_for_limits() const {
  if (s_.currency == "USD") return 1.0;
  if (const auto quote = fx_quote("USD")) return quote->rate;
  const std::string latest = "2999-12-31";  // the last date a scenario may give
  if (const auto direct = catalog_.fx_rate("USD", s_.currency, latest)) return direct->rate;
  const auto leg_in = catalog_.fx_rate("USD", "EUR", latest);
  const auto leg_out = catalog_.fx_rate("EUR", s_.currency, latest);
  if (!leg_in || !leg_out) return std::nullopt;
  return leg_in->rate * leg_out->rate;
}

void Resolver::check_money_limits() const {
  if (s_.money_limits.empty()) return;
  const auto usd = usd_rate_for_limits();
  if (!usd) return;
  for (const ScenarioMoneyLimit& m : s_.money_limits) {
    // The limit as the message shows it (6 significant digits), so that a value typed as
    // shown is accepted.
    const std::string shown = fmt::format("{:.6g}", m.max_usd * *usd);
    if (m.value <= parse_number_text(shown).value_or(m.max_usd * *usd)) continue;
    const std::string in_usd = s_.currency == "USD" ? std::string()
                                                    : fmt::format(" ({:g} USD at {:.6g} {}/USD)",
                                                                  m.max_usd, *usd, s_.currency);
    fail(m.section, m.key,
         fmt::format("expected {} between 0 and {} {}{}, got {}", m.what, shown, s_.currency,
                     in_usd, m.text));
  }
}

std::string Resolver::listed_fx_source(const FxRate& fx) {
  const std::string what = "FX " + fx.base + "/" + fx.quote;
  for (const auto& row : r_.sources) {
    if (row.what == what) return source_provenance(fx.provenance);
  }
  return source(what, fx.rate, fx.quote, "per " + fx.base, fx.provenance);
}

double Resolver::convert(double amount, const std::string& from, std::string& provenance,
                         const std::string& section, const std::string& key,
                         std::string& converted_from) {
  const std::string& to = s_.currency;
  converted_from.clear();
  if (from == to) return amount;
  const double rate = fx_rate_to_plan(from, section, key);
  converted_from = from;
  converted_currencies_.insert(from);
  provenance += "; converted from " + fixed(amount, 4) + " " + from + " at " + fixed(rate, 4) +
                " " + to + "/" + from + " (fx." + from + ")";
  pending_conversion_ = Conversion{amount, from, rate};
  return amount * rate;
}

}  // namespace gputco::resolve_detail
