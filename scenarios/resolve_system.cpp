// A buy option's catalog system (`system = ID`, issue #21 item 2): its device, device count,
// host power and price from pricing/data/systems.csv and system_prices.csv, the typed keys
// replacing the part they name.
#include "scenarios/resolver.hpp"

#include <fmt/format.h>

#include <string>

namespace gputco::resolve_detail {

void Resolver::resolve_system(const ScenarioOption& o, OptionInputs& oi,
                              const std::string& section) {
  const auto sys = catalog_.system(o.system);
  if (!sys) {
    unknown(section, "system", "system", o.system,
            ids_of(catalog_.systems(), [](const System& x) { return x.id; }),
            "gputco catalog list systems");
  }
  const std::string holds = fmt::format("{} x {}", sys->device_count, sys->device_id);
  if (!o.gpu.empty() && !same_id(o.gpu, sys->device_id)) {
    fail(section, "gpu",
         fmt::format("'{}' contradicts system = {}, which holds {}; leave gpu out (the system "
                     "sets it) or describe the machine with gpu and count instead of system",
                     o.gpu, sys->id, holds));
  }
  if (o.count && *o.count != sys->device_count) {
    fail(section, "count",
         fmt::format("{} contradicts system = {}, which holds {}; leave count out (the system "
                     "sets it) or describe the machine with gpu and count instead of system",
                     *o.count, sys->id, holds));
  }
  SystemChoice choice{*sys, catalog_.latest_system_price(sys->id, o.condition, s_.as_of), false};
  if (!choice.price && o.condition == "used") {
    // A rig of used cards in a new desktop: the new host with the used cards priced apart,
    // as the finder prices it (engine/hardware/finder.hpp system_price).
    const auto fresh = catalog_.latest_system_price(sys->id, "new", s_.as_of);
    if (fresh && !fresh->includes_devices) {
      choice.price = fresh;
      choice.new_host_for_used = true;
    }
  }
  system_ = std::move(choice);
  oi.system_id = sys->id;
  oi.system_name = sys->name;
}

void Resolver::resolve_system_price(const ScenarioOption& o, OptionInputs& oi,
                                    const std::string& section) {
  const System& sys = system_->system;
  const std::optional<SystemPrice>& price = system_->price;
  const std::string host_label = "Host system (chassis, CPU, PSU)";
  const bool host_only = price && !price->includes_devices;
  if (o.price_per_gpu || host_only) {
    // The devices priced apart: the typed price, or the device's own catalog price beside a
    // host-only system price.
    resolve_device_price(o, oi, section);
    if (o.host_cost) {
      oi.host_cost = *o.host_cost;
      number(o.id, "host_cost", host_label, oi.host_cost, s_.currency);
    } else if (host_only) {
      std::string provenance =
          source("system " + sys.id + " host (" + price->condition + ", host only)", price->amount,
                 price->currency, "per system, without its devices", price->provenance);
      provenance += "; the latest host-only price of catalog system " + sys.id;
      if (system_->new_host_for_used) {
        provenance += " (no used price: the new host with used devices, as the finder prices it)";
      }
      // A [risk] fx.CODE draw moves the host's price with the devices' (engine/risk/risk.cpp).
      oi.host_cost = convert(price->amount, price->currency, provenance, section, "system",
                             oi.converted_from.host_cost);
      number(o.id, "host_cost", host_label, oi.host_cost, s_.currency, provenance);
    } else {
      oi.host_cost = 0;
      number(o.id, "host_cost", host_label, 0, s_.currency,
             "default: 0 (price_per_gpu replaces the catalog's whole-system price of " + sys.id +
                 ", host included; set host_cost for the host)");
      // newcomer5: a typed per-device price on a whole-system price left the host free
      // without a word outside the Inputs sheet.
      oi.input_warnings.push_back("host_cost is 0: price_per_gpu replaces the catalog's " +
                                  std::string(price ? "whole-system price" : "price") +
                                  " of system " + sys.id + " (host included), so the host (" +
                                  sys.host +
                                  ") costs nothing in this plan; set host_cost to price it");
    }
    return;
  }
  if (!price) {
    fail(section, "system",
         "the catalog has no " + o.condition + " price for system " + sys.id + " as of " +
             s_.as_of + "; price_per_gpu (per device) and host_cost can supply it");
  }
  // A whole-system price: the devices carry it, less a typed host_cost.
  std::string provenance = source(
      "system " + sys.id + " purchase (" + price->condition + ", whole system)", price->amount,
      price->currency, fmt::format("per system, its {} devices included", sys.device_count),
      price->provenance);
  provenance += "; the latest whole-system price of catalog system " + sys.id;
  const double whole = convert(price->amount, price->currency, provenance, section, "system",
                               oi.converted_from.price_per_gpu);
  number(o.id, "system_price", "Catalog system price (devices and host)", whole, s_.currency,
         provenance);
  oi.host_cost = o.host_cost.value_or(0);
  if (oi.host_cost > whole) {
    fail(
        section, "host_cost",
        fmt::format("{} {} is above the whole price of system {}, {} {}: with a whole-system "
                    "price host_cost is the host's share of it",
                    money_text(oi.host_cost), s_.currency, sys.id, money_text(whole), s_.currency));
  }
  number(o.id, "host_cost", host_label, oi.host_cost, s_.currency,
         o.host_cost ? "" : "default: 0 (in the whole-system price, carried by the devices)");
  oi.price_per_gpu = (whole - oi.host_cost) / sys.device_count;
  number(o.id, "price_per_gpu", "Purchase price per device", oi.price_per_gpu, s_.currency,
         fmt::format("derived: (system price {} - host_cost {}) / {} devices", money_text(whole),
                     money_text(oi.host_cost), sys.device_count));
}

}  // namespace gputco::resolve_detail
