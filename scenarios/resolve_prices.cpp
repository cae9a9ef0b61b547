// Rental rates, the choice among catalog prices by price basis and freshness, and prices
// (typed or chosen) checked against their market.
#include "scenarios/resolver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/base/units.hpp"
#include "scenarios/dates.hpp"
#include "scenarios/price_checks.hpp"

namespace gputco::resolve_detail {

PriceBasis Resolver::basis_of(const ScenarioOption& o) const {
  PriceBasis b;
  b.basis = o.price_basis.empty() ? s_.price_basis : o.price_basis;
  b.prefer_fresh = o.prefer_fresh_prices.value_or(s_.prefer_fresh_prices);
  b.max_age_days = s_.max_price_age_days;
  b.as_of = s_.as_of;
  return b;
}

std::optional<double> Resolver::maybe_in_plan_currency(double amount,
                                                       const std::string& currency) const {
  if (currency == s_.currency) return amount;
  const auto fx = fx_quote(currency);
  if (!fx) return std::nullopt;
  return amount * fx->rate;
}

double Resolver::in_plan_currency(double amount, const std::string& currency) const {
  return maybe_in_plan_currency(amount, currency).value_or(amount);
}

void Resolver::check_purchase(const ScenarioOption& o, OptionInputs& oi, double price, bool typed) {
  if (!(price > 0)) return;  // 0: free (hardware at hand), a choice, not a figure to check
  std::vector<double> market;
  for (const auto& point : catalog_.purchase_market(oi.device.id, s_.as_of)) {
    if (auto v = maybe_in_plan_currency(point.amount, point.currency)) market.push_back(*v);
  }
  const MarketVerdict v =
      judge_against_market(price, market, Catalog::kPlausibleRatio, Catalog::kPlausibleRatio, 1);
  if (v.level == MarketVerdict::Level::unknown || v.level == MarketVerdict::Level::fine) return;
  const std::string what = fmt::format(
      "{} {} per device is {} the median {} {} of the catalog's {} purchase prices of {} (any "
      "condition, up to {})",
      money_text(price), s_.currency, factor_text(v.ratio), money_text(v.median), s_.currency,
      v.peers, oi.device.id, s_.as_of);
  if (typed && v.level == MarketVerdict::Level::absurd) {
    fail("option:" + o.id, "price_per_gpu",
         what + ": cannot be meant; give the purchase price of one device in " + s_.currency);
  }
  oi.input_warnings.push_back(
      std::string(typed ? "price_per_gpu (typed): " : "purchase price (catalog): ") + what +
      fmt::format(" (plausible: 1/{} to {} x)", Catalog::kPlausibleRatio,
                  Catalog::kPlausibleRatio) +
      (typed ? "" : "; a price imported with --accept-outliers? check its row"));
}

void Resolver::check_rental(const ScenarioOption& o, OptionInputs& oi, const std::string& term,
                            const std::string& key, double per_hour, bool typed) {
  if (!(per_hour > 0)) return;  // 0: free capacity, a choice, not a figure to check
  // The market near as_of; with fewer than kRentalMinPeers offers there, of any date (gputco
  // issue 38), as Catalog::rental_plausibility falls back.
  const auto market_of = [&](bool any_date) {
    std::vector<double> market;
    for (const auto& point : catalog_.rental_market(oi.device.id, term, s_.as_of, any_date)) {
      if (auto v = maybe_in_plan_currency(point.amount, point.currency)) market.push_back(*v);
    }
    return market;
  };
  std::vector<double> market = market_of(false);
  const bool any_date = static_cast<int>(market.size()) < Catalog::kRentalMinPeers;
  if (any_date) market = market_of(true);
  const MarketVerdict v =
      judge_against_market(per_hour, market, Catalog::kRentalPlausibleBelow,
                           Catalog::kRentalPlausibleAbove, Catalog::kRentalMinPeers);
  const bool monthly = key == "price_per_month";
  const std::string per_month =
      monthly
          ? fmt::format("{} {} a month / {} device(s) / {} h = ", money_text(oi.price_per_month),
                        s_.currency, oi.count, Catalog::kHoursPerMonth)
          : std::string();
  const std::string label = key + (typed ? " (typed): " : " (catalog): ");
  const std::string hint_row =
      typed ? "" : "; an offer imported with --accept-outliers? check its row";
  if (v.level == MarketVerdict::Level::unknown) {
    check_rental_against_purchase(oi, term, per_hour, per_month, label, hint_row);
    return;
  }
  if (v.level == MarketVerdict::Level::fine) return;
  const std::string what =
      per_month +
      fmt::format("{} {} per device-hour is {} the {} {} {} of {} {} offers of {} ",
                  rate_text(per_hour), s_.currency, factor_text(v.ratio),
                  any_date ? "median" : "dated median", rate_text(v.median), s_.currency, v.peers,
                  term, oi.device.id) +
      (any_date ? fmt::format("(of any date up to {}: fewer than {} in the {} days before it)",
                              s_.as_of, Catalog::kRentalMinPeers, Catalog::kRentalWindowDays)
                : fmt::format("(observed in the {} days up to {})", Catalog::kRentalWindowDays,
                              s_.as_of));
  if (typed && v.level == MarketVerdict::Level::absurd) {
    const std::string hint = hours_per_month_hint(v.ratio);
    fail("option:" + o.id, key,
         what + ": cannot be meant" + (hint.empty() ? "" : "; " + hint) + "; give the " +
             (monthly ? "rent of the whole server per month" : "rate per device-hour") + " in " +
             s_.currency);
  }
  oi.input_warnings.push_back(label + what +
                              fmt::format(" (plausible: 1/{} to {} x)",
                                          Catalog::kRentalPlausibleBelow,
                                          Catalog::kRentalPlausibleAbove) +
                              hint_row);
}

void Resolver::check_rental_against_purchase(OptionInputs& oi, const std::string& term,
                                             double per_hour, const std::string& per_month,
                                             const std::string& label,
                                             const std::string& hint_row) {
  std::vector<double> prices;
  for (const auto& point : catalog_.purchase_market(oi.device.id, s_.as_of)) {
    if (auto v = maybe_in_plan_currency(point.amount, point.currency)) prices.push_back(*v);
  }
  if (prices.empty()) return;
  const auto [lowest, highest] = std::minmax_element(prices.begin(), prices.end());
  const double floor = *lowest / Catalog::kOwnedHours;
  const double ceiling = *highest / Catalog::kPaybackHours;
  std::string verdict;
  // Spot sells idle capacity at what it costs to run, below what owning costs: no floor.
  if (per_hour < floor && term != "spot") {
    verdict = fmt::format(
        "below the lowest catalog purchase price {} {} of {} / {} h (3 years "
        "of hours) = {} {}",
        money_text(*lowest), s_.currency, oi.device.id, Catalog::kOwnedHours, rate_text(floor),
        s_.currency);
  } else if (per_hour > ceiling) {
    verdict = fmt::format(
        "above the highest catalog purchase price {} {} of {} / {} h (3 "
        "months of hours) = {} {}",
        money_text(*highest), s_.currency, oi.device.id, Catalog::kPaybackHours, rate_text(ceiling),
        s_.currency);
  }
  if (verdict.empty()) return;
  oi.input_warnings.push_back(
      label + per_month +
      fmt::format("{} {} per device-hour is {} (fewer than {} {} offers of {} to compare "
                  "with, of any date up to {})",
                  rate_text(per_hour), s_.currency, verdict, Catalog::kRentalMinPeers, term,
                  oi.device.id, s_.as_of) +
      hint_row);
}

void Resolver::check_spot_above_on_demand() {
  auto& options = r_.plan_inputs.options;
  for (OptionInputs& cheap : options) {
    if (cheap.kind != OptionKind::rent_hourly || cheap.term == RentTerm::on_demand) continue;
    // Spot sells spare capacity, a reserved term buys a commitment: both below on-demand.
    const bool spot = cheap.term == RentTerm::spot;
    const std::string term = spot                                  ? "spot"
                             : cheap.term == RentTerm::reserved_1y ? "reserved_1y"
                                                                   : "reserved_3y";
    const std::string why = spot ? "spot capacity sells below on-demand"
                                 : "a reserved term is a commitment sold below on-demand";
    bool compared = false;
    for (const OptionInputs& od : options) {
      if (od.kind != OptionKind::rent_hourly || od.term != RentTerm::on_demand ||
          od.device.id != cheap.device.id) {
        continue;
      }
      compared = true;
      if (cheap.rate_per_gpu_hour > od.rate_per_gpu_hour) {
        cheap.input_warnings.push_back(fmt::format(
            "{} rate {} {} per device-hour is above the on-demand rate {} {} of option '{}' "
            "(the same device): {}; check both figures",
            term, rate_text(cheap.rate_per_gpu_hour), s_.currency, rate_text(od.rate_per_gpu_hour),
            s_.currency, od.id, why));
      }
    }
    if (compared) continue;
    std::vector<double> market;
    for (const auto& point : catalog_.rental_market(cheap.device.id, "on_demand", s_.as_of)) {
      if (auto v = maybe_in_plan_currency(point.amount, point.currency)) market.push_back(*v);
    }
    const MarketVerdict v =
        judge_against_market(cheap.rate_per_gpu_hour, market, 1e9, 1e9, Catalog::kRentalMinPeers);
    if (v.level != MarketVerdict::Level::unknown && v.ratio > 1) {
      cheap.input_warnings.push_back(fmt::format(
          "{} rate {} {} per device-hour is above the dated median {} {} of the catalog's {} "
          "on_demand offers of {}: {}; check the figure",
          term, rate_text(cheap.rate_per_gpu_hour), s_.currency, rate_text(v.median), s_.currency,
          v.peers, cheap.device.id, why));
    }
  }
}

void Resolver::resolve_hourly(const ScenarioOption& o, OptionInputs& oi,
                              const std::string& section) {
  const std::string term = o.kind == "rent_spot" ? "spot" : o.term.empty() ? "on_demand" : o.term;
  oi.term = term == "spot"          ? RentTerm::spot
            : term == "reserved_1y" ? RentTerm::reserved_1y
            : term == "reserved_3y" ? RentTerm::reserved_3y
                                    : RentTerm::on_demand;
  text(o.id, "term", "Billing term", term,
       o.kind == "rent_spot" ? "kind = rent_spot"
       : o.term.empty()      ? "default: on_demand"
                             : "");
  if (oi.term == RentTerm::spot) {
    oi.goodput = o.goodput.value_or(kDefaultSpotGoodput);
    number(o.id, "goodput", "Spot goodput (useful share of billed hours)", oi.goodput, "fraction",
           o.goodput ? ""
                     : "default: 0.9 (assumption: a tenth of spot hours lost to "
                       "interruptions and restarts)");
  }
  if (term_months(oi.term) > 0) {
    number(o.id, "term_months", "Reserved term", term_months(oi.term), "months", "term = " + term);
  } else {
    resolve_hourly_billing(o, oi);
  }
  resolve_hourly_rate(o, oi, section, term);
}

void Resolver::resolve_hourly_billing(const ScenarioOption& o, OptionInputs& oi) {
  HourlyBilling& b = oi.hourly_billing;
  b.billing = o.billing == "autoscaled" ? Billing::autoscaled : Billing::always_on;
  text(o.id, "billing", "Billing of the rental", to_string(b.billing),
       o.billing.empty() ? "default: always_on (the instances the peak needs, billed for every "
                           "hour of availability, busy or not)"
                         : "");
  if (b.billing != Billing::autoscaled) return;
  b.min_instances = o.min_instances.value_or(0);
  number(o.id, "min_instances", "Instances always running (autoscaled)", b.min_instances,
         "instances", o.min_instances ? "" : "default: 0 (scales to zero)");
  b.granularity = o.billing_granularity == "hour"     ? BillingGranularity::hour
                  : o.billing_granularity == "minute" ? BillingGranularity::minute
                                                      : BillingGranularity::second;
  number(o.id, "billing_periods_per_hour",
         "Billing periods per hour (each busy period rounded up to one)",
         periods_per_hour(b.granularity), "periods/h",
         "billing_granularity = " + to_string(b.granularity) +
             (o.billing_granularity.empty() ? " (default: per second, as AWS EC2 and Google "
                                              "Compute Engine bill Linux instances)"
                                            : ""));
}

void Resolver::resolve_hourly_rate(const ScenarioOption& o, OptionInputs& oi,
                                   const std::string& section, const std::string& term) {
  if (o.rate_per_gpu_hour) {
    oi.rate_per_gpu_hour = *o.rate_per_gpu_hour;
    number(o.id, "rate_per_gpu_hour", "Rate per device-hour", oi.rate_per_gpu_hour,
           s_.currency + "/h");
    check_rental(o, oi, term, "rate_per_gpu_hour", oi.rate_per_gpu_hour, true);
    return;
  }
  std::vector<RentalOffer> candidates;
  for (const auto& offer : catalog_.rental_offers(s_.as_of, oi.device.id, "hourly", term)) {
    if (o.provider.empty() || offer.provider == o.provider) candidates.push_back(offer);
  }
  // A unit of N devices is one box: offers whose instance holds N or more, before smaller
  // instances (offers_for_unit; docs/scenario-reference.md "Which price a plan takes").
  const int unit = std::max(1, oi.count);
  const UnitOffers fit = offers_for_unit(candidates, unit);
  const std::string offers_of = term + " hourly offers of " + oi.device.id +
                                (o.provider.empty() ? "" : " from " + o.provider);
  const std::string holding = unit == 1 ? ""
                              : fit.smaller_instances
                                  ? fmt::format(" (none holds {} devices in one instance)", unit)
                                  : fmt::format(" whose instance holds at least {} devices", unit);
  const auto choice = choose_rental_offer(
      fit.offers, basis_of(o),
      [&](const RentalOffer& r) { return in_plan_currency(r.amount_per_device(), r.currency); },
      offers_of + holding);
  if (!choice) {
    fail(section, "rate_per_gpu_hour",
         "the catalog has no " + term + " hourly offer for " + oi.device.id +
             (o.provider.empty() ? "" : " from " + o.provider) + " as of " + s_.as_of +
             "; set rate_per_gpu_hour");
  }
  const RentalOffer& best = choice->row;
  const std::string instance = fmt::format("an instance of {} device{}", best.devices_per_instance,
                                           best.devices_per_instance == 1 ? "" : "s");
  // The offer and its instance size head the provenance (Inputs sheet, JSON inputs).
  std::string provenance =
      fmt::format("{} {} ({}), {} {} an instance-hour for {}; ", best.provider, best.sku, best.term,
                  rate_text(best.amount), best.currency, instance) +
      source(best.provider + " " + best.sku + " (" + best.term + ")", best.amount, best.currency,
             "per instance-hour, " + std::to_string(best.devices_per_instance) + " device(s)",
             best.provenance);
  provenance += "; " + choice->reason;
  if (fit.smaller_instances) {
    oi.input_warnings.push_back(fmt::format(
        "rental rate: the catalog has no {} whose instance holds the option's {} devices (the "
        "largest holds {}): the rate is {} {}'s, {}, fewer devices than the option's box; {} "
        "such instances are not one box, and a replica across several GPUs (tensor or pipeline "
        "parallel) needs the NVLink within one box; set rate_per_gpu_hour to a {}-GPU "
        "instance's rate per device-hour, or count to at most {}",
        offers_of, unit, fit.largest_instance, best.provider, best.sku, instance,
        (unit + best.devices_per_instance - 1) / best.devices_per_instance, unit,
        fit.largest_instance));
  }
  for (const auto& w : choice->warnings) oi.input_warnings.push_back("rental rate: " + w);
  offer_region_ = best.region;
  oi.rate_per_gpu_hour = convert(best.amount_per_device(), best.currency, provenance, section,
                                 "gpu", oi.converted_from.rate_per_gpu_hour);
  number(o.id, "rate_per_gpu_hour", "Rate per device-hour (" + best.provider + ")",
         oi.rate_per_gpu_hour, s_.currency + "/h", provenance);
  check_rental(o, oi, term, "rate_per_gpu_hour", oi.rate_per_gpu_hour, false);
}

void Resolver::resolve_monthly(const ScenarioOption& o, OptionInputs& oi,
                               const std::string& section, int needed) {
  oi.notice_months = o.notice_months.value_or(0);
  number(o.id, "notice_months", "Notice period (paid after the horizon)", oi.notice_months,
         "months", o.notice_months ? "" : "default: 0 (no notice period)");
  if (o.price_per_month) {
    oi.count = o.count.value_or(needed > 0 ? needed : 1);
    number(o.id, "count", "Devices in the server", oi.count, "devices");
    oi.price_per_month = *o.price_per_month;
    number(o.id, "price_per_month", "Server rent per month", oi.price_per_month, s_.currency);
    check_rental(o, oi, "on_demand", "price_per_month",
                 oi.price_per_month / oi.count / Catalog::kHoursPerMonth, true);
    oi.setup_fee = o.setup_fee.value_or(0);
    number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency,
           o.setup_fee ? "" : "default: 0");
    return;
  }
  // A monthly server with this device: of the stated count, or of enough devices to hold
  // the model; by the price basis, fresh before stale.
  std::vector<RentalOffer> candidates;
  for (const auto& offer : catalog_.rental_offers(s_.as_of, oi.device.id, "monthly", "")) {
    if (!o.provider.empty() && offer.provider != o.provider) continue;
    if (o.count ? offer.devices_per_instance != *o.count
                : offer.devices_per_instance < std::max(needed, 1)) {
      continue;
    }
    candidates.push_back(offer);
  }
  // "2 x rtx-4090", or "enough rtx-4090 for the model" when count is not given.
  const std::string server_devices = o.count ? std::to_string(*o.count) + " x " + oi.device.id
                                             : "enough " + oi.device.id + " for the model";
  const auto choice = choose_rental_offer(
      candidates, basis_of(o),
      [&](const RentalOffer& r) { return in_plan_currency(r.amount, r.currency); },
      "monthly servers with " + server_devices);
  if (!choice) {
    fail(section, "price_per_month",
         "the catalog has no monthly server with " + server_devices +
             (o.provider.empty() ? "" : " from " + o.provider) + " as of " + s_.as_of +
             "; set price_per_month");
  }
  for (const auto& w : choice->warnings) oi.input_warnings.push_back("server rent: " + w);
  const RentalOffer* best = &choice->row;
  oi.count = best->devices_per_instance;
  offer_region_ = best->region;
  number(o.id, "count", "Devices in the server", oi.count, "devices",
         "catalog offer " + best->provider + " " + best->sku);
  std::string provenance = source(best->provider + " " + best->sku + " (monthly)", best->amount,
                                  best->currency, "per month", best->provenance);
  provenance += "; " + choice->reason;
  oi.price_per_month = convert(best->amount, best->currency, provenance, section, "gpu",
                               oi.converted_from.price_per_month);
  number(o.id, "price_per_month", "Server rent per month (" + best->provider + ")",
         oi.price_per_month, s_.currency, provenance);
  check_rental(o, oi, "on_demand", "price_per_month",
               oi.price_per_month / oi.count / Catalog::kHoursPerMonth, false);
  if (o.setup_fee) {
    oi.setup_fee = *o.setup_fee;
    number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency);
  } else {
    std::string fee_provenance = "catalog offer " + best->provider + " " + best->sku;
    oi.setup_fee = convert(best->setup_fee, best->currency, fee_provenance, section, "gpu",
                           oi.converted_from.setup_fee);
    number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency, fee_provenance);
  }
}

}  // namespace gputco::resolve_detail
