// A system's interconnect (systems.csv nvlink_domain_gpus, interconnect; migration 0008): the
// built-in rows, the checks with their FILE:LINE messages, and files and catalogs older than
// the columns.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "pricing/catalog.hpp"
#include "pricing/catalog_build.hpp"
#include "pricing/catalog_schema.hpp"
#include "tests/unit/pricing_fixtures.hpp"

namespace gputco {
namespace {

using test::fixture_data;
using test::problems_in;
using Problems = std::vector<std::string>;

TEST(SystemInterconnect, builtInSystemsStateTheirNvlinkDomains) {
  const Catalog c = Catalog::open_builtin();
  // NVIDIA DGX H100 datasheet: 4x NVSwitch joining all 8 GPUs, NVLink 900 GB/s per GPU.
  const auto dgx = c.system("dgx-h100");
  ASSERT_TRUE(dgx);
  EXPECT_EQ(dgx->nvlink_domain_gpus, 8);
  EXPECT_EQ(dgx->interconnect, "NVSwitch (4x), NVLink 900 GB/s per GPU");
  // An 8x H100 SXM node is an HGX H100 8-GPU board: NVSwitch across all 8.
  const auto hgx = c.system("hgx-h100-8x-ib");
  ASSERT_TRUE(hgx);
  EXPECT_EQ(hgx->nvlink_domain_gpus, 8);
  // The rig's host (system_prices.csv: board, CPU, memory, storage, supply, frame) has no
  // NVLink bridge: every card on PCIe.
  const auto rig = c.system("rig-4x-rtx-3090");
  ASSERT_TRUE(rig);
  EXPECT_EQ(rig->nvlink_domain_gpus, 1);
  EXPECT_EQ(rig->interconnect, "PCIe 4.0 x16 per card, no NVLink bridge");
}

TEST(SystemInterconnect, badDomainsNameTheFileLineAndColumn) {
  EXPECT_EQ(problems_in(fixture_data("system_domains", "bad/systems")),
            (Problems{
                "systems.csv:2: nvlink_domain_gpus: must be greater than 0, got 0",
                "systems.csv:3: nvlink_domain_gpus: '2.5' is not a whole number",
                "systems.csv:4: nvlink_domain_gpus: 9 is more than the system's device_count 8: "
                "one NVLink domain joins some or all of the system's devices",
            }));
}

TEST(SystemInterconnect, aSystemsFileWithoutTheColumnsIsAccepted) {
  const auto data = fixture_data("systems_v7", "systems_v7");
  ASSERT_EQ(problems_in(data), Problems{});
  const std::string db = (data.parent_path() / "catalog.sqlite").string();
  build_catalog(data.string(), db);
  const auto old = Catalog::open_file(db).system("old-node");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->device_count, 8);
  EXPECT_EQ(old->nvlink_domain_gpus, 0);  // not stated: the device's own link, as before
  EXPECT_EQ(old->interconnect, "");
}

TEST(SystemInterconnect, aCatalogFileOfVersion7ReadsTheColumnsAsNotStated) {
  const auto data = fixture_data("systems_schema7", "systems_v7");
  const std::string db = (data.parent_path() / "catalog.sqlite").string();
  build_catalog(data.string(), db);
  {
    // The file as schema 7 wrote it: without the two columns, nor the later serving_runs.
    SQLite::Database d(db, SQLite::OPEN_READWRITE);
    d.exec("ALTER TABLE systems DROP COLUMN interconnect");
    d.exec("ALTER TABLE systems DROP COLUMN nvlink_domain_gpus");
    d.exec("DROP TABLE serving_runs");
    d.exec("PRAGMA user_version = 7");
  }
  const Catalog c = Catalog::open_file(db);
  EXPECT_EQ(c.schema_version(), kCatalogSchemaVersion);
  const auto old = c.system("old-node");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->nvlink_domain_gpus, 0);
  EXPECT_EQ(old->interconnect, "");
  SQLite::Database d(db, SQLite::OPEN_READONLY);
  EXPECT_EQ(d.execAndGet("PRAGMA user_version").getInt(), 7);  // the file stays untouched
}

}  // namespace
}  // namespace gputco
