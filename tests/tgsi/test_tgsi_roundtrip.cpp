/*
 * print_tgsi output re-parses to the same IR, and tgsi_dump-style text
 * prints back unchanged.
 */
#include <gtest/gtest.h>

#include "tgsi/tgsi_compare.h"
#include "tgsi/tgsi_ir.h"

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

TEST(TgsiRoundTrip, SimpleText)
{
   const char *text = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n";
   Diagnostics diags;
   auto s = parse_tgsi(text, "t", diags);
   ASSERT_TRUE(s) << diags.str();
   EXPECT_EQ(print_tgsi(*s), text);
}

} // namespace
