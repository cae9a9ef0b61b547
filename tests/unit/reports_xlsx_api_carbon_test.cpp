// The api and carbon plan's workbook (issue #8): per-token fees, idle energy and emissions as
// live formulas, "unknown" where no figure is published, rate limits as warnings.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>

#include "reports/xlsx/report.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

using test::formula_cells;
using test::fresh_dir;
using test::text_cells;
using test::zip_member;

/// The formula cell at `ref` on `sheet`; fails the test if there is none.
test::FormulaCell formula_at(const std::vector<test::FormulaCell>& cells, const std::string& sheet,
                             const std::string& ref) {
  for (const auto& cell : cells) {
    if (cell.sheet == sheet && cell.ref == ref) return cell;
  }
  ADD_FAILURE() << "no formula at " << sheet << "!" << ref;
  return {};
}

void expect_near_relative(double actual, double expected, const std::string& what) {
  const double tolerance = 1e-12 * std::max(1.0, std::abs(expected));
  EXPECT_NEAR(actual, expected, tolerance)
      << what << ": stored " << actual << ", expected " << expected << ", tolerance " << tolerance;
}

/// A text cell's shared string is in the workbook (user text and "unknown" are strings).
bool has_string(const std::string& path, const std::string& text) {
  return zip_member(path, "xl/sharedStrings.xml").find(text) != std::string::npos;
}

TEST(XlsxReportApiCarbon, apiFeesEnergyAndEmissionsAreLiveFormulas) {
  const auto sample = test::api_carbon_sample_plan();
  const std::string path = fresh_dir("api-carbon") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto cells = formula_cells(path);
  ASSERT_EQ(sample.plan.options.size(), 4u);
  const auto& own = sample.plan.options[0];
  const auto& hourly = sample.plan.options[1];
  const auto& monthly = sample.plan.options[2];
  const auto& api = sample.plan.options[3];
  ASSERT_EQ(api.kind, OptionKind::api);

  // Timeline rows 4-16: the API price factor is row 16, (1 - 0.2)^((m - 1) / 12).
  EXPECT_EQ(formula_at(cells, "Cash flow", "D16").formula,
            "(1+api_price_trend_per_year)^(MAX(0,D$4-1)/months_per_year)");
  expect_near_relative(formula_at(cells, "Cash flow", "P16").cached, 0.8, "API factor, month 13");

  // Blocks of 30 rows from row 18: the api block (4th) has its title on row 108, load 109,
  // rent 120 (the per-token fees), VAT 124, total 126, kWh 132, idle kWh 133, kg CO2e 134,
  // output tokens 135, what scales with the hours of use 136.
  EXPECT_EQ(formula_at(cells, "Cash flow", "D120").formula,
            "D$11*D$13*(tokens_per_day*input_tokens_per_output_token*opt_api_llama_input_price_"
            "per_million+tokens_per_day*opt_api_llama_output_price_per_million)/"
            "tokens_per_million*D$16");
  // Month 1: 730/24 days x (200000 x 3 x 0.50 + 200000 x 0.80) / 1e6 = 30.41667 x 0.46.
  const double days = 730.0 / 24.0;
  expect_near_relative(formula_at(cells, "Cash flow", "D120").cached, days * 0.46, "api month 1");
  expect_near_relative(formula_at(cells, "Cash flow", "P120").cached, days * 0.46 * 0.8,
                       "api month 13 (prices -20 %)");
  // An api has no capacity of ours: its load row is no formula (a plain 0), never the
  // 200,000 tokens a day of the demand (which the fee row above carries).
  for (const auto& cell : cells) {
    EXPECT_FALSE(cell.sheet == "Cash flow" && cell.ref == "D109") << "api load: " << cell.formula;
  }
  for (double load : api.cash_flow.load) EXPECT_EQ(load, 0.0);
  expect_near_relative(formula_at(cells, "Cash flow", "B126").cached, api.total_cost, "api total");
  // Its output tokens: 200,000 a day x 730/24 days a month; all of its fees scale with the
  // hours of use (the tokens a day scale with them).
  expect_near_relative(formula_at(cells, "Cash flow", "D135").cached, 200000 * days,
                       "api tokens, month 1");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D135").formula, "tokens_per_day*D$13*D$11");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D136").formula,
            "D120*(1+(1-vat_reclaimable)*vat_rate)");
  double api_total = 0;
  for (int m = 1; m <= 24; ++m) api_total += days * 0.46 * std::pow(0.8, (m - 1) / 12.0);
  expect_near_relative(api.total_cost, api_total, "api total by hand (no growth, no VAT)");

  // The rig (block 1) stays on: kWh at month 1 = min(L, 1) x 850 W x 304.17 h x PUE 1.1 +
  // (730 - min(L, 1) x 304.17) x 100 W x 1.1, CO2e = kWh x 350 / 1000.
  const double load = std::min(own.cash_flow.load[1], 1.0);
  const double hours = 10 * days;
  const double idle = (730 - load * hours) * 100 / 1000 * 1.1;
  const double kwh = load * 850.0 / 1000 * hours * 1.1 + idle;
  EXPECT_EQ(formula_at(cells, "Cash flow", "D42").formula,
            "D$6*MIN(D19,D20)*(opt_office_3090_count*opt_office_3090_board_power_w+opt_office_"
            "3090_host_power_w)/watts_per_kw*D$12*pue+D43");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D43").formula,
            "D$6*MAX(0,D20*(D$10*(1-opt_office_3090_powered_off_when_idle)+D$12*opt_office_3090_"
            "powered_off_when_idle)-MIN(D19,D20)*D$12)*opt_office_3090_idle_power_w/watts_per_kw*"
            "pue");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D44").formula,
            "D42*grid_g_co2e_per_kwh/grams_per_kilogram");
  expect_near_relative(formula_at(cells, "Cash flow", "D43").cached, idle, "rig idle kWh");
  expect_near_relative(formula_at(cells, "Cash flow", "D42").cached, kwh, "rig kWh");
  expect_near_relative(formula_at(cells, "Cash flow", "D44").cached, kwh * 0.35, "rig kg CO2e");
  expect_near_relative(formula_at(cells, "Cash flow", "B42").cached, *own.energy_kwh_total,
                       "rig kWh over the horizon");
  expect_near_relative(formula_at(cells, "Cash flow", "B44").cached, *own.co2e_kg_total,
                       "rig kg CO2e over the horizon");
  // The money rows' SUM stops at resale: the physical rows are not in the total.
  EXPECT_EQ(formula_at(cells, "Cash flow", "D36").formula, "SUM(D22:D35)");

  // The hourly rental (block 2, rows 48-77): kWh by use at the data centre's PUE; its region
  // has no intensity: "unknown", no formula.
  EXPECT_EQ(formula_at(cells, "Cash flow", "D72").formula,
            "D$6*opt_runpod_h100_count*opt_runpod_h100_board_power_w/watts_per_kw*D$12*D49/"
            "opt_runpod_h100_goodput*opt_runpod_h100_pue+D73");
  expect_near_relative(formula_at(cells, "Cash flow", "D72").cached,
                       700.0 / 1000 * hours * hourly.cash_flow.load[1] * kDefaultDataCentrePue,
                       "H100 kWh");
  EXPECT_FALSE(hourly.co2e_kg_total.has_value());
  for (const auto& cell : cells) {
    EXPECT_FALSE(cell.sheet == "Cash flow" && cell.row == 73) << cell.ref << " " << cell.formula;
  }
  // The monthly server (block 3): idle all month at 7 W, 380 g/kWh.
  expect_near_relative(formula_at(cells, "Cash flow", "B104").cached, *monthly.co2e_kg_total,
                       "server kg CO2e");
  EXPECT_EQ(formula_at(cells, "Cash flow", "D104").formula,
            "D102*opt_hetzner_gex44_grid_g_co2e_per_kwh/grams_per_kilogram");
  // The API: energy unknown (no provider publishes it), never 0, no formula.
  for (const auto& cell : cells) {
    EXPECT_FALSE(cell.sheet == "Cash flow" && cell.row >= 131 && cell.row <= 133)
        << cell.ref << " " << cell.formula;
  }
  EXPECT_TRUE(
      has_string(path, "the provider publishes no energy per token for llama-3.1-8b-instant"));

  // Summary: kWh and kg CO2e link to the Cash flow sums; the API's are "unknown", and so is
  // the H100's emissions (its region has no intensity).
  const auto texts = text_cells(path, "Summary");
  std::string kwh_col, co2e_col, kwh_header_row;
  std::map<std::string, std::string> option_rows;  // below the energy table's header
  for (const auto& [ref, text] : texts) {
    const std::string col = ref.substr(0, ref.find_first_of("0123456789"));
    if (text == "Energy, kWh (horizon)") {
      kwh_col = col;
      kwh_header_row = ref.substr(col.size());
    }
    if (text == "Emissions, kg CO2e (horizon)") co2e_col = col;
  }
  ASSERT_FALSE(kwh_col.empty());
  const int first = std::stoi(kwh_header_row) + 1;
  const auto& summary_kwh = formula_at(cells, "Summary", kwh_col + std::to_string(first));
  EXPECT_EQ(summary_kwh.formula, "'Cash flow'!$B$42");
  expect_near_relative(summary_kwh.cached, *own.energy_kwh_total, "Summary kWh");
  EXPECT_EQ(formula_at(cells, "Summary", co2e_col + std::to_string(first)).formula,
            "'Cash flow'!$B$44");
  EXPECT_EQ(texts.at(kwh_col + std::to_string(first + 3)), "unknown") << "the API's energy";
  EXPECT_EQ(texts.at(co2e_col + std::to_string(first + 3)), "unknown") << "the API's CO2e";
  EXPECT_EQ(texts.at(co2e_col + std::to_string(first + 1)), "unknown") << "the H100's CO2e";
  EXPECT_TRUE(has_string(path, "costs as much over the horizon as api-llama"));

  // Checks: the rate limits are warnings, outside the master check's AND.
  EXPECT_TRUE(has_string(path, "API peak tokens per minute within the published limit"));
  std::string master;
  int rate_checks = 0;
  for (const auto& cell : cells) {
    if (cell.sheet != "Checks") continue;
    if (cell.row == 4) master = cell.formula;
    if (cell.formula.find("opt_api_llama_tokens_per_minute_limit") != std::string::npos ||
        cell.formula.find("opt_api_llama_requests_per_minute_limit") != std::string::npos) {
      ++rate_checks;
      EXPECT_EQ(cell.cached, 1) << cell.formula;  // 1333 tokens/min, 0.83 requests/min
      EXPECT_EQ(master.find(cell.ref), std::string::npos) << "warning in the master check";
    }
  }
  EXPECT_EQ(rate_checks, 2);
  // Hardware: the API is hosted, no memory or speed figures that look like a fit.
  EXPECT_TRUE(has_string(path, "hosted (API)"));
  // Sources: the grid intensity with its date.
  EXPECT_TRUE(has_string(path, "grid carbon nl (2025)"));
}

TEST(XlsxReportApiCarbon, summaryShowsTheApiAsHostedWithoutASpeed) {
  const auto sample = test::api_carbon_sample_plan();
  const std::string path = fresh_dir("api-summary") + "/tco.xlsx";
  write_workbook(sample.plan, sample.scenario, path);
  const auto texts = text_cells(path, "Summary");
  const auto split = [](const std::string& ref) {
    const size_t digits = ref.find_first_of("0123456789");
    return std::make_pair(ref.substr(0, digits), std::stoi(ref.substr(digits)));
  };
  // The cell of the api option's row in the column headed `header`, in that header's table.
  const auto api_cell = [&](const std::string& header) {
    std::string col;
    int header_row = 0;
    for (const auto& [ref, text] : texts) {
      if (text == header) std::tie(col, header_row) = split(ref);
    }
    EXPECT_FALSE(col.empty()) << header;
    for (int row = header_row + 1; row < header_row + 10; ++row) {
      const auto it = texts.find("A" + std::to_string(row));
      if (it != texts.end() && it->second == sample.plan.options[3].id) {
        const auto cell = texts.find(col + std::to_string(row));
        return cell == texts.end() ? std::string("<none>") : cell->second;
      }
    }
    return std::string("<no row>");
  };
  // As in the terminal and JSON: the provider serves the model; no fit verdict, no speed.
  EXPECT_EQ(api_cell("Fit"), "hosted");
  EXPECT_EQ(api_cell("Decode tokens/s per stream"), "hosted (API)");
}

}  // namespace
}  // namespace gputco
