// Commits over real Parquet files: rows written with the Parquet writer, committed through the
// snapshot producers, and read back through TableScan and the task reader.
#include <gtest/gtest.h>

#include <numeric>

#include "floe/format/parquet/writer.h"
#include "floe/read/task_reader.h"
#include "table_test_util.h"

namespace floe::testing {
namespace {

using ReadBack = CommitTest;

template <typename V>
ColumnMetrics<V> to_metrics(const std::map<int32_t, V>& m) {
  return ColumnMetrics<V>(m.begin(), m.end());
}

// Writes rows (id, category, id * 10) for `ids` and describes the file as a DataFile.
DataFile write_rows(const Table& table, const std::string& name, const std::string& category,
                    const std::vector<int64_t>& ids) {
  const Schema& schema = *table.metadata()->schema();
  ColumnBatch batch = ColumnBatch::make(schema.fields());
  for (int64_t id : ids) {
    batch.columns[0]->append_fixed<int64_t>(id);
    batch.columns[1]->append_bytes(category);
    batch.columns[2]->append_fixed<int64_t>(id * 10);
    ++batch.num_rows;
  }
  std::string path = table.location() + "/data/" + name + ".parquet";
  auto writer = must(parquet::ParquetWriter::open(table.io(), path, schema));
  EXPECT_TRUE(writer->write(batch).ok());
  auto metrics = must(writer->close());
  DataFile f;
  f.file_path = path;
  f.file_format = "PARQUET";
  f.partition = {Literal::string(category)};
  f.record_count = metrics.record_count;
  f.file_size_in_bytes = metrics.file_size;
  f.column_sizes = to_metrics(metrics.column_sizes);
  f.value_counts = to_metrics(metrics.value_counts);
  f.null_value_counts = to_metrics(metrics.null_value_counts);
  f.lower_bounds = to_metrics(metrics.lower_bounds);
  f.upper_bounds = to_metrics(metrics.upper_bounds);
  f.split_offsets = metrics.split_offsets;
  return f;
}

std::vector<int64_t> read_ids(const Table& table, ScanOptions options = {}) {
  auto scan = must(table.new_scan(options));
  std::vector<int64_t> ids;
  auto summary = read_scan(
      scan, table.io(), table.metadata(), {"id"},
      [&](ColumnBatch&& batch) {
        const int64_t* values = batch.columns[0]->raw<int64_t>();
        ids.insert(ids.end(), values, values + batch.num_rows);
        return Status::OK();
      },
      1);
  EXPECT_TRUE(summary.ok()) << summary.status().to_string();
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST_F(ReadBack, RowsFollowTheCommits) {
  auto t = create();
  auto a = write_rows(*t, "a", "x", {1, 2, 3});
  auto b = write_rows(*t, "b", "y", {10, 11});
  ASSERT_OK(t->new_append().append_file(a).append_file(b).commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{1, 2, 3, 10, 11}));
  int64_t first = *t->metadata()->current_snapshot_id;

  // Overwrite the rows with id <= 3 (all of a, by its metrics) with new ones.
  auto c = write_rows(*t, "c", "x", {4, 5});
  ASSERT_OK(
      t->new_overwrite()
          .overwrite_by_row_filter(make_predicate(Operation::kLtEq, "id", {Literal::int64(3)}))
          .add_file(c)
          .commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{4, 5, 10, 11}));

  // Dynamic overwrite of partition y.
  auto d = write_rows(*t, "d", "y", {20});
  ASSERT_OK(t->new_replace_partitions().add_file(d).commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{4, 5, 20}));
  EXPECT_EQ(summary(*t, "total-records"), "3");

  // Time travel still reads the first snapshot's rows.
  ScanOptions old;
  old.snapshot_id = first;
  EXPECT_EQ(read_ids(*t, old), (std::vector<int64_t>{1, 2, 3, 10, 11}));
  ASSERT_OK(t->manage_snapshots().rollback_to(first).commit());
  EXPECT_EQ(read_ids(*t), (std::vector<int64_t>{1, 2, 3, 10, 11}));
}

}  // namespace
}  // namespace floe::testing
