// The plan's terminal tables keep their columns when an option label is longer than the 16
// characters the option column always had (issue #42 item 4: a 35-character label pushed every
// figure of its row right of its header).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/support/paths.hpp"
#include "tests/support/process.hpp"

namespace gputco {
namespace {

/// The lines of `text` that start with `prefix`, less the rentals' "LABEL billing: ..." notes.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0 && line.find(" billing: ") == std::string::npos) {
      out.push_back(line);
    }
  }
  return out;
}

TEST(TextColumns, aLongOptionLabelWidensItsColumnAndKeepsTheFiguresUnderTheirHeaders) {
  test::TempDir dir;
  const std::string label = "buy-two-used-rtx-3090-in-the-office";  // 35 characters
  test::write_file(dir.file("s.ini"),
                   "[scenario]\nas_of = 2026-11-01\ncurrency = USD\n[workload]\n"
                   "model = llama-3.1-8b\nquant = Q4_K_M\n[site]\ntariff_per_kwh = 0.2\n"
                   "[option:" +
                       label +
                       "]\nkind = buy\ngpu = rtx-3090\ncondition = used\n"
                       "[option:cloud]\nkind = rent_hourly\ngpu = h100-sxm\n"
                       "rate_per_gpu_hour = 2.5\n");
  const auto r = test::run(test::gputco_exe(), {"plan", dir.file("s.ini"), "--no-workbook"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The three tables headed "option" (costs, variants, energy): each row's right-aligned last
  // column ends where its header's does, the long label's row and the short one's alike.
  const auto headers = lines_starting(r.out, "option ");
  ASSERT_EQ(headers.size(), 3u) << r.out;
  const auto long_rows = lines_starting(r.out, label + " ");
  const auto short_rows = lines_starting(r.out, "cloud ");
  ASSERT_EQ(long_rows.size(), 3u) << r.out;
  ASSERT_EQ(short_rows.size(), 3u) << r.out;
  for (size_t t = 0; t < 3; ++t) {
    EXPECT_EQ(long_rows[t].size(), headers[t].size()) << headers[t] << "\n" << long_rows[t];
    EXPECT_EQ(short_rows[t].size(), headers[t].size()) << headers[t] << "\n" << short_rows[t];
    // The second column's header starts after the label and its separating space (right
    // after it when left-aligned, further right when right-aligned).
    EXPECT_GE(headers[t].find_first_not_of(' ', 6), label.size() + 1) << headers[t];
  }
}

}  // namespace
}  // namespace gputco
