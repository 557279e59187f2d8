#include "floe/sql/parser.h"

#include <gtest/gtest.h>

namespace floe::sql {
namespace {

TEST(SqlParser, Smoke) {
  auto r = parse_statement("SELECT 1");
  ASSERT_TRUE(r.ok()) << r.status().to_string();
}

}  // namespace
}  // namespace floe::sql
