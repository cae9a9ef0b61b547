// Output files are replaced all at once or not at all.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "reports/atomic_file.hpp"
#include "tests/unit/reports_xlsx_fixture.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using test::fresh_dir;
using test::read_bytes;

void put(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

size_t entries(const std::string& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(AtomicFile, writesANewFile) {
  const std::string dir = fresh_dir("atomic-new");
  write_text_file_atomically(dir + "/out.txt", "hello\n");
  EXPECT_EQ(read_bytes(dir + "/out.txt"), "hello\n");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, replacesAnExistingFileAndKeepsItsPermissions) {
  const std::string dir = fresh_dir("atomic-replace");
  const std::string path = dir + "/out.txt";
  put(path, "old");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  write_text_file_atomically(path, "new");
  EXPECT_EQ(read_bytes(path), "new");
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, aSymbolicLinkIsReplacedAndWhatItPointsToIsLeftAlone) {
  // O_NOFOLLOW semantics on the last component (issue 20): a link named as the output, even
  // one planted by someone else, never redirects the write to its target.
  const std::string dir = fresh_dir("atomic-link");
  fs::create_directory(dir + "/shared");
  put(dir + "/shared/tco.txt", "precious");
  fs::create_symlink("shared/tco.txt", dir + "/link.txt");
  write_text_file_atomically(dir + "/link.txt", "new");
  EXPECT_FALSE(fs::is_symlink(dir + "/link.txt"));
  EXPECT_EQ(read_bytes(dir + "/link.txt"), "new");
  EXPECT_EQ(read_bytes(dir + "/shared/tco.txt"), "precious");
  EXPECT_EQ(entries(dir + "/shared"), 1u);
  // A dangling link and a loop are replaced the same way: nothing is followed.
  fs::create_symlink("nowhere/at/all", dir + "/dangling.txt");
  write_text_file_atomically(dir + "/dangling.txt", "x");
  EXPECT_EQ(read_bytes(dir + "/dangling.txt"), "x");
  EXPECT_FALSE(fs::exists(dir + "/nowhere"));
  fs::create_symlink("loop-b", dir + "/loop-a");
  fs::create_symlink("loop-a", dir + "/loop-b");
  write_text_file_atomically(dir + "/loop-a", "y");
  EXPECT_EQ(read_bytes(dir + "/loop-a"), "y");
  EXPECT_TRUE(fs::is_symlink(dir + "/loop-b"));
}

TEST(AtomicFile, aDirectoryAFifoOrADeviceIsRefusedNotReplaced) {
  const std::string dir = fresh_dir("atomic-special");
  fs::create_directory(dir + "/folder");
  ASSERT_EQ(::mkfifo((dir + "/pipe").c_str(), 0600), 0);
  const std::pair<std::string, std::string> cases[] = {
      {dir + "/folder", "it is a directory, not a regular file"},
      {dir + "/pipe", "it is a FIFO (named pipe), not a regular file"},
      {"/dev/null", "it is a character device, not a regular file"}};
  for (const auto& [path, reason] : cases) {
    try {
      write_text_file_atomically(path, "x");
      FAIL() << "no OutputRefused for " << path;
    } catch (const OutputRefused& e) {
      EXPECT_EQ(e.path(), path);
      EXPECT_EQ(e.reason().rfind(reason, 0), 0u) << e.reason();
    }
  }
  EXPECT_TRUE(fs::is_directory(dir + "/folder"));
  EXPECT_TRUE(fs::is_fifo(dir + "/pipe"));
  EXPECT_EQ(entries(dir), 2u) << "no temporary file left";
}

TEST(AtomicFile, anOutputThatIsAnInputIsRefusedWhateverItsSpelling) {
  const std::string dir = fresh_dir("atomic-inputs");
  put(dir + "/plan.ini", "[scenario]");
  fs::create_directory(dir + "/sub");
  fs::create_hard_link(dir + "/plan.ini", dir + "/hard.xlsx");
  fs::create_symlink("plan.ini", dir + "/soft.xlsx");
  const std::vector<CommandInput> inputs = {{"the scenario", dir + "/plan.ini"}};
  for (const std::string& output :
       {dir + "/plan.ini", dir + "/sub/../plan.ini", dir + "/hard.xlsx", dir + "/soft.xlsx"}) {
    try {
      check_output_path(output, inputs);
      FAIL() << "no OutputRefused for " << output;
    } catch (const OutputRefused& e) {
      EXPECT_NE(e.reason().find("the scenario (" + dir + "/plan.ini), an input of this command"),
                std::string::npos)
          << e.reason();
    }
  }
  // A new file, another file and standard input as an input are fine.
  EXPECT_NO_THROW(check_output_path(dir + "/new.xlsx", inputs));
  put(dir + "/old.xlsx", "yesterday");
  EXPECT_NO_THROW(check_output_path(dir + "/old.xlsx", inputs));
  EXPECT_NO_THROW(check_output_path(dir + "/old.xlsx", {{"the scenario", "-"}}));
  EXPECT_EQ(read_bytes(dir + "/plan.ini"), "[scenario]");
}

TEST(AtomicFile, theWriterSeesATempFileInTheSameDirectory) {
  const std::string dir = fresh_dir("atomic-temp");
  std::string seen;
  write_file_atomically(dir + "/out.xlsx", [&](const std::string& temp) {
    seen = temp;
    EXPECT_TRUE(fs::exists(temp));
    put(temp, "content");
  });
  EXPECT_EQ(fs::path(seen).parent_path(), fs::path(dir));
  EXPECT_NE(seen, dir + "/out.xlsx");
  EXPECT_FALSE(fs::exists(seen));
  EXPECT_EQ(read_bytes(dir + "/out.xlsx"), "content");
}

TEST(AtomicFile, aFailingWriterLeavesTheTargetUntouchedAndNoTempBehind) {
  const std::string dir = fresh_dir("atomic-fail");
  const std::string path = dir + "/out.txt";
  put(path, "precious");
  EXPECT_THROW(write_file_atomically(path,
                                     [](const std::string& temp) {
                                       put(temp, "half a fi");
                                       throw std::runtime_error("simulated failure");
                                     }),
               std::runtime_error);
  EXPECT_EQ(read_bytes(path), "precious");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, aFailedRenameLeavesTheTargetUntouchedAndNoTempBehind) {
  // The target is a non-empty directory: refused before the rename (which could not replace
  // it either, whoever we are).
  const std::string dir = fresh_dir("atomic-rename");
  const std::string path = dir + "/out";
  fs::create_directory(path);
  put(path + "/keep.txt", "precious");
  try {
    write_text_file_atomically(path, "new");
    FAIL() << "no ReportError";
  } catch (const ReportError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_EQ(std::string(e.what()).rfind("cannot write " + path + ": ", 0), 0u) << e.what();
  }
  EXPECT_EQ(read_bytes(path + "/keep.txt"), "precious");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, anUnwritableDirectoryThrowsAndLeavesTheTargetUntouched) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only directories";
  const std::string dir = fresh_dir("atomic-readonly");
  const std::string path = dir + "/out.txt";
  put(path, "precious");
  ASSERT_EQ(::chmod(dir.c_str(), 0555), 0);
  EXPECT_THROW(write_text_file_atomically(path, "new"), ReportError);
  ::chmod(dir.c_str(), 0755);
  EXPECT_EQ(read_bytes(path), "precious");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, aMissingDirectoryThrowsReportErrorNamingThePath) {
  const std::string path = fresh_dir("atomic-missing") + "/no/such/out.txt";
  try {
    write_text_file_atomically(path, "x");
    FAIL() << "no ReportError";
  } catch (const ReportError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_NE(e.reason().find("No such file or directory"), std::string::npos) << e.reason();
  }
}

TEST(AtomicFile, aStagedFileReplacesTheTargetOnlyWhenCommitted) {
  // Two steps, for a command that writes files and standard output: the target keeps its old
  // bytes while the new ones wait, complete, in the temporary file.
  const std::string dir = fresh_dir("atomic-staged");
  const std::string path = dir + "/out.txt";
  put(path, "old");
  {
    StagedFile staged = stage_text_file(path, "new");
    EXPECT_EQ(staged.path(), path);
    EXPECT_EQ(read_bytes(path), "old");
    EXPECT_EQ(entries(dir), 2u);  // out.txt and the temporary file
    StagedFile moved = std::move(staged);
    EXPECT_EQ(entries(dir), 2u);
    moved.commit();
    EXPECT_EQ(read_bytes(path), "new");
    EXPECT_EQ(entries(dir), 1u);
    EXPECT_THROW(moved.commit(), std::logic_error);
    EXPECT_THROW(staged.commit(), std::logic_error);  // moved from
  }
  EXPECT_EQ(read_bytes(path), "new");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, aStagedFileNeverCommittedIsRemovedAndTheTargetKept) {
  const std::string dir = fresh_dir("atomic-staged-dropped");
  const std::string path = dir + "/out.txt";
  put(path, "old");
  try {
    StagedFile staged = stage_text_file(path, "new");
    throw std::runtime_error("standard output failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(read_bytes(path), "old");
  EXPECT_EQ(entries(dir), 1u);
  // Nor is a new file created.
  { StagedFile dropped = stage_text_file(dir + "/new.txt", "x"); }
  EXPECT_FALSE(fs::exists(dir + "/new.txt"));
  EXPECT_EQ(entries(dir), 1u);
}

}  // namespace
}  // namespace gputco
