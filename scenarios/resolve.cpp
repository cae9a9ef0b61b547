#include "scenarios/resolve.hpp"

#include <cmath>
#include <sstream>

#include "scenarios/dates.hpp"

namespace gputco {

namespace {

/// The rest of a desktop system draws about 150 W at load (DOMAIN E5).
constexpr double kDefaultHostPowerW = 150.0;

std::string fixed(double value, int digits) {
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out.setf(std::ios::fixed);
  out.precision(digits);
  out << value;
  return out.str();
}

template <typename T, typename IdOf>
std::vector<std::string> ids_of(const std::vector<T>& items, IdOf id_of) {
  std::vector<std::string> ids;
  for (const auto& item : items) ids.push_back(id_of(item));
  return ids;
}

class Resolver {
 public:
  Resolver(const Scenario& s, const Catalog& catalog) : s_(s), catalog_(catalog) {}

  ResolvedScenario run() {
    r_.file = s_.file;
    r_.name = s_.name;
    r_.customer = s_.customer;
    r_.quote_id = s_.quote_id;
    r_.start = s_.start;
    r_.as_of = s_.as_of;
    r_.max_price_age_days = s_.max_price_age_days;
    resolve_scenario();
    resolve_workload();
    resolve_site();
    for (const auto& o : s_.options) resolve_option(o);
    resolve_baseline();
    return std::move(r_);
  }

 private:
  [[noreturn]] void fail(const std::string& section, const std::string& key,
                         const std::string& problem) const {
    throw ScenarioError(s_.file, s_.line_of(section, key), "[" + section + "] " + key, problem);
  }

  [[noreturn]] void unknown(const std::string& section, const std::string& key,
                            const std::string& what, const std::string& id,
                            const std::vector<std::string>& known, const std::string& list) const {
    const std::string hint = nearest(id, known);
    fail(section, key,
         "unknown " + what + " '" + id + "'" +
             (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (" + list + ")");
  }

  /// The file section of an Inputs-sheet section: option rows are listed under the option id.
  static std::string file_section(const std::string& section) {
    if (section == "scenario" || section == "workload" || section == "site") return section;
    return "option:" + section;
  }

  void number(const std::string& section, const std::string& key, const std::string& label,
              double value, const std::string& unit, std::string provenance = "") {
    if (provenance.empty()) provenance = s_.provenance(file_section(section), key);
    r_.inputs.push_back({section, key, label, value, "", unit, provenance});
  }

  void text(const std::string& section, const std::string& key, const std::string& label,
            const std::string& value, std::string provenance = "") {
    if (provenance.empty()) provenance = s_.provenance(file_section(section), key);
    r_.inputs.push_back({section, key, label, std::nullopt, value, "", provenance});
  }

  /// Adds a catalog price to the Sources sheet and returns its provenance text.
  std::string source(const std::string& what, double amount, const std::string& currency,
                     const std::string& unit, const Provenance& p) {
    const int age = days_between(p.observed_on, s_.as_of);
    const bool stale = age > s_.max_price_age_days;
    r_.sources.push_back({what, amount, currency, unit, p.observed_on, p.source, age, stale});
    return "catalog: " + p.source + ", observed " + p.observed_on + (stale ? " (stale)" : "");
  }

  /// Converts a catalog amount into the plan currency; appends the conversion to `provenance`.
  double convert(double amount, const std::string& from, std::string& provenance,
                 const std::string& section, const std::string& key) {
    const std::string& to = s_.currency;
    if (from == to) return amount;
    const auto fx = catalog_.fx_rate(from, to, s_.as_of);
    if (!fx) {
      fail(section, key,
           "the catalog has no " + from + "/" + to + " exchange rate as of " + s_.as_of +
               "; give this value in " + to);
    }
    const std::string what = "FX " + from + "/" + to;
    bool listed = false;
    for (const auto& row : r_.sources) listed = listed || row.what == what;
    if (!listed) source(what, fx->rate, to, "per " + from, fx->provenance);
    provenance += "; converted from " + fixed(amount, 4) + " " + from + " at " +
                  fixed(fx->rate, 4) + " " + to + "/" + from;
    return amount * fx->rate;
  }

  void resolve_scenario() {
    auto& f = r_.plan_inputs.finance;
    f.horizon_months = s_.horizon_months;
    f.discount_rate_per_year = s_.discount_rate;
    f.currency = s_.currency;
    text("scenario", "name", "Scenario", s_.name);
    text("scenario", "currency", "Currency", s_.currency);
    text("scenario", "as_of", "Prices as of", s_.as_of);
    text("scenario", "start", "First month", s_.start);
    number("scenario", "horizon_months", "Horizon", s_.horizon_months, "months");
    number("scenario", "discount_rate", "Discount rate", s_.discount_rate, "per year");
    number("scenario", "max_price_age_days", "Stale after", s_.max_price_age_days, "days");
  }

  void resolve_workload() {
    auto& p = r_.plan_inputs;
    const auto model = catalog_.model(s_.model);
    if (!model) {
      unknown("workload", "model", "model", s_.model,
              ids_of(catalog_.models(), [](const ModelArch& m) { return m.id; }),
              "gputco catalog list models");
    }
    const auto quant = catalog_.quant(s_.quant);
    if (!quant) {
      unknown("workload", "quant", "quant", s_.quant,
              ids_of(catalog_.quants(), [](const Quant& q) { return q.id; }),
              "gputco catalog list quants");
    }
    p.model = *model;
    p.quant = *quant;
    p.workload.context_tokens = s_.context_tokens;
    p.workload.concurrent_streams = s_.concurrent_streams;
    p.workload.hours_per_day = s_.hours_per_day;
    p.workload.days_per_month = s_.days_per_month;
    p.workload.kv_cache = *parse_kv_cache_type(s_.kv_cache);
    text("workload", "model", "Model", model->id);
    text("workload", "quant", "Weight format", quant->id);
    number("workload", "context_tokens", "Context per stream", s_.context_tokens, "tokens");
    number("workload", "concurrent_streams", "Concurrent streams", s_.concurrent_streams,
           "streams");
    number("workload", "hours_per_day", "Hours of use per day", s_.hours_per_day, "h/day");
    number("workload", "days_per_month", "Days of use per month", s_.days_per_month, "days/month",
           s_.given.count("workload.days_per_month")
               ? ""
               : "default: 730 h per month at 24 h/day (365 x 24 / 12)");
    text("workload", "kv_cache", "KV cache type", s_.kv_cache);
  }

  void resolve_site() {
    auto& site = r_.plan_inputs.site;
    site.pue = s_.pue;
    if (s_.tariff_per_kwh) {
      site.tariff_per_kwh = *s_.tariff_per_kwh;
      number("site", "tariff_per_kwh", "Electricity tariff", site.tariff_per_kwh,
             s_.currency + "/kWh");
    } else if (!s_.tariff.empty()) {
      const auto t = catalog_.tariff(s_.tariff, s_.as_of);
      if (!t) {
        unknown("site", "tariff", "tariff (as of " + s_.as_of + ")", s_.tariff,
                ids_of(catalog_.tariffs(s_.as_of), [](const Tariff& x) { return x.id; }),
                "gputco catalog list tariffs");
      }
      std::string provenance =
          source("tariff " + t->id, t->amount_per_kwh, t->currency, "per kWh", t->provenance);
      site.tariff_per_kwh = convert(t->amount_per_kwh, t->currency, provenance, "site", "tariff");
      number("site", "tariff_per_kwh", "Electricity tariff (" + t->id + ")", site.tariff_per_kwh,
             s_.currency + "/kWh", provenance);
    } else {
      bool owned = false;
      for (const auto& o : s_.options) owned = owned || o.kind == "buy";
      if (owned) {
        fail("site", "tariff_per_kwh",
             "missing: owned hardware needs an electricity price; set tariff_per_kwh or tariff "
             "(a catalog id: gputco catalog list tariffs)");
      }
      site.tariff_per_kwh = 0;
    }
    number("site", "pue", "PUE", site.pue, "ratio",
           s_.given.count("site.pue") ? "" : "default: 1.0 (no cooling overhead counted)");
  }

  Device device_of(const ScenarioOption& o, const std::string& section) {
    const auto device = catalog_.device(o.gpu);
    if (!device) {
      unknown(section, "gpu", "device", o.gpu,
              ids_of(catalog_.devices(), [](const Device& d) { return d.id; }),
              "gputco catalog list gpus");
    }
    return *device;
  }

  void resolve_option(const ScenarioOption& o) {
    const std::string section = "option:" + o.id;
    OptionInputs oi;
    oi.id = o.id;
    oi.device = device_of(o, section);
    oi.kind = o.kind == "buy"           ? OptionKind::buy
              : o.kind == "rent_hourly" ? OptionKind::rent_hourly
                                        : OptionKind::rent_monthly;
    oi.condition = o.condition == "used" ? Condition::used : Condition::new_unit;
    oi.split = o.split.empty() ? SplitMode::layer : *parse_split_mode(o.split);
    oi.backend = o.backend.empty() ? default_backend(oi.device) : *parse_backend(o.backend);
    text(o.id, "kind", "Kind", o.kind);
    text(o.id, "gpu", "Device", oi.device.id + " (" + oi.device.name + ")");

    const auto& p = r_.plan_inputs;
    FitRequest request{p.model, p.quant, p.workload.context_tokens, p.workload.concurrent_streams,
                       p.workload.kv_cache};
    const int needed = devices_needed(request, oi.device, 64, p.memory_policy);

    switch (oi.kind) {
      case OptionKind::buy:
        resolve_count(o, oi, needed);
        resolve_buy(o, oi, section);
        break;
      case OptionKind::rent_hourly:
        resolve_count(o, oi, needed);
        resolve_hourly(o, oi, section);
        break;
      case OptionKind::rent_monthly:
        resolve_monthly(o, oi, section, needed);
        break;
    }
    r_.plan_inputs.options.push_back(std::move(oi));
  }

  void resolve_count(const ScenarioOption& o, OptionInputs& oi, int needed) {
    if (o.count) {
      oi.count = *o.count;
      number(o.id, "count", "Devices", oi.count, "devices");
    } else {
      oi.count = needed > 0 ? needed : 1;
      number(o.id, "count", "Devices", oi.count, "devices",
             needed > 0 ? "derived: the fewest devices that hold the model"
                        : "default: 1 (no count up to 64 holds the model)");
    }
  }

  void resolve_buy(const ScenarioOption& o, OptionInputs& oi, const std::string& section) {
    text(o.id, "condition", "Condition", o.condition);
    if (o.price_per_gpu) {
      oi.price_per_gpu = *o.price_per_gpu;
      number(o.id, "price_per_gpu", "Purchase price per device", oi.price_per_gpu, s_.currency);
    } else {
      const auto price = catalog_.latest_price(oi.device.id, o.condition, s_.as_of);
      if (!price) {
        fail(section, "price_per_gpu",
             "the catalog has no " + o.condition + " price for " + oi.device.id + " as of " +
                 s_.as_of + "; set price_per_gpu");
      }
      std::string provenance =
          source(oi.device.id + " purchase (" + o.condition + ")", price->amount, price->currency,
                 "per device", price->provenance);
      oi.price_per_gpu = convert(price->amount, price->currency, provenance, section, "gpu");
      number(o.id, "price_per_gpu", "Purchase price per device", oi.price_per_gpu, s_.currency,
             provenance);
    }
    oi.host_cost = o.host_cost.value_or(0);
    number(o.id, "host_cost", "Host system (chassis, CPU, PSU)", oi.host_cost, s_.currency,
           o.host_cost ? "" : "default: 0 (no host price given)");
    number(o.id, "board_power_w", "Board power per device", oi.device.board_power_w, "W",
           "catalog device " + oi.device.id);
    const bool system_power = oi.device.kind == DeviceKind::unified;
    oi.host_power_w = o.host_power_w.value_or(system_power ? 0 : kDefaultHostPowerW);
    number(o.id, "host_power_w", "Host power at load", oi.host_power_w, "W",
           o.host_power_w ? ""
           : system_power ? "default: 0 (the device's power is the whole system's)"
                          : "default: 150 W for the rest of a desktop (DOMAIN E5)");
    oi.residual_fraction = o.residual_fraction.value_or(0);
    number(o.id, "residual_fraction", "Resale value at the horizon", oi.residual_fraction,
           "fraction of capex", o.residual_fraction ? "" : "default: 0 (no resale assumed)");
    oi.maintenance_per_year = o.maintenance_per_year.value_or(0);
    number(o.id, "maintenance_per_year", "Maintenance per year", oi.maintenance_per_year,
           "fraction of capex", o.maintenance_per_year ? "" : "default: 0");
  }

  void resolve_hourly(const ScenarioOption& o, OptionInputs& oi, const std::string& section) {
    if (o.rate_per_gpu_hour) {
      oi.rate_per_gpu_hour = *o.rate_per_gpu_hour;
      number(o.id, "rate_per_gpu_hour", "Rate per device-hour", oi.rate_per_gpu_hour,
             s_.currency + "/h");
      return;
    }
    const RentalOffer* best = nullptr;
    const auto offers = catalog_.rental_offers(s_.as_of, oi.device.id, "hourly", "on_demand");
    for (const auto& offer : offers) {
      if (!o.provider.empty() && offer.provider != o.provider) continue;
      best = &offer;
      break;  // ordered by amount per device, ascending
    }
    if (!best) {
      fail(section, "rate_per_gpu_hour",
           "the catalog has no on-demand hourly offer for " + oi.device.id +
               (o.provider.empty() ? "" : " from " + o.provider) + " as of " + s_.as_of +
               "; set rate_per_gpu_hour");
    }
    std::string provenance = source(
        best->provider + " " + best->sku + " (" + best->term + ")", best->amount, best->currency,
        "per instance-hour, " + std::to_string(best->devices_per_instance) + " device(s)",
        best->provenance);
    oi.rate_per_gpu_hour =
        convert(best->amount_per_device(), best->currency, provenance, section, "gpu");
    number(o.id, "rate_per_gpu_hour", "Rate per device-hour (" + best->provider + ")",
           oi.rate_per_gpu_hour, s_.currency + "/h", provenance);
  }

  void resolve_monthly(const ScenarioOption& o, OptionInputs& oi, const std::string& section,
                       int needed) {
    if (o.price_per_month) {
      oi.count = o.count.value_or(needed > 0 ? needed : 1);
      number(o.id, "count", "Devices in the server", oi.count, "devices");
      oi.price_per_month = *o.price_per_month;
      number(o.id, "price_per_month", "Server rent per month", oi.price_per_month, s_.currency);
      oi.setup_fee = o.setup_fee.value_or(0);
      number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency,
             o.setup_fee ? "" : "default: 0");
      return;
    }
    // The cheapest monthly server with this device: of the stated count, or of enough
    // devices to hold the model.
    const RentalOffer* best = nullptr;
    const auto offers = catalog_.rental_offers(s_.as_of, oi.device.id, "monthly", "");
    for (const auto& offer : offers) {
      if (!o.provider.empty() && offer.provider != o.provider) continue;
      if (o.count ? offer.devices_per_instance != *o.count
                  : offer.devices_per_instance < std::max(needed, 1)) {
        continue;
      }
      if (!best || offer.amount < best->amount) best = &offer;
    }
    if (!best) {
      fail(section, "price_per_month",
           "the catalog has no monthly server with " +
               (o.count ? std::to_string(*o.count) : "enough") + " x " + oi.device.id +
               (o.provider.empty() ? "" : " from " + o.provider) + " as of " + s_.as_of +
               "; set price_per_month");
    }
    oi.count = best->devices_per_instance;
    number(o.id, "count", "Devices in the server", oi.count, "devices",
           "catalog offer " + best->provider + " " + best->sku);
    std::string provenance = source(best->provider + " " + best->sku + " (monthly)", best->amount,
                                    best->currency, "per month", best->provenance);
    oi.price_per_month = convert(best->amount, best->currency, provenance, section, "gpu");
    number(o.id, "price_per_month", "Server rent per month (" + best->provider + ")",
           oi.price_per_month, s_.currency, provenance);
    if (o.setup_fee) {
      oi.setup_fee = *o.setup_fee;
      number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency);
    } else {
      std::string fee_provenance = "catalog offer " + best->provider + " " + best->sku;
      oi.setup_fee = convert(best->setup_fee, best->currency, fee_provenance, section, "gpu");
      number(o.id, "setup_fee", "Setup fee", oi.setup_fee, s_.currency, fee_provenance);
    }
  }

  void resolve_baseline() {
    if (s_.baseline.empty()) return;
    for (const auto& o : s_.options) {
      if (o.id != s_.baseline) continue;
      if (o.kind != "rent_hourly") {
        fail("scenario", "baseline",
             "the baseline must be a rent_hourly option; '" + o.id + "' is " + o.kind);
      }
      r_.plan_inputs.baseline_option_id = o.id;
      text("scenario", "baseline", "Rental baseline", o.id);
      return;
    }
    std::vector<std::string> ids;
    for (const auto& o : s_.options) ids.push_back(o.id);
    unknown("scenario", "baseline", "option", s_.baseline, ids, "an [option:ID] of this file");
  }

  const Scenario& s_;
  const Catalog& catalog_;
  ResolvedScenario r_;
};

}  // namespace

ResolvedScenario resolve(const Scenario& scenario, const Catalog& catalog) {
  return Resolver(scenario, catalog).run();
}

}  // namespace gputco
