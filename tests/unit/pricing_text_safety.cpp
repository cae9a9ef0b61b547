// The text rules every reader and writer shares (issue 20): one grammar of typed numbers,
// inputs read as regular files or standard input with a size cap, control and invisible
// characters made visible, CSV text cells guarded against formulas and read back exactly.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "pricing/csv_table.hpp"
#include "pricing/input_file.hpp"
#include "pricing/number_text.hpp"
#include "pricing/visible_text.hpp"

namespace gputco {
namespace {

namespace fs = std::filesystem;

TEST(NumberText, acceptsTheOneGrammar) {
  const std::pair<const char*, double> good[] = {
      {"0.08", 0.08}, {"-0.08", -0.08}, {"+0.08", 0.08},   {".5", 0.5},   {"5.", 5.0},
      {"1e5", 1e5},   {"1E-3", 1e-3},   {"-2.5e+2", -250}, {"00012", 12}, {"-0", 0.0}};
  for (const auto& [text, value] : good) {
    const auto parsed = parse_number_text(text);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(*parsed, value) << text;
    EXPECT_FALSE(std::signbit(*parse_number_text("-0"))) << "-0 reads as 0";
  }
}

TEST(NumberText, refusesEverythingElse) {
  for (const char* text :
       {"+-0.08",   "-+1",   "--1", "++1",   "0x10",  "0x1p3",  "inf", "-inf", "nan",
        "Infinity", "1e",    "1e+", ".",     "-",     "",       " 1",  "1 ",   "1,5",
        "1_000",    "1.2.3", "e5",  "1e5.5", "1e999", "-1e999", "٣"}) {
    EXPECT_FALSE(parse_number_text(text).has_value()) << "'" << text << "'";
  }
}

TEST(NumberText, tooSmallForADoubleReadsAsTheSmallestOfItsSign) {
  // 1e-400 underflows; it must not read as 0, which a key that refuses tiny values accepts.
  EXPECT_EQ(*parse_number_text("1e-400"), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(*parse_number_text("-1e-400"), -std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(*parse_number_text("1e-320"), 1e-320);  // subnormal: as it is
  EXPECT_EQ(*parse_number_text("0e-400"), 0.0);
}

TEST(NumberText, namesNonFiniteWords) {
  for (const char* text : {"inf", "-inf", "+INF", "Infinity", "nan", "NaN", "nan(0x1)"}) {
    EXPECT_TRUE(names_non_finite(text)) << text;
  }
  for (const char* text : {"1", "info", "banana", ""}) EXPECT_FALSE(names_non_finite(text)) << text;
}

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gputco-input-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(InputFile, readsARegularFileWhole) {
  std::ofstream(file("a.ini")) << "[scenario]\n";
  EXPECT_EQ(read_input_file(file("a.ini"), 100, "scenario file"), "[scenario]\n");
}

TEST_F(InputFile, refusesAFileOverTheLimitBeforeReadingIt) {
  std::ofstream(file("big.ini")) << std::string(2048, 'x');
  try {
    read_input_file(file("big.ini"), 1024, "scenario file");
    FAIL() << "no InputFileError";
  } catch (const InputFileError& e) {
    EXPECT_STREQ(e.what(), "is larger than the limit of 1 KiB (2 KiB)");
  }
}

TEST_F(InputFile, refusesADirectoryAFifoAndADeviceAtOnce) {
  fs::create_directory(file("d.ini"));
  EXPECT_THROW(
      {
        try {
          read_input_file(file("d.ini"), 100, "scenario file");
        } catch (const InputFileError& e) {
          EXPECT_STREQ(e.what(), "this is a directory, not a scenario file");
          throw;
        }
      },
      InputFileError);
  // A FIFO without a writer would block an ordinary open(2) for ever.
  ASSERT_EQ(::mkfifo(file("f.ini").c_str(), 0600), 0);
  try {
    read_input_file(file("f.ini"), 100, "scenario file");
    FAIL() << "no InputFileError";
  } catch (const InputFileError& e) {
    EXPECT_STREQ(e.what(), "not a regular file (a FIFO); give a file, or - for standard input");
  }
  // /dev/zero never ends: refused before a byte is read.
  try {
    read_input_file("/dev/zero", std::size_t{1} << 30, "scenario file");
    FAIL() << "no InputFileError";
  } catch (const InputFileError& e) {
    EXPECT_STREQ(e.what(),
                 "not a regular file (a character device); give a file, or - for standard input");
  }
}

TEST_F(InputFile, aMissingFileSaysSo) {
  try {
    read_input_file(file("none.ini"), 100, "scenario file");
    FAIL() << "no InputFileError";
  } catch (const InputFileError& e) {
    EXPECT_STREQ(e.what(), "cannot open the file (does it exist?)");
  }
}

TEST(ByteSizeText, namesTheLimitAsPeopleReadIt) {
  EXPECT_EQ(byte_size_text(16u << 20), "16 MiB");
  EXPECT_EQ(byte_size_text(256u << 20), "256 MiB");
  EXPECT_EQ(byte_size_text(2048), "2 KiB");
  EXPECT_EQ(byte_size_text(12), "12 bytes");
}

TEST(VisibleText, showsControlAndInvisibleCharactersAsEscapes) {
  EXPECT_EQ(visible_text("plain text, ümlauts and 💡"), "plain text, ümlauts and 💡");
  EXPECT_EQ(visible_text("\x1b[31mred\x1b[0m"), "\\x1B[31mred\\x1B[0m");
  EXPECT_EQ(visible_text("a\rb\tc\nd"), "a\\rb\\tc\\nd");
  EXPECT_EQ(visible_text(std::string_view("nul\0!", 5)), "nul\\x00!");
  EXPECT_EQ(visible_text("\x7f"), "\\x7F");
  EXPECT_EQ(visible_text("\xc2\x9b"
                         "2J"),
            "\\u009B2J");  // C1 CSI
  EXPECT_EQ(visible_text("abc\xe2\x80\xae"
                         "fdp.exe"),
            "abc\\u202Efdp.exe");  // RTL override
  EXPECT_EQ(visible_text("a\xc2\xa0"
                         "b\xe2\x80\x8b"
                         "c"),
            "a\\u00A0b\\u200Bc");
  EXPECT_EQ(visible_text("bad \xff byte"), "bad \\xFF byte");
}

TEST(VisibleText, keepsTheLinesOfAReport) {
  EXPECT_EQ(visible_text("one\r\ntwo\nthree\rfour", true), "one\r\ntwo\nthree\\rfour");
}

TEST(VisibleText, findsTheFirstControlCharacterAndNamesIt) {
  EXPECT_EQ(first_control_character("rtx-3090"), std::string::npos);
  EXPECT_EQ(first_control_character("rtx\t3090"), 3u);
  EXPECT_EQ(first_control_character("note\nline\ttab", "\n\t"), std::string::npos);
  EXPECT_EQ(first_control_character("ok \xc2\x85"), 3u);  // C1 NEL
  EXPECT_EQ(code_point_name("ab\x1b", 2), "U+001B");
  EXPECT_EQ(code_point_name("ok \xc2\x85", 3), "U+0085");
}

TEST(CsvTextField, guardsFormulaLikeTextCellsAndReadsThemBackExactly) {
  // OWASP CSV injection: each of these would be evaluated by a spreadsheet.
  const std::pair<const char*, const char*> cases[] = {
      {"=1+1", "'=1+1"},
      {"+seller", "'+seller"},
      {"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
      {"@SUM(A1)", "'@SUM(A1)"},
      {"\tx", "'\tx"},
      {"\rx", "\"'\rx\""},
      {"-A1", "'-A1"},
      {"'=already", "''=already"},  // a leading apostrophe that could be ours is doubled
      {"''", "'''"},
      {"plain, text", "\"plain, text\""},
      {"it's fine", "it's fine"},
      {"'quoted'", "'quoted'"}};
  for (const auto& [text, field] : cases) {
    EXPECT_EQ(csv_text_field(text), field) << text;
    const CsvTable back = parse_csv(std::string("h\n") + csv_text_field(text) + "\n", "x.csv");
    ASSERT_EQ(back.rows.size(), 1u) << text;
    EXPECT_EQ(csv_text_value(back.rows[0].fields[0]), text) << "round trip of " << text;
  }
  // A number we format is a number: csv_number_field leaves "-2.5" as it is.
  EXPECT_EQ(csv_number_field("-2.5"), "-2.5");
}

TEST(LfLineEnds, aWindowsFileIsTheSameText) {
  EXPECT_EQ(lf_line_ends("a\r\nb\rc\nd"), "a\nb\nc\nd");
  EXPECT_EQ(lf_line_ends("no breaks"), "no breaks");
}

}  // namespace
}  // namespace gputco
