// UpdatePartitionSpec (floe/table/update_partition_spec.h) on the commit layer: Java's
// BaseUpdatePartitionSpec rules for ids, names, specs and errors, and no snapshot.
#include "floe/table/update_partition_spec.h"

#include <gtest/gtest.h>

#include "table_test_util.h"

namespace floe::testing {
namespace {

using UpdateSpec = CommitTest;

// The default spec as "name:transform:field id".
std::vector<std::string> fields(const Table& t) {
  std::vector<std::string> out;
  for (const auto& f : t.metadata()->spec()->fields()) {
    out.push_back(fmt::format("{}:{}:{}", f.name, f.transform.to_string(), f.field_id));
  }
  return out;
}

TEST_F(UpdateSpec, IdsNamesAndSpecs) {
  auto t = create({}, true, 2);  // category (1000)
  ASSERT_OK(t->update_spec().add_field("id", Transform::bucket(8)).commit());
  EXPECT_EQ(fields(*t),
            (std::vector<std::string>{"category:identity:1000", "id_bucket_8:bucket[8]:1001"}));
  EXPECT_EQ(t->metadata()->last_partition_id, 1001);
  EXPECT_EQ(t->metadata()->default_spec_id, 1);
  // Removed by term, then added back by another name: a new field; by no name: the old one.
  ASSERT_OK(t->update_spec().remove_field("id", Transform::bucket(8)).commit());
  ASSERT_OK(t->update_spec().add_field("ID", Transform::bucket(8), "b").commit());
  EXPECT_EQ(fields(*t).back(), "b:bucket[8]:1002");
  ASSERT_OK(t->update_spec().remove_field("b").add_field("id", Transform::truncate(4)).commit());
  EXPECT_EQ(fields(*t).back(), "id_trunc_4:truncate[4]:1003");
  ASSERT_OK(
      t->update_spec().remove_field("id_trunc_4").add_field("id", Transform::bucket(8)).commit());
  EXPECT_EQ(fields(*t).back(), "id_bucket_8:bucket[8]:1001");  // spec 1 again
  EXPECT_EQ(t->metadata()->default_spec_id, 1);
  EXPECT_EQ(t->metadata()->specs.size(), 4u);  // the spec without the bucket was spec 0 again
  // Removed and added back in one update: nothing changes but the name given.
  ASSERT_OK(t->update_spec()
                .remove_field("id_bucket_8")
                .add_field("id", Transform::bucket(8), "shard")
                .commit());
  EXPECT_EQ(fields(*t).back(), "shard:bucket[8]:1001");
  ASSERT_OK(t->update_spec().rename_field("shard", "s8").commit());
  EXPECT_EQ(fields(*t).back(), "s8:bucket[8]:1001");
  // Not the default: the spec is added, the default stays.
  const int32_t default_id = t->metadata()->default_spec_id;
  ASSERT_OK(
      t->update_spec().add_field("value", Transform::identity()).add_non_default_spec().commit());
  EXPECT_EQ(t->metadata()->default_spec_id, default_id);
  EXPECT_EQ(t->metadata()->specs.back()->fields().back().name, "value");
  EXPECT_FALSE(t->metadata()->current_snapshot());  // no snapshot
}

TEST_F(UpdateSpec, V1KeepsRemovedFieldsAsVoidAndNeverReusesIds) {
  auto t = create({}, true, 1);
  ASSERT_OK(t->update_spec().remove_field("category").commit());
  EXPECT_EQ(fields(*t), std::vector<std::string>{"category:void:1000"});
  ASSERT_OK(t->update_spec().add_field("category", Transform::identity()).commit());
  EXPECT_EQ(fields(*t),
            (std::vector<std::string>{"category_1000:void:1000", "category:identity:1001"}));
}

TEST_F(UpdateSpec, JavasErrorsChangeNothing) {
  auto t = create({}, true, 2);
  const std::string before = t->metadata_location();
  auto error = [&](UpdatePartitionSpec u) {
    Status s = u.commit();
    EXPECT_FALSE(s.ok());
    return s.message();
  };
  EXPECT_NE(error(t->update_spec().add_field("category", Transform::identity()))
                .find("Cannot add duplicate partition field"),
            std::string::npos);
  EXPECT_NE(error(t->update_spec()
                      .add_field("id", Transform::bucket(4))
                      .add_field("id", Transform::bucket(4)))
                .find("already added"),
            std::string::npos);
  EXPECT_NE(error(t->update_spec()
                      .add_field("value", Transform::bucket(4), "x")
                      .add_field("id", Transform::bucket(4), "x"))
                .find("Cannot add duplicate partition field"),
            std::string::npos);
  EXPECT_NE(
      error(t->update_spec().remove_field("nope")).find("Cannot find partition field to remove"),
      std::string::npos);
  EXPECT_NE(
      error(t->update_spec().add_field("id", Transform::bucket(4)).remove_field("id_bucket_4"))
          .find("Cannot delete newly added field"),
      std::string::npos);
  EXPECT_NE(error(t->update_spec().rename_field("category", "c").remove_field("category"))
                .find("Cannot rename and delete partition field"),
            std::string::npos);
  EXPECT_NE(error(t->update_spec().remove_field("category").rename_field("category", "c"))
                .find("Cannot delete and rename partition field"),
            std::string::npos);
  EXPECT_NE(
      error(t->update_spec().add_field("id", Transform::bucket(4)).rename_field("id_bucket_4", "x"))
          .find("Cannot rename newly added partition field"),
      std::string::npos);
  EXPECT_NE(error(t->update_spec().add_field("missing", Transform::identity()))
                .find("Cannot find source column"),
            std::string::npos);
  EXPECT_NE(error(t->update_spec().add_field("category", Transform::day())).find("does not apply"),
            std::string::npos);
  EXPECT_NE(error(t->update_spec().add_field("id", Transform::bucket(4), "value"))
                .find("a column of the schema"),
            std::string::npos);
  EXPECT_EQ(t->metadata_location(), before);
}

// Two time transforms of one column added in one update are redundant (Java); added one at a
// time they are not (the lesson adds hours while days is there).
TEST_F(UpdateSpec, RedundantTimeFieldsInOneUpdate) {
  auto schema = std::make_shared<const Schema>(
      0, std::vector<NestedField>{field(1, "id", Type::int64(), true),
                                  field(2, "ts", Type::timestamptz(), false)});
  auto t = must(Table::create(catalog, id, schema, nullptr, nullptr, {}, "", 2));
  Status s = t->update_spec()
                 .add_field("ts", Transform::day())
                 .add_field("ts", Transform::hour())
                 .commit();
  EXPECT_NE(s.message().find("Cannot add redundant partition field"), std::string::npos)
      << s.to_string();
  ASSERT_OK(t->update_spec().add_field("ts", Transform::day()).commit());
  ASSERT_OK(t->update_spec().add_field("ts", Transform::hour()).commit());
  EXPECT_EQ(fields(*t), (std::vector<std::string>{"ts_day:day:1000", "ts_hour:hour:1001"}));
}

// Updates of two stale handles: the second is applied again on the table the first left, so
// both fields are there with ids of their own.
TEST_F(UpdateSpec, ConcurrentUpdatesApplyOnTheLatestSpec) {
  auto t = create({}, true, 2);
  auto other = must(Table::load(catalog, id));
  ASSERT_OK(t->update_spec().add_field("id", Transform::bucket(4)).commit());
  ASSERT_OK(other->update_spec().add_field("value", Transform::truncate(10)).commit());
  ASSERT_OK(t->refresh());
  EXPECT_EQ(fields(*t),
            (std::vector<std::string>{"category:identity:1000", "id_bucket_4:bucket[4]:1001",
                                      "value_trunc_10:truncate[10]:1002"}));
}

}  // namespace
}  // namespace floe::testing
