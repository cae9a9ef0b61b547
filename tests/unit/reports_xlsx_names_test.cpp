// Workbook defined names: valid in Excel and LibreOffice, unique ignoring case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/xlsx/names.hpp"

namespace gputco {
namespace {

TEST(DefinedName, acceptsPlainNames) {
  for (const char* name : {"tariff_per_kwh", "pue", "_x", "opt_rtx_3090_price_per_gpu", "a.b",
                           "RC1x", "ABCD1", "A1_"}) {
    EXPECT_TRUE(is_valid_defined_name(name)) << name;
  }
}

TEST(DefinedName, rejectsCellReferencesBooleansAndBadCharacters) {
  for (const char* name : {"", "A1", "xfd1048576", "XFE1", "R", "c", "R1C1", "rc", "R12", "TRUE",
                           "false", "1abc", ".x", "a b", "a-b", "é", "a=b"}) {
    EXPECT_FALSE(is_valid_defined_name(name)) << name;
  }
  EXPECT_FALSE(is_valid_defined_name(std::string(256, 'a')));
  EXPECT_TRUE(is_valid_defined_name(std::string(255, 'a')));
}

TEST(DefinedName, sanitisesAnythingIntoAValidName) {
  EXPECT_EQ(to_defined_name("opt_rtx-3090 x2"), "opt_rtx_3090_x2");
  EXPECT_EQ(to_defined_name("3090"), "_3090");
  EXPECT_EQ(to_defined_name("A1"), "_A1");
  EXPECT_EQ(to_defined_name("R1C1"), "_R1C1");
  EXPECT_EQ(to_defined_name("true"), "_true");
  EXPECT_EQ(to_defined_name(""), "_");
  EXPECT_EQ(to_defined_name("=SUM(A1)"), "_SUM_A1_");
  for (const std::string& text :
       std::vector<std::string>{"über", "a\nb", std::string(400, 'z'), std::string("\0x", 2)}) {
    EXPECT_TRUE(is_valid_defined_name(to_defined_name(text))) << to_defined_name(text);
  }
}

TEST(DefinedNames, claimsDistinctNamesIgnoringCase) {
  DefinedNames names;
  EXPECT_EQ(names.claim("opt_a-b"), "opt_a_b");
  EXPECT_EQ(names.claim("opt_a_b"), "opt_a_b_2");
  EXPECT_EQ(names.claim("OPT_A_B"), "OPT_A_B_3");
  EXPECT_TRUE(names.contains("Opt_A_B_2"));
  EXPECT_FALSE(names.contains("opt_a_b_4"));
  const std::string long_name(300, 'q');
  const std::string first = names.claim(long_name);
  const std::string second = names.claim(long_name);
  EXPECT_NE(first, second);
  EXPECT_TRUE(is_valid_defined_name(second)) << second;
}

}  // namespace
}  // namespace gputco
