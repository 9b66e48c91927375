/*
 * Malformed TGSI: each input yields exactly the expected diagnostic.
 */
#include <gtest/gtest.h>

#include "tgsi/tgsi_ir.h"

using namespace sbcc;
using namespace sbcc::tgsi;

namespace {

std::string parse_err(std::string_view text)
{
   Diagnostics diags;
   auto s = parse_tgsi(text, "foo.tgsi", diags);
   EXPECT_FALSE(s.has_value());
   return diags.str();
}

TEST(TgsiErrors, UnknownOpcode)
{
   EXPECT_EQ(parse_err("VERT\nDCL TEMP[0]\n  0: MOVX TEMP[0], TEMP[0]\n  1: END\n"),
             "foo.tgsi:3:6: error: unknown opcode 'MOVX'\n");
}

} // namespace
