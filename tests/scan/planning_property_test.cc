// Pruning is never wrong, end to end: random tables (rows -> data files with partition values
// and metrics -> manifests written by floe's manifest writer -> a snapshot), random filters, and
// TableScan must plan every file that holds a matching row.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "floe/expr/projection.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/scan/table_scan.h"
#include "test_support.h"

namespace floe {
namespace {

NestedField field(int32_t id, std::string name, TypePtr type) {
  return NestedField{id, std::move(name), std::move(type), false, "", std::nullopt, std::nullopt};
}

struct Row {
  std::optional<int64_t> id;
  std::optional<std::string> name;
  std::optional<int32_t> p;
};

struct File {
  DataFile meta;
  std::vector<Row> rows;
};

const char* kWords[] = {"ant", "ape", "bat", "bee", "cat", "cow", "dog", "eel", "elk", "fox"};

Literal value_of(const Row& r, int32_t id) {
  switch (id) {
    case 1:
      return r.id ? Literal::int64(*r.id) : Literal::null(Type::int64());
    case 2:
      return r.name ? Literal::string(*r.name) : Literal::null(Type::string());
    default:
      return r.p ? Literal::int32(*r.p) : Literal::null(Type::int32());
  }
}

TEST(PlanningPropertyTest, PlannedFilesContainEveryMatchingRow) {
  std::mt19937_64 rng(2026);
  auto schema = std::make_shared<const Schema>(
      0, std::vector<NestedField>{field(1, "id", Type::int64()), field(2, "name", Type::string()),
                                  field(3, "p", Type::int32())});
  auto spec = std::make_shared<const PartitionSpec>(
      0, std::vector<PartitionField>{{3, {}, 1000, "p", Transform::identity()},
                                     {1, {}, 1001, "id_trunc", Transform::truncate(10)}});
  int checked_tables = 0, total_skipped = 0;
  for (int table_round = 0; table_round < 20; ++table_round) {
    auto io = make_memory_file_io();
    std::vector<File> files;
    for (int f = 0; f < 30; ++f) {
      File file;
      std::optional<int32_t> p;
      if (rng() % 8) p = static_cast<int32_t>(rng() % 4);
      std::optional<int64_t> base;
      if (rng() % 8) base = (static_cast<int64_t>(rng() % 10) - 3) * 10;
      int n = 1 + static_cast<int>(rng() % 5);
      for (int k = 0; k < n; ++k) {
        Row r;
        r.p = p;
        if (base) r.id = *base + static_cast<int64_t>(rng() % 10);
        if (rng() % 6) r.name = kWords[rng() % 10];
        file.rows.push_back(r);
      }
      DataFile& d = file.meta;
      d.file_path = "mem://t/data/f" + std::to_string(f) + ".parquet";
      d.file_format = "PARQUET";
      d.record_count = n;
      d.file_size_in_bytes = 1000;
      d.partition = {p ? Literal::int32(*p) : Literal::null(Type::int32()),
                     base ? Literal::int64(*base) : Literal::null(Type::int64())};
      bool with_bounds = rng() % 4 != 0;
      for (int32_t id : {1, 2}) {
        int64_t nulls = 0;
        std::optional<Literal> lo, hi;
        for (const auto& r : file.rows) {
          Literal v = value_of(r, id);
          if (v.is_null()) {
            ++nulls;
            continue;
          }
          if (!lo || v.compare(*lo) < 0) lo = v;
          if (!hi || v.compare(*hi) > 0) hi = v;
        }
        d.value_counts.push_back({id, n});
        d.null_value_counts.push_back({id, nulls});
        if (lo && with_bounds) {
          d.lower_bounds.push_back({id, *lo->to_bytes()});
          d.upper_bounds.push_back({id, *hi->to_bytes()});
        }
      }
      files.push_back(std::move(file));
    }
    // Three manifests, files dealt round-robin.
    std::vector<ManifestFile> manifests;
    for (int m = 0; m < 3; ++m) {
      ManifestWriterOptions wo;
      wo.snapshot_id = 1;
      auto w = ManifestWriter::make(
          *io,
          [&](int k) {
            return "mem://t/metadata/m" + std::to_string(m) + "-" + std::to_string(k) + ".avro";
          },
          schema, spec, wo);
      ASSERT_TRUE(w.ok()) << w.status().to_string();
      for (size_t f = static_cast<size_t>(m); f < files.size(); f += 3) {
        ASSERT_TRUE((*w)->add(files[f].meta).ok());
      }
      auto written = (*w)->finish();
      ASSERT_TRUE(written.ok());
      manifests.insert(manifests.end(), written->begin(), written->end());
    }
    ManifestListWriterOptions lo;
    lo.snapshot_id = 1;
    lo.sequence_number = 1;
    ASSERT_TRUE(write_manifest_list(*io, "mem://t/metadata/snap-1.avro", manifests, lo).ok());
    auto table = std::make_shared<TableMetadata>();
    table->table_uuid = "00000000-0000-4000-8000-000000000001";
    table->location = "mem://t";
    table->schemas = {schema};
    table->last_column_id = 3;
    table->specs = {spec};
    table->last_partition_id = 1001;
    table->sort_orders = {std::make_shared<const SortOrder>()};
    test_support::set_current_snapshot(table.get(), 1, "mem://t/metadata/snap-1.avro");

    for (int q = 0; q < 40; ++q) {
      // A random filter of 1-3 predicates.
      auto pred = [&]() -> ExprPtr {
        static const Operation kOps[] = {Operation::kLt,   Operation::kLtEq,   Operation::kGt,
                                         Operation::kGtEq, Operation::kEq,     Operation::kNotEq,
                                         Operation::kIn,   Operation::kIsNull, Operation::kNotNull};
        Operation op = kOps[rng() % 9];
        int col = static_cast<int>(rng() % 3);
        const char* names[] = {"id", "name", "p"};
        auto lit = [&]() -> Literal {
          if (col == 0) return Literal::int64(static_cast<int64_t>(rng() % 100) - 30);
          if (col == 1) return Literal::string(kWords[rng() % 10]);
          return Literal::int64(static_cast<int64_t>(rng() % 5));
        };
        std::vector<Literal> lits;
        if (op == Operation::kIn) {
          lits = {lit(), lit()};
        } else if (!is_unary(op)) {
          lits = {lit()};
        }
        if (col == 1 && rng() % 5 == 0) {
          op = Operation::kStartsWith;
          lits = {Literal::string(std::string(kWords[rng() % 10]).substr(0, 1))};
        }
        return make_predicate(op, names[col], lits);
      };
      ExprPtr filter = pred();
      for (int extra = static_cast<int>(rng() % 3); extra > 0; --extra) {
        filter = rng() % 2 ? make_and(filter, pred()) : make_or(filter, pred());
      }
      if (rng() % 4 == 0) filter = make_not(filter);
      ScanOptions o;
      o.filter = filter;
      o.threads = 2;
      auto scan = TableScan::make(io, table, o);
      ASSERT_TRUE(scan.ok()) << scan.status().to_string();
      auto planned = scan->plan_files();
      ASSERT_TRUE(planned.ok()) << planned.status().to_string();
      std::set<std::string> paths;
      for (const auto& t : *planned) paths.insert(t.file->file_path);
      for (const auto& f : files) {
        bool any = false;
        for (const auto& r : f.rows) {
          any |= evaluate(scan->filter(), [&](int32_t id) -> const Literal* {
            static thread_local Literal slot;
            slot = value_of(r, id);
            return &slot;
          });
        }
        if (any) {
          ASSERT_TRUE(paths.count(f.meta.file_path))
              << scan->filter()->to_string() << " pruned " << f.meta.file_path;
        }
      }
      const ScanReport& rep = scan->report();
      EXPECT_EQ(rep.scanned_data_files, static_cast<int64_t>(paths.size()));
      EXPECT_EQ(rep.total_data_files, rep.skipped_data_files + rep.scanned_data_files);
      total_skipped += static_cast<int>(rep.skipped_data_files);
    }
    ++checked_tables;
  }
  EXPECT_EQ(checked_tables, 20);
  EXPECT_GT(total_skipped, 1000);  // pruning really happened
}

}  // namespace
}  // namespace floe
