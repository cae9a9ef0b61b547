// Accelerator names as public price catalogs write them (SkyPilot's AcceleratorName,
// gpuhunt's gpu_name: "H100", "A100-80GB", "RTX4090", "L40S", "NVIDIA GeForce RTX 4090") mapped
// to device ids of the catalog. Most names are derived from the catalog's own device ids and
// names (a device added to pricing/data/devices.csv is importable by its name with no code
// change); a table holds the odd ones that no device name spells (gputco issue 38: rows for
// A40, A10G, A10, V100, L40, A30, H100 NVL, MI250X and RTX 4070 were skipped while the table
// was the only source of names).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gputco {

/// A device id an accelerator name maps to, and how it was decided (for the row's note).
struct AcceleratorMatch {
  std::string device_id;
  std::string rule;  ///< e.g. "plain 'H100' at runpod is the PCIe card"; empty when unambiguous
};

/// What the names of one catalog device are derived from.
struct DeviceNaming {
  std::string id;    ///< "h100-nvl"
  std::string name;  ///< "H100 NVL 94GB"
};

/// The key two spellings of one accelerator share: upper case, letters and digits only, the
/// vendor and brand words (NVIDIA, Tesla, GeForce, AMD, Radeon, Instinct, Intel, Apple) dropped
/// from the front: "NVIDIA GeForce RTX 4090" = "RTX4090" = "rtx-4090".
std::string accelerator_key(std::string_view name);

/// The accelerator names of a catalog's devices.
class AcceleratorNames {
 public:
  /// Derives the names of `devices` (the catalog's, any order): each device is known by the
  /// key of its id ("rtx-4090" -> RTX4090) and of its name ("GeForce RTX 4090" -> RTX4090,
  /// "H100 NVL 94GB" -> H100NVL94GB), and by those keys without a trailing memory size
  /// ("H100NVL", "V100SXM2" when only one device has it) or a trailing form word ("SXM", "SXM4",
  /// "SXM5", "PCIE"); a key two devices derive is dropped (ambiguous: decided by the odd-name
  /// rules of map(), or not at all). Odd names (kOddNames in the .cpp: "A6000", "A10G" style
  /// cloud names, SkyPilot's "V100-32GB", "RTXPRO6000") map to a device only when the catalog
  /// has it.
  explicit AcceleratorNames(const std::vector<DeviceNaming>& devices);

  /// Maps `name` to a catalog device id. Names are compared by accelerator_key.
  /// Names that stand for several devices are decided by:
  ///  - `sku` (instance type): "pcie", or "sxm" / "HBM3", in it picks the form factor of an
  ///    H100 / A100 80GB, "nvl" an H100 NVL / H200 NVL;
  ///  - `provider`: RunPod's plain "H100" and "A100-80GB" are the PCIe cards (see
  ///    pricing/data/rental_offers.csv); elsewhere (AWS, GCP, Azure, Lambda, Nebius: HGX boards)
  ///    the SXM ones;
  ///  - `memory_gb` (per device; 0 = unknown): an "A100" with 70 GB or more is the 80 GB card,
  ///    else the 40 GB one; a "V100" with 32 GB the 32 GB card (SkyPilot: AWS p3dn); an "RTX
  ///    4060 Ti" / "RTX 5060 Ti" maps only when it has 16 GB.
  /// Returns nullopt for a name the catalog has no device for (TPUs, Inferentia, K80, ...).
  std::optional<AcceleratorMatch> map(std::string_view name, std::string_view sku,
                                      std::string_view provider, double memory_gb) const;

  /// Every derived and odd key with its device id, by key (for tests and messages).
  const std::map<std::string, std::string, std::less<>>& keys() const { return keys_; }

 private:
  std::map<std::string, std::string, std::less<>> keys_;  // key -> device id
  std::map<std::string, std::string, std::less<>> ids_;   // device id -> itself (present)
  bool has(std::string_view id) const { return ids_.count(id) > 0; }
};

}  // namespace gputco
