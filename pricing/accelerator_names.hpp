// Accelerator names as public price catalogs write them (SkyPilot's AcceleratorName,
// gpuhunt's gpu_name: "H100", "A100-80GB", "RTX4090", "L40S", "NVIDIA GeForce RTX 4090") mapped
// to device ids of the catalog.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gputco {

/// A device id an accelerator name maps to, and how it was decided (for the row's note).
struct AcceleratorMatch {
  std::string device_id;
  std::string rule;  ///< e.g. "plain 'H100' at runpod is the PCIe card"; empty when unambiguous
};

/// Maps `name` to a catalog device id. Names are compared after upper-casing and dropping the
/// vendor words (NVIDIA, Tesla, GeForce, AMD, Radeon, Instinct) and every character other than a
/// letter or digit ("RTX 4090" = "RTX4090" = "rtx-4090").
/// Names that stand for several devices are decided by:
///  - `sku` (instance type): "pcie", or "sxm" / "HBM3", in it picks the form factor of an
///    H100 / A100 80GB;
///  - `provider`: RunPod's plain "H100" and "A100-80GB" are the PCIe cards (see
///    pricing/data/rental_offers.csv); elsewhere (AWS, GCP, Azure, Lambda, Nebius: HGX boards)
///    the SXM ones;
///  - `memory_gb` (per device; 0 = unknown): an "A100" with 70 GB or more is the 80 GB card,
///    else the 40 GB one; an "RTX 4060 Ti" / "RTX 5060 Ti" maps only when it has 16 GB.
/// Returns nullopt for a name the catalog has no device for (TPUs, Inferentia, K80, A10G, ...).
std::optional<AcceleratorMatch> map_accelerator(std::string_view name, std::string_view sku,
                                                std::string_view provider, double memory_gb);

}  // namespace gputco
