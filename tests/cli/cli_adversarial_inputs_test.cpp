// Inputs as an attacker or a careless user gives them (issue 20), through the binary: the
// corpus of tests/data/adversarial (listed in EXPECTED), special files and oversized input
// refused at once, standard input, numbers that once printed nan and inf, read-only and
// locked catalogs, the bounds on options, draws and sweep points, formula-like CSV cells,
// control characters on the terminal, and a price file saved with Windows line endings.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/expected_cases.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;

// ---- The corpus ------------------------------------------------------------------------------

using Case = test::ExpectedCase;

std::vector<Case> load_cases() {
  return test::load_expected_cases(test::source_path("tests/data/adversarial/EXPECTED"));
}

class Adversarial : public ::testing::TestWithParam<Case> {};

TEST_P(Adversarial, exitsWithAClearMessageAndWritesNothing) {
  const Case& c = GetParam();
  test::TempDir dir;
  const std::string scenario = test::source_path("tests/data/adversarial/" + c.file);
  const auto result = test::run(test::gputco_exe(), {"plan", scenario, "-o", dir.file("out.xlsx")});
  EXPECT_EQ(result.exit_code, c.exit_code) << result.err;
  EXPECT_NE(result.err.find(scenario), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(c.expected), std::string::npos)
      << "expected: " << c.expected << "\ngot: " << result.err;
  EXPECT_EQ(result.err.find('\x1b'), std::string::npos) << "no raw escape on the terminal";
  EXPECT_EQ(result.out, "");
  EXPECT_TRUE(fs::is_empty(dir.path())) << "nothing may be written";
}

INSTANTIATE_TEST_SUITE_P(Corpus, Adversarial, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           return test::case_name(param_info.param.file);
                         });

TEST(Adversarial, corpusIsNotEmpty) {
  EXPECT_GE(load_cases().size(), 9u);
}

// ---- Input files -----------------------------------------------------------------------------

class Inputs : public ::testing::Test {
 protected:
  test::RunResult sh(const std::string& script) const {
    return test::run("/bin/sh", {"-c", script, test::gputco_exe(), example()}, dir_.path(),
                     {{"XDG_DATA_HOME", dir_.file("xdg")}});
  }
  static std::string example() {
    return test::source_path("scenarios/examples/used-3090-rig-vs-rented-h100.ini");
  }
  test::TempDir dir_;
};

TEST_F(Inputs, aDeviceAFifoOrAHugeFileIsRefusedAtOnce) {
  // Was: /dev/zero was read until memory ran out, a FIFO blocked for ever. `timeout` turns a
  // hang into exit 124.
  const auto started = std::chrono::steady_clock::now();
  const auto zero = sh("ln -s /dev/zero zero.ini && timeout 20 \"$0\" plan zero.ini");
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  EXPECT_EQ(zero.err,
            "error: zero.ini: not a regular file (a character device); give a file, or - for "
            "standard input\n");
  const auto fifo = sh("mkfifo f.ini && timeout 20 \"$0\" risk f.ini");
  EXPECT_EQ(fifo.exit_code, 2) << fifo.err;
  EXPECT_EQ(fifo.err,
            "error: f.ini: not a regular file (a FIFO); give a file, or - for standard input\n");
  const auto big = sh("truncate -s 17M big.ini && timeout 20 \"$0\" plan big.ini");
  EXPECT_EQ(big.exit_code, 2) << big.err;
  EXPECT_EQ(big.err, "error: big.ini: is larger than the limit of 16 MiB (17 MiB)\n");
  const auto csv =
      sh("mkfifo p.csv && timeout 20 \"$0\" catalog import p.csv; "
         "ln -s /dev/zero z.csv && timeout 20 \"$0\" catalog import z.csv");
  EXPECT_EQ(csv.exit_code, 2) << csv.err;
  EXPECT_NE(csv.err.find("p.csv: not a regular file (a FIFO)"), std::string::npos) << csv.err;
  EXPECT_NE(csv.err.find("z.csv: not a regular file (a character device)"), std::string::npos)
      << csv.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

// The same for the files a run reads besides the scenario: a model file (GGUF or config.json,
// named by --model or by a scenario's `model =`) and the user's config file. Was: each waited
// for a writer for ever, and /dev/zero as a model read "byte 1: not JSON".
TEST_F(Inputs, aModelOrConfigFileThatIsAFifoOrADeviceIsRefusedAtOnce) {
  const auto started = std::chrono::steady_clock::now();
  const auto gguf = sh("mkfifo ff.gguf && timeout 20 \"$0\" fit --model ff.gguf --gpu rtx-3090");
  EXPECT_EQ(gguf.exit_code, 2) << gguf.err;
  EXPECT_NE(gguf.err.find("ff.gguf: not a regular file (a FIFO)"), std::string::npos) << gguf.err;
  const auto folder =
      sh("mkdir m && mkfifo m/config.json && timeout 20 \"$0\" fit --model m --gpu h100-sxm");
  EXPECT_EQ(folder.exit_code, 2) << folder.err;
  EXPECT_NE(folder.err.find("config.json: not a regular file (a FIFO)"), std::string::npos)
      << folder.err;
  const auto zero = sh("timeout 20 \"$0\" fit --model /dev/zero --gpu rtx-3090");
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  EXPECT_NE(zero.err.find("/dev/zero: not a regular file (a character device)"), std::string::npos)
      << zero.err;
  const auto config =
      sh("mkdir -p cfg/gputco && mkfifo cfg/gputco/config.ini && XDG_CONFIG_HOME=$PWD/cfg "
         "timeout 20 \"$0\" plan \"$1\" --no-workbook");
  EXPECT_EQ(config.exit_code, 2) << config.err;
  EXPECT_NE(config.err.find("config.ini: not a regular file (a FIFO)"), std::string::npos)
      << config.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

TEST_F(Inputs, standardInputIsReadUpToTheLimit) {
  const auto planned = sh("\"$0\" plan - -o piped.xlsx --format csv < \"$1\"");
  EXPECT_EQ(planned.exit_code, 0) << planned.err;
  EXPECT_NE(planned.out.find("rig-3090,buy,rtx-3090,4,fits"), std::string::npos) << planned.out;
  EXPECT_TRUE(fs::exists(dir_.file("piped.xlsx")));
  const auto json =
      sh("printf '{\"scenario\": {\"as_of\": \"2026-11-01\"}}' | \"$0\" plan - -o j.xlsx");
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_EQ(json.err, "error: <stdin>: [workload]: missing section\n");
  const auto endless = sh("timeout 60 \"$0\" plan - -o z.xlsx < /dev/zero");
  EXPECT_EQ(endless.exit_code, 2) << endless.err;
  EXPECT_EQ(endless.err,
            "error: <stdin>: is larger than the limit of 16 MiB (more than that was read)\n");
  const auto no_name = sh("\"$0\" plan - < \"$1\"");
  EXPECT_EQ(no_name.exit_code, 2);
  EXPECT_EQ(
      no_name.err,
      "gputco: plan: the scenario comes from standard input, so the workbook has no name: give -o "
      "OUT.xlsx (or --no-workbook)\n");
}

TEST_F(Inputs, aHundredThousandLevelsOfJsonExitTwoNotSigsegv) {
  // Was: SIGSEGV (Boost's JSON parser recurses once per level) in plan, sweep and risk.
  {
    std::ofstream deep(dir_.file("deep.json"));
    deep << std::string(100'000, '[') << std::string(100'000, ']');
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plan", "deep.json"},
        std::vector<std::string>{"sweep", "deep.json", "--vary", "workload.hours_per_day=1:2:1"},
        std::vector<std::string>{"risk", "deep.json"}}) {
    const auto result = test::run(test::gputco_exe(), args, dir_.path());
    EXPECT_EQ(result.exit_code, 2) << args[0] << ": " << result.err;
    EXPECT_EQ(result.err,
              "error: deep.json:1: nested deeper than 64 levels of { and [; a scenario is an "
              "object of sections, each an object of keys (two levels)\n");
  }
}

// ---- No NaN or infinity in any output ---------------------------------------------------------

std::string loan_scenario(const std::string& rate) {
  return "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = llama-3.1-8b\nquant = Q4_K_M\n"
         "[site]\ntariff_per_kwh = 0.25\n[option:rig]\nkind = buy\ngpu = rtx-3090\n"
         "condition = used\nfinancing = loan\nloan_rate = " +
         rate + "\n[option:cloud]\nkind = rent_hourly\ngpu = rtx-4090\n";
}

bool has_non_finite_text(const std::string& text) {
  for (const char* word : {"nan", "inf", "NaN", "Inf", "#VALUE", "#DIV"}) {
    if (text.find(word) != std::string::npos) return true;
  }
  return false;
}

TEST_F(Inputs, aLoanAtARateThatRoundsAwayHasFiniteFiguresEverywhere) {
  // Was: loan_rate = 1e-17 made the loan's total and NPV NaN and the text print inf.
  test::write_file(dir_.file("loan.ini"), loan_scenario("1e-17"));
  const auto text = sh("\"$0\" plan loan.ini -o loan.xlsx");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_FALSE(has_non_finite_text(text.out)) << text.out;
  const auto csv = sh("\"$0\" plan loan.ini -o loan.xlsx --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_FALSE(has_non_finite_text(csv.out)) << csv.out;
  const auto json = sh("\"$0\" plan loan.ini -o loan.xlsx --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto plan = nlohmann::json::parse(json.out);
  ASSERT_TRUE(plan["options"][0]["total_cost"].is_number()) << json.out;
  ASSERT_TRUE(plan["options"][0]["npv"].is_number()) << json.out;
  // The same as at 0 %: the rate reads as 0 (below 1e-9) and the annuity is principal / term.
  test::write_file(dir_.file("zero.ini"), loan_scenario("0"));
  const auto at_zero = sh("\"$0\" plan zero.ini -o zero.xlsx --json");
  EXPECT_EQ(nlohmann::json::parse(at_zero.out)["options"][0]["total_cost"],
            plan["options"][0]["total_cost"]);
  // A sweep through tiny rates, each going through the parser.
  const auto swept = sh("\"$0\" sweep loan.ini --vary option:rig.loan_rate=0:5e-9:1e-9");
  EXPECT_EQ(swept.exit_code, 0) << swept.err;
  EXPECT_FALSE(has_non_finite_text(swept.out)) << swept.out;
}

TEST_F(Inputs, subnormalHoursDaysAndRatesAreRefusedOrZeroNeverInf) {
  // Was: 1e-320 printed inf and -nan in text, JSON and CSV.
  test::write_file(dir_.file("days.ini"),
                   "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = llama-3.1-8b\n"
                   "quant = Q4_K_M\ndays_per_month = 1e-320\n[option:a]\nkind = rent_hourly\n"
                   "gpu = rtx-4090\n");
  const auto days = sh("\"$0\" plan days.ini --json -o d.xlsx");
  EXPECT_EQ(days.exit_code, 2);
  EXPECT_EQ(days.err,
            "error: days.ini:6: [workload] days_per_month: expected 0 or at least 1e-06, got "
            "1e-320 (a value this small is a typo)\n");
  test::write_file(dir_.file("loan.ini"), loan_scenario("1e-320"));
  const auto loan = sh("\"$0\" plan loan.ini --format csv -o l.xlsx");
  EXPECT_EQ(loan.exit_code, 0) << loan.err;
  EXPECT_FALSE(has_non_finite_text(loan.out)) << loan.out;
}

// ---- Catalogs on read-only media, and locked ------------------------------------------------

/// A tmpfs mounted on a fresh directory for the test's lifetime.
class Tmpfs {
 public:
  Tmpfs() {
    mounted_ =
        test::run("mount", {"-t", "tmpfs", "-o", "size=8m", "tmpfs", dir_.path()}).exit_code == 0;
  }
  ~Tmpfs() {
    if (mounted_) test::run("umount", {dir_.path()});
  }
  Tmpfs(const Tmpfs&) = delete;
  Tmpfs& operator=(const Tmpfs&) = delete;
  bool mounted() const { return mounted_; }
  bool remount(const std::string& options) const {
    return test::run("mount", {"-o", "remount," + options, dir_.path()}).exit_code == 0;
  }
  std::string file(const std::string& name) const { return dir_.file(name); }
  const std::string& path() const { return dir_.path(); }

 private:
  test::TempDir dir_;
  bool mounted_ = false;
};

constexpr const char* kPriceHeader =
    "item_id,condition,amount,currency,region,seller,observed_on,source,note\n";

TEST_F(Inputs, aCatalogOnReadOnlyMediaIsReadAndWritingItIsRefusedClearly) {
  // Was: "not a gputco catalog" (exit 2): the write-ahead log needs a -shm file beside it.
  Tmpfs media;
  if (!media.mounted()) GTEST_SKIP() << "mount -t tmpfs is not permitted here";
  test::write_file(dir_.file("book.csv"), std::string(kPriceHeader) +
                                              "rtx-3090,used,612,USD,us,ro-seller,2026-11-20,q,\n");
  const std::string db = media.file("gputco/catalog.sqlite");
  ASSERT_EQ(sh("\"$0\" catalog import book.csv --catalog " + db + " --as-of 2026-12-01").exit_code,
            0);
  ASSERT_TRUE(media.remount("ro"));
  test::write_file(dir_.file("plan.ini"),
                   "[scenario]\nas_of = 2026-11-27\ncurrency = USD\n[workload]\n"
                   "model = llama-3.1-8b\nquant = Q4_K_M\n[site]\ntariff_per_kwh = 0.2\n"
                   "[option:own]\nkind = buy\ngpu = rtx-3090\ncondition = used\n");
  const auto given = sh("\"$0\" plan plan.ini --catalog " + db + " -o a.xlsx");
  EXPECT_EQ(given.exit_code, 0) << given.err;
  // The same catalog as the default user catalog (XDG_DATA_HOME on the read-only media).
  const auto by_default = test::run(test::gputco_exe(), {"plan", "plan.ini", "-o", "b.xlsx"},
                                    dir_.path(), {{"XDG_DATA_HOME", media.path()}});
  EXPECT_EQ(by_default.exit_code, 0) << by_default.err;
  const auto listed = test::run(test::gputco_exe(), {"catalog", "show", "rtx-3090"}, dir_.path(),
                                {{"XDG_DATA_HOME", media.path()}});
  EXPECT_NE(listed.out.find("ro-seller"), std::string::npos) << listed.out << listed.err;
  // Writing to it: refused clearly, exit 1 (the medium, not the input, is at fault).
  test::write_file(dir_.file("more.csv"),
                   std::string(kPriceHeader) + "rtx-4090,new,1700,USD,us,acme,2026-11-20,q,\n");
  const auto write = sh("\"$0\" catalog import more.csv --catalog " + db + " --as-of 2026-12-01");
  EXPECT_EQ(write.exit_code, 1) << write.err;
  EXPECT_EQ(write.err, "catalog error: " + db +
                           ": the catalog is read-only (file permissions or read-only media); "
                           "nothing was written\n");
  media.remount("rw");
}

TEST_F(Inputs, aLockedCatalogIsExitOneSayingSoNotABadFile) {
  // Was: "not a gputco catalog", exit 2. An import holds the write lock (the test hook
  // pauses it inside its transaction); a second import waits the busy timeout, then says so.
  const std::string db = dir_.file("catalog.sqlite");
  test::write_file(dir_.file("a.csv"),
                   std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,a,2026-11-20,q,\n");
  test::write_file(dir_.file("b.csv"),
                   std::string(kPriceHeader) + "rtx-3090,used,650,USD,us,b,2026-11-20,q,\n");
  ASSERT_EQ(sh("\"$0\" catalog import a.csv --catalog catalog.sqlite --as-of 2026-12-01").exit_code,
            0);
  const pid_t holder =
      test::start_until_marker(test::gputco_exe(),
                               {"catalog", "import", dir_.file("b.csv"), "--catalog", db, "--book",
                                "held", "--as-of", "2026-12-01"},
                               {{"GPUTCO_FAULT_IMPORT_SLEEP_MS", "30000"},
                                {"GPUTCO_FAULT_IMPORT_MARKER", dir_.file("inside")}},
                               dir_.file("inside"));
  const auto second =
      sh("\"$0\" catalog import b.csv --catalog catalog.sqlite --book other "
         "--as-of 2026-12-01");
  kill(holder, SIGKILL);
  test::wait_status(holder);
  EXPECT_EQ(second.exit_code, 1) << second.err;
  EXPECT_EQ(second.err, std::string("catalog error: catalog.sqlite") +
                            ": the catalog is locked by another program (waited 10 s); try again "
                            "when it has finished (an import in progress?)\n");
  // A file that is no catalog stays bad input.
  const auto not_catalog = sh("\"$0\" plan \"$1\" --catalog a.csv -o x.xlsx");
  EXPECT_EQ(not_catalog.exit_code, 2);
  EXPECT_EQ(not_catalog.err,
            "gputco: --catalog: a.csv: not a gputco catalog: file is not a database\n");
}

TEST_F(Inputs, aFileThatIsNoCatalogIsBadInputInEveryCommand) {
  // Was: `catalog import` and `catalog check` exited 1 ("catalog error"), the other commands
  // 2, for the same file. Not SQLite at all, and a real catalog cut short (SQLite: "database
  // disk image is malformed"); the file is never written.
  const auto made =
      sh("printf 'item_id,condition,amount,currency,region,seller,observed_on,source,note,"
         "price_type\nrtx-3090,used,700,USD,us,ebay,2026-01-01,a page,,street\n' > p.csv && "
         "\"$0\" catalog import p.csv --catalog good.sqlite --book mine >/dev/null && "
         "head -c 8192 good.sqlite > cut.sqlite && echo 'hello' > text.sqlite");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::vector<std::string> commands = {
      "plan \"$1\" -o x.xlsx", "fit --model llama-3.1-8b --quant Q4_K_M", "catalog list devices",
      "catalog export prices", "catalog import p.csv --book mine",        "catalog check"};
  for (const char* file : {"text.sqlite", "cut.sqlite"}) {
    for (const std::string& command : commands) {
      const auto before = sh(std::string("md5sum ") + file);
      const auto r = sh("\"$0\" " + command + " --catalog " + file);
      EXPECT_EQ(r.exit_code, 2) << file << ": " << command << ": " << r.err;
      EXPECT_NE(r.err.find(file), std::string::npos) << command << ": " << r.err;
      EXPECT_EQ(sh(std::string("md5sum ") + file).out, before.out) << command;
    }
  }
  EXPECT_FALSE(fs::exists(dir_.file("x.xlsx")));
}

// ---- Bounded work ----------------------------------------------------------------------------

std::string rentals_scenario(int options) {
  std::string text =
      "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = llama-3.1-8b\nquant = Q4_K_M\n"
      "[site]\ntariff_per_kwh = 0.2\n[option:own]\nkind = buy\ngpu = rtx-3090\n"
      "condition = used\n";
  for (int i = 1; i < options; ++i) {
    text += "[option:r" + std::to_string(i) + "]\nkind = rent_hourly\ngpu = rtx-4090\n";
  }
  return text;
}

TEST_F(Inputs, drawsTimesOptionsAndSweepPointsAreBoundedAndNamed) {
  // Was: the maximum draws over 300 options ran for minutes with gigabytes.
  test::write_file(dir_.file("many.ini"), rentals_scenario(20));
  const auto started = std::chrono::steady_clock::now();
  const auto risk = sh("\"$0\" risk many.ini --draws 1000000");
  EXPECT_EQ(risk.exit_code, 2);
  EXPECT_EQ(risk.err,
            "gputco: risk: --draws 1000000 x 20 options = 20000000 option cash flows, above the "
            "limit of 10000000; give --draws 500000 or fewer\n");
  const auto sweep = sh("\"$0\" sweep many.ini --vary workload.hours_per_day=0:24:0.01");
  EXPECT_EQ(sweep.exit_code, 2);
  EXPECT_NE(sweep.err.find("2401 points; at most 1000"), std::string::npos) << sweep.err;
  // 401 points of 50 options: 20,050 plans, above the 20,000 a sweep makes.
  test::write_file(dir_.file("fifty.ini"), rentals_scenario(50));
  const auto wide = sh("\"$0\" sweep fifty.ini --vary workload.hours_per_day=0:24:0.06");
  EXPECT_EQ(wide.exit_code, 2);
  EXPECT_EQ(wide.err,
            "gputco: sweep: --vary 'workload.hours_per_day=0:24:0.06': 401 points x 50 options "
            "= 20050 plans, above the limit of 20000; use at most 400 points (a larger STEP)\n");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
}

// ---- Text out: formula-like CSV cells, control characters on the terminal --------------------

TEST_F(Inputs, csvTextCellsNeverStartAFormulaAndNumbersStayNumbers) {
  // Was: catalog export wrote =1+1, +seller and -2+3+cmd|' /C calc'!A0 as they are.
  test::write_file(dir_.file("evil.csv"),
                   std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,=1+1,2026-11-20,q,\n" +
                       "rtx-3090,used,641,USD,us,+seller,2026-11-20,q,\n" +
                       "rtx-3090,used,642,USD,us,@SUM(A1),2026-11-20,q,\n" +
                       "rtx-3090,used,643,USD,us,\"-2+3+cmd|' /C calc'!A0\",2026-11-20,q,\n");
  ASSERT_EQ(sh("\"$0\" catalog import evil.csv --as-of 2026-12-01 --book evil").exit_code, 0);
  const auto exported = sh("\"$0\" catalog export --book evil");
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.out.find(",'=1+1,"), std::string::npos) << exported.out;
  EXPECT_NE(exported.out.find(",'+seller,"), std::string::npos) << exported.out;
  EXPECT_NE(exported.out.find(",'@SUM(A1),"), std::string::npos) << exported.out;
  EXPECT_NE(exported.out.find(",'-2+3+cmd|' /C calc'!A0,"), std::string::npos) << exported.out;
  for (const std::string cell : {",=", ",+", ",@", ",-2"}) {
    EXPECT_EQ(exported.out.find(cell), std::string::npos) << cell << " in\n" << exported.out;
  }
  // The export imports again unchanged: the apostrophe is read back.
  test::write_file(dir_.file("again.csv"), exported.out);
  const auto again = sh("\"$0\" catalog import again.csv --as-of 2026-12-01 --book evil");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("4 rows read, 0 added, 4 unchanged"), std::string::npos) << again.out;
  // plan --format csv: option ids "-A1" and "-2-3" are text; numbers are written as they are.
  test::write_file(dir_.file("ids.ini"),
                   "[scenario]\nas_of = 2026-11-27\n[workload]\nmodel = llama-3.1-8b\n"
                   "quant = Q4_K_M\n[option:-A1]\nkind = rent_hourly\ngpu = rtx-4090\n"
                   "[option:-2-3]\nkind = rent_hourly\ngpu = rtx-3090\n");
  const auto csv = sh("\"$0\" plan ids.ini -o ids.xlsx --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("\r\n'-A1,rent_hourly,rtx-4090,1,"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find("\r\n'-2-3,rent_hourly,rtx-3090,1,"), std::string::npos) << csv.out;
  // Every CSV writer guards its text the same way (issue #39: catalog list --format csv and
  // sweep --format csv wrote the sellers and ids as they were).
  const auto listed = sh("\"$0\" catalog list prices --format csv");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find(",'=1+1,"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find(",'+seller,"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find(",'-2+3+cmd|' /C calc'!A0,"), std::string::npos) << listed.out;
  for (const std::string cell : {",=", ",+", ",@", ",-2+"}) {
    EXPECT_EQ(listed.out.find(cell), std::string::npos) << cell << " in\n" << listed.out;
  }
  const auto swept = sh("\"$0\" sweep ids.ini --vary workload.hours_per_day=1:2:1 --format csv");
  ASSERT_EQ(swept.exit_code, 0) << swept.err;
  EXPECT_NE(swept.out.find("\r\nworkload.hours_per_day,1,'-A1,"), std::string::npos) << swept.out;
  EXPECT_EQ(swept.out.find(",-A1,"), std::string::npos) << swept.out;
}

TEST_F(Inputs, controlCharactersAreShownOnTheTerminalNeverObeyed) {
  // Was: escape sequences and a NUL from a scenario name reached the terminal raw. `script`
  // runs the command on a pseudo-terminal, where standard output is filtered.
  test::write_file(dir_.file("named.ini"),
                   "[scenario]\nas_of = 2026-11-27\nname = Plan \x1b]0;owned\x07 \x1b[2J\n"
                   "customer = ACME\xe2\x80\xae"
                   "gnp.exe\n[workload]\nmodel = llama-3.1-8b\n"
                   "quant = Q4_K_M\n[option:a]\nkind = rent_hourly\ngpu = rtx-4090\n");
  const auto on_terminal = sh("script -qec \"'$0' plan named.ini -o n.xlsx\" /dev/null");
  if (on_terminal.exit_code == 127) GTEST_SKIP() << "script(1) is not installed";
  EXPECT_EQ(on_terminal.exit_code, 0) << on_terminal.out;
  EXPECT_NE(on_terminal.out.find("Plan \\x1B]0;owned\\x07 \\x1B[2J"), std::string::npos)
      << on_terminal.out;
  EXPECT_EQ(on_terminal.out.find('\x1b'), std::string::npos) << on_terminal.out;
  // To a file or a pipe the text is data: byte for byte.
  const auto piped = sh("\"$0\" plan named.ini -o n.xlsx");
  EXPECT_NE(piped.out.find("Plan \x1b]0;owned\x07 \x1b[2J"), std::string::npos) << piped.out;
  // A book name with a control character is refused, named visibly.
  test::write_file(dir_.file("ok.csv"),
                   std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,acme,2026-11-20,q,\n");
  const auto book =
      sh("\"$0\" catalog import ok.csv --as-of 2026-12-01 --book \"$(printf 'a\\033[31mb')\"");
  EXPECT_EQ(book.exit_code, 2);
  EXPECT_NE(book.err.find("--book: 'a\\x1B[31mb' is not a book name (control character U+001B)"),
            std::string::npos)
      << book.err;
  // So is a seller with one, with its line and column.
  test::write_file(dir_.file("bad.csv"),
                   std::string(kPriceHeader) + "rtx-3090,used,640,USD,us,ac\x1bme,2026-11-20,q,\n");
  const auto seller = sh("\"$0\" catalog import bad.csv --as-of 2026-12-01");
  EXPECT_EQ(seller.exit_code, 2);
  EXPECT_NE(seller.err.find("bad.csv:2: seller: control character U+001B in 'ac\\x1Bme': ids, "
                            "names and sources are plain text"),
            std::string::npos)
      << seller.err;
}

// ---- The same file saved with Windows line endings ------------------------------------------

TEST_F(Inputs, reimportingTheSameFileWithWindowsLineEndingsChangesNothing) {
  // Was: refused as a conflict whose message hid the carriage return.
  const std::string rows =
      std::string(kPriceHeader) +
      "rtx-3090,used,640,USD,us,acme,2026-11-20,acme quote 17,\"two\nlines\"\n" +
      "rtx-4090,new,1700,USD,us,acme,2026-05-01,acme quote 18,plain\n";
  std::string windows;
  for (char c : rows) windows += c == '\n' ? std::string("\r\n") : std::string(1, c);
  test::write_file(dir_.file("unix.csv"), rows);
  test::write_file(dir_.file("windows.csv"), windows);
  ASSERT_EQ(sh("\"$0\" catalog import unix.csv --as-of 2026-12-01").exit_code, 0);
  const auto again = sh("\"$0\" catalog import windows.csv --as-of 2026-12-01");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("2 rows read, 0 added, 2 unchanged"), std::string::npos) << again.out;
  // A real conflict shows an invisible difference: a no-break space is not a space.
  test::write_file(dir_.file("nbsp.csv"),
                   std::string(kPriceHeader) +
                       "rtx-4090,new,1700,USD,us,acme,2026-05-01,acme\xc2\xa0quote 18,plain\n");
  const auto conflict = sh("\"$0\" catalog import nbsp.csv --as-of 2026-12-01");
  EXPECT_EQ(conflict.exit_code, 2);
  EXPECT_NE(conflict.err.find("with source 'acme quote 18', not 'acme\\u00A0quote 18'"),
            std::string::npos)
      << conflict.err;
}

}  // namespace
}  // namespace gputco
