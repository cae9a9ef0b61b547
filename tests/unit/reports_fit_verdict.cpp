// The comparison's one-line verdict: margins named, fits stated, prices with their condition.
#include <gtest/gtest.h>

#include "reports/fit_report.hpp"

namespace gputco {
namespace {

FinderRow row(const std::string& id, Verdict verdict) {
  FinderRow r;
  r.result.device.id = id;
  r.result.fit.verdict = verdict;
  return r;
}

TEST(FitReportVerdict, namesSpeedFitAndPriceMargins) {
  DeviceComparison c;
  c.a = row("rtx-5090", Verdict::fits);
  c.b = row("rtx-3090", Verdict::fits);
  c.faster_by = 0.514;
  c.faster_id = "rtx-5090";
  c.cheaper_by = 0.6248;
  c.cheaper_id = "rtx-3090";
  c.price_condition_a = "used";
  c.price_condition_b = "used";
  EXPECT_EQ(compare_verdict(c),
            "rtx-5090 decodes 51 % faster; both fit; rtx-3090 costs 62 % less used");
  c.price_condition_a = "new";
  c.b.result.fit.verdict = Verdict::tight;
  EXPECT_EQ(compare_verdict(c),
            "rtx-5090 decodes 51 % faster; both fit (rtx-3090 tightly); rtx-3090 costs 62 % less "
            "(rtx-5090 new vs rtx-3090 used)");
}

TEST(FitReportVerdict, withoutSpeedOrPrices) {
  DeviceComparison c;
  c.a = row("h100-sxm", Verdict::fits);
  c.b = row("t4", Verdict::does_not_fit);
  EXPECT_EQ(compare_verdict(c), "only h100-sxm fits; no comparable prices");
  c.a.result.fit.verdict = Verdict::does_not_fit;
  EXPECT_EQ(compare_verdict(c), "neither fits; no comparable prices");
}

}  // namespace
}  // namespace gputco
