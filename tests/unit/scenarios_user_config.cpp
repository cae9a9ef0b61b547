// Values from outside the scenario file (issue #18): --set, the user's config file, the keys
// that replace each other, and the scenario manual page's coverage of every key.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "pricing/catalog.hpp"
#include "scenarios/overrides.hpp"
#include "scenarios/resolve.hpp"
#include "scenarios/scenario.hpp"
#include "scenarios/user_config.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

const char* kScenario =
    "[scenario]\n"
    "as_of = 2026-11-01\n"
    "[workload]\n"
    "model = llama-3.1-8b\n"
    "quant = Q4_K_M\n"
    "tokens_per_day = 100000\n"
    "input_tokens_per_output_token = 4\n"
    "[site]\n"
    "tariff_per_kwh = 0.3\n"
    "[option:a]\n"
    "kind = rent_hourly\n"
    "gpu = rtx-4090\n";

Scenario parse(const std::vector<ScenarioOverride>& overrides, const char* text = kScenario) {
  std::istringstream in(text);
  return parse_scenario(in, ScenarioFormat::ini, "test.ini", overrides);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

ScenarioOverride config_default(const std::string& section, const std::string& key,
                                const std::string& value, int line) {
  ScenarioOverride o{section, key, value};
  o.origin = ValueOrigin{"config.ini", line, "config file config.ini line " + std::to_string(line)};
  o.only_if_absent = true;
  return o;
}

TEST(SetOption, parsesSectionKeyAndValue) {
  const auto o = parse_set_option("option:rig.v2.price_per_gpu=700");
  EXPECT_EQ(o.section, "option:rig.v2");  // option ids may hold dots: the key is after the last
  EXPECT_EQ(o.key, "price_per_gpu");
  EXPECT_EQ(o.value, "700");
  ASSERT_TRUE(o.origin.has_value());
  EXPECT_EQ(o.origin->provenance, "--set option:rig.v2.price_per_gpu=700");
  EXPECT_FALSE(o.only_if_absent);
  EXPECT_EQ(parse_set_option("scenario.name=a=b").value, "a=b");  // the first '=' splits
  EXPECT_EQ(error_of([] { parse_set_option("hours_per_day=3"); }),
            "--set: hours_per_day=3: expected SECTION.KEY=VALUE, e.g. workload.hours_per_day=10 "
            "or option:rig.price_per_gpu=700");
  EXPECT_EQ(error_of([] { parse_set_option("worklaod.hours_per_day=3"); }),
            "--set: worklaod.hours_per_day=3: unknown section 'worklaod'; did you mean "
            "'workload'?; expected scenario, workload, site, tax, fx, constraints, risk or "
            "option:ID");
  EXPECT_EQ(error_of([] { parse_set_option("site.tarif=nl-business"); }),
            "--set: site.tarif=nl-business: 'tarif' is not a key of [site]; did you mean "
            "'tariff'?");
  // A line break or an escape sequence in the argument is shown, never printed: it forged a
  // line of its own in the message (issue #39).
  EXPECT_EQ(error_of([] { parse_set_option("site.pue\n\x1b[2Jerror: x=1"); }),
            "--set: site.pue\\n\\x1B[2Jerror: x=1: 'pue\\n\\x1B[2Jerror: x' is not a key of "
            "[site]; did you mean 'pue'?");
  EXPECT_EQ(parse_set_option("site.pue=1.2\n").origin->provenance, "--set site.pue=1.2\\n");
}

// --set reaches [constraints] and [risk] too, which the file need not have (it once said
// "unknown section 'risk'").
TEST(SetOption, reachesTheConstraintsAndRiskSections) {
  const Scenario s = parse({parse_set_option("risk.demand=uniform -0.1 0.1"),
                            parse_set_option("constraints.requires=eu-data-residency")});
  ASSERT_EQ(s.risk_inputs.count("demand"), 1u);
  EXPECT_DOUBLE_EQ(s.risk_inputs.at("demand").low, -0.1);
  EXPECT_DOUBLE_EQ(s.risk_inputs.at("demand").high, 0.1);
  EXPECT_EQ(s.required_tags, std::vector<std::string>{"eu-data-residency"});
}

TEST(SetOption, winsAndNamesItselfInMessagesAndProvenance) {
  const Scenario s = parse({parse_set_option("workload.hours_per_day=10")});
  EXPECT_EQ(s.hours_per_day, 10);
  EXPECT_EQ(s.provenance("workload", "hours_per_day"), "--set workload.hours_per_day=10");
  EXPECT_EQ(s.provenance("workload", "model"), "scenario file line 4");
  EXPECT_EQ(error_of([] { parse({parse_set_option("workload.hours_per_day=x")}); }),
            "--set workload.hours_per_day=x: [workload] hours_per_day: expected hours per day, "
            "got 'x'");
  EXPECT_EQ(error_of([] { parse({parse_set_option("option:b.count=2")}); }),
            "--set option:b.count=2: [option:b]: no such section in the scenario test.ini; its "
            "options: [option:a]");
  // A check across keys names the --set too, not the file (was: "test.ini: [fx] EUR: ...").
  EXPECT_EQ(error_of([] { parse({parse_set_option("fx.EUR=2")}); }),
            "--set fx.EUR=2: [fx] EUR: the plan's own currency needs no exchange rate; remove "
            "this key");
}

/// The warnings of resolving `s` against the built-in catalog that name the plan currency.
std::vector<std::string> currency_warnings(const Scenario& s) {
  std::vector<std::string> out;
  for (const std::string& w : resolve(s, Catalog::open_builtin()).warnings) {
    if (w.find("sets the plan currency") != std::string::npos) out.push_back(w);
  }
  return out;
}

TEST(SetOption, aCurrencySetOnTheCommandLineWarnsThatTheFilesTypedAmountsAreNotConverted) {
  // newcomer7: --set scenario.currency=JPY read host_cost = 1500 (meant EUR) as 1,500 JPY.
  EXPECT_EQ(currency_warnings(parse({parse_set_option("scenario.currency=JPY")})),
            std::vector<std::string>{
                "--set scenario.currency=JPY sets the plan currency to JPY: the amounts typed in "
                "the scenario file are read in JPY, not converted ([site] tariff_per_kwh = 0.3); "
                "convert them too (--set), or give the currency in the file"});
  // Every typed amount set on the command line too: nothing left to warn of.
  EXPECT_TRUE(currency_warnings(parse({parse_set_option("scenario.currency=JPY"),
                                       parse_set_option("site.tariff_per_kwh=50")}))
                  .empty());
  // A user's default currency (config file) is what their files are written in: no warning.
  EXPECT_TRUE(currency_warnings(parse({config_default("scenario", "currency", "USD", 2)})).empty());
}

TEST(SetOption, aValueReplacesTheKeysThatSayTheSameAnotherWay) {
  // requests_per_day replaces the file's tokens_per_day (both given is an error).
  Scenario s = parse({parse_set_option("workload.requests_per_day=500"),
                      parse_set_option("workload.prompt_tokens_per_request=800"),
                      parse_set_option("workload.output_tokens_per_request=200"),
                      {"workload", "input_tokens_per_output_token", std::nullopt}});
  EXPECT_EQ(s.requests_per_day, 500);
  EXPECT_FALSE(s.tokens_per_day.has_value());
  // A tariff id replaces the file's price per kWh (which would otherwise win over it) ...
  s = parse({parse_set_option("site.tariff=nl-business")});
  EXPECT_EQ(s.tariff, "nl-business");
  EXPECT_FALSE(s.tariff_per_kwh.has_value());
  EXPECT_EQ(superseded_keys("site", "tariff"), std::vector<std::string>{"tariff_per_kwh"});
  // ... and a price per kWh keeps the tariff id (its region still names the grid).
  EXPECT_TRUE(superseded_keys("site", "tariff_per_kwh").empty());
  EXPECT_EQ(superseded_keys("option:x", "grid_region"),
            std::vector<std::string>{"grid_g_co2e_per_kwh"});
}

TEST(ConfigDefaults, applyOnlyWhereTheFileIsSilent) {
  const Scenario s = parse({config_default("scenario", "currency", "USD", 2),
                            config_default("scenario", "as_of", "2020-01-01", 3),
                            config_default("site", "pue", "1.3", 5)});
  EXPECT_EQ(s.currency, "USD");
  EXPECT_EQ(s.provenance("scenario", "currency"), "config file config.ini line 2");
  EXPECT_EQ(s.as_of, "2026-11-01");  // the file's
  EXPECT_EQ(s.provenance("scenario", "as_of"), "scenario file line 2");
  EXPECT_DOUBLE_EQ(s.pue, 1.3);
  // A default whose key the file says another way is not used: the file prices its
  // electricity per kWh, so the config's tariff id stays out.
  const Scenario t = parse({config_default("site", "tariff", "de-business", 4)});
  EXPECT_EQ(t.tariff, "");
  EXPECT_EQ(t.tariff_per_kwh, 0.3);
  // --set after the config wins over both.
  const Scenario u =
      parse({config_default("site", "pue", "1.3", 5), parse_set_option("site.pue=1.6")});
  EXPECT_DOUBLE_EQ(u.pue, 1.6);
  EXPECT_EQ(u.provenance("site", "pue"), "--set site.pue=1.6");
  // A bad default is named by its file and line.
  EXPECT_EQ(error_of([] { parse({config_default("scenario", "currency", "gbp", 7)}); }),
            "config.ini:7: [scenario] currency: expected an ISO 4217 currency code in capitals "
            "(EUR, USD, GBP, CHF, JPY, ...), got 'gbp'; did you mean 'GBP'?");
}

TEST(UserConfig, readsScenarioSiteAndCatalog) {
  test::TempDir dir;
  const std::string path = dir.file("config.ini");
  test::write_file(path,
                   "; defaults\n"
                   "[scenario]\n"
                   "currency = USD ; dollars\n"
                   "discount_rate = 0.07\n"
                   "\n"
                   "[site]\n"
                   "tariff = us-tx-commercial\n"
                   "[catalog]\n"
                   "path = books/team.sqlite\n");
  const UserConfig c = load_user_config(path);
  EXPECT_EQ(c.file, path);
  ASSERT_EQ(c.defaults.size(), 3u);
  EXPECT_EQ(c.defaults[0].section, "scenario");
  EXPECT_EQ(c.defaults[0].key, "currency");
  EXPECT_EQ(c.defaults[0].value, "USD");  // the inline comment dropped
  EXPECT_TRUE(c.defaults[0].only_if_absent);
  EXPECT_EQ(c.defaults[0].origin->provenance, "config file " + path + " line 3");
  EXPECT_EQ(c.defaults[2].origin->line, 7);
  // Relative to the config file's folder.
  EXPECT_EQ(c.catalog_path, (std::filesystem::path(dir.path()) / "books/team.sqlite").string());
  EXPECT_EQ(c.catalog_line, 9);
  // No file: no defaults, and no error.
  EXPECT_TRUE(load_user_config(dir.file("none.ini")).defaults.empty());
  EXPECT_EQ(load_user_config(dir.file("none.ini")).file, "");
}

TEST(UserConfig, aConfigFileThatCannotBeReadIsAnErrorNamingIt) {
  // Was ignored silently (issue #39): a link to nothing, a file behind a folder that is a file.
  test::TempDir dir;
  const std::string dangling = dir.file("config.ini");
  std::filesystem::create_symlink(dir.file("moved-away.ini"), dangling);
  EXPECT_EQ(error_of([&] { load_user_config(dangling); }),
            dangling + ": the config file is a symbolic link to a file that does not exist");
  // A path through a regular file is absent (ENOTDIR), as a missing file is: no config.
  test::write_file(dir.file("plain"), "x");
  EXPECT_EQ(load_user_config(dir.file("plain") + "/config.ini").file, "");
  // A folder where the file should be is named.
  std::filesystem::create_directory(dir.file("folder.ini"));
  EXPECT_EQ(error_of([&] { load_user_config(dir.file("folder.ini")); }),
            dir.file("folder.ini") + ": this is a directory, not a config file");
}

TEST(UserConfig, refusesWhatDoesNotBelong) {
  test::TempDir dir;
  const std::string path = dir.file("config.ini");
  const auto problem = [&](const std::string& text) {
    test::write_file(path, text);
    return error_of([&] { load_user_config(path); });
  };
  EXPECT_EQ(problem("[site]\ntarif = x\n"),
            path + ":2: [site] tarif: unknown key; did you mean 'tariff'?");
  EXPECT_EQ(problem("[workload]\nmodel = x\n"),
            path +
                ":1: [workload]: unknown section; a config file holds [scenario], [site] "
                "and [catalog]");
  EXPECT_EQ(problem("[scenario]\nname = x\n"),
            path +
                ":2: [scenario] name: belongs in a scenario file, not in the config file (it "
                "describes one scenario)");
  EXPECT_EQ(problem("[catalog]\nfile = x\n"),
            path +
                ":2: [catalog] file: unknown key ([catalog] holds path = DB, the user "
                "catalog)");
  EXPECT_EQ(problem("currency = USD\n"),
            path +
                ":1: currency: a key outside any section; keys belong in [scenario], [site] or "
                "[catalog]");
  EXPECT_EQ(problem("[site]\npue 1.2\n"),
            path + ":2: syntax error: '=' character not found in line");
  EXPECT_EQ(problem(std::string("[site]\npue = 1\xe9\n")),
            path + ":2: not UTF-8 text (byte 0xE9); save the file as UTF-8");
}

TEST(ScenarioManual, describesEveryKeyTheParserKnows) {
  const std::string page = test::read_file(test::source_path("cli/man/gputco-scenario.5"));
  for (const char* section :
       {"scenario", "workload", "site", "seller", "constraints", "risk", "option:x"}) {
    for (const auto& key : scenario_keys(section)) {
      EXPECT_NE(page.find("\\fB" + key + "\\fR"), std::string::npos)
          << section << " " << key << " is not in cli/man/gputco-scenario.5";
    }
  }
}

// docs/scenario-reference.md is the user's key reference (issue #42): it cannot drift from the
// parser's key table, which reads every key it names.
TEST(ScenarioReference, documentsEveryKeyTheParserKnows) {
  const std::string page = test::read_file(test::source_path("docs/scenario-reference.md"));
  for (const char* section :
       {"scenario", "workload", "site", "seller", "constraints", "risk", "option:x"}) {
    for (const auto& key : scenario_keys(section)) {
      EXPECT_NE(page.find("`" + key + "`"), std::string::npos)
          << section << " " << key << " is not in docs/scenario-reference.md";
    }
  }
}

}  // namespace
}  // namespace gputco
