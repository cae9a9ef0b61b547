// Output files are replaced all at once or not at all.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

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

TEST(AtomicFile, aSymbolicLinkIsFollowedAndStaysALink) {
  // The report goes where the link points (a shared folder, say); the link is not replaced
  // by a regular file.
  const std::string dir = fresh_dir("atomic-link");
  fs::create_directory(dir + "/shared");
  put(dir + "/shared/tco.txt", "old");
  fs::create_symlink("shared/tco.txt", dir + "/link.txt");
  fs::create_symlink("link.txt", dir + "/link2.txt");  // a chain of two
  write_text_file_atomically(dir + "/link2.txt", "new");
  EXPECT_TRUE(fs::is_symlink(dir + "/link.txt"));
  EXPECT_TRUE(fs::is_symlink(dir + "/link2.txt"));
  EXPECT_EQ(read_bytes(dir + "/shared/tco.txt"), "new");
  EXPECT_EQ(entries(dir + "/shared"), 1u);  // no temporary file left
  // A loop is refused, naming the path.
  fs::create_symlink("loop-b", dir + "/loop-a");
  fs::create_symlink("loop-a", dir + "/loop-b");
  EXPECT_THROW(write_text_file_atomically(dir + "/loop-a", "x"), ReportError);
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
  // The target is a non-empty directory: rename(2) cannot replace it, whoever we are.
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

}  // namespace
}  // namespace gputco
