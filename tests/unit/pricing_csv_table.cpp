#include "pricing/csv_table.hpp"

#include <gtest/gtest.h>

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

TEST(CsvTable, throwsForMissingFile) {
  EXPECT_THROW(read_csv_file("/nonexistent/gputco/x.csv"), CatalogError);
}

}  // namespace
}  // namespace gputco
