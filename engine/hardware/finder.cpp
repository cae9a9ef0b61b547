#include "engine/hardware/finder.hpp"

#include <algorithm>

#include "engine/base/error.hpp"

namespace gputco {

namespace {

constexpr int kMaxAutoCount = 8;

bool holds(const FitResult& fit) {
  return fit.verdict != Verdict::does_not_fit;
}

std::optional<Price> times(const std::optional<Price>& unit, int count) {
  if (!unit) return std::nullopt;
  return Price{unit->amount * count, unit->currency};
}

/// The price bandwidth per money is computed on: the cheaper of used and new (used when the
/// currencies differ), with its condition.
std::optional<std::pair<Price, std::string>> cheaper_price(const std::optional<Price>& fresh,
                                                           const std::optional<Price>& used) {
  if (used && fresh && used->currency == fresh->currency && fresh->amount < used->amount) {
    return std::make_pair(*fresh, std::string("new"));
  }
  if (used) return std::make_pair(*used, std::string("used"));
  if (fresh) return std::make_pair(*fresh, std::string("new"));
  return std::nullopt;
}

std::optional<std::pair<Price, std::string>> value_price(const DeviceOffer& offer) {
  return cheaper_price(offer.new_price, offer.used_price);
}

/// The decode estimate the speed index divides by: the request on ONE reference card with
/// its default backend, whether or not one card holds it (a bandwidth-bound figure).
double reference_decode_tokens_per_s(const FinderRequest& finder) {
  const Device& ref = finder.speed_reference;
  return estimate_speed(SpeedRequest{finder.request, 1, SplitMode::layer, default_backend(ref), 0},
                        ref)
      .decode_tokens_per_s;
}

FinderRow make_row(const FinderRequest& finder, const DeviceOffer& offer, int count,
                   double reference_decode) {
  GPUTCO_REQUIRE(finder.speed_reference.bandwidth_gbps > 0, "finder: speed reference '"
                                                                << finder.speed_reference.id
                                                                << "' needs a positive bandwidth");
  FinderRow row;
  row.result = evaluate_device(finder.request, offer.device, count, finder.options);
  row.combined_memory_gb = offer.device.memory_nameplate_gb * count;
  row.price_new = times(offer.new_price, count);
  row.price_used = times(offer.used_price, count);
  if (const auto value = value_price(offer); value && value->first.amount > 0) {
    row.gbps_per_money = offer.device.bandwidth_gbps / value->first.amount;
    row.gbps_per_money_currency = value->first.currency;
    row.gbps_per_money_condition = value->second;
  }
  if (holds(row.result.fit) && reference_decode > 0) {
    row.speed_index = 100.0 * row.result.speed.decode_tokens_per_s / reference_decode;
    row.speed_index_basis = SpeedIndexBasis::decode;
  } else {
    const int streaming_cards = finder.options.split == SplitMode::tensor ? count : 1;
    row.speed_index = 100.0 * offer.device.bandwidth_gbps * streaming_cards /
                      finder.speed_reference.bandwidth_gbps;
    row.speed_index_basis = SpeedIndexBasis::bandwidth;
  }
  const auto largest =
      largest_fitting_model(finder.tier_probe, offer.device, count, finder.options.policy);
  row.tier = tier_for_largest_model(largest ? largest->params_b : 0.0, finder.tier_probe.bounds);
  row.tier_model_id = largest ? largest->id : "";
  return row;
}

/// Sets the row's GB/s per money fields: `gbps` over the cheaper of the two prices
/// (cheaper_price).
void set_value(FinderRow& row, double gbps, const std::optional<Price>& fresh,
               const std::optional<Price>& used) {
  const auto value = cheaper_price(fresh, used);
  row.gbps_per_money.reset();
  row.gbps_per_money_currency.clear();
  row.gbps_per_money_condition.clear();
  if (value && value->first.amount > 0) {
    row.gbps_per_money = gbps / value->first.amount;
    row.gbps_per_money_currency = value->first.currency;
    row.gbps_per_money_condition = value->second;
  }
}

FinderRow make_system_row(const FinderRequest& finder, const SystemOffer& system,
                          double reference_decode) {
  GPUTCO_REQUIRE(system.count >= 1, "finder: system " << system.id
                                                      << " needs at least 1 device, got "
                                                      << system.count);
  FinderRow row = make_row(finder, system.device, system.count, reference_decode);
  row.system_id = system.id;
  row.system_name = system.name;
  row.price_new = system_price(system, "new");
  row.price_used = system_price(system, "used");
  set_value(row, system.device.device.bandwidth_gbps * system.count, row.price_new, row.price_used);
  return row;
}

bool better(const DeviceFit& a, const DeviceFit& b) {
  if (a.fit.verdict != b.fit.verdict) return a.fit.verdict < b.fit.verdict;
  if (a.speed.decode_tokens_per_s != b.speed.decode_tokens_per_s) {
    return a.speed.decode_tokens_per_s > b.speed.decode_tokens_per_s;
  }
  // Rows without a speed (the model does not fit): the nearest to fitting first.
  if (a.fit.headroom_gib != b.fit.headroom_gib) return a.fit.headroom_gib > b.fit.headroom_gib;
  if (a.device.id != b.device.id) return a.device.id < b.device.id;
  return a.count < b.count;
}

void sort_rows(std::vector<FinderRow>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const FinderRow& a, const FinderRow& b) {
    if (better(a.result, b.result)) return true;
    if (better(b.result, a.result)) return false;
    return a.system_id < b.system_id;
  });
}

}  // namespace

DeviceFit evaluate_device(const FitRequest& request, const Device& device, int count,
                          const FinderOptions& options) {
  GPUTCO_REQUIRE(count >= 1, "finder: device count must be at least 1, got " << count);
  DeviceFit row;
  row.device = device;
  row.count = count;
  row.backend = options.backend ? *options.backend : default_backend(device);
  row.fit = fit(request, device, count, options.policy);
  if (holds(row.fit)) {
    row.speed = estimate_speed(
        SpeedRequest{request, count, options.split, row.backend, options.prompt_tokens}, device);
  }
  return row;
}

void sort_best_first(std::vector<DeviceFit>& rows) {
  std::stable_sort(rows.begin(), rows.end(), better);
}

std::vector<DeviceFit> rank_devices(const FitRequest& request, const std::vector<Device>& devices,
                                    int count, const FinderOptions& options) {
  std::vector<DeviceFit> rows;
  rows.reserve(devices.size());
  for (const auto& device : devices) {
    int n = count;
    if (count == 0) {
      const int needed = devices_needed(request, device, kMaxAutoCount, options.policy);
      n = needed > 0 ? needed : 1;
    }
    rows.push_back(evaluate_device(request, device, n, options));
  }
  sort_best_first(rows);
  return rows;
}

std::vector<DeviceFit> rank_devices(const FitRequest& request, const std::vector<Device>& devices,
                                    int count, SplitMode split, const MemoryPolicy& policy) {
  FinderOptions options;
  options.split = split;
  options.policy = policy;
  return rank_devices(request, devices, count, options);
}

std::string to_string(Tier tier) {
  switch (tier) {
    case Tier::none:
      return "-";
    case Tier::entry:
      return "entry";
    case Tier::mid_range:
      return "mid-range";
    case Tier::high_end:
      return "high-end";
    case Tier::flagship:
      return "flagship";
  }
  return "?";
}

std::string to_string(SpeedIndexBasis basis) {
  return basis == SpeedIndexBasis::decode ? "decode" : "bandwidth";
}

Tier tier_for_largest_model(double largest_params_b, const TierBounds& bounds) {
  GPUTCO_REQUIRE(largest_params_b >= 0,
                 "tier: model size must not be negative, got " << largest_params_b);
  GPUTCO_REQUIRE(0 < bounds.mid_range_min_b && bounds.mid_range_min_b < bounds.high_end_min_b &&
                     bounds.high_end_min_b < bounds.flagship_min_b,
                 "tier: bounds must be positive and increasing, got "
                     << bounds.mid_range_min_b << ", " << bounds.high_end_min_b << ", "
                     << bounds.flagship_min_b);
  if (largest_params_b >= bounds.flagship_min_b) return Tier::flagship;
  if (largest_params_b >= bounds.high_end_min_b) return Tier::high_end;
  if (largest_params_b >= bounds.mid_range_min_b) return Tier::mid_range;
  return largest_params_b > 0 ? Tier::entry : Tier::none;
}

std::optional<ModelArch> largest_fitting_model(const TierProbe& probe, const Device& device,
                                               int count, const MemoryPolicy& policy) {
  std::vector<const ModelArch*> by_size;
  for (const auto& model : probe.models) by_size.push_back(&model);
  std::sort(by_size.begin(), by_size.end(), [](const ModelArch* x, const ModelArch* y) {
    if (x->params_b != y->params_b) return x->params_b > y->params_b;
    return x->id < y->id;
  });
  for (const ModelArch* model : by_size) {
    const FitRequest request{*model, probe.quant, probe.context_tokens, 1, KvCacheType::f16};
    if (fit(request, device, count, policy).verdict == Verdict::fits) return *model;
  }
  return std::nullopt;
}

FinderRow finder_row(const FinderRequest& finder, const DeviceOffer& offer, int count) {
  return make_row(finder, offer, count, reference_decode_tokens_per_s(finder));
}

std::optional<Price> system_price(const SystemOffer& system, const std::string& condition) {
  GPUTCO_REQUIRE(condition == "new" || condition == "used",
                 "system price: condition must be new or used, got '" << condition << "'");
  GPUTCO_REQUIRE(system.count >= 1, "finder: system " << system.id
                                                      << " needs at least 1 device, got "
                                                      << system.count);
  const bool fresh = condition == "new";
  const auto& whole = fresh ? system.whole_new : system.whole_used;
  if (whole) return whole;
  const auto& host = fresh || !system.host_used ? system.host_new : system.host_used;
  const auto& unit = fresh ? system.device.new_price : system.device.used_price;
  if (!host || !unit || host->currency != unit->currency) return std::nullopt;
  return Price{host->amount + system.count * unit->amount, host->currency};
}

FinderRow system_row(const FinderRequest& finder, const SystemOffer& system) {
  return make_system_row(finder, system, reference_decode_tokens_per_s(finder));
}

std::vector<FinderRow> find_devices(const FinderRequest& finder,
                                    const std::vector<DeviceOffer>& offers,
                                    const std::vector<SystemOffer>& systems) {
  for (int n : finder.multi_counts) {
    GPUTCO_REQUIRE(n >= 1, "finder: multi-card counts must be at least 1, got " << n);
  }
  const double reference_decode = reference_decode_tokens_per_s(finder);
  std::vector<FinderRow> rows;
  rows.reserve(offers.size() * 2);
  for (const auto& offer : offers) {
    rows.push_back(make_row(finder, offer, 1, reference_decode));
    if (offer.device.kind == DeviceKind::unified) continue;
    const bool single_holds = holds(rows.back().result.fit);
    for (int n : finder.multi_counts) {
      if (n == 1) continue;
      if (finder.all_multi) {
        rows.push_back(make_row(finder, offer, n, reference_decode));
      } else if (!single_holds &&
                 holds(fit(finder.request, offer.device, n, finder.options.policy))) {
        rows.push_back(make_row(finder, offer, n, reference_decode));
        break;
      }
    }
  }
  for (const auto& system : systems)
    rows.push_back(make_system_row(finder, system, reference_decode));
  sort_rows(rows);
  return rows;
}

std::vector<FinderRow> find_devices_at(const FinderRequest& finder,
                                       const std::vector<DeviceOffer>& offers, int count) {
  GPUTCO_REQUIRE(count >= 1, "finder: device count must be at least 1, got " << count);
  const double reference_decode = reference_decode_tokens_per_s(finder);
  std::vector<FinderRow> rows;
  rows.reserve(offers.size());
  for (const auto& offer : offers) rows.push_back(make_row(finder, offer, count, reference_decode));
  sort_rows(rows);
  return rows;
}

DeviceComparison compare_devices(const FinderRequest& finder, const DeviceOffer& a,
                                 const DeviceOffer& b, int count) {
  const double reference_decode = reference_decode_tokens_per_s(finder);
  DeviceComparison c;
  c.a = make_row(finder, a, count, reference_decode);
  c.b = make_row(finder, b, count, reference_decode);
  const double speed_a = c.a.result.speed.decode_tokens_per_s;
  const double speed_b = c.b.result.speed.decode_tokens_per_s;
  if (holds(c.a.result.fit) && holds(c.b.result.fit) && speed_a > 0 && speed_b > 0) {
    c.faster_by = std::max(speed_a, speed_b) / std::min(speed_a, speed_b) - 1.0;
    if (speed_a != speed_b) c.faster_id = speed_a > speed_b ? a.device.id : b.device.id;
  }
  const auto pa = value_price(a);
  const auto pb = value_price(b);
  if (pa && pb && pa->first.currency == pb->first.currency && pa->first.amount > 0 &&
      pb->first.amount > 0) {
    // Unit prices: the same count on both sides, so the ratio is the systems' ratio.
    const double x = pa->first.amount, y = pb->first.amount;
    c.cheaper_by = 1.0 - std::min(x, y) / std::max(x, y);
    if (x != y) c.cheaper_id = x < y ? a.device.id : b.device.id;
    c.price_condition_a = pa->second;
    c.price_condition_b = pb->second;
  }
  return c;
}

}  // namespace gputco
