// Outputs that never destroy another file (issue 20), through the binary: the output path is
// opened without following a link (the link is replaced, never its target), an output that is
// one of the command's inputs is refused, and so is a directory, FIFO or device; a signal
// during the write leaves no temporary file and the old output as it was; so does a standard
// output that cannot be written (the outputs are all or nothing).
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;

const char* kOld = "yesterday's good workbook";

std::string example() {
  return test::source_path("scenarios/examples/used-3090-rig-vs-rented-h100.ini");
}

/// A scenario and a small user catalog (one price book) in a fresh directory.
class Outputs : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy_file(example(), dir_.file("plan.ini"));
    scenario_ = test::read_file(dir_.file("plan.ini"));
  }
  test::RunResult gputco(const std::vector<std::string>& args) const {
    return test::run(test::gputco_exe(), args, dir_.path(), {{"XDG_DATA_HOME", dir_.file("xdg")}});
  }
  /// A user catalog at `path` with one book, made by an import.
  void make_catalog(const std::string& path) const {
    test::write_file(dir_.file("book.csv"),
                     "item_id,condition,amount,currency,region,seller,observed_on,source,note\n"
                     "rtx-3090,used,640,USD,us,acme,2026-11-20,acme quote 17,\n");
    const auto made = gputco({"catalog", "import", dir_.file("book.csv"), "--catalog", path,
                              "--book", "acme", "--as-of", "2026-12-01"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  test::TempDir dir_;
  std::string scenario_;
};

void expect_refused(const test::RunResult& result, const std::string& message) {
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find(message), std::string::npos) << "expected '" << message << "' in:\n"
                                                         << result.err;
  EXPECT_EQ(result.out, "");
}

TEST_F(Outputs, aLinkToTheScenarioIsRefusedAndTheScenarioKept) {
  // Was: the link was followed and the scenario replaced by the workbook, exit 0.
  fs::create_symlink("plan.ini", dir_.file("out.xlsx"));
  expect_refused(gputco({"plan", "plan.ini", "-o", "out.xlsx"}),
                 "error: cannot write out.xlsx: it is a symbolic link to the scenario (plan.ini), "
                 "an input of this command; give another output name");
  EXPECT_EQ(test::read_file(dir_.file("plan.ini")), scenario_);
  EXPECT_TRUE(fs::is_symlink(dir_.file("out.xlsx")));
}

TEST_F(Outputs, aHardLinkOrAnotherSpellingOfTheScenarioIsRefused) {
  fs::create_hard_link(dir_.file("plan.ini"), dir_.file("hard.xlsx"));
  expect_refused(gputco({"plan", "plan.ini", "-o", "hard.xlsx"}),
                 "cannot write hard.xlsx: it is the scenario (plan.ini)");
  fs::create_directory(dir_.file("sub"));
  fs::copy_file(dir_.file("plan.ini"), dir_.file("plan.XLSX"));
  expect_refused(gputco({"plan", "plan.XLSX", "-o", "sub/../plan.XLSX"}),
                 "cannot write sub/../plan.XLSX: it is the scenario (plan.XLSX)");
  EXPECT_EQ(test::read_file(dir_.file("plan.ini")), scenario_);
  EXPECT_EQ(test::read_file(dir_.file("plan.XLSX")), scenario_);
}

TEST_F(Outputs, theCatalogIsNeverTheOutput) {
  // plan --catalog book.xlsx -o book.xlsx replaced the price book with the workbook;
  // catalog export -o c.sqlite replaced the database with its CSV, both with exit 0.
  make_catalog(dir_.file("book.xlsx"));
  const std::string book = test::read_file(dir_.file("book.xlsx"));
  expect_refused(gputco({"plan", "plan.ini", "--catalog", "book.xlsx", "-o", "book.xlsx"}),
                 "cannot write book.xlsx: it is the catalog given with --catalog (book.xlsx)");
  expect_refused(gputco({"catalog", "export", "--catalog", "book.xlsx", "-o", "book.xlsx"}),
                 "cannot write book.xlsx: it is the catalog (book.xlsx)");
  // The default user catalog counts too, and so does importing a catalog into itself.
  make_catalog(dir_.file("xdg/gputco/catalog.sqlite"));
  expect_refused(gputco({"catalog", "export", "-o", "xdg/gputco/catalog.sqlite"}),
                 "it is the catalog (" + dir_.file("xdg/gputco/catalog.sqlite") + ")");
  expect_refused(gputco({"catalog", "import", "book.xlsx", "--catalog", "book.xlsx"}),
                 "cannot write book.xlsx: it is the file to import (book.xlsx)");
  EXPECT_EQ(test::read_file(dir_.file("book.xlsx")), book);
  EXPECT_EQ(gputco({"plan", "plan.ini", "--catalog", "book.xlsx", "-o", "out.xlsx"}).exit_code, 0);
}

TEST_F(Outputs, aLinkIsReplacedAndWhatItPointsToIsLeftAlone) {
  // O_NOFOLLOW semantics: a link planted where the output goes (a shared folder, /etc/passwd
  // as root) never redirects the write.
  test::write_file(dir_.file("precious.txt"), "precious");
  fs::create_symlink("precious.txt", dir_.file("out.xlsx"));
  fs::create_symlink(dir_.file("precious.txt"), dir_.file("out.csv"));
  ASSERT_EQ(gputco({"plan", "plan.ini", "-o", "out.xlsx"}).exit_code, 0);
  ASSERT_EQ(
      gputco({"catalog", "export", "prices", "--book", "built-in", "-o", "out.csv"}).exit_code, 0);
  EXPECT_EQ(test::read_file(dir_.file("precious.txt")), "precious");
  EXPECT_FALSE(fs::is_symlink(dir_.file("out.xlsx")));
  EXPECT_FALSE(fs::is_symlink(dir_.file("out.csv")));
  EXPECT_EQ(test::read_file(dir_.file("out.xlsx")).substr(0, 2), "PK");
  EXPECT_EQ(test::read_file(dir_.file("out.csv")).rfind("item_id,condition,", 0), 0u);
}

TEST_F(Outputs, aDirectoryAFifoOrADeviceIsRefusedAtOnce) {
  fs::create_directory(dir_.file("folder.xlsx"));
  ASSERT_EQ(::mkfifo(dir_.file("pipe.xlsx").c_str(), 0600), 0);
  expect_refused(gputco({"plan", "plan.ini", "-o", "folder.xlsx"}),
                 "error: cannot write folder.xlsx: it is a directory, not a regular file; give "
                 "the name of a file to write");
  // Was: the FIFO was replaced by a regular file. Refused before any work, so no reader is
  // needed on its other end.
  expect_refused(gputco({"plan", "plan.ini", "-o", "pipe.xlsx"}),
                 "cannot write pipe.xlsx: it is a FIFO (named pipe), not a regular file");
  expect_refused(gputco({"catalog", "export", "prices", "--book", "built-in", "-o", "/dev/null"}),
                 "cannot write /dev/null: it is a character device, not a regular file");
  EXPECT_TRUE(fs::is_fifo(dir_.file("pipe.xlsx")));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(test::directory_entries(dir_.path()),
            (std::vector<std::string>{"folder.xlsx", "pipe.xlsx", "plan.ini"}));
}

TEST_F(Outputs, aCatalogIsNeverWrittenThroughALink) {
  make_catalog(dir_.file("real.sqlite"));
  fs::create_symlink("real.sqlite", dir_.file("link.sqlite"));
  const std::string before = test::read_file(dir_.file("real.sqlite"));
  const auto result = gputco({"catalog", "import", "book.csv", "--catalog", "link.sqlite", "--book",
                              "other", "--as-of", "2026-12-01"});
  expect_refused(result,
                 "gputco: --catalog: link.sqlite is a symbolic link; a catalog is written in "
                 "place, never through a link: give the file itself (--catalog " +
                     dir_.file("real.sqlite") + ")");
  EXPECT_EQ(test::read_file(dir_.file("real.sqlite")), before);
  // Reading through a link is fine.
  EXPECT_EQ(gputco({"plan", "plan.ini", "--catalog", "link.sqlite", "-o", "out.xlsx"}).exit_code,
            0);
}

/// Runs `gputco plan plan.ini -o plan.xlsx` in `dir`, paused by the test hook once its
/// temporary file is complete, sends it `signal_number` and returns its wait status.
int interrupted_plan(const std::string& dir, int signal_number) {
  const std::string marker = dir + "/written";
  const pid_t child = test::start_until_marker(
      "/bin/sh",
      {"-c", "cd \"$1\" && exec \"$0\" plan plan.ini -o plan.xlsx", test::gputco_exe(), dir},
      {{"XDG_DATA_HOME", dir + "/xdg"},
       {"GPUTCO_FAULT_WRITE_SLEEP_MS", "60000"},
       {"GPUTCO_FAULT_WRITE_MARKER", marker}},
      marker);
  kill(child, signal_number);
  const int status = test::wait_status(child);
  fs::remove(marker);
  return status;
}

TEST_F(Outputs, aSignalDuringTheWriteLeavesNoTemporaryFileAndTheOldWorkbook) {
  // Was: a hidden 0-byte .plan.xlsx.tmp-PID-N stayed behind.
  test::write_file(dir_.file("plan.xlsx"), kOld);
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    const int status = interrupted_plan(dir_.path(), signal_number);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number)
        << "the process must still die of signal " << signal_number << " (status " << status << ")";
    EXPECT_EQ(test::directory_entries(dir_.path()),
              (std::vector<std::string>{"plan.ini", "plan.xlsx"}))
        << "signal " << signal_number;
    EXPECT_EQ(test::read_file(dir_.file("plan.xlsx")), kOld);
  }
}

/// How often `needle` occurs in `text`.
size_t occurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST_F(Outputs, aStandardOutputThatFailsLeavesTheOldWorkbook) {
  // Was: exit 1, and the workbook already renamed into place. Every format of standard output
  // (text, JSON, CSV), the default name as well as -o.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plan", "plan.ini", "-o", "plan.xlsx"},
        std::vector<std::string>{"plan", "plan.ini", "-o", "plan.xlsx", "--json"},
        std::vector<std::string>{"plan", "plan.ini", "--format", "csv"}}) {
    test::write_file(dir_.file("plan.xlsx"), kOld);
    const auto r = test::run(test::gputco_exe(), args, dir_.path(),
                             {{"XDG_DATA_HOME", dir_.file("xdg")}}, "", "/dev/full");
    EXPECT_EQ(r.exit_code, 1) << args.back() << ": " << r.err;
    EXPECT_EQ(occurrences(r.err, "gputco: cannot write to standard output"), 1u) << r.err;
    EXPECT_EQ(test::read_file(dir_.file("plan.xlsx")), kOld) << args.back();
    EXPECT_EQ(test::directory_entries(dir_.path()),
              (std::vector<std::string>{"plan.ini", "plan.xlsx"}))
        << args.back();
  }
  // Nor is a new workbook created.
  const auto fresh = test::run(test::gputco_exe(), {"plan", "plan.ini", "-o", "new.xlsx"},
                               dir_.path(), {{"XDG_DATA_HOME", dir_.file("xdg")}}, "", "/dev/full");
  EXPECT_EQ(fresh.exit_code, 1) << fresh.err;
  EXPECT_FALSE(fs::exists(dir_.file("new.xlsx")));
  // With standard output written, the same command replaces it.
  const auto written =
      test::run(test::gputco_exe(), {"plan", "plan.ini", "-o", "plan.xlsx"}, dir_.path(),
                {{"XDG_DATA_HOME", dir_.file("xdg")}}, "", "/dev/null");
  ASSERT_EQ(written.exit_code, 0) << written.err;
  EXPECT_EQ(test::read_file(dir_.file("plan.xlsx")).substr(0, 2), "PK");
}

TEST_F(Outputs, aClosedPipeOnStandardOutputLeavesNoTemporaryFile) {
  // `gputco plan plan.ini | head -0`: the process dies of SIGPIPE while its workbook waits in
  // the temporary file, which goes with it.
  test::write_file(dir_.file("plan.xlsx"), kOld);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);  // no reader: the first write raises SIGPIPE
  const std::string exe = test::gputco_exe();
  const std::string xdg = dir_.file("xdg");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[1]);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 2);
    ::signal(SIGPIPE, SIG_DFL);
    ::setenv("XDG_DATA_HOME", xdg.c_str(), 1);
    if (::chdir(dir_.path().c_str()) != 0) ::_exit(126);
    ::execl(exe.c_str(), "gputco", "plan", "plan.ini", "-o", "plan.xlsx", nullptr);
    ::_exit(127);
  }
  ::close(fds[1]);
  const int status = test::wait_status(child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) << "status " << status;
  EXPECT_EQ(test::read_file(dir_.file("plan.xlsx")), kOld);
  EXPECT_EQ(test::directory_entries(dir_.path()),
            (std::vector<std::string>{"plan.ini", "plan.xlsx"}));
}

// ---- Killed processes and exhausted memory (issue #39) ---------------------------------------

/// The names in `folder` that hold ".tmp-": temporary files.
std::vector<std::string> temporaries(const std::string& folder) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp-") != std::string::npos) out.push_back(name);
  }
  return out;
}

TEST_F(Outputs, aKilledProcesssTemporaryFileIsRemovedOnTheNextRunALiveOnesIsNot) {
  // SIGKILL runs no handler: the temporary workbook stayed. The next run removes it, as an
  // editor removes a dead session's swap file, and only when its process is gone.
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ASSERT_GT(dead, 0);
  ::waitpid(dead, nullptr, 0);
  const std::string stale = ".out.xlsx.tmp-" + std::to_string(dead) + "-0";
  const std::string live = ".out.xlsx.tmp-" + std::to_string(::getpid()) + "-7";
  const std::string other = ".other.xlsx.tmp-" + std::to_string(dead) + "-0";
  for (const auto& name : {stale, live, other}) test::write_file(dir_.file(name), "half");
  const auto result = gputco({"plan", "plan.ini", "-o", "out.xlsx", "--quiet"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(dir_.file(stale)));
  EXPECT_TRUE(fs::exists(dir_.file(live)));   // its process (this test) is alive
  EXPECT_TRUE(fs::exists(dir_.file(other)));  // another output's: not this run's to judge
  EXPECT_TRUE(fs::exists(dir_.file("out.xlsx")));
}

TEST_F(Outputs, runningOutOfMemoryEndsInExit1WithAMessageAndNoTemporaryFile) {
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no ulimit -v";
#endif
  // Was: under a memory limit libxlsxwriter logged "Memory allocation failed" and the process
  // died of signal 11 with its temporary workbook left; elsewhere "error: std::bad_alloc".
  // Every limit from where the program barely loads to where the plan completes must end in
  // 0 or 1, with a message, and nothing left behind.
  int out_of_memory = 0;
  int completed = 0;
  for (int kib = 16000; kib <= 34000; kib += 500) {
    const auto result =
        test::run("/bin/sh",
                  {"-c", "ulimit -v " + std::to_string(kib) + "; exec \"$0\" plan plan.ini -o out.xlsx",
                   test::gputco_exe()},
                  dir_.path(), {{"XDG_DATA_HOME", dir_.file("xdg")}});
    if (result.exit_code == 127) continue;  // the loader could not map the libraries
    EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 1)
        << kib << " KiB: exit " << result.exit_code << "\n" << result.err;
    EXPECT_EQ(result.err.find("bad_alloc"), std::string::npos) << kib << " KiB: " << result.err;
    EXPECT_EQ(temporaries(dir_.path()), std::vector<std::string>()) << kib << " KiB";
    if (result.exit_code == 1) {
      ++out_of_memory;
      EXPECT_NE(result.err.find("error: "), std::string::npos) << kib << " KiB: " << result.err;
    }
    completed += result.exit_code == 0 ? 1 : 0;
  }
  EXPECT_GT(out_of_memory, 0) << "no limit was tight enough: lower the range";
  EXPECT_GT(completed, 0) << "no limit was loose enough: raise the range";
}

}  // namespace
}  // namespace gputco
