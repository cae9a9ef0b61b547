#include "reports/text_table.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gputco {
namespace {

TEST(TextTable, columnsAreAsWideAsTheirWidestCell) {
  TextTable table({{"option", TextAlign::left}, {"total cost", TextAlign::right}});
  table.add_row({"rent-h100", "13,189"});
  // A label of 30 characters widens its column instead of pushing the next one out of line.
  table.add_row({"buy-two-used-rtx-3090-in-office", "123,456,789"});
  EXPECT_EQ(table.render(),
            "option                           total cost\n"
            "rent-h100                            13,189\n"
            "buy-two-used-rtx-3090-in-office 123,456,789\n");
}

TEST(TextTable, aMinimumWidthHoldsUntilACellIsLonger) {
  // The plan's option column: 16 wide as it always was, 20 for a 20-character label.
  TextTable table({{"option", TextAlign::left, 16}, {"NPV", TextAlign::right, 6}});
  table.add_row({"rent-h100", "9,876"});
  EXPECT_EQ(table.render(),
            "option              NPV\n"
            "rent-h100         9,876\n");
  table.add_row({"colo-2xh100-in-fra-1", "1"});
  EXPECT_EQ(table.render(),
            "option                  NPV\n"
            "rent-h100             9,876\n"
            "colo-2xh100-in-fra-1      1\n");
}

TEST(TextTable, countsCodePointsNotBytes) {
  // "→" is 3 bytes and one column; "€" likewise.
  EXPECT_EQ(TextTable::display_width("a \xE2\x86\x92 b"), 5u);
  TextTable table({{"change", TextAlign::left}, {"EUR", TextAlign::right}});
  table.add_row({"a \xE2\x86\x92 b",
                 "\xE2\x82\xAC"
                 "5"});
  EXPECT_EQ(table.render(),
            "change EUR\n"
            "a \xE2\x86\x92 b   \xE2\x82\xAC"
            "5\n");
}

TEST(TextTable, wideCharactersTakeTwoColumns) {
  // "日本" is two East Asian Wide code points (U+65E5, U+672C, 3 bytes each): 4 columns, as a
  // terminal draws them (a newcomer's CJK label pushed its row 7 columns past the header);
  // "ä" (U+00E4) one; U+1F600 (4 bytes) two.
  EXPECT_EQ(TextTable::display_width("\xE6\x97\xA5\xE6\x9C\xAC"), 4u);
  EXPECT_EQ(TextTable::display_width("\xC3\xA4"), 1u);
  EXPECT_EQ(TextTable::display_width("\xF0\x9F\x98\x80!"), 3u);
  TextTable table({{"option", TextAlign::left}, {"cost", TextAlign::right}});
  table.add_row({"\xE6\x97\xA5\xE6\x9C\xAC", "12"});
  table.add_row({"abcdefg", "3"});
  // The column is 7 wide (abcdefg): the wide label pads with 3 spaces, not 5.
  EXPECT_EQ(table.render(),
            "option  cost\n"
            "\xE6\x97\xA5\xE6\x9C\xAC      12\n"
            "abcdefg    3\n");
}

TEST(TextTable, shortRowsArePaddedAndNoLineEndsInSpaces) {
  TextTable table({{"a", TextAlign::left}, {"b", TextAlign::left}});
  table.add_row({"x"});
  EXPECT_EQ(table.render(), "a b\nx\n");
}

TEST(TextTable, refusesMoreCellsThanColumnsAndNoColumns) {
  TextTable table({{"a", TextAlign::left}});
  EXPECT_THROW(table.add_row({"1", "2"}), std::invalid_argument);
  EXPECT_THROW(TextTable({}), std::invalid_argument);
}

}  // namespace
}  // namespace gputco
