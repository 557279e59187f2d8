// Deletion vectors and the portable Roaring format, on Java's own test files
// (the fixture directory iceberg-java/deletes).
#include "floe/read/position_delete_set.h"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include "floe/write/deletion_vector_writer.h"

namespace floe {
namespace {

// The deletion-vector blob the write layer encodes for `set`.
std::string dv_of(const PositionDeleteSet& set) { return *encode_deletion_vector(set.positions()); }

std::string fixture(const std::string& rel) {
  std::string path = FLOE_FIXTURES_DIR "/";
  path.append(rel);
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

PositionDeleteSet dv(const std::string& name) {
  auto r = parse_deletion_vector(fixture("iceberg-java/deletes/" + name), name);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return r.ok() ? *r : PositionDeleteSet();
}

TEST(DeletionVectorTest, JavaWrittenVectors) {
  EXPECT_EQ(dv("empty-position-index.bin").cardinality(), 0u);
  EXPECT_EQ(dv("small-alternating-values-position-index.bin").positions(),
            (std::vector<int64_t>{1, 3, 5, 7, 9}));
  EXPECT_EQ(dv("small-and-large-values-position-index.bin").positions(),
            (std::vector<int64_t>{100, 101, 2147483747LL, 2147483748LL}));
  PositionDeleteSet all = dv("all-container-types-position-index.bin");
  EXPECT_EQ(all.cardinality(), 132561u);
  EXPECT_TRUE(all.contains(5));
  EXPECT_TRUE(all.contains(7));
  EXPECT_FALSE(all.contains(6));
  EXPECT_TRUE(all.contains(65537));
  EXPECT_TRUE(all.contains(66535));
  EXPECT_FALSE(all.contains(66536));
  EXPECT_TRUE(all.contains((1LL << 32) + 10));
  EXPECT_EQ(all.positions().back(), 4295163902LL);
}

TEST(DeletionVectorTest, PortableRoaring64Files) {
  PositionDeleteSet s;
  ASSERT_TRUE(parse_roaring64_portable(fixture("iceberg-java/deletes/64mapempty.bin"), &s).ok());
  EXPECT_TRUE(s.empty());
  PositionDeleteSet ten;
  ASSERT_TRUE(
      parse_roaring64_portable(fixture("iceberg-java/deletes/64map32bitvals.bin"), &ten).ok());
  EXPECT_EQ(ten.positions(), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  PositionDeleteSet spread;
  ASSERT_TRUE(
      parse_roaring64_portable(fixture("iceberg-java/deletes/64mapspreadvals.bin"), &spread).ok());
  EXPECT_EQ(spread.cardinality(), 100u);
  EXPECT_EQ(spread.positions().back(), 38654705673LL);
  PositionDeleteSet high;
  Status bad = parse_roaring64_portable(fixture("iceberg-java/deletes/64maphighvals.bin"), &high);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("invalid unsigned key"), std::string::npos) << bad.message();
}

TEST(DeletionVectorTest, CorruptInputIsRejected) {
  std::string good = fixture("iceberg-java/deletes/small-alternating-values-position-index.bin");
  std::string crc = good;
  crc.back() ^= 1;
  EXPECT_NE(parse_deletion_vector(crc, "x").status().message().find("CRC"), std::string::npos);
  std::string magic = good;
  magic[4] = 0;
  EXPECT_NE(parse_deletion_vector(magic, "x").status().message().find("magic"), std::string::npos);
  EXPECT_FALSE(parse_deletion_vector(good.substr(0, good.size() - 1), "x").ok());
  // Every truncation of the portable bitmap (bytes 8 .. size-4) is an error, never a crash.
  std::string bitmap = good.substr(8, good.size() - 12);
  for (size_t cut = 0; cut < bitmap.size(); ++cut) {
    PositionDeleteSet s;
    EXPECT_FALSE(parse_roaring64_portable(bitmap.substr(0, cut), &s).ok()) << cut;
  }
  PositionDeleteSet whole;
  EXPECT_TRUE(parse_roaring64_portable(bitmap, &whole).ok());
}

TEST(DeletionVectorTest, SerializeRoundTripsAndMatchesJava) {
  // Java's bytes for {1, 3, 5, 7, 9}.
  PositionDeleteSet five;
  for (int64_t p : {1, 3, 5, 7, 9}) five.add(p);
  five.finish();
  EXPECT_EQ(dv_of(five),
            fixture("iceberg-java/deletes/small-alternating-values-position-index.bin"));
  PositionDeleteSet mixed;
  mixed.add_range(0, 70000);                                  // runs
  for (int64_t p = 200000; p < 260000; p += 3) mixed.add(p);  // bitmap container
  mixed.add((5LL << 32) + 17);                                // another key
  mixed.finish();
  auto back = parse_deletion_vector(dv_of(mixed), "round trip");
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(back->positions(), mixed.positions());
}

TEST(DeletionVectorTest, PositionsPastTheDataFileAreRefusedBeforeExpanding) {
  // A run container holds 65,536 positions in 6 bytes, so 650 KB of runs would expand to 2^32
  // positions: with the data file's row count as the limit, the first container past it is
  // refused before it is expanded.
  PositionDeleteSet huge;
  huge.add_range(0, 1 << 20);
  huge.finish();
  std::string blob = dv_of(huge);
  auto whole = parse_deletion_vector(blob, "dv", 1 << 20);
  ASSERT_TRUE(whole.ok()) << whole.status().to_string();
  EXPECT_EQ(whole->cardinality(), size_t{1} << 20);
  auto past = parse_deletion_vector(blob, "dv", 1000);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.status().message().find("past the end of a data file of 1000 rows"),
            std::string::npos)
      << past.status().message();
  // Array and bitmap containers are checked per position.
  PositionDeleteSet sparse;
  for (int64_t p : {3, 999, 1000}) sparse.add(p);
  sparse.finish();
  EXPECT_FALSE(parse_deletion_vector(dv_of(sparse), "dv", 1000).ok());
  EXPECT_TRUE(parse_deletion_vector(dv_of(sparse), "dv", 1001).ok());
  PositionDeleteSet dense;
  for (int64_t p = 0; p < 20000; p += 2) dense.add(p);
  dense.finish();
  EXPECT_FALSE(parse_deletion_vector(dv_of(dense), "dv", 19998).ok());
  EXPECT_TRUE(parse_deletion_vector(dv_of(dense), "dv", 19999).ok());
}

TEST(PositionDeleteSetTest, AppliesToRowRanges) {
  PositionDeleteSet s;
  for (int64_t p : {9, 1, 5, 5, 12}) s.add(p);
  s.finish();
  EXPECT_EQ(s.cardinality(), 4u);
  std::vector<uint8_t> keep(6, 1);
  s.apply(4, 6, keep.data());  // rows 4..9
  EXPECT_EQ(keep, (std::vector<uint8_t>{1, 0, 1, 1, 1, 0}));
}

}  // namespace
}  // namespace floe

#include "floe/read/batch_ops.h"
#include "test_support.h"

namespace floe {
namespace {

TEST(BatchOpsTest, ConstantColumns) {
  auto ints = constant_column(Type::int64(), Literal::int64(42), 5);
  ASSERT_TRUE(ints.ok());
  ASSERT_EQ((*ints)->length(), 5);
  for (int64_t i = 0; i < 5; ++i) EXPECT_EQ((*ints)->raw<int64_t>()[i], 42);
  auto strs = constant_column(Type::string(), Literal::string("HELLO"), 3);
  ASSERT_TRUE(strs.ok());
  for (int64_t i = 0; i < 3; ++i) EXPECT_EQ((*strs)->bytes_at(i), "HELLO");
  auto nulls = constant_column(Type::string(), Literal::null(Type::string()), 4);
  ASSERT_TRUE(nulls.ok());
  EXPECT_EQ((*nulls)->null_count(), 4);
  EXPECT_TRUE((*nulls)->is_null(3));
  EXPECT_EQ((*nulls)->bytes_at(2), "");
  auto dec = constant_column(Type::decimal(16, 2), Literal::decimal(1234500, 16, 2), 2);
  ASSERT_TRUE(dec.ok());
  EXPECT_EQ((*dec)->literal_at(1).to_string(), "12345.00");
  EXPECT_EQ((*constant_column(Type::int32(), Literal::int32(1), 0))->length(), 0);
}

// Equality keys of a field nested in a struct: found by id inside the struct column; a null
// parent makes the key null (spec "Equality Delete Files"), like a null value; an int and a
// long of one value give one key; a field the batch lacks is null.
TEST(BatchOpsTest, EqualityKeysOfNestedFields) {
  using test_support::field;
  NestedField code = field(3, "code", Type::int32());
  NestedField ref = field(1, "ref", Type::struct_of({field(2, "region", Type::string()), code}));
  ColumnBatch b = ColumnBatch::make({ref, field(4, "n", Type::int64())});
  ColumnVector& s = *b.columns[0];
  auto add = [&](bool null_parent, std::optional<int32_t> value, int64_t n) {
    s.child(0).append_bytes("eu");
    if (value) {
      s.child(1).append_fixed<int32_t>(*value);
    } else {
      s.child(1).append_null();
    }
    if (null_parent) {
      s.append_null();
    } else {
      s.append_struct();
    }
    b.columns[1]->append_fixed<int64_t>(n);
    ++b.num_rows;
  };
  add(false, 7, 7);
  add(true, 7, 0);
  add(false, std::nullopt, 0);
  EqualityColumn nested = find_equality_column(b, 3);
  ASSERT_EQ(nested.parents.size(), 1u);
  EXPECT_EQ(nested.leaf, &s.child(1));
  auto key = [](const EqualityColumn& c, int64_t row) {
    std::string k;
    append_equality_key(c, row, &k);
    return k;
  };
  EXPECT_EQ(key(nested, 1), key(nested, 2));  // under a null struct = null
  EXPECT_NE(key(nested, 0), key(nested, 1));
  EXPECT_EQ(key(nested, 0), key(find_equality_column(b, 4), 0));  // int 7 = long 7
  EqualityColumn missing = find_equality_column(b, 99);
  EXPECT_EQ(missing.leaf, nullptr);
  EXPECT_EQ(key(missing, 0), key(nested, 2));
}

// The union of several delete files' sets for one data file: every position once, sorted, for 0
// to 7 sets that overlap and interleave, over a dense range (the bitmap union), a sparse one
// (pairwise merges) and one that reaches both ends of int64 (offsets that must not overflow).
TEST(PositionDeleteSetTest, UnionOfFinishedSets) {
  std::mt19937_64 rng(3);
  const std::vector<std::pair<int64_t, uint64_t>> ranges = {
      {0, 3000}, {-1000, 3000}, {5, uint64_t{1} << 40}, {INT64_MIN, UINT64_MAX}};
  for (const auto& [lo, width] : ranges) {
    for (int k = 0; k < 8; ++k) {
      std::vector<PositionDeleteSet> sets(static_cast<size_t>(k));
      std::set<int64_t> expected;
      for (auto& set : sets) {
        for (int i = 0; i < 500; ++i) {
          const uint64_t off = width == UINT64_MAX ? rng() : rng() % width;
          int64_t pos = static_cast<int64_t>(static_cast<uint64_t>(lo) + off);
          if (i == 0 && width == UINT64_MAX) pos = k % 2 ? INT64_MAX : INT64_MIN;
          set.add(pos);
          expected.insert(pos);
        }
        set.finish();
      }
      std::vector<const PositionDeleteSet*> finished;
      for (const auto& set : sets) finished.push_back(&set);
      PositionDeleteSet u = PositionDeleteSet::union_of(finished);
      EXPECT_EQ(u.positions(), std::vector<int64_t>(expected.begin(), expected.end()))
          << k << " sets from " << lo;
    }
  }
}

// Empty sets among others add nothing; only empty sets give the empty set.
TEST(PositionDeleteSetTest, UnionWithEmptySets) {
  PositionDeleteSet a, b, empty;
  for (int64_t p : {7, 3, 9}) a.add(p);
  for (int64_t p : {9, 100}) b.add(p);
  a.finish();
  b.finish();
  EXPECT_EQ(PositionDeleteSet::union_of({&empty, &a, &empty, &b}).positions(),
            (std::vector<int64_t>{3, 7, 9, 100}));
  EXPECT_TRUE(PositionDeleteSet::union_of({&empty, &empty, &empty}).empty());
}

}  // namespace
}  // namespace floe
