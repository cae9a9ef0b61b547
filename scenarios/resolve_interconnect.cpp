// The links between an option's devices (issue #21 item 2): a catalog system's NVLink domain
// (systems.csv nvlink_domain_gpus, interconnect) or the option's nvlink_domain_gpus key, for
// the engine's tensor-parallel and pipeline communication (engine/hardware/calibration.hpp
// nvlink_joins: NVLink only while a group fits in one domain, else PCIe).
#include <fmt/format.h>

#include <string>

#include "scenarios/resolver.hpp"

namespace gputco::resolve_detail {

namespace {

/// What the engine takes for `count` devices of `device` with `domain` devices per NVLink
/// domain (0: not stated), in words.
std::string links_text(const Device& device, int domain, int count) {
  if (device.nvlink_gbps <= 0) return "PCIe only (" + device.id + " has no NVLink)";
  if (domain == 1) return "PCIe only (no NVLink between the devices)";
  const std::string link = fmt::format("NVLink {:g} GB/s", device.nvlink_gbps);
  if (domain == 0 || domain >= count) {
    return fmt::format("{} joins all {} devices", link, count);
  }
  return fmt::format(
      "{} within groups of {} devices, PCIe between the groups (a tensor-parallel "
      "group above {} goes over PCIe)",
      link, domain, domain);
}

}  // namespace

void Resolver::resolve_interconnect(const ScenarioOption& o, OptionInputs& oi,
                                    const std::string& section) {
  if (oi.kind == OptionKind::api) return;
  const System* sys = system_ ? &system_->system : nullptr;
  if (o.nvlink_domain_gpus && *o.nvlink_domain_gpus > oi.count) {
    fail(section, "nvlink_domain_gpus",
         fmt::format("{} is above the option's {} device(s): one NVLink domain joins some or all "
                     "of them (8 for an 8-GPU NVSwitch board, 2 for bridged pairs, 1 for PCIe "
                     "only)",
                     *o.nvlink_domain_gpus, oi.count));
  }
  const int domain = o.nvlink_domain_gpus ? *o.nvlink_domain_gpus
                     : sys                ? sys->nvlink_domain_gpus
                                          : 0;
  oi.device.nvlink_domain_gpus = domain;
  if (!o.nvlink_domain_gpus && !sys) return;  // the device's own link, as before: no row
  const std::string links = links_text(oi.device, domain, oi.count);
  // The system's words describe its own domain: not one the option's key replaces.
  const bool systems_domain = sys && (!o.nvlink_domain_gpus || domain == sys->nvlink_domain_gpus);
  const std::string stated = systems_domain ? sys->interconnect : "";
  oi.interconnect = stated.empty() ? links : stated + "; " + links;
  const std::string typed =
      o.nvlink_domain_gpus ? s_.provenance(file_section(o.id), "nvlink_domain_gpus") : "";
  std::string provenance;
  if (!o.nvlink_domain_gpus) {
    provenance = sys->nvlink_domain_gpus > 0
                     ? "catalog system " + sys->id + " (systems.csv nvlink_domain_gpus)"
                     : "catalog system " + sys->id +
                           " states no NVLink domain: the device's own link joins all its devices";
  } else if (sys && sys->nvlink_domain_gpus > 0 &&
             sys->nvlink_domain_gpus != *o.nvlink_domain_gpus) {
    provenance =
        fmt::format("{}; replaces catalog system {}'s {}", typed, sys->id, sys->nvlink_domain_gpus);
  } else {
    provenance = typed;
  }
  if (domain > 0) {
    number(o.id, "nvlink_domain_gpus", "Devices per NVLink domain", domain, "devices", provenance);
  }
  text(o.id, "interconnect", "Interconnect (tensor-parallel and pipeline traffic)", oi.interconnect,
       provenance);
}

}  // namespace gputco::resolve_detail
