// Output files through the binary (issue 7): the workbook is written to a temporary file in
// the same directory and renamed; a directory that cannot be written, a full disk, a file
// size limit and a read-only file system each give exit 1 with a message naming the file,
// leave an existing workbook as it was and leave no temporary file behind. `plan` never
// changes the catalog it reads.
//
// The tests run as root in CI, where chmod does not stop writes: "unwritable" is a path under
// a regular file (ENOTDIR), a read-only tmpfs, a full tmpfs (64 KiB) or RLIMIT_FSIZE. The
// mount-based tests skip when mount(8) is not permitted.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

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

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// A tmpfs mounted on a fresh directory for the test's lifetime (unmounted first).
class Tmpfs {
 public:
  explicit Tmpfs(const std::string& options) {
    dir_ = std::make_unique<test::TempDir>();
    mounted_ =
        test::run("mount", {"-t", "tmpfs", "-o", options, "tmpfs", dir_->path()}).exit_code == 0;
  }
  ~Tmpfs() {
    if (mounted_) test::run("umount", {dir_->path()});
  }
  Tmpfs(const Tmpfs&) = delete;
  Tmpfs& operator=(const Tmpfs&) = delete;
  bool mounted() const { return mounted_; }
  bool remount(const std::string& options) const {
    return test::run("mount", {"-o", "remount," + options, dir_->path()}).exit_code == 0;
  }
  std::string file(const std::string& name) const { return dir_->file(name); }
  const std::string& path() const { return dir_->path(); }

 private:
  std::unique_ptr<test::TempDir> dir_;
  bool mounted_ = false;
};

void expect_write_failure(const test::RunResult& result, const std::string& workbook,
                          const std::string& reason) {
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find("cannot write " + workbook + ": "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(reason), std::string::npos)
      << "expected the reason '" << reason << "' in:\n"
      << result.err;
  EXPECT_EQ(result.out, "");
}

TEST(OutputFiles, successLeavesOnlyTheWorkbook) {
  test::TempDir dir;
  test::write_file(dir.file("plan.xlsx"), kOld);
  ASSERT_EQ(::chmod(dir.file("plan.xlsx").c_str(), 0640), 0);
  const auto result =
      test::run(test::gputco_exe(), {"plan", example(), "-o", dir.file("plan.xlsx")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"plan.xlsx"});
  EXPECT_NE(test::read_file(dir.file("plan.xlsx")), kOld);
  struct stat info {};
  ASSERT_EQ(::stat(dir.file("plan.xlsx").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u) << "a replaced workbook keeps its permissions";
}

TEST(OutputFiles, aDirectoryThatIsAFileIsAClearError) {
  test::TempDir dir;
  test::write_file(dir.file("not-a-dir"), kOld);
  const std::string workbook = dir.file("not-a-dir/plan.xlsx");
  const auto result = test::run(test::gputco_exe(), {"plan", example(), "-o", workbook});
  expect_write_failure(result, workbook, "Not a directory");
  EXPECT_EQ(test::read_file(dir.file("not-a-dir")), kOld);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"not-a-dir"});
}

TEST(OutputFiles, aReadOnlyFileSystemLeavesTheOldWorkbook) {
  Tmpfs fs_mount("size=1m");
  if (!fs_mount.mounted()) GTEST_SKIP() << "mount -t tmpfs is not permitted here";
  test::write_file(fs_mount.file("plan.xlsx"), kOld);
  ASSERT_TRUE(fs_mount.remount("ro"));
  const std::string workbook = fs_mount.file("plan.xlsx");
  const auto result = test::run(test::gputco_exe(), {"plan", example(), "-o", workbook});
  expect_write_failure(result, workbook, "Read-only file system");
  EXPECT_EQ(test::read_file(workbook), kOld);
  EXPECT_EQ(entries(fs_mount.path()), std::vector<std::string>{"plan.xlsx"});
  fs_mount.remount("rw");
}

TEST(OutputFiles, aFullDiskLeavesTheOldWorkbookAndNoTemporaryFile) {
  Tmpfs fs_mount("size=64k");
  if (!fs_mount.mounted()) GTEST_SKIP() << "mount -t tmpfs is not permitted here";
  const std::string workbook = fs_mount.file("plan.xlsx");
  test::write_file(workbook, kOld);
  // Fill the file system but for one page: far less than a workbook.
  test::run("/bin/sh",
            {"-c", "dd if=/dev/zero of=\"$0\" bs=4096 count=14", fs_mount.file("filler")});
  const auto result = test::run(test::gputco_exe(), {"plan", example(), "-o", workbook});
  expect_write_failure(result, workbook, "No space left on device");
  EXPECT_EQ(test::read_file(workbook), kOld);
  EXPECT_EQ(entries(fs_mount.path()), (std::vector<std::string>{"filler", "plan.xlsx"}));
}

TEST(OutputFiles, aFileSizeLimitLeavesTheOldWorkbookAndNoTemporaryFile) {
  // RLIMIT_FSIZE: every write past 8 KiB fails with EFBIG, like a disk filling up mid-write
  // (SIGXFSZ ignored, as a shell's trap does, so the write returns an error instead).
  test::TempDir dir;
  const std::string workbook = dir.file("plan.xlsx");
  test::write_file(workbook, kOld);
  const auto result =
      test::run("/bin/sh", {"-c", "trap '' XFSZ; ulimit -f 16; exec \"$0\" plan \"$1\" -o \"$2\"",
                            test::gputco_exe(), example(), workbook});
  expect_write_failure(result, workbook, "File too large");
  EXPECT_EQ(test::read_file(workbook), kOld);
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"plan.xlsx"});
}

TEST(OutputFiles, planNeverChangesTheCatalog) {
  test::TempDir dir;
  const std::string catalog = dir.file("catalog.sqlite");
  const auto built =
      test::run(test::catalog_build_exe(), {test::source_path("tests/data/catalog/good"), catalog});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const std::string before = test::read_file(catalog);
  const auto mtime = fs::last_write_time(catalog);
  test::write_file(dir.file("plan.ini"),
                   "[scenario]\nas_of = 2026-06-01\n[workload]\nmodel = llama-3.1-8b\n"
                   "quant = Q4_K_M\n[site]\ntariff = nl-business\n[option:own]\nkind = buy\n"
                   "gpu = rtx-3090\ncondition = used\n[option:cloud]\nkind = rent_hourly\n"
                   "gpu = h100-sxm\n");
  const auto result = test::run(test::gputco_exe(), {"plan", dir.file("plan.ini"), "--catalog",
                                                     catalog, "-o", dir.file("plan.xlsx")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(test::read_file(catalog), before);
  EXPECT_EQ(fs::last_write_time(catalog), mtime);
  EXPECT_EQ(entries(dir.path()),
            (std::vector<std::string>{"catalog.sqlite", "plan.ini", "plan.xlsx"}));
}

TEST(OutputFiles, theCatalogBuilderWritesNothingWhenItCannotWrite) {
  test::TempDir dir;
  test::write_file(dir.file("not-a-dir"), kOld);
  const auto result = test::run(
      test::catalog_build_exe(),
      {test::source_path("tests/data/catalog/good"), dir.file("not-a-dir/catalog.sqlite")});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.err.find(dir.file("not-a-dir/catalog.sqlite")), std::string::npos) << result.err;
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"not-a-dir"});
}

}  // namespace
}  // namespace gputco
