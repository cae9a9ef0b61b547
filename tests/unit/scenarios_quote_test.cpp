// The quote's scenario keys (issue #15): [seller] (company, contact, logo, terms), the option
// proposed, display labels of the options, and the paper by currency.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "pricing/catalog.hpp"
#include "scenarios/quote.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "tests/support/paths.hpp"

namespace gputco {
namespace {

/// A 2 x 1 PNG: signature, then IHDR (width 2, height 1, 8-bit RGB), CRCs not checked here.
std::string tiny_png() {
  std::string png = "\x89PNG\r\n\x1a\n";
  png +=
      std::string("\0\0\0\x0d", 4) + "IHDR" + std::string("\0\0\0\x02\0\0\0\x01\x08\x02\0\0\0", 13);
  png += std::string(4, '\0');  // CRC
  return png;
}

/// A JPEG header: SOI, an APP0 segment of 16 bytes, SOF0 of a 320 x 200 image.
std::string tiny_jpeg() {
  std::string jpeg = "\xFF\xD8";
  jpeg += std::string("\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00", 18);
  jpeg += std::string("\xFF\xC0\x00\x11\x08\x00\xC8\x01\x40\x03", 10);  // height 200, width 320
  return jpeg;
}

std::string scenario_text(const std::string& currency, const std::string& extra_scenario,
                          const std::string& seller, const std::string& option_a_extra) {
  return "[scenario]\nas_of = 2026-11-27\ncurrency = " + currency + "\n" + extra_scenario +
         (seller.empty() ? "" : "[seller]\n" + seller) +
         "[workload]\nmodel = llama-3.1-8b\nquant = Q4_K_M\n[site]\ntariff_per_kwh = 0.25\n"
         "[option:a]\nkind = buy\ngpu = rtx-4090\nprice_per_gpu = 1800\n" +
         option_a_extra +
         "[option:b]\nkind = rent_hourly\ngpu = h100-sxm\nrate_per_gpu_hour = 2.5\n";
}

/// Writes `text` as DIR/scenario.ini (beside a logo) and resolves it.
ResolvedScenario resolve_text(const std::string& dir, const std::string& text) {
  const std::string path = dir + "/scenario.ini";
  std::ofstream(path) << text;
  return resolve(load_scenario(path), Catalog::open_builtin());
}

std::string fresh_dir(const std::string& name) {
  const std::string dir = test::binary_path("test-scratch/scenarios/" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ImageSize, readsPngAndJpegHeadersAndRefusesTheRest) {
  EXPECT_EQ(image_size(tiny_png()), std::make_pair(2, 1));
  EXPECT_EQ(image_size(tiny_jpeg()), std::make_pair(320, 200));
  EXPECT_FALSE(image_size("GIF89a..."));
  EXPECT_FALSE(image_size("[scenario]\nas_of = 2026-11-27\n"));
  EXPECT_FALSE(image_size(tiny_png().substr(0, 20))) << "a header cut short";
  EXPECT_FALSE(image_size(tiny_jpeg().substr(0, 12))) << "no frame before the end";
}

TEST(QuoteKeys, sellerProposedAndLabelsReachTheResolvedScenario) {
  const std::string dir = fresh_dir("quote-keys");
  std::ofstream(dir + "/logo.png", std::ios::binary) << tiny_png();
  const auto r = resolve_text(
      dir, scenario_text("EUR", "proposed = a\n",
                         "company = Rechenwerk GmbH\ncontact = Jana Kovač, +49 30 1234567\n"
                         "logo = logo.png\nterms = Payment 30 days net.\n",
                         "label = Office rig (RTX 4090)\n"));
  EXPECT_EQ(r.seller.company, "Rechenwerk GmbH");
  EXPECT_EQ(r.seller.contact, "Jana Kovač, +49 30 1234567");
  EXPECT_EQ(r.seller.terms, "Payment 30 days net.");
  EXPECT_EQ(std::filesystem::path(r.seller.logo_path), std::filesystem::path(dir) / "logo.png");
  EXPECT_EQ(r.seller.logo_width_px, 2);
  EXPECT_EQ(r.seller.logo_height_px, 1);
  EXPECT_EQ(r.proposed_option_id, "a");
  EXPECT_EQ(option_label(r, "a"), "Office rig (RTX 4090)");
  EXPECT_EQ(option_label(r, "b"), "b") << "no label: the id";
}

TEST(QuoteKeys, paperFollowsTheCurrencyUnlessGiven) {
  const std::string dir = fresh_dir("quote-paper");
  const auto usd = resolve_text(dir, scenario_text("USD", "", "", ""));
  EXPECT_EQ(usd.paper, "letter");
  EXPECT_EQ(usd.paper_reason, "the default for USD");
  const auto eur = resolve_text(dir, scenario_text("EUR", "", "", ""));
  EXPECT_EQ(eur.paper, "a4");
  EXPECT_EQ(eur.paper_reason, "the default for EUR");
  const auto given = resolve_text(dir, scenario_text("USD", "paper = a4\n", "", ""));
  EXPECT_EQ(given.paper, "a4");
  EXPECT_EQ(given.paper_reason, "scenario key paper");
}

TEST(QuoteKeys, aJpegLogoAndAnAbsolutePathAreFine) {
  const std::string dir = fresh_dir("quote-jpeg");
  std::ofstream(dir + "/brand.jpg", std::ios::binary) << tiny_jpeg();
  const auto r = resolve_text(dir, scenario_text("EUR", "", "logo = " + dir + "/brand.jpg\n", ""));
  EXPECT_EQ(r.seller.logo_width_px, 320);
  EXPECT_EQ(r.seller.logo_height_px, 200);
}

std::string error_of(const std::string& dir, const std::string& text) {
  try {
    resolve_text(dir, text);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(QuoteKeys, badQuoteKeysAreRefusedNamingKeyAndLine) {
  const std::string dir = fresh_dir("quote-bad");
  std::ofstream(dir + "/notes.txt") << "not an image";
  EXPECT_NE(error_of(dir, scenario_text("EUR", "", "logo = notes.txt\n", ""))
                .find("[seller] logo: not a PNG or JPEG image: "),
            std::string::npos);
  EXPECT_NE(error_of(dir, scenario_text("EUR", "", "logo = missing.png\n", ""))
                .find("[seller] logo: no such file: "),
            std::string::npos);
  EXPECT_NE(
      error_of(dir, scenario_text("EUR", "", "logo = .\n", "")).find("[seller] logo: not a file: "),
      std::string::npos);
  EXPECT_NE(error_of(dir, scenario_text("EUR", "proposed = c\n", "", ""))
                .find("scenario.ini:4: [scenario] proposed: unknown option 'c'"),
            std::string::npos);
  EXPECT_NE(
      error_of(dir, scenario_text("EUR", "", "", "label =  \n")).find("[option:a] label: empty"),
      std::string::npos);
  EXPECT_NE(error_of(dir, scenario_text("EUR", "", "", "label = b\n"))
                .find("[option:a] label: 'b' is also the name of option:b"),
            std::string::npos);
  EXPECT_NE(
      error_of(dir, scenario_text("EUR", "", "web = x\n", "")).find("[seller] web: unknown key"),
      std::string::npos);
}

}  // namespace
}  // namespace gputco
