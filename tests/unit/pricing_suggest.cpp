// Suggestions for mistyped ids and keys (pricing/suggest.hpp): the optimal string alignment
// distance and the nearest candidate.
#include "pricing/suggest.hpp"

#include <gtest/gtest.h>

#include "pricing/catalog.hpp"

namespace gputco {
namespace {

TEST(EditDistance, countsInsertionsDeletionsSubstitutionsAndSwapsAsOne) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);               // three deletions
  EXPECT_EQ(edit_distance("", "abc"), 3u);               // three insertions
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);     // k->s, e->i, +g (Levenshtein's example)
  EXPECT_EQ(edit_distance("ab", "ba"), 1u);              // one swap (Levenshtein: 2)
  EXPECT_EQ(edit_distance("rtx-3900", "rtx-3090"), 1u);  // "90" <-> "09"
  EXPECT_EQ(edit_distance("rtx-3900", "rtx-3070"), 2u);  // 9->0, 0->7
  // Optimal string alignment edits no substring twice: "ca" -> "abc" is 3 (true
  // Damerau-Levenshtein: 2, swap then insert between the swapped letters).
  EXPECT_EQ(edit_distance("ca", "abc"), 3u);
  EXPECT_EQ(edit_distance("hours_per_dya", "hours_per_day"), 1u);
  EXPECT_EQ(edit_distance("ABC", "abc"), 3u);  // case-sensitive; nearest() lowers both
}

TEST(Nearest, findsLikelyTyposOnly) {
  EXPECT_EQ(nearest("rtx3090", {"rtx-3090", "rtx-4090", "h100-sxm"}), "rtx-3090");
  EXPECT_EQ(nearest("3090", {"rtx-3090", "rtx-4090", "h100-sxm"}), "rtx-3090");
  EXPECT_EQ(nearest("q4_k_m", {"Q4_K_M", "Q8_0"}), "Q4_K_M");
  EXPECT_EQ(nearest("banana", {"rtx-3090", "h100-sxm"}), "");
  // A swap of two characters is one step: 3090, not 3070 (listed first).
  EXPECT_EQ(nearest("rtx-3900", {"rtx-3070", "rtx-3090"}), "rtx-3090");
  // The limit: max(2, |word| / 3); "abcdef" -> "badcfe" is three swaps (3 > 2).
  EXPECT_EQ(nearest("abcdef", {"badcfe"}), "");
  EXPECT_EQ(nearest("abcdef", {"bacdfe"}), "bacdfe");  // two swaps
  // Containment counts as one step, and the true distance breaks the tie.
  EXPECT_EQ(nearest("tarif", {"tariff_per_kwh", "tariff"}), "tariff");
  // Separators left out: Q4_K_M, not Q4_0 (both two edits away, Q4_0 listed first); a word
  // that begins a candidate without them is one step ("Q3" had no suggestion).
  EXPECT_EQ(nearest("Q4KM", {"Q4_0", "Q4_K_M"}), "Q4_K_M");
  EXPECT_EQ(nearest("Q3", {"Q4_K_M", "Q3_K_M"}), "Q3_K_M");
  EXPECT_EQ(nearest("Q9", {"Q4_K_M", "Q3_K_M"}), "");
}

TEST(Nearest, theBuiltInCatalogSuggestsTheSwappedDevice) {
  // The typo of issue #18: with Levenshtein, rtx-3070 (2) tied rtx-3090 (2) and came first.
  std::vector<std::string> ids;
  for (const auto& d : Catalog::open_builtin().devices()) ids.push_back(d.id);
  ASSERT_NE(std::find(ids.begin(), ids.end(), "rtx-3070"), ids.end());
  EXPECT_EQ(nearest("rtx-3900", ids), "rtx-3090");
  EXPECT_EQ(did_you_mean("rtx-3900", ids), "; did you mean 'rtx-3090'?");
  EXPECT_EQ(did_you_mean("banana-split", ids), "");
  // The short names people type: each suggested a different card by one edit (p100, a10,
  // rtx-3070) over the cards that hold the name.
  EXPECT_EQ(nearest("h100", ids).rfind("h100-", 0), 0u) << nearest("h100", ids);
  EXPECT_EQ(nearest("a100", ids).rfind("a100-", 0), 0u) << nearest("a100", ids);
  EXPECT_EQ(nearest("rtx-3060", ids).rfind("rtx-3060-", 0), 0u) << nearest("rtx-3060", ids);
}

}  // namespace
}  // namespace gputco
