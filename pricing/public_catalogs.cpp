#include "pricing/public_catalogs.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace gputco::import_detail {

namespace fs = std::filesystem;

void Problems::add(int line, std::string_view column, const std::string& what) {
  items.emplace_back(line,
                     path + ":" + std::to_string(line) + ": " + std::string(column) + ": " + what);
}

std::vector<std::string> Problems::sorted() {
  std::stable_sort(items.begin(), items.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& item : items) out.push_back(std::move(item.second));
  items.clear();
  return out;
}

std::string in_quotes(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::string format_number(double value) {
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

std::optional<double> parse_decimal(std::string_view s) {
  if (s.empty()) return std::nullopt;
  for (char c : s) {
    if (!(c == '-' || c == '.' || (c >= '0' && c <= '9'))) return std::nullopt;
  }
  double value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::fixed);
  if (ec != std::errc{} || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

std::string provider_from_path(const std::string& path) {
  const fs::path p(path);
  const std::string stem = p.stem().string();
  if (stem == "vms") return p.parent_path().filename().string();
  return stem;
}

namespace {

struct ColumnMap {
  const CsvTable* csv = nullptr;
  std::map<std::string, std::size_t, std::less<>> index;
  const std::string& get(const CsvRow& row, std::string_view name) const {
    static const std::string empty;
    auto it = index.find(name);
    return it == index.end() ? empty : row.fields[it->second];
  }
};

// Checks that `required` columns are in the header; maps every column name to its index.
std::optional<ColumnMap> map_columns(const CsvTable& csv,
                                     const std::vector<std::string_view>& required,
                                     Problems& problems) {
  ColumnMap map;
  map.csv = &csv;
  for (std::size_t i = 0; i < csv.header.size(); ++i) map.index.emplace(csv.header[i], i);
  bool ok = true;
  for (std::string_view column : required) {
    if (map.index.find(column) == map.index.end()) {
      problems.add(csv.header_line, column, "missing column");
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return map;
}

// The accelerator count of a row: a whole number > 0; 0 or empty for CPU-only rows.
// SkyPilot writes counts as decimals ("8.0"); fractions are shares of a device.
struct Count {
  enum { none, whole, fraction, bad } kind = none;
  int value = 0;
};
Count parse_count(const std::string& field) {
  if (field.empty()) return {};
  auto value = parse_decimal(field);
  if (!value || *value < 0) return {Count::bad, 0};
  if (*value == 0) return {};
  if (*value != static_cast<double>(static_cast<int>(*value))) return {Count::fraction, 0};
  return {Count::whole, static_cast<int>(*value)};
}

// Reads a price field: nullopt when empty; records a problem (and returns -1) when bad.
std::optional<double> parse_price(const std::string& field, int line, std::string_view column,
                                  int count, Problems& problems) {
  if (field.empty()) return std::nullopt;
  auto value = parse_decimal(field);
  if (!value) {
    problems.add(line, column, in_quotes(field) + " is not a plain decimal number");
    return -1.0;
  }
  if (*value <= 0) {
    problems.add(line, column, "must be greater than 0, got " + field);
    return -1.0;
  }
  if (count > 0 && *value / count <= kPriceFloor) {
    problems.add(line, column,
                 format_number(*value / count) + " per device is at or below the floor " +
                     format_number(kPriceFloor) + " (the typical value of a parsing bug)");
    return -1.0;
  }
  return value;
}

// Records a row with an accelerator that is not imported.
void skip_row(ImportReport& report, int line, std::string column, std::string value,
              std::string reason) {
  ++report.skipped;
  report.skipped_rows.push_back({line, std::move(column), std::move(value), std::move(reason)});
}

// The memory of one device from SkyPilot's GpuInfo ("{'Gpus': [{'Name': 'A100-80GB', ...,
// 'MemoryInfo': {'SizeInMiB': 81920}}], ...}"), in nameplate GB: MiB / 1024, as GPU memory is
// binary (DOMAIN "Units": an "80 GB" card has 81,920 MiB). 0 when not stated.
double gpu_info_memory_gb(const std::string& gpu_info) {
  constexpr std::string_view kKey = "'SizeInMiB':";
  const auto at = gpu_info.find(kKey);
  if (at == std::string::npos) return 0;
  std::size_t begin = at + kKey.size();
  while (begin < gpu_info.size() && gpu_info[begin] == ' ') ++begin;
  std::size_t end = begin;
  while (end < gpu_info.size() &&
         (std::isdigit(static_cast<unsigned char>(gpu_info[end])) != 0 || gpu_info[end] == '.')) {
    ++end;
  }
  const auto mib = parse_decimal(std::string_view(gpu_info).substr(begin, end - begin));
  return mib && *mib > 0 ? *mib / 1024 : 0;
}

constexpr const char* kNotADevice =
    "not a catalog device (gputco catalog list gpus; a devices.csv import adds one)";

// Maps a row's accelerator; returns false (and records why in `report`) when the row is not an
// offer to import: CPU-only (counted) or skipped (named).
bool accelerator_of(int line, std::string_view column, const std::string& name,
                    const std::string& count_field, const std::string& sku,
                    const std::string& provider, double memory_gb, const AcceleratorNames& names,
                    Offer& offer, Problems& problems, ImportReport& report) {
  const Count count = parse_count(count_field);
  const std::string count_column = column == "AcceleratorName" ? "AcceleratorCount" : "gpu_count";
  if (count.kind == Count::bad) {
    problems.add(line, count_column, in_quotes(count_field) + " is not a number of devices");
    return false;
  }
  if (name.empty() || count.kind == Count::none) {
    ++report.without_accelerator;  // CPU-only: expected in these catalogs, only counted
    return false;
  }
  if (count.kind == Count::fraction) {
    skip_row(report, line, count_column, count_field,
             "a share of a device, which the catalog does not price");
    return false;
  }
  auto match = names.map(name, sku, provider, memory_gb);
  if (!match) {
    skip_row(report, line, std::string(column), name, kNotADevice);
    return false;
  }
  offer.device_id = match->device_id;
  offer.count = count.value;
  offer.note = "accelerator " + in_quotes(name) + " -> " + match->device_id;
  if (!match->rule.empty()) offer.note += " (" + match->rule + ")";
  return true;
}

// ---- SkyPilot, GCP layout ---------------------------------------------------------------------

// The machine types GCP attaches these GPUs to, by GPU count (cloud.google.com/compute/docs/gpus;
// the same table SkyPilot keeps): a GPU of this list is priced with one of them as its host.
struct DedicatedHosts {
  std::string_view accelerator;  // SkyPilot's AcceleratorName, upper case
  int count;
  std::vector<std::string_view> instance_types;
};
const std::vector<DedicatedHosts>& gcp_dedicated_hosts() {
  static const std::vector<DedicatedHosts> hosts = {
      {"A100", 1, {"a2-highgpu-1g"}},
      {"A100", 2, {"a2-highgpu-2g"}},
      {"A100", 4, {"a2-highgpu-4g"}},
      {"A100", 8, {"a2-highgpu-8g"}},
      {"A100", 16, {"a2-megagpu-16g"}},
      {"A100-80GB", 1, {"a2-ultragpu-1g"}},
      {"A100-80GB", 2, {"a2-ultragpu-2g"}},
      {"A100-80GB", 4, {"a2-ultragpu-4g"}},
      {"A100-80GB", 8, {"a2-ultragpu-8g"}},
      {"L4",
       1,
       {"g2-standard-4", "g2-standard-8", "g2-standard-12", "g2-standard-16", "g2-standard-32"}},
      {"L4", 2, {"g2-standard-24"}},
      {"L4", 4, {"g2-standard-48"}},
      {"L4", 8, {"g2-standard-96"}},
      {"H100", 1, {"a3-highgpu-1g"}},
      {"H100", 2, {"a3-highgpu-2g"}},
      {"H100", 4, {"a3-highgpu-4g"}},
      {"H100", 8, {"a3-highgpu-8g"}},
      {"H100-MEGA", 8, {"a3-megagpu-8g"}},
      {"H200", 8, {"a3-ultragpu-8g"}},
      {"B200", 8, {"a4-highgpu-8g"}},
  };
  return hosts;
}

std::string upper(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool is_dedicated_host(std::string_view instance_type) {
  for (const DedicatedHosts& h : gcp_dedicated_hosts()) {
    for (std::string_view type : h.instance_types) {
      if (type == instance_type) return true;
    }
  }
  return false;
}

// Other GPUs ride on an N1 VM with at least this many vCPUs (SkyPilot's defaults: AWS-like
// 8 per GPU; T4 as g4dn: 4, 8, 48; K80 as p2: 4 per GPU) and 4 GiB of memory per vCPU.
std::optional<int> n1_vcpus(const std::string& accelerator, int count) {
  static const std::map<std::string, std::map<int, int>, std::less<>> table = {
      {"K80", {{1, 4}, {2, 8}, {4, 16}, {8, 32}, {16, 64}}},
      {"T4", {{1, 4}, {2, 8}, {4, 48}}},
      {"DEFAULT", {{1, 8}, {2, 16}, {4, 32}, {8, 64}, {16, 128}}},
  };
  auto it = table.find(accelerator);
  if (it == table.end()) it = table.find("DEFAULT");
  const auto cpus = it->second.find(count);
  if (cpus == it->second.end()) return std::nullopt;
  return cpus->second;
}
constexpr double kN1MemoryGibPerVcpu = 4;

// A host VM row of a GCP file: an instance type in a zone, without accelerator.
struct HostVm {
  int line = 0;
  std::string instance_type;
  std::string region;
  std::string zone;
  double vcpus = 0;
  double memory_gib = 0;
  std::optional<double> price;
  std::optional<double> spot;
};

// A GPU row of a GCP file (no InstanceType), its accelerator mapped.
struct GpuRow {
  Offer offer;  // line, device, count, region, zone, note
  std::string accelerator;
  std::optional<double> price;
  std::optional<double> spot;
};

std::string price_text(const std::optional<double>& value) {
  return value ? format_number(*value) : std::string("none");
}

bool is_n1(std::string_view instance_type) {
  for (std::string_view family : {"n1-standard-", "n1-highmem-", "n1-highcpu-"}) {
    if (instance_type.rfind(family, 0) == 0) return true;
  }
  return false;
}

// Joins GCP's GPU rows with their host VM rows (see read_skypilot_offers).
void join_gcp(const std::vector<GpuRow>& gpus, const std::vector<HostVm>& hosts, Problems& problems,
              ImportReport& report, std::vector<Offer>& offers) {
  std::map<std::pair<std::string, std::string>, std::vector<const HostVm*>> in_zone;
  std::set<std::string, std::less<>> types;
  double largest_n1 = 0;  // the most vCPUs an N1 row offers with 4 GiB each
  for (const HostVm& h : hosts) {
    in_zone[{h.region, h.zone}].push_back(&h);
    types.insert(h.instance_type);
    if (is_n1(h.instance_type) && h.price) {
      largest_n1 = std::max(largest_n1, std::min(h.vcpus, h.memory_gib / kN1MemoryGibPerVcpu));
    }
  }
  for (const GpuRow& g : gpus) {
    const std::string name = upper(g.accelerator);
    const int count = g.offer.count;
    bool dedicated = false;
    std::vector<std::string_view> wanted;
    for (const DedicatedHosts& d : gcp_dedicated_hosts()) {
      if (d.accelerator != name) continue;
      dedicated = true;
      if (d.count == count) wanted = d.instance_types;
    }
    const std::optional<int> cpus = dedicated ? std::nullopt : n1_vcpus(name, count);
    if (dedicated ? wanted.empty() : !cpus) {
      skip_row(report, g.offer.line, "AcceleratorCount", std::to_string(count),
               "GCP attaches no " + std::to_string(count) + " x " + g.accelerator +
                   " to a machine type SkyPilot knows");
      continue;
    }
    const auto fits = [&](const HostVm& h) {
      if (dedicated) {
        return std::find(wanted.begin(), wanted.end(), h.instance_type) != wanted.end();
      }
      return is_n1(h.instance_type) && h.vcpus >= *cpus &&
             h.memory_gib >= *cpus * kN1MemoryGibPerVcpu;
    };
    const HostVm* host = nullptr;
    if (auto it = in_zone.find({g.offer.region, g.offer.zone}); it != in_zone.end()) {
      for (const HostVm* h : it->second) {
        if (h->price && fits(*h) && (host == nullptr || *h->price < *host->price)) host = h;
      }
    }
    std::string needed;
    for (std::string_view type : wanted)
      needed += (needed.empty() ? "" : " or ") + std::string(type);
    if (!dedicated) {
      needed = "an N1 VM with at least " + std::to_string(*cpus) + " vCPUs and " +
               format_number(*cpus * kN1MemoryGibPerVcpu) + " GiB";
    }
    if (host == nullptr) {
      const bool anywhere =
          dedicated ? std::any_of(wanted.begin(), wanted.end(),
                                  [&](std::string_view t) { return types.count(t) > 0; })
                    : largest_n1 >= *cpus;
      if (!anywhere) {
        problems.add(
            g.offer.line, "InstanceType",
            "empty: this is SkyPilot's GCP layout, where a row without InstanceType prices the " +
                std::to_string(count) + " x " + g.accelerator +
                " alone and GCP bills them with a host VM priced on separate rows (InstanceType "
                "set, AcceleratorName empty); the file has no row for the host (" +
                needed +
                "), so the whole price cannot be known. Import the whole gcp/vms.csv (host and "
                "GPU rows), or give the instance's whole price in our rental_offers.csv "
                "format");
        continue;
      }
      skip_row(report, g.offer.line, "AvailabilityZone", g.offer.region + "/" + g.offer.zone,
               "no host VM row (" + needed + ") in the zone for " + std::to_string(count) + " x " +
                   g.accelerator + " (SkyPilot offers none there)");
      continue;
    }
    Offer offer = g.offer;
    offer.sku = dedicated
                    ? host->instance_type
                    : host->instance_type + " + " + std::to_string(count) + "x " + g.accelerator;
    offer.note = "GCP: GPU row (line " + std::to_string(g.offer.line) + ": " + price_text(g.price) +
                 " on demand, " + price_text(g.spot) + " spot) + host VM " + host->instance_type +
                 " (line " + std::to_string(host->line) + ": " + price_text(host->price) + ", " +
                 price_text(host->spot) +
                 "), joined as SkyPilot's optimizer does (sky/catalog/gcp_catalog.py); " +
                 g.offer.note;
    const std::optional<double> price =
        g.price ? std::optional<double>(*g.price + *host->price) : std::nullopt;
    const std::optional<double> spot =
        g.spot && host->spot ? std::optional<double>(*g.spot + *host->spot) : std::nullopt;
    if (price && spot && *spot > *price) {
      problems.add(g.offer.line, "SpotPrice",
                   "spot " + format_number(*spot) + " (GPU + host " + host->instance_type +
                       ") is above the on-demand " + format_number(*price) +
                       " of the same instance (columns swapped?)");
      continue;
    }
    if (price) {
      offer.term = "on_demand";
      offer.amount = *price;
      offers.push_back(offer);
    }
    if (spot) {
      offer.term = "spot";
      offer.amount = *spot;
      offers.push_back(offer);
    }
  }
}

}  // namespace

std::vector<Offer> read_skypilot_offers(const CsvTable& csv, const std::string& provider,
                                        const AcceleratorNames& names, Problems& problems,
                                        ImportReport& report) {
  std::vector<Offer> offers;
  auto columns = map_columns(
      csv, {"InstanceType", "AcceleratorName", "AcceleratorCount", "Region", "Price", "SpotPrice"},
      problems);
  if (!columns) return offers;
  std::vector<GpuRow> gpus;
  std::vector<HostVm> hosts;
  const bool gcp = upper(provider) == "GCP";
  const auto lenient = [](const std::string& field) -> std::optional<double> {
    auto value = parse_decimal(field);
    if (value && *value > 0) return value;
    return std::nullopt;
  };
  for (const CsvRow& row : csv.rows) {
    ++report.rows_read;
    if (auto wrong = row_width_problem(row.fields.size(), csv.header.size())) {
      problems.add(row.line, "row", *wrong);
      continue;
    }
    Offer offer;
    offer.line = row.line;
    offer.sku = columns->get(row, "InstanceType");
    offer.region = columns->get(row, "Region");
    offer.zone = columns->get(row, "AvailabilityZone");
    const std::string& accelerator = columns->get(row, "AcceleratorName");
    if (offer.region.empty()) problems.add(row.line, "Region", "required, but empty");
    if (offer.sku.empty() && accelerator.empty()) {
      problems.add(row.line, "InstanceType", "required, but empty");
      continue;
    }
    if (accelerator.empty()) {  // a host VM (GCP) or a CPU-only instance: counted as skipped
      hosts.push_back({row.line, offer.sku, offer.region, offer.zone,
                       lenient(columns->get(row, "vCPUs")).value_or(0),
                       lenient(columns->get(row, "MemoryGiB")).value_or(0),
                       lenient(columns->get(row, "Price")),
                       lenient(columns->get(row, "SpotPrice"))});
      ++report.without_accelerator;
      continue;
    }
    if (upper(accelerator).rfind("TPU", 0) == 0) {
      skip_row(report, row.line, "AcceleratorName", accelerator,
               "a TPU, not a GPU: the catalog prices GPUs only");
      continue;
    }
    if (gcp && is_dedicated_host(offer.sku)) {
      problems.add(row.line, "Price",
                   "a GCP row with both InstanceType " + in_quotes(offer.sku) +
                       " and AcceleratorName " + in_quotes(accelerator) +
                       ": SkyPilot's GCP catalog lists the host VM (InstanceType, no "
                       "AcceleratorName) and the GPUs (AcceleratorName, no InstanceType) on "
                       "separate rows, so this Price (" +
                       columns->get(row, "Price") +
                       ") may be the host VM's alone, without its GPUs (a3-highgpu-1g's host is "
                       "1.18 of 5.38 USD an hour with its H100 in us-central1: -78 %). Import "
                       "SkyPilot's gcp/vms.csv as published, or give the whole instance's price "
                       "in our rental_offers.csv format");
      continue;
    }
    if (!accelerator_of(row.line, "AcceleratorName", accelerator,
                        columns->get(row, "AcceleratorCount"), offer.sku, provider,
                        gpu_info_memory_gb(columns->get(row, "GpuInfo")), names, offer, problems,
                        report)) {
      continue;
    }
    const auto price =
        parse_price(columns->get(row, "Price"), row.line, "Price", offer.count, problems);
    const auto spot =
        parse_price(columns->get(row, "SpotPrice"), row.line, "SpotPrice", offer.count, problems);
    if (!price && !spot) {
      skip_row(report, row.line, "Price", "", "empty, and no SpotPrice either");
      continue;
    }
    if ((price && *price < 0) || (spot && *spot < 0)) continue;  // already a problem
    if (offer.sku.empty()) {  // GCP's layout: the GPU alone, joined with its host below
      gpus.push_back({offer, accelerator, price, spot});
      continue;
    }
    if (price && spot && *spot > *price) {
      problems.add(row.line, "SpotPrice",
                   "spot " + format_number(*spot) + " is above the on-demand Price " +
                       format_number(*price) + " of the same instance (columns swapped?)");
    }
    if (price) {
      offer.term = "on_demand";
      offer.amount = *price;
      offers.push_back(offer);
    }
    if (spot) {
      offer.term = "spot";
      offer.amount = *spot;
      offers.push_back(offer);
    }
  }
  if (!gpus.empty()) join_gcp(gpus, hosts, problems, report, offers);
  return offers;
}

std::vector<Offer> read_gpuhunt_offers(const CsvTable& csv, const std::string& provider,
                                       const AcceleratorNames& names, Problems& problems,
                                       ImportReport& report) {
  std::vector<Offer> offers;
  auto columns = map_columns(
      csv, {"instance_name", "location", "price", "gpu_count", "gpu_name", "spot"}, problems);
  if (!columns) return offers;
  for (const CsvRow& row : csv.rows) {
    ++report.rows_read;
    if (auto wrong = row_width_problem(row.fields.size(), csv.header.size())) {
      problems.add(row.line, "row", *wrong);
      continue;
    }
    Offer offer;
    offer.line = row.line;
    offer.sku = columns->get(row, "instance_name");
    offer.region = columns->get(row, "location");
    if (offer.sku.empty()) problems.add(row.line, "instance_name", "required, but empty");
    if (offer.region.empty()) problems.add(row.line, "location", "required, but empty");
    const std::string& spot = columns->get(row, "spot");
    std::string spot_upper;
    for (char c : spot)
      spot_upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (spot_upper != "TRUE" && spot_upper != "FALSE") {
      problems.add(row.line, "spot", in_quotes(spot) + " is not True or False");
      continue;
    }
    offer.term = spot_upper == "TRUE" ? "spot" : "on_demand";
    const std::string& memory_field = columns->get(row, "gpu_memory");
    const double memory_gb = parse_decimal(memory_field).value_or(0);
    if (!accelerator_of(row.line, "gpu_name", columns->get(row, "gpu_name"),
                        columns->get(row, "gpu_count"), offer.sku, provider, memory_gb, names,
                        offer, problems, report)) {
      continue;
    }
    const auto price =
        parse_price(columns->get(row, "price"), row.line, "price", offer.count, problems);
    if (!price) {
      problems.add(row.line, "price", "required, but empty");
      continue;
    }
    if (*price <= 0) continue;
    offer.amount = *price;
    offers.push_back(offer);
  }
  // Spot above on-demand for the same instance and location.
  std::map<std::pair<std::string, std::string>, const Offer*> on_demand;
  for (const Offer& o : offers) {
    if (o.term == "on_demand") on_demand.emplace(std::make_pair(o.sku, o.region), &o);
  }
  for (const Offer& o : offers) {
    if (o.term != "spot") continue;
    auto it = on_demand.find({o.sku, o.region});
    if (it != on_demand.end() && o.amount > it->second->amount) {
      problems.add(o.line, "price",
                   "spot " + format_number(o.amount) + " is above the on-demand price " +
                       format_number(it->second->amount) + " of line " +
                       std::to_string(it->second->line) + " (same instance and location)");
    }
  }
  return offers;
}

std::vector<Offer> merge_zones(std::vector<Offer> offers, std::string_view key_columns,
                               Problems& problems) {
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::vector<Offer*>> groups;
  for (Offer& o : offers) groups[{o.sku, o.region, o.term}].push_back(&o);
  std::vector<Offer> out;
  std::set<Key> qualified;
  for (auto& [key, group] : groups) {
    // Not `group` in the lambda: clang before 16 cannot capture a structured binding.
    const Offer* first = group.front();
    const bool same = std::all_of(group.begin(), group.end(),
                                  [&](const Offer* o) { return o->amount == first->amount; });
    if (same) {
      out.push_back(*group.front());
      continue;
    }
    std::map<std::string, const Offer*> by_zone;
    for (Offer* o : group) {
      auto [it, inserted] = by_zone.emplace(o->zone, o);
      if (!inserted && it->second->amount != o->amount) {
        problems.add(o->line, std::string(key_columns),
                     "the same instance, region" + std::string(o->zone.empty() ? "" : ", zone") +
                         " and term as line " + std::to_string(it->second->line) +
                         " with another price (" + format_number(o->amount) + " vs " +
                         format_number(it->second->amount) + ")");
        continue;
      }
      if (!inserted) continue;
      Offer zoned = *o;
      if (!o->zone.empty()) zoned.region = o->region + "/" + o->zone;
      out.push_back(zoned);
    }
  }
  std::sort(out.begin(), out.end(), [](const Offer& a, const Offer& b) { return a.line < b.line; });
  return out;
}

}  // namespace gputco::import_detail
