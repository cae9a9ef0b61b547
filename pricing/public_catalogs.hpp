// Reading the public price catalogs an import takes besides our own CSV files: SkyPilot's
// vms.csv (every cloud's layout, GCP's separate GPU and host VM rows joined as SkyPilot's
// optimizer joins them) and gpuhunt's catalog CSVs. Internal to pricing/catalog_import.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pricing/accelerator_names.hpp"
#include "pricing/catalog_import.hpp"
#include "pricing/csv_table.hpp"

namespace gputco::import_detail {

/// Problems of one import file, each "PATH:LINE: column: problem", reported in line order.
struct Problems {
  std::string path;
  std::vector<std::pair<int, std::string>> items;
  void add(int line, std::string_view column, const std::string& what);
  /// The problems in line order (stable: same line, order of adding); empties `items`.
  std::vector<std::string> sorted();
};

/// 'text' in single quotes, for messages.
std::string in_quotes(std::string_view text);
/// The shortest text that reads back as `value` (std::to_chars), "?" if it cannot be written.
std::string format_number(double value);
/// A plain decimal (digits, an optional dot, an optional leading minus), parsed in full;
/// nullopt for anything else (no exponent, no "inf", no locale).
std::optional<double> parse_decimal(std::string_view s);

/// One offer read from a public catalog row, before zones are merged: USD per instance-hour.
struct Offer {
  int line = 0;  ///< the file line the offer is reported under (GCP: the GPU row's)
  std::string sku;
  std::string device_id;
  std::string note;
  int count = 0;  ///< devices per instance
  std::string region;
  std::string zone;
  std::string term;  ///< on_demand | spot
  double amount = 0;
};

/// The provider of a public catalog file: its name without the extension ("runpod.csv" ->
/// "runpod"), or for SkyPilot's "vms.csv" the folder it is in ("catalogs/v7/gcp/vms.csv" ->
/// "gcp").
std::string provider_from_path(const std::string& path);

/// The offers of a SkyPilot vms.csv (InstanceType, AcceleratorName, AcceleratorCount, Region,
/// AvailabilityZone, Price, SpotPrice; vCPUs and MemoryGiB for GCP's host choice): Price an
/// on_demand offer, SpotPrice a spot one; rows without an accelerator are host VMs or CPU-only
/// (report.without_accelerator); accelerators `names` does not map, TPUs, fractional counts
/// and rows without a price are report.skipped_rows.
///
/// GCP's layout (skypilot-org/skypilot-catalog catalogs/v7/gcp/vms.csv): a GPU is priced on
/// its own row, InstanceType empty ("",,,H100,1,...,us-central1,us-central1-a,4.20076,2.253),
/// and every host VM on a row without accelerator ("a3-highgpu-1g",26,234,,,...,1.18251,
/// 0.27193). SkyPilot's optimizer adds the two (sky/catalog/gcp_catalog.py, list_accelerators,
/// which asserts that accelerator rows carry no InstanceType): the host of an A100, A100-80GB,
/// L4, H100, H100-MEGA, H200 or B200 is the machine type GCP attaches them to (a2-highgpu-Ng,
/// a2-ultragpu-Ng, g2-standard-*, a3-highgpu-Ng, a3-megagpu-8g, a3-ultragpu-8g,
/// a4-highgpu-8g; the cheapest listed in the zone), any other GPU rides on the cheapest N1 VM
/// of the zone with at least SkyPilot's default vCPUs for it (8 per GPU; T4: 4 for one) and 4
/// GiB of memory per vCPU. A joined offer is the GPU row's price plus its host's (spot: both
/// spot prices, none when either is missing), under the host's instance type as sku. A GPU
/// row whose host has no row in its zone is skipped with a warning (SkyPilot offers none
/// there: a skipped row). Refused, each "FILE:LINE: column: ..." saying how the file is laid out
/// and what to do: GPU rows without any host VM row of their machine type in the file (an excerpt
/// cut short), and, for provider "gcp", a row that carries both an accelerator and one of those
/// machine types (its Price may be the host VM's alone, a fifth of the whole: a3-highgpu-1g is
/// 1.18 of 5.38 USD an hour in us-central1).
std::vector<Offer> read_skypilot_offers(const CsvTable& csv, const std::string& provider,
                                        const AcceleratorNames& names, Problems& problems,
                                        ImportReport& report);

/// The offers of a gpuhunt catalog CSV (instance_name, location, price, gpu_count, gpu_name,
/// spot, gpu_memory): one offer per row; spot above the on-demand price of the same instance
/// and location is a problem; rows skipped as read_skypilot_offers skips them.
std::vector<Offer> read_gpuhunt_offers(const CsvTable& csv, const std::string& provider,
                                       const AcceleratorNames& names, Problems& problems,
                                       ImportReport& report);

/// One offer per (sku, region, term): zones with the same price merge into their region,
/// zones with different prices keep "REGION/ZONE"; the same key twice with different prices is
/// a problem (`key_columns` names the file's columns in it).
std::vector<Offer> merge_zones(std::vector<Offer> offers, std::string_view key_columns,
                               Problems& problems);

}  // namespace gputco::import_detail
