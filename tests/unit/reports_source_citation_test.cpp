// Sources as a customer reads them (issue #15): who published a figure and where, from the
// catalog's source texts (pricing/data/*.csv, copied here as the rows hold them).
#include <gtest/gtest.h>

#include "reports/source_citation.hpp"

namespace gputco {
namespace {

TEST(SourceCitation, aSkyPilotCatalogFileIsTheProvidersPriceList) {
  const auto c = cite_source(
      "skypilot-org/skypilot-catalog catalogs/v7/runpod/vms.csv @ "
      "0727c2bd9e77f91cb1377127c5f793a28cf01384");
  EXPECT_EQ(c.publisher, "RunPod price list (via the SkyPilot catalog)");
  EXPECT_EQ(c.address,
            "https://github.com/skypilot-org/skypilot-catalog/blob/"
            "0727c2bd9e77f91cb1377127c5f793a28cf01384/catalogs/v7/runpod/vms.csv");
  EXPECT_EQ(
      cite_source("skypilot-org/skypilot-catalog catalogs/v7/aws/vms.csv @ 1e84987d").publisher,
      "AWS price list (via the SkyPilot catalog)");
}

TEST(SourceCitation, anApiPriceFromLiteLlmIsTheProvidersPrices) {
  const auto c = cite_source(
      "BerriAI/litellm model_prices_and_context_window.json @ "
      "00035b69f416be24e2e323c13198d9b7d2d1bdf9, key 'groq/qwen/qwen3-32b' (2.9e-07 / 5.9e-07)");
  EXPECT_EQ(c.publisher, "Groq prices (via LiteLLM's price table)");
  EXPECT_EQ(c.address.rfind("https://github.com/BerriAI/litellm/blob/00035b69", 0), 0u)
      << c.address;
}

TEST(SourceCitation, statisticsOfficesAndCentralBanksByName) {
  EXPECT_EQ(cite_source("Eurostat nrg_pc_205 (non-household, bi-annual), 2024-S2 column, as cached "
                        "in Qery-Data/Energy data_Eurostat_Energy_Prices/x.csv @ 1dd8957a")
                .publisher,
            "Eurostat");
  EXPECT_EQ(
      cite_source("ECB euro reference rate for 2026-05-27 as quoted in devantler-tech/platform "
                  "commit cb791c6f")
          .publisher,
      "European Central Bank (ECB)");
  EXPECT_EQ(cite_source("EIA Electric Power Annual 2023, average price of electricity to ultimate "
                        "customers, commercial sector, by state")
                .publisher,
            "U.S. Energy Information Administration (EIA)");
  const auto maps = cite_source(
      "thegreenwebfoundation/co2.js data/output/electricity-maps/yearly_2024.json @ "
      "0bf83c84cb80ff52312601118931f6972715ca08, zone 'NL' carbonIntensity.value");
  EXPECT_EQ(maps.publisher, "Electricity Maps (via co2.js)");
  EXPECT_EQ(maps.address.rfind("https://github.com/thegreenwebfoundation/co2.js/blob/", 0), 0u);
  const auto spotwire = cite_source(
      "SpotWire valuator dataset, spotwire.ai/data/valuator_data.json (as_of 2026-06-04, "
      "CC-BY-4.0): H100 80GB PCIe vintage_curve, factor at 3 years 0.46");
  EXPECT_EQ(spotwire.publisher, "SpotWire");
  EXPECT_EQ(spotwire.address, "https://spotwire.ai/data/valuator_data.json");
}

TEST(SourceCitation, aWebPageIsItsSite) {
  const auto c = cite_source(
      "bestllmfor.com/best/dual-rtx-3090-budget-rig (guide dated 2026-05-16): used RTX 3090s "
      "'settled around $750'");
  EXPECT_EQ(c.publisher, "bestllmfor.com");
  EXPECT_EQ(c.address, "https://bestllmfor.com/best/dual-rtx-3090-budget-rig");
  EXPECT_EQ(cite_source("https://www.runpod.io/pricing").publisher, "runpod.io");
  EXPECT_EQ(cite_source("https://www.runpod.io/pricing").address, "https://www.runpod.io/pricing");
  // A file name is not a site: "prices.md" is no web address.
  EXPECT_EQ(cite_source("Latent Space '$2 H100s' companion sheet, as quoted in gputco "
                        "shared/reference/prices.md")
                .publisher,
            "Latent Space '$2 H100s' companion sheet");
}

TEST(SourceCitation, aGitHubFileAndTheRest) {
  const auto c = cite_source(
      "Artexis10/exomem docs/hosted-hardware-options.md @ "
      "3dcc900ca2b6f7d8002f5136c2597f9a057853f2 ('Checked on 7 October 2026')");
  EXPECT_EQ(c.publisher, "Artexis10/exomem on GitHub");
  EXPECT_EQ(c.address,
            "https://github.com/Artexis10/exomem/blob/3dcc900ca2b6f7d8002f5136c2597f9a057853f2/"
            "docs/hosted-hardware-options.md");
  EXPECT_EQ(cite_source("example value, no public source").publisher,
            "example value (no public source)");
  EXPECT_EQ(cite_source("example value, no public source").address, "");
  EXPECT_EQ(cite_source("eBay sold listings, 30-day median").publisher, "eBay sold listings");
}

TEST(CustomerProvenance, saysWhereAValueComesFromInACustomersWords) {
  EXPECT_EQ(customer_provenance("scenario file line 12"), "stated for this quote");
  EXPECT_EQ(customer_provenance("default"), "standard assumption");
  EXPECT_EQ(customer_provenance("default: 0 (rates stay as quoted)"),
            "standard assumption: 0 (rates stay as quoted)");
  // Internal references (issue #37: "DOMAIN 'Who uses it', E6" reached a customer's quote).
  EXPECT_EQ(customer_provenance("default: 150 W for the rest of a desktop (DOMAIN E5)"),
            "standard assumption: 150 W for the rest of a desktop");
  EXPECT_EQ(customer_provenance("default: 36 months, the horizon buyers plan hardware for "
                                "(DOMAIN 'Who uses it', E6), the common straight-line life"),
            "standard assumption: 36 months, the horizon buyers plan hardware for, the common "
            "straight-line life");
  EXPECT_EQ(customer_provenance("catalog: bestllmfor.com/best/dual-rtx-3090-budget-rig (guide), "
                                "observed 2026-05-16 (stale); converted from 750.0000 USD at "
                                "0.8593 EUR/USD"),
            "bestllmfor.com, 2026-05-16; converted from 750.0000 USD at 0.8593 EUR/USD");
  EXPECT_EQ(customer_provenance("the tariff's region 'nl'; catalog: thegreenwebfoundation/co2.js "
                                "data/output/electricity-maps/yearly_2024.json @ 0bf83c84, zone "
                                "'NL' carbonIntensity.value, observed 2025-01-01 (stale)"),
            "the tariff's region 'nl'; Electricity Maps (via co2.js), 2025-01-01");
  EXPECT_EQ(customer_provenance("derived: requests_per_day x output_tokens_per_request"),
            "derived: requests_per_day x output_tokens_per_request");
}

}  // namespace
}  // namespace gputco
