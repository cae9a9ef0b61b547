// Scenario parsing: types, ranges, unknown keys, and messages that name file, line and key.
#include <gtest/gtest.h>

#include <sstream>

#include "scenarios/dates.hpp"
#include "scenarios/scenario.hpp"

namespace gputco {
namespace {

const char* kMinimal =
    "[scenario]\n"
    "as_of = 2026-11-01\n"
    "[workload]\n"
    "model = llama-3.1-8b\n"
    "quant = Q4_K_M\n"
    "[option:a]\n"
    "kind = rent_hourly\n"
    "gpu = rtx-4090\n";

Scenario parse_ini(const std::string& text) {
  std::istringstream in(text);
  return parse_scenario(in, ScenarioFormat::ini, "test.ini");
}

/// The message of the ScenarioError that parsing `text` throws ("" if none).
std::string error_of(const std::string& text, ScenarioFormat format = ScenarioFormat::ini) {
  std::istringstream in(text);
  try {
    parse_scenario(in, format, "test.ini");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioParse, minimalFileTakesDefaults) {
  const Scenario s = parse_ini(kMinimal);
  EXPECT_EQ(s.as_of, "2026-11-01");
  EXPECT_EQ(s.start, "2026-11");  // the month of as_of
  EXPECT_EQ(s.currency, "EUR");
  EXPECT_EQ(s.horizon_months, 36);
  EXPECT_DOUBLE_EQ(s.days_per_month, 730.0 / 24.0);
  ASSERT_EQ(s.options.size(), 1u);
  EXPECT_EQ(s.options[0].id, "a");
  EXPECT_FALSE(s.options[0].count.has_value());
  EXPECT_EQ(s.provenance("workload", "model"), "scenario file line 4");
  EXPECT_EQ(s.provenance("workload", "hours_per_day"), "default");
}

TEST(ScenarioParse, numberKeysCarryTheParsersRanges) {
  // Every number key of the sections read, given or not, with the range the parser checks;
  // [site] is listed even when the file has none.
  const Scenario s = parse_ini(kMinimal);
  const auto find = [&](const std::string& section, const std::string& key) {
    for (const auto& k : s.number_keys) {
      if (k.section == section && k.key == key) return k;
    }
    ADD_FAILURE() << section << "." << key << " not listed";
    return ScenarioNumberKey{};
  };
  const auto hours = find("workload", "hours_per_day");
  EXPECT_EQ(hours.min, 0);
  EXPECT_EQ(hours.max, 24);
  EXPECT_FALSE(hours.whole);
  const auto horizon = find("scenario", "horizon_months");
  EXPECT_EQ(horizon.max, 600);
  EXPECT_TRUE(horizon.whole);
  EXPECT_EQ(find("site", "pue").min, 1);
  const auto count = find("option:a", "count");
  EXPECT_EQ(count.max, 4096);
  EXPECT_TRUE(count.whole);
  EXPECT_EQ(count.full_name(), "option:a.count");
  // A money key: 1e9 USD in a currency a USD buys up to 1e7 units of (the limit in the plan
  // currency is resolve()'s).
  EXPECT_EQ(find("option:a", "price_per_gpu").max, 1e16);
  EXPECT_EQ(find("site", "tariff_per_kwh").max, 1e8);
  EXPECT_TRUE(is_scenario_key("workload", "model"));
  EXPECT_TRUE(is_scenario_key("option:x", "gpu"));
  EXPECT_FALSE(is_scenario_key("site", "model"));
}

TEST(ScenarioParse, overridesAreCheckedAsIfTheFileHeldThem) {
  const auto parse = [](const std::vector<ScenarioOverride>& overrides) {
    std::istringstream in(kMinimal);
    return parse_scenario(in, ScenarioFormat::ini, "test.ini", overrides);
  };
  EXPECT_EQ(parse({{"workload", "hours_per_day", "12.5"}}).hours_per_day, 12.5);
  // A section the file lacks is created; a key can be removed.
  EXPECT_EQ(parse({{"site", "pue", "1.4"}}).pue, 1.4);
  EXPECT_EQ(parse({{"option:a", "count", "3"}}).options.at(0).count, 3);
  EXPECT_EQ(parse({{"workload", "model", std::nullopt}, {"workload", "model", "qwen3-14b"}}).model,
            "qwen3-14b");
  const auto message = [&](const std::vector<ScenarioOverride>& overrides) {
    try {
      parse(overrides);
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message({{"workload", "hours_per_day", "25"}})
                .find("[workload] hours_per_day: expected hours per day between 0 and 24, got 25"),
            std::string::npos);
  EXPECT_NE(message({{"workload", "tokens_per_day", "0.5"}})
                .find("expected 0 or at least 1 token per day"),
            std::string::npos);
  EXPECT_NE(message({{"option:a", "price_per_gpu", "500"}})
                .find("applies to kind = buy only (this option is rent_hourly)"),
            std::string::npos);
  EXPECT_NE(message({{"option:b", "count", "2"}}).find("[option:b]: no such section in the file"),
            std::string::npos);
}

TEST(ScenarioParse, jsonHasTheSameTree) {
  const std::string json = R"({
    "scenario": {"as_of": "2026-11-01", "currency": "USD", "horizon_months": "24"},
    "workload": {"model": "llama-3.1-8b", "quant": "Q4_K_M", "hours_per_day": 6.5},
    "option:rig": {"kind": "buy", "gpu": "rtx-3090", "condition": "used", "count": 2}
  })";
  std::istringstream in(json);
  const Scenario s = parse_scenario(in, ScenarioFormat::json, "test.json");
  EXPECT_EQ(s.currency, "USD");
  EXPECT_EQ(s.horizon_months, 24);
  EXPECT_DOUBLE_EQ(s.hours_per_day, 6.5);
  ASSERT_EQ(s.options.size(), 1u);
  EXPECT_EQ(s.options[0].condition, "used");
  EXPECT_EQ(s.options[0].count, 2);
}

TEST(ScenarioParse, bomAndWindowsLineEndingsSimplyWork) {
  std::string text = "\xEF\xBB\xBF";
  for (char c : std::string(kMinimal)) {
    if (c == '\n') text += '\r';
    text += c;
  }
  const Scenario s = parse_ini(text);
  EXPECT_EQ(s.model, "llama-3.1-8b");
  EXPECT_EQ(s.options[0].gpu, "rtx-4090");
}

TEST(ScenarioParse, inlineCommentsAreDropped) {
  const Scenario s = parse_ini(std::string(kMinimal) + "count = 2 ; two cards\n");
  EXPECT_EQ(s.options[0].count, 2);
}

TEST(ScenarioParse, wrongTypeNamesFileLineAndKey) {
  const std::string msg = error_of(std::string(kMinimal) + "count = two\n");
  EXPECT_EQ(msg, "test.ini:9: [option:a] count: expected a whole number, got 'two'");
}

TEST(ScenarioParse, ambiguousDecimalCommaIsExplained) {
  // Three digits after the comma: a thousands separator or a decimal comma, nobody can tell.
  const std::string text =
      "[scenario]\nas_of = 2026-11-01\ndiscount_rate = 0,080\n[workload]\nmodel = m\nquant = q\n"
      "[option:a]\nkind = buy\ngpu = g\n";
  EXPECT_EQ(error_of(text),
            "test.ini:3: [scenario] discount_rate: expected a fraction per year (0.08 for 8 %), "
            "got '0,080' (use a dot as the decimal separator, no thousands separators)");
  EXPECT_NE(error_of(std::string(kMinimal) + "price_per_gpu = 1,200\n")
                .find("price_per_gpu: expected a price, got '1,200' (use a dot"),
            std::string::npos);
  for (const char* value : {"1,2,5", "1.000,5", ",5", "5,", "1,5e3", "0, 5"}) {
    EXPECT_NE(error_of(std::string(kMinimal) + "price_per_gpu = " + value + "\n").find("got '"),
              std::string::npos)
        << value;
  }
}

TEST(ScenarioParse, unambiguousDecimalCommaIsADecimalPoint) {
  const std::string text =
      "[scenario]\nas_of = 2026-11-01\ndiscount_rate = 0,08\n[workload]\nmodel = m\nquant = q\n"
      "[site]\ntariff_per_kwh = 0,25\n[option:a]\nkind = buy\ngpu = g\nprice_per_gpu = 1234,5\n"
      "residual_fraction = +0,1234\n";
  const Scenario s = parse_ini(text);
  EXPECT_DOUBLE_EQ(s.discount_rate, 0.08);
  EXPECT_DOUBLE_EQ(*s.tariff_per_kwh, 0.25);
  EXPECT_DOUBLE_EQ(*s.options[0].price_per_gpu, 1234.5);
  EXPECT_DOUBLE_EQ(*s.options[0].residual_fraction, 0.1234);
  EXPECT_NE(error_of(std::string(kMinimal) + "count = 1,5\n")
                .find("count: expected a whole number, got '1,5'"),
            std::string::npos);
}

TEST(ScenarioParse, outOfRangeValuesAreRejected) {
  EXPECT_NE(error_of(std::string(kMinimal) + "[site]\npue = 0.5\n").find("[site] pue: expected"),
            std::string::npos);
  EXPECT_NE(error_of("[scenario]\nas_of = 2026-11-01\nhorizon_months = 0\n")
                .find("horizon_months: expected a whole number between 1 and 600, got 0"),
            std::string::npos);
  EXPECT_NE(
      error_of(std::string(kMinimal) + "[site]\ntariff_per_kwh = nan\n").find("tariff_per_kwh"),
      std::string::npos);
  EXPECT_NE(
      error_of(std::string(kMinimal) + "[site]\ntariff_per_kwh = inf\n").find("tariff_per_kwh"),
      std::string::npos);
}

TEST(ScenarioParse, paperAndQuoteValidityDefaultAndParse) {
  const Scenario defaults = parse_ini(kMinimal);
  EXPECT_EQ(defaults.paper, "a4");
  EXPECT_EQ(defaults.valid_days, 30);
  const Scenario letter =
      parse_ini("[scenario]\npaper = letter\nvalid_days = 14\n" + std::string(kMinimal).substr(10));
  EXPECT_EQ(letter.paper, "letter");
  EXPECT_EQ(letter.valid_days, 14);
  EXPECT_NE(error_of("[scenario]\npaper = A5\n" + std::string(kMinimal).substr(10))
                .find("paper: expected one of a4 | letter, got 'A5'"),
            std::string::npos);
  EXPECT_NE(error_of("[scenario]\nvalid_days = 0\n" + std::string(kMinimal).substr(10))
                .find("valid_days: expected a whole number between 1 and 3650, got 0"),
            std::string::npos);
}

TEST(ScenarioParse, unknownKeySuggestsTheNearest) {
  const std::string text =
      "[scenario]\nas_of = 2026-11-01\n[workload]\nmodel = m\nquant = q\nhours_per_dya = 8\n";
  EXPECT_EQ(error_of(text),
            "test.ini:6: [workload] hours_per_dya: unknown key; did you mean 'hours_per_day'?");
}

TEST(ScenarioParse, unknownSectionIsNamed) {
  const std::string msg = error_of(std::string(kMinimal) + "[workloads]\nx = 1\n");
  EXPECT_NE(msg.find("test.ini:9: [workloads]: unknown section"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean [workload]?"), std::string::npos) << msg;
}

TEST(ScenarioParse, syntaxErrorGivesTheLine) {
  const std::string msg = error_of("[scenario]\nas_of = 2026-11-01\nthis line has no equals\n");
  EXPECT_EQ(msg, "test.ini:3: syntax error: '=' character not found in line");
}

TEST(ScenarioParse, jsonSyntaxErrorGivesTheLine) {
  const std::string msg =
      error_of("{\n\"scenario\": {\n\"as_of\": \"2026-11-01\",,\n}\n}\n", ScenarioFormat::json);
  EXPECT_NE(msg.find("test.ini:3: syntax error"), std::string::npos) << msg;
}

TEST(ScenarioParse, badDatesAreRejected) {
  EXPECT_EQ(error_of("[scenario]\nas_of = 2026-02-30\n"),
            "test.ini:2: [scenario] as_of: expected a date YYYY-MM-DD, got '2026-02-30' (a real "
            "date, years 1900-2999)");
  EXPECT_NE(error_of("[scenario]\nas_of = 2026-11-01\nstart = 2027-13\n").find("[scenario] start"),
            std::string::npos);
}

TEST(ScenarioParse, missingRequiredKeysAreNamed) {
  EXPECT_NE(
      error_of("[scenario]\nname = x\n[workload]\nmodel = m\nquant = q\n").find("as_of: missing"),
      std::string::npos);
  EXPECT_NE(error_of("[scenario]\nas_of = 2026-11-01\n[workload]\nmodel = m\nquant = q\n")
                .find("no options"),
            std::string::npos);
  EXPECT_NE(error_of("[scenario]\nas_of = 2026-11-01\n[workload]\nmodel = m\nquant = q\n"
                     "[option:a]\ngpu = rtx-4090\n")
                .find("[option:a] kind: missing"),
            std::string::npos);
}

TEST(ScenarioParse, keysOfAnotherKindAreRejected) {
  const std::string msg = error_of(std::string(kMinimal) + "price_per_gpu = 700\n");
  EXPECT_EQ(msg,
            "test.ini:9: [option:a] price_per_gpu: applies to kind = buy only (this option is "
            "rent_hourly)");
}

TEST(ScenarioParse, emptyAndBinaryFilesAreRejected) {
  EXPECT_EQ(error_of(""), "test.ini: the file is empty; see scenarios/examples/ for the format");
  EXPECT_EQ(error_of(std::string("\x01\x02\0\x03", 4)),
            "test.ini: this is not a text file (it contains NUL bytes)");
}

TEST(Dates, daysBetweenAcrossMonthsAndLeapYears) {
  EXPECT_EQ(days_between("2026-01-31", "2026-03-01"), 29);
  EXPECT_EQ(days_between("2024-02-28", "2024-03-01"), 2);  // 2024 is a leap year
  EXPECT_EQ(days_between("2026-11-29", "2026-11-01"), -28);
  EXPECT_EQ(add_months("2026-11", 3), "2027-02");
  EXPECT_FALSE(parse_date("2026-1-01").has_value());
  EXPECT_FALSE(parse_date("2026-01-01x").has_value());
}

}  // namespace
}  // namespace gputco
