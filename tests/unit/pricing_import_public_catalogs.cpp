// Price books: public catalog formats (SkyPilot vms.csv, gpuhunt CSV), their accelerator names
// mapped to catalog devices, and the summary of skipped rows.
#include "pricing/catalog_import.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "pricing/accelerator_names.hpp"
#include "pricing/catalog.hpp"
#include "tests/support/paths.hpp"
#include "tests/unit/pricing_fixtures.hpp"
#include "tests/unit/pricing_import_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using Problems = std::vector<std::string>;
using test::book_options;
using test::import_problems;
using test::write_file;

// A fresh directory for the current test (ctest runs tests as parallel processes).
fs::path test_dir() {
  return test::current_test_dir("import");
}

// ---- Public catalog formats ------------------------------------------------------------------

std::vector<RentalOffer> book_offers(const std::string& db, const std::string& device) {
  std::vector<RentalOffer> out;
  for (const auto& r : Catalog::open_layered(db).rental_history(device)) {
    if (r.provenance.book != kBuiltinBook) out.push_back(r);
  }
  return out;
}

TEST(ImportSkyPilot, lambdaVmsPerDevicePricesAndUnmappedRowsListed) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = book_options();
  o.observed_on = "2025-06-07";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/lambda/vms.csv");
  const ImportReport report = import_price_book(db, vms, o);
  EXPECT_EQ(report.format, ImportFormat::skypilot_vms);
  EXPECT_EQ(report.rows_read, 5);
  // h100 pcie in two regions, a100 x8, a10 (skipped before issue 38: the name table had no
  // A10, the catalog does), a6000
  EXPECT_EQ(report.inserted, 5);
  EXPECT_EQ(report.skipped, 0);
  EXPECT_TRUE(report.warnings.empty());
  const auto a10 = book_offers(db, "a10");
  ASSERT_EQ(a10.size(), 1u);
  EXPECT_DOUBLE_EQ(a10[0].amount_per_device(), 0.75);

  const auto a100 = book_offers(db, "a100-80gb-sxm");
  ASSERT_EQ(a100.size(), 1u);
  EXPECT_EQ(a100[0].provider, "lambda");  // from the folder of vms.csv
  EXPECT_EQ(a100[0].sku, "gpu_8x_a100_80gb_sxm4");
  EXPECT_EQ(a100[0].devices_per_instance, 8);
  EXPECT_DOUBLE_EQ(a100[0].amount_per_device(), 1.79);
  EXPECT_EQ(a100[0].currency, "USD");
  EXPECT_EQ(a100[0].provenance.source, "SkyPilot catalog vms.csv lambda/vms.csv");
  EXPECT_EQ(a100[0].provenance.observed_on, "2025-06-07");
  const auto h100 = book_offers(db, "h100-pcie");
  ASSERT_EQ(h100.size(), 2u);  // different regions stay apart
  EXPECT_EQ(h100[0].region, "us-east-1");
  EXPECT_EQ(h100[1].region, "us-west-1");
  EXPECT_DOUBLE_EQ(h100[0].amount_per_device(), 2.49);
  EXPECT_EQ(book_offers(db, "rtx-a6000").size(), 1u);
  // Again: nothing changes.
  EXPECT_EQ(import_price_book(db, vms, o).inserted, 0);
}

TEST(ImportSkyPilot, runpodZonesMergeSpotIsKeptCpuRowsSkipped) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = book_options();
  o.observed_on = "2025-06-07";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/runpod/vms.csv");
  const ImportReport report = import_price_book(db, vms, o);
  EXPECT_EQ(report.skipped, 0);
  EXPECT_EQ(report.without_accelerator, 1);  // the CPU row: counted, not a skipped offer
  EXPECT_TRUE(report.warnings.empty());
  const auto sxm = book_offers(db, "h100-sxm");
  // 1x in CA (two zones, same prices: one row each term) and 2x in US.
  ASSERT_EQ(sxm.size(), 4u);
  for (const auto& r : sxm) {
    // 2x: 5.98 and 5.38 per instance, the same per device as 1x.
    EXPECT_DOUBLE_EQ(r.amount_per_device(), r.term == "spot" ? 2.69 : 2.99)
        << r.sku << " " << r.term;
  }
  EXPECT_EQ(sxm[0].region, "CA");
  const auto rtx = book_offers(db, "rtx-4090");
  ASSERT_EQ(rtx.size(), 2u);
  for (const auto& r : rtx) {
    EXPECT_DOUBLE_EQ(r.amount_per_device(), r.term == "spot" ? 0.34 : 0.69);
  }
  const auto pcie = book_offers(db, "h100-pcie");  // RunPod's plain H100 is the PCIe card
  ASSERT_EQ(pcie.size(), 1u);
  EXPECT_NE(pcie[0].provenance.source.find("runpod/vms.csv"), std::string::npos);
  const auto l4 = book_offers(db, "l4");  // zones with different prices stay apart
  ASSERT_EQ(l4.size(), 2u);
  EXPECT_EQ(l4[0].region, "US/US-GA-1");
  EXPECT_EQ(l4[1].region, "US/US-TX-1");
}

TEST(ImportSkyPilot, spotAboveOnDemandAndZeroPriceRejectTheFile) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = book_options();
  o.observed_on = "2025-06-07";
  o.provider = "runpod";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/bad_spot/vms.csv");
  EXPECT_EQ(import_problems(db, vms, o),
            (Problems{"vms.csv:3: SpotPrice: spot 3.44 is above the on-demand Price 1.72 of the "
                      "same instance (columns swapped?)",
                      "vms.csv:4: Price: must be greater than 0, got 0"}));
  EXPECT_FALSE(fs::exists(db));
}

TEST(ImportGpuhunt, runpodCatalogPerDevicePrices) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = book_options();
  o.observed_on = "2026-05-01";
  const std::string csv = test::source_path("tests/data/catalog/import/gpuhunt/runpod.csv");
  const ImportReport report = import_price_book(db, csv, o);
  EXPECT_EQ(report.format, ImportFormat::gpuhunt);
  EXPECT_EQ(report.rows_read, 6);
  EXPECT_EQ(report.inserted, 5);  // MI250X was skipped before issue 38; the catalog has it
  EXPECT_EQ(report.skipped, 0);
  EXPECT_EQ(report.without_accelerator, 1);  // the CPU row
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_EQ(book_offers(db, "mi250x").size(), 1u);
  const auto a100 = book_offers(db, "a100-80gb-pcie");  // 80 GB, 'PCIe' in the name
  ASSERT_EQ(a100.size(), 2u);
  EXPECT_EQ(a100[0].provider, "runpod");  // from the file name
  EXPECT_EQ(a100[0].term, "on_demand");
  EXPECT_DOUBLE_EQ(a100[0].amount, 1.64);
  EXPECT_EQ(a100[1].term, "spot");
  EXPECT_DOUBLE_EQ(a100[1].amount, 1.19);
  const auto rtx = book_offers(db, "rtx-4090");
  ASSERT_EQ(rtx.size(), 1u);
  EXPECT_EQ(rtx[0].devices_per_instance, 8);
  EXPECT_DOUBLE_EQ(rtx[0].amount_per_device(), 0.69);
  ASSERT_EQ(book_offers(db, "h100-sxm").size(), 1u);  // "H100 80GB HBM3" is the SXM card
}

TEST(ImportGpuhunt, spotAboveOnDemandNamesBothLines) {
  const fs::path dir = test_dir();
  const std::string file =
      write_file(dir / "runpod.csv",
                 "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot\n"
                 "NVIDIA L4,US-TX-1,0.44,12,50,1,L4,24.0,False\n"
                 "NVIDIA L4,US-TX-1,0.50,12,50,1,L4,24.0,True\n"
                 "NVIDIA L4,US-TX-1,0.40,12,50,1,L4,24.0,maybe\n");
  ImportOptions o = book_options();
  o.observed_on = "2026-05-01";
  EXPECT_EQ(import_problems((dir / "c.sqlite").string(), file, o),
            (Problems{"runpod.csv:3: price: spot 0.5 is above the on-demand price 0.44 of line 2 "
                      "(same instance and location)",
                      "runpod.csv:4: spot: 'maybe' is not True or False"}));
}

// The accelerator names of the built-in catalog's devices.
AcceleratorNames builtin_names() {
  std::vector<DeviceNaming> devices;
  for (const Device& d : Catalog::open_builtin().devices()) devices.push_back({d.id, d.name});
  return AcceleratorNames(devices);
}

TEST(AcceleratorNames, publicNamesMapToCatalogDevices) {
  const AcceleratorNames names = builtin_names();
  auto id = [&](const char* name, const char* sku = "", const char* provider = "",
                double memory = 0) {
    auto m = names.map(name, sku, provider, memory);
    return m ? m->device_id : std::string("-");
  };
  EXPECT_EQ(id("RTX4090"), "rtx-4090");
  EXPECT_EQ(id("NVIDIA GeForce RTX 4090"), "rtx-4090");
  EXPECT_EQ(id("rtx 3090"), "rtx-3090");
  EXPECT_EQ(id("L40S"), "l40s");
  EXPECT_EQ(id("L4"), "l4");
  EXPECT_EQ(id("A100"), "a100-40gb-sxm");
  EXPECT_EQ(id("A100", "", "", 80), "a100-80gb-sxm");
  EXPECT_EQ(id("A100-80GB"), "a100-80gb-sxm");
  EXPECT_EQ(id("A100-80GB", "1x_A100-80GB_SECURE", "runpod"), "a100-80gb-pcie");
  EXPECT_EQ(id("H100", "p5.48xlarge", "aws"), "h100-sxm");
  EXPECT_EQ(id("H100", "gpu_1x_h100_pcie", "lambda"), "h100-pcie");
  EXPECT_EQ(id("H100", "1x_H100_SECURE", "runpod"), "h100-pcie");
  EXPECT_EQ(id("H100-SXM"), "h100-sxm");
  EXPECT_EQ(id("RTX6000-Ada"), "rtx-6000-ada");
  EXPECT_EQ(id("A6000"), "rtx-a6000");
  EXPECT_EQ(id("MI300X"), "mi300x");
  EXPECT_EQ(id("RTX4060TI", "", "", 8), "-");  // the catalog has the 16 GB card only
  EXPECT_EQ(id("RTX4060TI", "", "", 16), "rtx-4060-ti-16gb");
  // The names issue 38 found lost, now derived from the catalog's device names.
  EXPECT_EQ(id("A10"), "a10");
  EXPECT_EQ(id("A10G"), "a10g");
  EXPECT_EQ(id("A40"), "a40");
  EXPECT_EQ(id("A30"), "a30");
  EXPECT_EQ(id("L40"), "l40");
  EXPECT_EQ(id("H100-NVL"), "h100-nvl");
  EXPECT_EQ(id("MI250X"), "mi250x");
  EXPECT_EQ(id("AMD Instinct MI250X"), "mi250x");
  EXPECT_EQ(id("RTX4070"), "rtx-4070");
  EXPECT_EQ(id("V100"), "v100-sxm2-16gb");  // AWS p3 and GCP: the SXM2 card
  EXPECT_EQ(id("V100-32GB"), "v100-sxm2-32gb");
  EXPECT_EQ(id("V100", "Standard_NC6s_v3 PCIe"), "v100-pcie-16gb");
  EXPECT_EQ(id("P40"), "tesla-p40");
  EXPECT_EQ(id("Tesla P100 16GB"), "p100");
  EXPECT_EQ(id("B200"), "b200");
  EXPECT_EQ(id("B200", "", "", 180), "b200-180gb");
  EXPECT_EQ(id("H200"), "h200-sxm");
  EXPECT_EQ(id("H200", "gpu_1x_h200_nvl"), "h200-nvl");
  EXPECT_EQ(id("RTX3080"), "rtx-3080-10gb");
  EXPECT_EQ(id("RTX3080", "", "", 12), "rtx-3080-12gb");
  EXPECT_EQ(id("A4000"), "rtx-a4000");
  EXPECT_EQ(id("RTX PRO 6000"), "rtx-pro-6000-blackwell");
  EXPECT_EQ(id("RTX PRO 4000 Blackwell"), "rtx-pro-4000-blackwell");
  // Names for several devices are not guessed: Lambda's RTX6000 is the Turing Quadro card,
  // which the catalog lacks (not the RTX 6000 Ada).
  EXPECT_EQ(id("RTX6000"), "-");
  EXPECT_EQ(id("K80"), "-");
  EXPECT_EQ(id("tpu-v4-8"), "-");
  EXPECT_EQ(id(""), "-");
}

// Issue 38's measured goal: a SkyPilot file with a row for every catalog device imports them
// all (before it, rows for A40, A10G, A10, V100, L40, A30, H100 NVL, MI250X and RTX 4070 were
// skipped as "not a catalog device" and the import exited 0).
TEST(ImportSkyPilot, aRowForEveryCatalogDeviceImportsThemAll) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = book_options();
  o.observed_on = "2026-11-20";
  o.provider = "fixture";
  o.accept_outliers = true;  // placeholder prices: the file tests names
  const std::string vms =
      test::source_path("tests/data/catalog/import/skypilot/every_device/vms.csv");
  const ImportReport report = import_price_book(db, vms, o);  // allow_skipped is false
  const auto devices = Catalog::open_builtin().devices();
  EXPECT_EQ(report.rows_read, static_cast<int>(devices.size()));
  EXPECT_EQ(report.inserted, static_cast<int>(devices.size()));
  EXPECT_EQ(report.skipped, 0);
  std::map<std::string, int> offers;
  SQLite::Database d(db, SQLite::OPEN_READONLY);
  SQLite::Statement q(d, "SELECT device_id, count(*) FROM rental_offers GROUP BY device_id");
  while (q.executeStep()) offers[q.getColumn(0).getString()] = q.getColumn(1).getInt();
  for (const Device& device : devices) EXPECT_EQ(offers[device.id], 1) << device.id;
}

TEST(ImportSkyPilot, rowsThatCannotBeImportedRefuseTheFileEachNamed) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = book_options();
  o.observed_on = "2026-11-20";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/unmapped/vms.csv");
  try {
    import_price_book(db, vms, o);
    ADD_FAILURE() << "expected ImportIncomplete";
  } catch (const ImportIncomplete& e) {
    EXPECT_EQ(e.skipped(), 4);
    EXPECT_EQ(e.summary(),
              (Problems{vms + ":3, 4: AcceleratorName: 'K80': not a catalog device (gputco "
                              "catalog list gpus; a devices.csv import adds one) (2 rows)",
                        vms + ":5: AcceleratorCount: '0.5': a share of a device, which the "
                              "catalog does not price (1 row)",
                        vms + ":6: Price: empty, and no SpotPrice either (1 row)"}));
  }
  EXPECT_FALSE(fs::exists(db));  // nothing written, not even created
  o.allow_skipped = true;
  const ImportReport report = import_price_book(db, vms, o);
  EXPECT_EQ(report.rows_read, 6);
  EXPECT_EQ(report.inserted, 1);  // the H100
  EXPECT_EQ(report.skipped, 4);
  EXPECT_EQ(report.without_accelerator, 1);  // c5.large
  EXPECT_EQ(skipped_summary(report, "vms.csv").size(), 3u);
}

// A withdrawn currency of the ECB's whole history is on thousands of lines: the summary lists
// the first 20 runs of lines and counts the rest.
TEST(SkippedSummary, listsTwentyRunsOfLinesThenCountsTheRest) {
  ImportReport report;
  // Lines 2, 4, 6, ..., 60: 30 lines, no two adjacent, so 30 runs of one line each.
  for (int line = 2; line <= 60; line += 2) {
    report.skipped_rows.push_back({line, "currency", "HRK", "withdrawn"});
  }
  // Runs 1-20 are lines 2..40; the 10 lines 42..60 are counted.
  std::string listed;
  for (int line = 2; line <= 40; line += 2) {
    listed += (listed.empty() ? "" : ", ") + std::to_string(line);
  }
  EXPECT_EQ(skipped_summary(report, "hist.xml"),
            (Problems{"hist.xml:" + listed +
                      " and 10 more lines: currency: 'HRK': withdrawn (30 rows)"}));
}

TEST(AcceleratorNames, everyBuiltinDeviceIsKnownByItsIdAndName) {
  const AcceleratorNames names = builtin_names();
  for (const Device& d : Catalog::open_builtin().devices()) {
    for (const std::string& spelling : {d.id, d.name}) {
      const auto m = names.map(spelling, "", "", d.memory_nameplate_gb);
      ASSERT_TRUE(m.has_value()) << spelling;
      EXPECT_EQ(m->device_id, d.id) << spelling;
    }
  }
}

TEST(AcceleratorNames, aNameTwoDevicesDeriveIsDropped) {
  // "V100 SXM2" (memory left off) is both cards' name: neither gets it.
  const AcceleratorNames names({{"v100-sxm2-16gb", "Tesla V100 SXM2 16GB"},
                                {"v100-sxm2-32gb", "Tesla V100 SXM2 32GB"},
                                {"a40", "A40"}});
  EXPECT_FALSE(names.map("V100-SXM2", "", "", 0).has_value());
  EXPECT_EQ(names.map("V100 SXM2 32GB", "", "", 0)->device_id, "v100-sxm2-32gb");
  EXPECT_EQ(names.map("NVIDIA A40", "", "", 0)->device_id, "a40");
  // An odd name maps only when the catalog has its device.
  EXPECT_FALSE(names.map("A6000", "", "", 0).has_value());
}

}  // namespace
}  // namespace gputco
