// Owned hardware: the purchase price, resale at the horizon, hosting and financing.
#include "scenarios/resolver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/base/units.hpp"
#include "engine/hardware/power_limit.hpp"
#include "scenarios/dates.hpp"
#include "scenarios/price_checks.hpp"

namespace gputco::resolve_detail {

void Resolver::resolve_device_price(const ScenarioOption& o, OptionInputs& oi,
                                    const std::string& section) {
  if (o.price_per_gpu) {
    oi.price_per_gpu = *o.price_per_gpu;
    number(o.id, "price_per_gpu", "Purchase price per device", oi.price_per_gpu, s_.currency);
    check_purchase(o, oi, oi.price_per_gpu, true);
  } else {
    std::vector<PriceObservation> candidates;
    for (const auto& p : catalog_.prices(s_.as_of)) {
      if (p.item_id == oi.device.id && p.condition == o.condition) candidates.push_back(p);
    }
    const auto choice = choose_purchase_price(candidates, basis_of(o), [&](const auto& p) {
      return in_plan_currency(p.amount, p.currency);
    });
    if (!choice) {
      fail(section, "price_per_gpu",
           "the catalog has no " + o.condition + " price for " + oi.device.id + " as of " +
               s_.as_of + "; set price_per_gpu");
    }
    const PriceObservation& price = choice->row;
    std::string provenance =
        source(oi.device.id + " purchase (" + o.condition + ", " + price.price_type + ")",
               price.amount, price.currency, "per device", price.provenance);
    provenance += "; " + choice->reason;
    for (const auto& w : choice->warnings) oi.input_warnings.push_back("purchase price: " + w);
    oi.price_per_gpu = convert(price.amount, price.currency, provenance, section, "gpu",
                               oi.converted_from.price_per_gpu);
    number(o.id, "price_per_gpu", "Purchase price per device", oi.price_per_gpu, s_.currency,
           provenance);
    check_purchase(o, oi, oi.price_per_gpu, false);
  }
}

void Resolver::resolve_buy(const ScenarioOption& o, OptionInputs& oi, const std::string& section) {
  text(o.id, "condition", "Condition", o.condition);
  if (system_) {
    resolve_system_price(o, oi, section);
  } else {
    resolve_device_price(o, oi, section);
    oi.host_cost = o.host_cost.value_or(0);
    oi.host_cost_entered = o.host_cost.has_value();
    number(o.id, "host_cost", "Host system (chassis, CPU, PSU)", oi.host_cost, s_.currency,
           o.host_cost ? "" : "default: 0 (no host price given; host_cost = 0 says so)");
  }
  if (oi.device.power_limit_w > 0) {
    number(o.id, "board_power_w", "Power per device at load (its power limit)",
           load_power_w(oi.device), "W",
           fmt::format("power_limit_w (catalog device {}: board power {:g} W)", oi.device.id,
                       oi.device.board_power_w));
  } else {
    number(o.id, "board_power_w", "Board power per device", oi.device.board_power_w, "W",
           "catalog device " + oi.device.id);
  }
  const bool system_power = oi.device.kind == DeviceKind::unified;
  if (system_ && !o.host_power_w) {
    const System& sys = system_->system;
    oi.host_power_w = sys.host_power_w;
    number(o.id, "host_power_w", "Host power at load", oi.host_power_w, "W",
           "catalog system " + sys.id + ": " + sys.provenance.source + ", observed " +
               sys.provenance.observed_on);
  } else {
    oi.host_power_w = o.host_power_w.value_or(system_power ? 0 : kDefaultHostPowerW);
    number(o.id, "host_power_w", "Host power at load", oi.host_power_w, "W",
           o.host_power_w ? ""
           : system_power ? "default: 0 (the device's power is the whole system's)"
                          : "default: 150 W for the rest of a desktop (DOMAIN E5)");
  }
  check_host(o, oi);
  resolve_residual(o, oi);
  oi.maintenance_per_year = o.maintenance_per_year.value_or(0);
  number(o.id, "maintenance_per_year", "Maintenance per year", oi.maintenance_per_year,
         "fraction of capex", o.maintenance_per_year ? "" : "default: 0");
  const bool used = oi.condition == Condition::used;
  oi.warranty_months = o.warranty_months.value_or(used ? 0 : kDefaultWarrantyNewMonths);
  number(o.id, "warranty_months", "Warranty", oi.warranty_months, "months",
         o.warranty_months ? ""
         : used            ? "default: 0 (used hardware, sold without warranty)"
                           : "default: 24 months, the EU legal guarantee on new goods "
                             "(Directive (EU) 2019/771)");
  oi.annual_failure_rate = o.annual_failure_rate.value_or(0);
  number(o.id, "annual_failure_rate", "Failures per year after the warranty",
         oi.annual_failure_rate, "fraction of devices",
         o.annual_failure_rate ? "" : "default: 0 (no failures counted; set it for used cards)");
  resolve_hosting(o, oi);
  resolve_financing(o, oi, section);
}

void Resolver::resale_sources(const ResaleChoice& choice, const std::string& condition) {
  for (const ResalePoint& point : choice.points) {
    const std::string what = "resale curve " + choice.curve + " (" + condition + ") at " +
                             std::to_string(point.age_months) + " months";
    bool listed = false;
    for (const auto& row : r_.sources) listed = listed || row.what == what;
    if (listed) continue;
    const int age = days_between(point.provenance.observed_on, s_.as_of);
    r_.sources.push_back({what, point.fraction, "", "fraction of the purchase price",
                          point.provenance.observed_on, point.provenance.source, age,
                          age > s_.max_price_age_days});
  }
}

namespace {

/// A resale curve's points as resale_at reads them: the 0-month point at 1 first when the
/// curve has none.
std::vector<std::pair<double, double>> horizon_curve(const std::vector<ResalePoint>& curve) {
  std::vector<std::pair<double, double>> points;
  if (!curve.empty() && curve.front().age_months > 0) points.emplace_back(0.0, 1.0);
  for (const ResalePoint& p : curve) points.emplace_back(p.age_months, p.fraction);
  return points;
}

}  // namespace

void Resolver::resolve_residual(const ScenarioOption& o, OptionInputs& oi) {
  if (o.residual_fraction) {
    oi.residual_fraction = *o.residual_fraction;
    number(o.id, "residual_fraction", "Resale value at the horizon", oi.residual_fraction,
           "fraction of capex");
    return;
  }
  const std::string device_class = to_string(oi.device.kind);
  const auto devices =
      choose_resale(catalog_, device_class, o.condition, s_.horizon_months, s_.as_of);
  if (!devices) {
    oi.residual_fraction = 0;
    number(o.id, "residual_fraction", "Resale value at the horizon", 0, "fraction of capex",
           "default: 0 (the catalog has no resale curve for " + o.condition + " devices)");
    return;
  }
  resale_sources(*devices, o.condition);
  const std::string at = " at " + std::to_string(s_.horizon_months) + " months: ";
  const std::string device_text =
      devices->own_class
          ? "catalog resale curve " + devices->curve + " (" + o.condition + ")" + at + devices->how
          : "default: the catalog has no resale curve for " + device_class + " (" + o.condition +
                ") devices; the lowest of the other classes' curves, " + devices->curve + " (" +
                o.condition + ")" + at + devices->how;
  const std::string later = " (Sources sheet; units added later are valued at the same fraction)";
  // The devices' own curve (not the lowest of the others', which may change with the age).
  const auto device_curve =
      devices->own_class
          ? horizon_curve(catalog_.resale_curve(devices->curve, o.condition, s_.as_of))
          : std::vector<std::pair<double, double>>{};
  if (!(oi.host_cost > 0)) {
    oi.residual_fraction = devices->fraction;
    number(o.id, "residual_fraction", "Resale value at the horizon", oi.residual_fraction,
           "fraction of capex", device_text + later);
    r_.inputs.back().horizon_curve = device_curve;
    return;
  }
  // The host (servers, CPUs, chassis) loses value faster than its GPUs: its own curve.
  const auto host = choose_resale(catalog_, "host", o.condition, s_.horizon_months, s_.as_of);
  if (host) resale_sources(*host, o.condition);
  const double host_fraction = host ? host->fraction : devices->fraction;
  number(o.id, "device_residual_fraction", "Resale value of the devices at the horizon",
         devices->fraction, "fraction of the devices' price", device_text);
  r_.inputs.back().horizon_curve = device_curve;
  number(o.id, "host_residual_fraction", "Resale value of the host at the horizon", host_fraction,
         "fraction of host_cost",
         host ? "catalog resale curve host (" + o.condition + ")" + at + host->how
              : "default: the catalog has no host resale curve (" + o.condition +
                    "); the devices' curve");
  r_.inputs.back().horizon_curve =
      host ? horizon_curve(catalog_.resale_curve("host", o.condition, s_.as_of)) : device_curve;
  const double device_capex = oi.count * oi.price_per_gpu;
  oi.residual_fraction = (devices->fraction * device_capex + host_fraction * oi.host_cost) /
                         (device_capex + oi.host_cost);
  number(o.id, "residual_fraction", "Resale value at the horizon", oi.residual_fraction,
         "fraction of capex",
         fmt::format("derived: ({:.3f} x devices {:.2f} + {:.3f} x host {:.2f}) / capex {:.2f}; "
                     "curves {} and {}",
                     devices->fraction, device_capex, host_fraction, oi.host_cost,
                     device_capex + oi.host_cost, devices->curve,
                     host ? std::string("host") : devices->curve) +
             later);
}

void Resolver::resolve_hosting(const ScenarioOption& o, OptionInputs& oi) {
  const std::string section = "option:" + o.id;
  oi.hosting =
      o.kind == "colocation" || o.hosting == "colocation" ? Hosting::colocation : Hosting::on_site;
  text(o.id, "hosting", "Hosting", to_string(oi.hosting),
       o.kind == "colocation" ? "kind = colocation" : "");
  if (oi.hosting != Hosting::colocation) {
    if (o.pue) oi.pue = *o.pue;
    if (o.tariff_per_kwh) oi.tariff_per_kwh = *o.tariff_per_kwh;
  } else {
    if (!o.colo_per_kw_month) {
      fail(section, "colo_per_kw_month",
           "missing: colocated hardware needs the data centre's price per kW per month");
    }
    oi.colo_per_kw_month = *o.colo_per_kw_month;
    number(o.id, "colo_per_kw_month", "Colocation price per kW per month", oi.colo_per_kw_month,
           s_.currency + "/kW/month");
    oi.colo_per_rack_unit_month = o.colo_per_rack_unit_month.value_or(0);
    number(o.id, "colo_per_rack_unit_month", "Colocation price per rack unit per month",
           oi.colo_per_rack_unit_month, s_.currency + "/U/month",
           o.colo_per_rack_unit_month ? "" : "default: 0 (no per-rack-unit fee)");
    oi.rack_units = o.rack_units.value_or(kDefaultRackUnits);
    number(o.id, "rack_units", "Rack units per unit", oi.rack_units, "U",
           o.rack_units ? "" : "default: 4 U, a GPU server chassis (assumption)");
    const double power_kw =
        (oi.count * load_power_w(oi.device) + oi.host_power_w) / kWattsPerKilowatt;
    if (o.contracted_kw) {
      oi.contracted_kw = *o.contracted_kw;
      number(o.id, "contracted_kw", "Contracted power per unit", oi.contracted_kw, "kW");
      if (oi.contracted_kw + 1e-9 < power_kw) {
        oi.input_warnings.push_back(fmt::format(
            "contracted_kw = {} kW is below the unit's power at load, {} kW ({} x {} W devices "
            "+ {} W host): the contract cannot carry the unit at full load (power-capped "
            "cards? then set host_power_w and a [device] board power to match)",
            fixed(oi.contracted_kw, 3), fixed(power_kw, 3), oi.count,
            fixed(load_power_w(oi.device), 0), fixed(oi.host_power_w, 0)));
      }
    } else {
      const double step = o.kw_step.value_or(kDefaultKwStep);
      oi.contracted_kw = std::ceil(power_kw / step - 1e-9) * step;
      number(o.id, "kw_step", "Contracted power step", step, "kW",
             o.kw_step ? "" : "default: 0.5 kW steps (assumption; contracts vary)");
      number(o.id, "contracted_kw", "Contracted power per unit", oi.contracted_kw, "kW",
             "derived: power at load " + fixed(power_kw, 3) + " kW rounded up to the step");
    }
    oi.power_metered = o.power_metered.value_or(true);
    number(o.id, "power_metered", "Energy metered apart (1 = yes)", oi.power_metered ? 1 : 0,
           "flag",
           o.power_metered ? "" : "default: true (energy billed on the meter, beside the kW fee)");
    oi.pue = o.pue.value_or(kDefaultColocationPue);
    number(o.id, "pue", "Data centre PUE", *oi.pue, "ratio",
           o.pue ? ""
                 : "default: 1.58, the average PUE of the Uptime Institute Global Data "
                   "Center Survey 2023");
    oi.tariff_per_kwh = o.tariff_per_kwh.value_or(r_.plan_inputs.site.tariff_per_kwh);
    number(o.id, "tariff_per_kwh", "Data centre energy price", *oi.tariff_per_kwh,
           s_.currency + "/kWh", o.tariff_per_kwh ? "" : "default: the site's tariff");
    return;
  }
  if (oi.pue) number(o.id, "pue", "PUE where this option runs", *oi.pue, "ratio");
  if (oi.tariff_per_kwh) {
    number(o.id, "tariff_per_kwh", "Energy price where this option runs", *oi.tariff_per_kwh,
           s_.currency + "/kWh");
  }
}

void Resolver::resolve_financing(const ScenarioOption& o, OptionInputs& oi,
                                 const std::string& section) {
  oi.financing = o.financing == "loan"    ? Financing::loan
                 : o.financing == "lease" ? Financing::lease
                                          : Financing::cash;
  text(o.id, "financing", "Financing", to_string(oi.financing),
       o.financing.empty() ? "default: cash" : "");
  if (oi.financing == Financing::loan) {
    if (!o.loan_rate) fail(section, "loan_rate", "missing: a loan needs its rate per year");
    oi.loan_rate_per_year = *o.loan_rate;
    number(o.id, "loan_rate", "Loan rate per year (nominal, monthly instalments)",
           oi.loan_rate_per_year, "fraction per year");
    oi.loan_term_months = o.loan_term_months.value_or(36);
    number(o.id, "loan_term_months", "Loan term", oi.loan_term_months, "months",
           o.loan_term_months ? "" : "default: 36 months");
    oi.down_payment_fraction = o.down_payment.value_or(0);
    number(o.id, "down_payment", "Down payment", oi.down_payment_fraction,
           "fraction of the purchase", o.down_payment ? "" : "default: 0");
  } else if (oi.financing == Financing::lease) {
    oi.lease_rate_per_month = o.lease_rate_per_month.value_or(0);
    number(o.id, "lease_rate_per_month", "Lease fee per month", oi.lease_rate_per_month,
           "fraction of the hardware price");
    oi.lease_term_months = o.lease_term_months.value_or(36);
    number(o.id, "lease_term_months", "Lease term", oi.lease_term_months, "months",
           o.lease_term_months ? "" : "default: 36 months");
  }
}

void Resolver::check_host(const ScenarioOption& o, OptionInputs& oi) const {
  const double devices_w = oi.count * load_power_w(oi.device);
  // The rest of a GPU server draws less than its GPUs (an 8 x H100 HGX: 5.6 kW of GPUs in a
  // 10.2 kW system, NVIDIA DGX H100 sheet); a desktop's 150 W (DOMAIN E5). A host above both
  // its devices and 2 kW is a slip more often than a machine.
  constexpr double kHostWarnAboveW = 2000;
  if (o.host_power_w && *o.host_power_w > std::max(devices_w, kHostWarnAboveW)) {
    oi.input_warnings.push_back(fmt::format(
        "host_power_w = {} W is above the power of its {} device(s), {} W: the rest of a machine "
        "(CPUs, memory, fans) draws less than its GPUs; a value in mW, or the whole rack's?",
        fixed(*o.host_power_w, 0), oi.count, fixed(devices_w, 0)));
  }
  const double load_w = devices_w + oi.host_power_w;
  if (o.idle_power_w && *o.idle_power_w > load_w) {
    fail("option:" + o.id, "idle_power_w",
         fmt::format("{} W is above the unit's power at load, {} W ({} x {} W devices + {} W "
                     "host): idle is the draw of the powered machine with no request; give it "
                     "in W",
                     fixed(*o.idle_power_w, 0), fixed(load_w, 0), oi.count,
                     fixed(load_power_w(oi.device), 0), fixed(oi.host_power_w, 0)));
  }
  const double devices_cost = oi.count * oi.price_per_gpu;
  // A host (chassis, CPUs, memory, PSU) costs a fraction of its GPUs: an HGX H100 server's
  // non-GPU parts are about a quarter of its price; a rig's host a few hundred to 2,000 EUR.
  constexpr double kHostCostWarnRatio = 2;
  if (o.host_cost && devices_cost > 0 && *o.host_cost > kHostCostWarnRatio * devices_cost) {
    oi.input_warnings.push_back(fmt::format(
        "host_cost = {} {} is more than {} x the {} device(s)' price, {} {}: the host is the "
        "machine around the GPUs (chassis, CPUs, memory, PSU); check the amount",
        money_text(*o.host_cost), s_.currency, kHostCostWarnRatio, oi.count,
        money_text(devices_cost), s_.currency));
  }
}

}  // namespace gputco::resolve_detail
