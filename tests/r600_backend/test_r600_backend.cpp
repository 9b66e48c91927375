#include <gtest/gtest.h>
TEST(R600Backend, Placeholder) { SUCCEED(); }
