// Plausibility in linear time (the median of an observation's peers), rentals refused on
// import unless accepted as outliers, and SkyPilot's GCP layout (GPU rows joined with their
// host VM rows, a host-only price refused). Issue 17; issue 20 "Bounds".
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "pricing/catalog.hpp"
#include "pricing/catalog_import.hpp"
#include "pricing/peer_median.hpp"
#include "tests/support/paths.hpp"
#include "tests/unit/pricing_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using Problems = std::vector<std::string>;

fs::path test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return test::work_dir(std::string("plausibility.") + info->test_suite_name() + "." +
                        info->name());
}

ImportOptions options(const std::string& book, const std::string& as_of) {
  ImportOptions o;
  o.book = book;
  o.as_of = as_of;
  return o;
}

using test::import_problems;

std::string bug(const std::string& name) {
  return test::source_path("tests/data/catalog/bugs/" + name);
}

// ---- medians_of_peers --------------------------------------------------------------------

std::optional<double> median_of(const std::vector<std::optional<PeerMedian>>& m, std::size_t i) {
  if (!m[i]) return std::nullopt;
  return m[i]->median;
}

TEST(MediansOfPeers, windowAndSelfExcludedByHand) {
  // Days 0, 10, 20, 400; values 10, 20, 30, 1000.
  const std::vector<DatedValue> group = {{0, 10}, {10, 20}, {20, 30}, {400, 1000}};
  const auto dated = medians_of_peers(group, 30, 1);
  EXPECT_EQ(median_of(dated, 0), 25.0);          // peers 20, 30: (20 + 30) / 2
  EXPECT_EQ(median_of(dated, 1), 20.0);          // peers 10, 30
  EXPECT_EQ(median_of(dated, 2), 15.0);          // peers 10, 20
  EXPECT_EQ(median_of(dated, 3), std::nullopt);  // nobody within 30 days of day 400
  const auto all = medians_of_peers(group, -1, 1);
  EXPECT_EQ(median_of(all, 0), 30.0);  // peers 20, 30, 1000
  EXPECT_EQ(median_of(all, 3), 20.0);  // peers 10, 20, 30
  ASSERT_TRUE(all[3].has_value());
  EXPECT_EQ(all[3]->peers, 3);
  // At least 3 peers asked: the two-peer members get no verdict.
  const auto strict = medians_of_peers(group, 30, 3);
  for (const auto& m : strict) EXPECT_FALSE(m.has_value());
  // Equal values share a rank: each of three 5s has peers 5, 5.
  const auto same = medians_of_peers({{0, 5}, {0, 5}, {0, 5}}, -1, 1);
  for (const auto& m : same) EXPECT_EQ(m->median, 5.0);
}

TEST(MediansOfPeers, equalsTheNaiveMedianOnRandomGroups) {
  std::mt19937_64 random(20261127);  // fixed seed: the same groups on every run
  std::uniform_int_distribution<int> day(0, 1000);
  std::uniform_int_distribution<int> value(1, 60);  // few distinct values: many ties
  for (int round = 0; round < 20; ++round) {
    std::vector<DatedValue> group(300);
    for (auto& m : group) m = {day(random), static_cast<double>(value(random))};
    for (const int window : {-1, 0, 30, 183}) {
      const auto fast = medians_of_peers(group, window, 2);
      for (std::size_t i = 0; i < group.size(); ++i) {
        std::vector<double> peers;
        for (std::size_t j = 0; j < group.size(); ++j) {
          if (j != i && (window < 0 || std::abs(group[j].day - group[i].day) <= window)) {
            peers.push_back(group[j].value);
          }
        }
        if (peers.size() < 2) {
          EXPECT_FALSE(fast[i].has_value());
          continue;
        }
        std::sort(peers.begin(), peers.end());
        const std::size_t n = peers.size();
        const double naive = n % 2 ? peers[n / 2] : (peers[n / 2 - 1] + peers[n / 2]) / 2;
        ASSERT_TRUE(fast[i].has_value());
        EXPECT_EQ(fast[i]->median, naive) << "round " << round << " window " << window;
        EXPECT_EQ(fast[i]->peers, static_cast<int>(n));
      }
    }
  }
}

// ---- Rentals: refused on import unless accepted ------------------------------------------

// A fetcher's bug replayed: an H100 SXM offer at 0.83 USD an hour (2.99 / 3.6).
TEST(RentalPlausibility, anOfferFarBelowItsDatedMedianIsRefusedWithItsLine) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  const Problems problems =
      import_problems(db, bug("h100_offer_3.6x_too_cheap.csv"), options("odd", "2026-11-27"));
  ASSERT_EQ(problems.size(), 1u) << problems.front();
  // The built-in H100 SXM on-demand offers within 183 days of 2026-10-01 (Catalog::
  // rental_market), per device-hour; their median is the reference (see the message).
  EXPECT_EQ(problems.front().rfind("h100_offer_3.6x_too_cheap.csv:2: amount: rental offer "
                                   "acme-cloud 1x H100 SXM hourly on_demand (book odd, global, "
                                   "2026-10-01): 0.83 USD per device-hour is 1/",
                                   0),
            0u)
      << problems.front();
  EXPECT_NE(problems.front().find("(plausible: 1/3 to 4 x); refused: check the figure, or "
                                  "import with --accept-outliers"),
            std::string::npos)
      << problems.front();
  EXPECT_FALSE(fs::exists(db)) << "a refused import must not even create the database";

  // Accepted: imported, listed as a warning, and reported by the catalog's check.
  ImportOptions accept = options("odd", "2026-11-27");
  accept.accept_outliers = true;
  const ImportReport report = import_price_book(db, bug("h100_offer_3.6x_too_cheap.csv"), accept);
  EXPECT_EQ(report.inserted, 1);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_EQ(report.warnings.front().rfind("implausible: rental offer acme-cloud", 0), 0u);
  const Catalog c = Catalog::open_layered(db);
  const auto findings = c.rental_plausibility("odd");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings.front().kind, "outlier");
  EXPECT_FALSE(findings.front().reviewed);
  // Importing the same file again changes nothing, with or without the switch.
  EXPECT_EQ(
      import_price_book(db, bug("h100_offer_3.6x_too_cheap.csv"), options("odd", "2026-11-27"))
          .unchanged,
      1);
}

TEST(RentalPlausibility, theBuiltInCatalogHasNoImplausibleRow) {
  const Catalog c = Catalog::open_builtin();
  for (const auto& f : c.rental_plausibility()) EXPECT_TRUE(f.reviewed) << f.text;
  for (const auto& f : c.price_plausibility()) EXPECT_TRUE(f.reviewed) << f.text;
  EXPECT_EQ(c.audit("", 90).problems, Problems{});
}

// ---- SkyPilot's GCP layout ---------------------------------------------------------------

std::vector<RentalOffer> book_offers(const std::string& db, const std::string& device) {
  std::vector<RentalOffer> out;
  for (const auto& r : Catalog::open_layered(db).rental_history(device)) {
    if (r.provenance.book != kBuiltinBook) out.push_back(r);
  }
  return out;
}

// A real-shaped excerpt of skypilot-catalog catalogs/v7/gcp/vms.csv (rows as published there):
// GPU rows without InstanceType joined with their host VM rows, as SkyPilot's optimizer does.
TEST(ImportSkyPilotGcp, gpuRowsAreJoinedWithTheirHostVm) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options("gcp", "2026-11-27");
  o.observed_on = "2026-11-20";
  const std::string vms = test::source_path("tests/data/catalog/import/skypilot/gcp/vms.csv");
  // The TPU row and the 2 x H100 of zone c (no host row there) cannot be imported: without
  // --allow-skipped the file is refused, each named, and nothing is written.
  try {
    import_price_book(db, vms, o);
    ADD_FAILURE() << "rows skipped without allow_skipped: expected ImportIncomplete";
  } catch (const ImportIncomplete& e) {
    EXPECT_EQ(e.skipped(), 2);
    EXPECT_EQ(e.summary(),
              (std::vector<std::string>{
                  vms + ":11: AvailabilityZone: 'us-central1/us-central1-c': no host VM row "
                        "(a3-highgpu-2g) in the zone for 2 x H100 (SkyPilot offers none there) "
                        "(1 row)",
                  vms + ":12: AcceleratorName: 'tpu-v5p-1280': a TPU, not a GPU: the catalog "
                        "prices GPUs only (1 row)"}));
  }
  EXPECT_FALSE(fs::exists(db));
  o.allow_skipped = true;
  const ImportReport report = import_price_book(db, vms, o);
  EXPECT_EQ(report.format, ImportFormat::skypilot_vms);
  EXPECT_EQ(report.rows_read, 11);
  // us-central1 1 x H100 (zones a and b alike: one region offer), us-east4 1 x H100, and
  // us-central1-a 2 x H100: on-demand and spot each.
  EXPECT_EQ(report.inserted, 6);
  EXPECT_EQ(report.without_accelerator, 5);  // the host VM rows: priced into the GPU offers
  EXPECT_EQ(report.skipped, 2);
  EXPECT_TRUE(report.warnings.empty());
  std::vector<std::tuple<std::string, std::string, std::string, double>> got;
  for (const auto& r : book_offers(db, "h100-sxm")) {
    got.emplace_back(r.sku, r.region, r.term, r.amount_per_device());
    EXPECT_EQ(r.provider, "gcp");
  }
  std::sort(got.begin(), got.end());
  // a3-highgpu-1g us-central1: 4.20076 (GPU) + 1.18251 (host) = 5.38327 on demand,
  // 2.253 + 0.27193 = 2.52493 spot; us-east4: 9.79655 + 1.18251 = 10.97906, 1.7632 + 0.21294 =
  // 1.97614; a3-highgpu-2g: (8.40152 + 2.36502) / 2 = 5.38327, (4.506 + 0.54387) / 2 = 2.524935.
  using T = std::tuple<std::string, std::string, std::string, double>;
  const std::vector<T> expected = {
      T{"a3-highgpu-1g", "us-central1", "on_demand", 4.20076 + 1.18251},
      T{"a3-highgpu-1g", "us-central1", "spot", 2.253 + 0.27193},
      T{"a3-highgpu-1g", "us-east4", "on_demand", 9.79655 + 1.18251},
      T{"a3-highgpu-1g", "us-east4", "spot", 1.7632 + 0.21294},
      T{"a3-highgpu-2g", "us-central1", "on_demand", (8.40152 + 2.36502) / 2},
      T{"a3-highgpu-2g", "us-central1", "spot", (4.506 + 0.54387) / 2}};
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(std::get<0>(got[i]), std::get<0>(expected[i]));
    EXPECT_EQ(std::get<1>(got[i]), std::get<1>(expected[i]));
    EXPECT_EQ(std::get<2>(got[i]), std::get<2>(expected[i]));
    EXPECT_NEAR(std::get<3>(got[i]), std::get<3>(expected[i]), 1e-9);
  }
}

// The "-80 %" bug: a GCP row carrying both the host VM's instance type and its GPUs, priced
// like the host VM alone (1.18251 of a3-highgpu-1g's 5.38327 in us-central1).
TEST(ImportSkyPilotGcp, aHostVmPriceWithAnAcceleratorIsRefused) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options("gcp", "2026-11-27");
  o.observed_on = "2026-11-20";
  const Problems problems = import_problems(db, bug("gcp_host_only/gcp/vms.csv"), o);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems.front().rfind("vms.csv:2: Price: a GCP row with both InstanceType "
                                   "'a3-highgpu-1g' and AcceleratorName 'H100': SkyPilot's GCP "
                                   "catalog lists the host VM",
                                   0),
            0u)
      << problems.front();
  EXPECT_FALSE(fs::exists(db));
}

// GPU rows cut from their host rows: the layout is explained, nothing imported.
TEST(ImportSkyPilotGcp, gpuRowsWithoutAnyHostRowAreRefusedWithTheLayout) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  ImportOptions o = options("gcp", "2026-11-27");
  o.observed_on = "2026-11-20";
  const Problems problems = import_problems(db, bug("gcp_gpu_rows_only/gcp/vms.csv"), o);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems.front().rfind("vms.csv:2: InstanceType: empty: this is SkyPilot's GCP "
                                   "layout, where a row without InstanceType prices the 1 x "
                                   "H100 alone",
                                   0),
            0u)
      << problems.front();
  EXPECT_NE(problems.front().find("the file has no row for the host (a3-highgpu-1g)"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(db));
}

}  // namespace
}  // namespace gputco
