// The GPU finder: one request against many devices, best first, with the buyer's-guide
// columns (speed index, price, bandwidth per unit of money, the tier a device serves), and
// the side-by-side comparison of two devices.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/hardware/fit.hpp"
#include "engine/hardware/speed.hpp"

namespace gputco {

/// How the finder runs the speed estimate on every device.
struct FinderOptions {
  SplitMode split = SplitMode::layer;
  /// The backend of every device; nullopt: each device's default_backend (CUDA for NVIDIA,
  /// Metal for Apple, ROCm for AMD discrete, Vulkan for AMD SoCs, SYCL for Intel).
  std::optional<Backend> backend;
  int prompt_tokens = 0;  ///< for time to first token; 0 = not asked
  MemoryPolicy policy;
};

/// The fit and speed of one request on `count` devices of one kind.
struct DeviceFit {
  Device device;
  int count = 1;
  Backend backend = Backend::cuda;  ///< the backend the speed was estimated for
  FitResult fit;
  SpeedEstimate speed;  ///< zero when the model does not fit
};

/// Fits and times `request` on `count` devices of `device` (speed only when it fits or is
/// tight). Throws EngineError on a bad request or count < 1 (see fit, estimate_speed).
DeviceFit evaluate_device(const FitRequest& request, const Device& device, int count,
                          const FinderOptions& options = {});

/// Orders rows best first: fits, then tight, then does not fit; within each, faster decode
/// first, then more headroom (among rows that do not fit: the nearest to fitting first),
/// then by device id, then fewer devices. Stable; never throws.
void sort_best_first(std::vector<DeviceFit>& rows);

/// Fits `request` on `count` of each device (or, when count is 0, on the fewest devices
/// of that kind that hold it, up to 8) and orders the results with sort_best_first.
/// Throws EngineError on a bad request.
std::vector<DeviceFit> rank_devices(const FitRequest& request, const std::vector<Device>& devices,
                                    int count, const FinderOptions& options = {});

/// The same, with the split and policy given directly (the older signature).
std::vector<DeviceFit> rank_devices(const FitRequest& request, const std::vector<Device>& devices,
                                    int count, SplitMode split, const MemoryPolicy& policy = {});

/// What a system is good for, in the buyer's guides' words: entry (prototyping, models up to
/// ~7B), mid-range (8-30B), high-end (30-70B), flagship (beyond 70B, or many users); none
/// when the system holds no model of the tier probe at all (a card too small for any).
enum class Tier { none, entry, mid_range, high_end, flagship };
/// "-" (none), "entry", "mid-range", "high-end", "flagship". Never throws.
std::string to_string(Tier tier);

/// Lower bounds of the tiers on the size of the largest model a system holds, billions of
/// parameters. The guides name nominal sizes (8B, 30B, 70B); real models are a few percent
/// off them (Llama 3.1 8B = 8.03B, Qwen3 30B-A3B = 30.53B, Llama 3.3 70B = 70.6B), so each
/// bound sits 5 % beyond its nominal size: a 7B-class model (Mistral 7B, 7.25B) is entry;
/// Qwen3 32B (32.76B) is high-end; only models beyond ~73.5B make a flagship.
struct TierBounds {
  double mid_range_min_b = 7.5;  ///< holds an 8B-class model
  double high_end_min_b = 31.5;  ///< holds a model beyond the 30B class
  double flagship_min_b = 73.5;  ///< holds a model beyond the 70B class
};

/// The tier of a system whose largest comfortably fitting model has `largest_params_b`
/// billion parameters; 0 means no model fits: Tier::none. Throws EngineError on a negative size
/// or bounds out of order.
Tier tier_for_largest_model(double largest_params_b, const TierBounds& bounds = {});

/// The reference workload a tier is derived from: every catalog model at one quant and
/// context (the buyer's guides' Q4_K_M at 8K), one stream.
struct TierProbe {
  std::vector<ModelArch> models;
  Quant quant;
  int context_tokens = 8192;
  TierBounds bounds;
};

/// The largest model of `probe.models` (by total parameters; ties by id) that FITS (verdict
/// fits, not tight: a tier is what a system serves comfortably, DOMAIN M13) on `count`
/// devices of `device`; nullopt when none does. Throws EngineError like fit().
std::optional<ModelArch> largest_fitting_model(const TierProbe& probe, const Device& device,
                                               int count, const MemoryPolicy& policy = {});

/// A purchase price per device, in its currency.
struct Price {
  double amount = 0;
  std::string currency;  ///< ISO 4217
};

/// A device with its latest new and used prices (either may be unknown).
struct DeviceOffer {
  Device device;
  std::optional<Price> new_price;
  std::optional<Price> used_price;
};

/// A catalog system (server or workstation): `count` devices of one kind in one box, with
/// the system's own prices (pricing/data/system_prices.csv: a whole-system quote, or the host
/// alone with the devices priced apart).
struct SystemOffer {
  std::string id;                   ///< catalog system id, e.g. "dgx-h100"
  std::string name;                 ///< display name, e.g. "NVIDIA DGX H100"
  DeviceOffer device;               ///< its device, with the device's own unit prices
  int count = 1;                    ///< devices in the system
  std::optional<Price> whole_new;   ///< the whole system with its devices, new
  std::optional<Price> whole_used;  ///< the whole system with its devices, used
  std::optional<Price> host_new;    ///< the host alone (chassis, CPUs, memory, supply), new
  std::optional<Price> host_used;   ///< the host alone, used
};

/// A system's purchase price in one condition: the whole-system price when there is one,
/// else host + count x the device's unit price in that condition (same currency). A used
/// system without a used host price is priced with the NEW host and used devices (the
/// buyer's guides' rig of used cards in a new desktop). nullopt when neither is known or the
/// currencies differ. `condition` is "new" or "used". Throws EngineError on another
/// condition or count < 1.
std::optional<Price> system_price(const SystemOffer& system, const std::string& condition);

/// How a speed index was computed.
enum class SpeedIndexBasis {
  decode,    ///< the decode estimate of the request, against the reference's
  bandwidth  ///< memory bandwidth, against the reference's (the request does not fit)
};
/// "decode", "bandwidth". Never throws.
std::string to_string(SpeedIndexBasis basis);

/// One row of the finder table: a single card, an N-card system of one device, or a catalog
/// system (system_id set).
struct FinderRow {
  DeviceFit result;
  std::string system_id;          ///< catalog system id; empty for a card or N cards of a device
  std::string system_name;        ///< its display name; empty likewise
  double combined_memory_gb = 0;  ///< nameplate memory x count (vendor's "GB")
  /// Whole system: count x unit price; a catalog system: system_price (host included).
  std::optional<Price> price_new;
  std::optional<Price> price_used;  ///< likewise, used
  /// Peak bandwidth per unit of money, GB/s per 1 currency unit (DOMAIN E1: used RTX 3090
  /// 936 / 700 = 1.34): the card's bandwidth over its unit price, for the cheaper of the used
  /// and new prices (used when their currencies differ); a catalog system: count x the card's
  /// bandwidth over the system's price, chosen the same way. nullopt without a price.
  std::optional<double> gbps_per_money;
  std::string gbps_per_money_currency;
  std::string gbps_per_money_condition;  ///< "used" or "new"
  /// Speed relative to the reference device (RTX 3090 = 100). Basis decode: 100 x this row's
  /// decode tokens/s / the reference's decode estimate for the same request on ONE card (a
  /// bandwidth-bound figure, computed even where one reference card could not hold the model).
  /// Basis bandwidth (the request does not fit here): 100 x the bandwidth one decode step
  /// streams from (one card for a layer split, count cards for a tensor split) / the
  /// reference's bandwidth.
  double speed_index = 0;
  SpeedIndexBasis speed_index_basis = SpeedIndexBasis::bandwidth;
  Tier tier = Tier::none;
  std::string tier_model_id;  ///< the largest probe model that fits; empty when none
};

/// The finder's question: one request over every device, single cards and multi-card systems.
struct FinderRequest {
  FitRequest request;
  FinderOptions options;
  /// The speed index's 100 (the buyer's guides normalise on the RTX 3090).
  Device speed_reference;
  TierProbe tier_probe;
  /// Card counts of multi-card systems. Unified-memory devices (Apple SoCs, DGX Spark, Strix
  /// Halo) are never multiplied: they are whole computers, not cards in one box.
  std::vector<int> multi_counts = {2, 4, 8};
  /// false: a multi-card system is listed only for a device one card of which does not hold
  /// the request (fits or tight), and only its smallest count that does. true: every count.
  bool all_multi = false;
};

/// The finder table: for every offer a single-card row, plus multi-card rows as
/// FinderRequest::all_multi says, plus one row per catalog system in `systems` (always: they
/// are products, not hypotheses), each with price, bandwidth per money, speed index and tier;
/// sorted as sort_best_first (rows of equal device, count and speed by system id, plain rows
/// first). Throws EngineError on a bad request, a reference device without bandwidth, a
/// non-positive count in multi_counts or in a system.
std::vector<FinderRow> find_devices(const FinderRequest& finder,
                                    const std::vector<DeviceOffer>& offers,
                                    const std::vector<SystemOffer>& systems = {});

/// The finder row of one catalog system (see FinderRow, system_price). Throws like
/// find_devices.
FinderRow system_row(const FinderRequest& finder, const SystemOffer& system);

/// The finder table with every offer at exactly `count` devices (unified-memory devices
/// included: the user asked for that count), sorted as sort_best_first. Throws like
/// find_devices, and on count < 1.
std::vector<FinderRow> find_devices_at(const FinderRequest& finder,
                                       const std::vector<DeviceOffer>& offers, int count);

/// One row of the finder for `count` devices of `offer` (see FinderRow). Throws like
/// find_devices.
FinderRow finder_row(const FinderRequest& finder, const DeviceOffer& offer, int count);

/// Two systems side by side, and the margins between them.
struct DeviceComparison {
  FinderRow a;
  FinderRow b;
  /// Decode: how much faster the faster system is, as a fraction (0.51 = 51 % faster:
  /// faster / slower - 1); nullopt unless both hold the request.
  std::optional<double> faster_by;
  std::string faster_id;  ///< device id of the faster one ("" when equal or not both fit)
  /// Price: how much less the cheaper system costs, as a fraction of the dearer (0.62 =
  /// 62 % less: 1 - cheaper / dearer), each side at the price a buyer pays least for it (the
  /// cheaper of its used and new prices, as FinderRow::gbps_per_money): a used RTX 3090 at 750
  /// against a new RTX 5090 at 1,999 costs 62 % less. nullopt without a price on both sides
  /// or in different currencies.
  std::optional<double> cheaper_by;
  std::string cheaper_id;
  std::string price_condition_a;  ///< "used" or "new": which price of a was compared
  std::string price_condition_b;  ///< the same for b
};

/// Compares `count` devices of `a` with `count` of `b` for the finder's request.
/// Throws EngineError like finder_row.
DeviceComparison compare_devices(const FinderRequest& finder, const DeviceOffer& a,
                                 const DeviceOffer& b, int count);

}  // namespace gputco
