#include "pricing/csv_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pricing/catalog.hpp"

namespace gputco {
namespace {

TEST(CsvTable, skipsByteOrderMarkAndAcceptsCrlf) {
  const CsvTable t = parse_csv("\xEF\xBB\xBFid,amount\r\na,1.5\r\nb,2\r\n", "x.csv");
  ASSERT_EQ(t.header, (std::vector<std::string>{"id", "amount"}));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].fields, (std::vector<std::string>{"a", "1.5"}));
  EXPECT_EQ(t.rows[0].line, 2);
  EXPECT_EQ(t.rows[1].line, 3);
  EXPECT_EQ(t.column("amount"), 1u);
  EXPECT_FALSE(t.column("Amount").has_value());
}

TEST(CsvTable, keepsLineOfRecordStartAcrossQuotedLineBreaks) {
  const CsvTable t = parse_csv("id,note\na,\"two\nlines, and \"\"quotes\"\"\"\n\nb,x", "x.csv");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].line, 2);
  EXPECT_EQ(t.rows[0].fields[1], "two\nlines, and \"quotes\"");
  EXPECT_EQ(t.rows[1].line, 5);  // after a blank line, without a final line break
  EXPECT_EQ(t.rows[1].fields[1], "x");
}

TEST(CsvTable, keepsSpacesAndEmptyFields) {
  const CsvTable t = parse_csv("a,b,c\n 1 ,,\n", "x.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].fields, (std::vector<std::string>{" 1 ", "", ""}));
}

TEST(CsvTable, reportsUnterminatedQuoteWithItsLine) {
  try {
    parse_csv("a,b\n1,2\n3,\"open\n\n", "x.csv");
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& e) {
    EXPECT_STREQ(e.what(),
                 "x.csv:3: csv: malformed CSV: quoted field not closed before the end of the file");
  }
}

TEST(CsvTable, reportsStrayQuoteWithItsLine) {
  try {
    parse_csv("a,b\n1,2\n3,4\"5\n", "x.csv");
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& e) {
    EXPECT_STREQ(e.what(),
                 "x.csv:3: csv: malformed CSV: a quote inside an unquoted field, or text after a "
                 "closing quote");
  }
}

// The text every reader writes after "FILE:LINE: row: " (tests/data/bad/csv/EXPECTED has one).
TEST(CsvTable, rowWidthProblemNamesBothCounts) {
  EXPECT_FALSE(row_width_problem(9, 9).has_value());
  EXPECT_EQ(row_width_problem(8, 9), "8 fields, but the header has 9");
  EXPECT_EQ(row_width_problem(10, 9), "10 fields, but the header has 9");
}

TEST(CsvTable, throwsForMissingFile) {
  EXPECT_THROW(read_csv_file("/nonexistent/gputco/x.csv"), CatalogError);
}

// A text served to a CsvReader; `at` counts the bytes the reader has taken.
struct CountingSource {
  std::string text;
  std::size_t at = 0;
  std::size_t served() const { return at; }
};

std::string numbered_rows(int rows) {
  std::string text = "id,value\n";
  for (int i = 0; i < rows; ++i) text += "r" + std::to_string(i) + ",x\n";
  return text;
}

// Issue 20 (flat memory): the reader holds one chunk, never the file. Structural, not timed:
// after each record, the bytes taken from the source are at most the bytes of the records read
// so far plus one chunk (kCsvChunkBytes); a reader that read the whole file first would have
// taken all 889 kB before the first record.
TEST(CsvReader, readsAheadAtMostOneChunkWhateverTheFileSize) {
  CountingSource source{numbered_rows(100000), 0};  // 888,899 bytes: 14 chunks
  CsvReader reader("x.csv", [&source](char* buffer, std::size_t size) {
    const std::size_t n = std::min(size, source.text.size() - source.at);
    std::copy_n(source.text.data() + source.at, n, buffer);
    source.at += n;
    return n;
  });
  CsvRow row;
  ASSERT_TRUE(reader.next(row));
  EXPECT_EQ(row.fields, (std::vector<std::string>{"id", "value"}));
  EXPECT_EQ(source.served(), kCsvChunkBytes);
  std::size_t consumed = 9;  // "id,value\n"
  int rows = 0;
  std::size_t most_ahead = 0;
  while (reader.next(row)) {
    consumed += row.fields[0].size() + 3;  // ",x\n"
    ASSERT_EQ(row.line, rows + 2);
    ++rows;
    most_ahead = std::max(most_ahead, source.served() - consumed);
  }
  EXPECT_EQ(rows, 100000);
  EXPECT_EQ(consumed, source.text.size());
  EXPECT_LE(most_ahead, kCsvChunkBytes);
}

// A character cut by a chunk's end is whole again; a bad byte in a later chunk is named with
// its line, as parse_csv names it in a whole text.
TEST(CsvReader, utf8AcrossChunksAndBadBytesLaterInTheFile) {
  // Line 2 is long enough that "é" (2 bytes) straddles the first chunk's end.
  std::string text = "id,note\n";
  text += "a," + std::string(kCsvChunkBytes - text.size() - 3, 'x') + "\xC3\xA9\n";
  text += "b,y\n";
  const CsvTable t = parse_csv(text, "x.csv");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].fields[1].substr(t.rows[0].fields[1].size() - 2), "\xC3\xA9");
  EXPECT_EQ(t.rows[1].line, 3);
  try {
    parse_csv(text + "c,\xE9t\xE9\n", "x.csv");  // Latin-1 on line 4, in the second chunk
    FAIL() << "expected CatalogError";
  } catch (const CatalogError& e) {
    EXPECT_STREQ(e.what(), "x.csv:4: csv: not UTF-8 text (byte 0xE9); save the file as CSV UTF-8");
  }
}

}  // namespace
}  // namespace gputco
