// Price books: concurrency and durability, two imports at once and an import killed inside its
// transaction.
#include "pricing/catalog_import.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "pricing/catalog_check.hpp"
#include "tests/unit/pricing_fixtures.hpp"
#include "tests/unit/pricing_import_fixtures.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;
using Problems = std::vector<std::string>;
using test::book_options;
using test::count_rows;
using test::kPriceHeader;
using test::write_file;

// A fresh directory for the current test (ctest runs tests as parallel processes).
fs::path test_dir() {
  return test::current_test_dir("import");
}

// ---- Concurrency and durability --------------------------------------------------------------

// Runs `body` in a child process; returns its pid. The child exits with body()'s value.
template <typename Body>
pid_t spawn(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    int code = 3;
    try {
      code = body();
    } catch (...) {
      code = 4;
    }
    _exit(code);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string generated_prices(int rows, const std::string& seller) {
  std::string csv = kPriceHeader;
  for (int i = 0; i < rows; ++i) {
    csv += "rtx-3090,used," + std::to_string(500 + i % 400) + ",USD,us," + seller + "-" +
           std::to_string(i) + ",2026-03-10,generated,\n";
  }
  return csv;
}

TEST(Concurrency, twoImportsAtOnceBothLand) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "user" / "catalog.sqlite").string();  // not there yet
  const std::string a = write_file(dir / "a.csv", generated_prices(2000, "a"));
  const std::string b = write_file(dir / "b.csv", generated_prices(2000, "b"));
  const pid_t first = spawn([&] {
    setenv("GPUTCO_FAULT_IMPORT_SLEEP_MS", "800", 1);  // hold the write lock a while
    return import_price_book(db, a, book_options("a")).inserted == 2000 ? 0 : 1;
  });
  const pid_t second =
      spawn([&] { return import_price_book(db, b, book_options("b")).inserted == 2000 ? 0 : 1; });
  EXPECT_EQ(wait_for(first), 0);
  EXPECT_EQ(wait_for(second), 0);
  EXPECT_EQ(count_rows(db, "price_observations"), 4000);
  EXPECT_EQ(catalog_file_problems(db), Problems{});
}

TEST(Durability, importKilledInsideItsTransactionLeavesTheDatabaseAsItWas) {
  const fs::path dir = test_dir();
  const std::string db = (dir / "catalog.sqlite").string();
  import_price_book(db, write_file(dir / "small.csv", generated_prices(10, "first")),
                    book_options());
  const std::string big = write_file(dir / "big.csv", generated_prices(20000, "big"));
  const std::string marker = (dir / "inside").string();
  const pid_t child = spawn([&] {
    setenv("GPUTCO_FAULT_IMPORT_SLEEP_MS", "60000", 1);
    setenv("GPUTCO_FAULT_IMPORT_MARKER", marker.c_str(), 1);
    import_price_book(db, big, book_options());
    return 0;
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(marker) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(fs::exists(marker)) << "the import never reached its transaction";
  kill(child, SIGKILL);
  EXPECT_EQ(wait_for(child), 128 + SIGKILL);
  EXPECT_EQ(catalog_file_problems(db), Problems{});
  EXPECT_EQ(count_rows(db, "price_observations"), 10);
  // And the database takes the same import afterwards.
  EXPECT_EQ(import_price_book(db, big, book_options()).inserted, 20000);
}

}  // namespace
}  // namespace gputco
