// Change streams (floe/sql/cdc.h): the Debezium envelope (also under "payload") and the plain
// one, deletes keeping only their key, errors naming the line with nothing of the failing
// batch committed and the batches before it kept, batch boundaries by record count and by
// time on a slow pipe, key columns from --key or the identifier fields.
#include "floe/sql/cdc.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "floe/sql/session.h"
#include "floe/table/table.h"
#include "sql/session_test_util.h"
#include "test_support.h"

namespace floe::sql {
namespace {

using testing::must;
using testing::rows;

class Cdc : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions o;
    o.warehouse = dir_.str();
    session_ = std::make_unique<Session>(o);
    must(s(), "CREATE NAMESPACE shop");
    must(s(),
         "CREATE TABLE shop.customers (customer_id BIGINT NOT NULL, name STRING NOT NULL, "
         "region STRING, balance DECIMAL(10,2)) USING iceberg");
  }
  Session& s() { return *session_; }

  std::string file(const std::string& name, const std::string& text) {
    std::string path = dir_.str() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  Result<CdcResult> apply(const std::string& text, int64_t batch_rows = 10000,
                          std::vector<std::string> keys = {"customer_id"}) {
    CdcOptions o;
    o.keys = std::move(keys);
    o.batch_rows = batch_rows;
    o.batch_ms = 0;
    return apply_changes(s(), "shop.customers", file("changes.jsonl", text), o);
  }

  std::vector<std::string> table() {
    return rows(s(), "SELECT * FROM shop.customers ORDER BY customer_id");
  }
  int64_t snapshots() {
    return std::stoll(rows(s(), "SELECT count(*) FROM shop.customers.snapshots")[0].substr(1));
  }

  test_support::TempDir dir_{"floe-cdc"};
  std::unique_ptr<Session> session_;
};

TEST_F(Cdc, DebeziumEnvelope) {
  auto done = apply(
      R"({"op":"r","before":null,"after":{"customer_id":1,"name":"Ann","region":"eu","balance":"10.50"}})"
      "\n"
      R"({"op":"c","after":{"customer_id":2,"name":"Bob","region":"us","balance":20}})"
      "\n"
      R"({"schema":{"type":"struct"},"payload":{"op":"u","before":{"customer_id":1},"after":{"customer_id":1,"name":"Ann B","region":"eu","balance":11.25},"source":{"db":"x"}}})"
      "\n"
      R"({"op":"d","before":{"customer_id":2,"name":"Bob","region":"us","balance":20},"after":null})"
      "\n"
      R"({"schema":null,"payload":{"op":"c","after":{"customer_id":3,"name":"Cy","extra":"ignored"}}})"
      "\n",
      2);
  ASSERT_TRUE(done.ok()) << done.status().to_string();
  EXPECT_EQ(done->records, 5);
  EXPECT_EQ(done->upserts, 4);
  EXPECT_EQ(done->deletes, 1);
  EXPECT_EQ(done->batches, 3);
  EXPECT_EQ(done->snapshots, 3);
  EXPECT_EQ(done->rows_written, 4);
  EXPECT_EQ(table(),
            (std::vector<std::string>{R"([1,"Ann B","eu","11.25"])", R"([3,"Cy",null,null])"}));
  EXPECT_EQ(snapshots(), 3);
  EXPECT_EQ(rows(s(), "SELECT operation FROM shop.customers.snapshots ORDER BY committed_at"),
            (std::vector<std::string>{R"(["overwrite"])", R"(["overwrite"])", R"(["overwrite"])"}));
  EXPECT_EQ(rows(s(), "SELECT DISTINCT content, equality_ids FROM shop.customers.delete_files"),
            (std::vector<std::string>{"[2,[1]]"}));
  EXPECT_EQ(rows(s(), "SELECT summary['engine-name'] FROM shop.customers.snapshots LIMIT 1"),
            (std::vector<std::string>{R"(["floe"])"}));
}

TEST_F(Cdc, DebeziumUpdateThatChangesTheKeyDeletesTheOldKey) {
  auto done = apply(R"({"op":"c","after":{"customer_id":1,"name":"Ann","region":"eu"}})"
                    "\n"
                    R"({"op":"c","after":{"customer_id":2,"name":"Bob","region":"us"}})"
                    "\n",
                    10);
  ASSERT_TRUE(done.ok()) << done.status().to_string();
  done = apply(
      R"({"op":"u","before":{"customer_id":1,"name":"Ann"},"after":{"customer_id":10,"name":"Ann","region":"eu"}})"
      "\n"
      R"({"op":"u","before":{"CUSTOMER_ID":2},"after":{"customer_id":2,"name":"Bob B"}})"
      "\n",
      10);
  ASSERT_TRUE(done.ok()) << done.status().to_string();
  EXPECT_EQ(done->records, 2);
  EXPECT_EQ(done->deletes, 1);
  EXPECT_EQ(done->upserts, 2);
  EXPECT_EQ(table(),
            (std::vector<std::string>{R"([2,"Bob B",null,null])", R"([10,"Ann","eu",null])"}));
}

TEST_F(Cdc, PlainEnvelope) {
  auto done = apply(R"({"op":"upsert","row":{"customer_id":1,"name":"Ann"}})"
                    "\n\n"
                    R"({"op":"upsert","row":{"customer_id":2,"name":"Bob","balance":"1.5"}})"
                    "\n"
                    R"({"op":"delete","row":{"customer_id":1}})"
                    "\n"
                    R"({"op":"delete","row":{"customer_id":404}})"
                    "\n");
  ASSERT_TRUE(done.ok()) << done.status().to_string();
  EXPECT_EQ(done->batches, 1);
  EXPECT_EQ(done->rows_written, 1);  // 1 was upserted then deleted within the batch
  EXPECT_EQ(table(), (std::vector<std::string>{R"([2,"Bob",null,"1.50"])"}));

  // Only deletes: a "delete" snapshot.
  done = apply(R"({"op":"delete","row":{"customer_id":2}})"
               "\n");
  ASSERT_TRUE(done.ok()) << done.status().to_string();
  EXPECT_TRUE(table().empty());
  EXPECT_EQ(rows(s(),
                 "SELECT operation FROM shop.customers.snapshots ORDER BY committed_at DESC "
                 "LIMIT 1"),
            (std::vector<std::string>{R"(["delete"])"}));
}

TEST_F(Cdc, ReaderKindsLinesAndKeysOfDeletes) {
  std::string path = file("r.jsonl",
                          "\n"
                          R"({"op":"c","after":{"ID":1,"name":"a"}})"
                          "\n   \n"
                          R"({"op":"d","before":{"id":2,"name":"dropped"}})"
                          "\r\n"
                          R"({"op":"upsert","row":{"id":3,"name":null}})");
  ChangeStreamOptions o;
  o.batch_rows = 2;
  o.batch_ms = 0;
  auto reader = ChangeStreamReader::open(path, {"id", "name"}, {0}, o);
  ASSERT_TRUE(reader.ok()) << reader.status().to_string();
  ChangeBatch b;
  ASSERT_TRUE(*(*reader)->next(&b));
  ASSERT_EQ(b.size(), 2);
  EXPECT_EQ(b.kinds, (std::vector<ChangeKind>{ChangeKind::kUpsert, ChangeKind::kDelete}));
  EXPECT_EQ(b.lines, (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(b.rows.columns[0]->bytes_at(0), "1");
  EXPECT_EQ(b.rows.columns[1]->bytes_at(0), "a");
  EXPECT_EQ(b.rows.columns[0]->bytes_at(1), "2");
  EXPECT_TRUE(b.rows.columns[1]->is_null(1));  // a delete keeps its key only
  ASSERT_TRUE(*(*reader)->next(&b));
  ASSERT_EQ(b.size(), 1);
  EXPECT_EQ(b.lines, (std::vector<int64_t>{5}));
  EXPECT_TRUE(b.rows.columns[1]->is_null(0));
  EXPECT_FALSE(*(*reader)->next(&b));
  EXPECT_EQ(b.size(), 0);
}

TEST_F(Cdc, BadRecordsNameTheirLine) {
  auto error = [&](const std::string& text) {
    auto r = apply(text);
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? std::string() : r.status().message();
  };
  const std::string good = R"({"op":"c","after":{"customer_id":1,"name":"Ann"}})"
                           "\n";
  auto has = [](const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos;
  };
  std::string m = error(good + R"({"op":"x","after":{"customer_id":2,"name":"B"}})");
  EXPECT_TRUE(has(m,
                  "changes.jsonl line 2: unknown op \"x\" (Debezium: c, u, d or r; plain: "
                  "upsert or delete)"))
      << m;
  EXPECT_TRUE(has(m,
                  "nothing of its batch (from line 1) was committed, no batch before it was "
                  "committed"))
      << m;
  m = error(good + R"({"after":{"customer_id":2}})");
  EXPECT_TRUE(has(m, "line 2: the record has no \"op\" string")) << m;
  m = error(good + R"({"op":"c","before":{"customer_id":2}})");
  EXPECT_TRUE(has(m, "line 2: op \"c\" has no \"after\" row")) << m;
  m = error(good + R"({"op":"d","before":null})");
  EXPECT_TRUE(has(m, "line 2: op \"d\" has no \"before\" row")) << m;
  m = error(good + R"({"op":"upsert","row":[1,2]})");
  EXPECT_TRUE(has(m, "line 2: the \"row\" row of op \"upsert\" is a JSON array, not an object"))
      << m;
  m = error(good + R"({"op":"d","before":{"name":"Ann"}})");
  EXPECT_TRUE(has(m, "line 2: the \"before\" row has no value for key column 'customer_id'")) << m;
  m = error(good + R"({"op":"c","after":{"customer_id":null,"name":"x"}})");
  EXPECT_TRUE(has(m, "line 2: the \"after\" row has no value for key column 'customer_id'")) << m;
  m = error(good + R"({"op":"c","after":{"customer_id":3000000000000000000000,"name":"x"}})");
  EXPECT_TRUE(has(m, "changes.jsonl line 2, column 'customer_id':")) << m;
  m = error(good + R"({"op":"c","after":{"customer_id":2,"name":"B","balance":"a lot"}})");
  EXPECT_TRUE(has(m, "changes.jsonl line 2, column 'balance':")) << m;
  m = error(good + R"({"op":"c","after":{"customer_id":2}})");
  EXPECT_TRUE(has(m, "changes.jsonl line 2, column 'name': no value for a required column")) << m;
  EXPECT_TRUE(has(m, "nothing of its batch (lines 1 to 2) was committed")) << m;
  m = error(good + "{\"op\": \"c\",");
  EXPECT_TRUE(has(m, "changes.jsonl line 2, column")) << m;
  // A delete needs no value for the other required columns.
  EXPECT_TRUE(apply(R"({"op":"d","before":{"customer_id":1}})").ok());
  EXPECT_TRUE(table().empty());
  EXPECT_EQ(snapshots(), 1);
}

TEST_F(Cdc, EarlierBatchesStayCommitted) {
  auto r = apply(R"({"op":"c","after":{"customer_id":1,"name":"Ann"}})"
                 "\n"
                 R"({"op":"c","after":{"customer_id":2,"name":"Bob"}})"
                 "\n"
                 R"({"op":"c","after":{"customer_id":3,"name":"Cy"}})"
                 "\n"
                 R"({"op":"u","after":{"customer_id":1,"name":"Ann B"}})"
                 "\n"
                 R"({"op":"c","after":{"customer_id":"four","name":"Di"}})"
                 "\n",
                 2);
  ASSERT_FALSE(r.ok());
  const std::string m = r.status().message();
  EXPECT_NE(m.find("line 5, column 'customer_id': 'four' is not a valid bigint"), std::string::npos)
      << m;
  EXPECT_NE(m.find("nothing of its batch (line 5) was committed, 2 batches before it (4 "
                   "records, up to snapshot "),
            std::string::npos)
      << m;
  EXPECT_NE(m.find(") stay committed"), std::string::npos) << m;
  EXPECT_EQ(snapshots(), 2);
  EXPECT_EQ(table(), (std::vector<std::string>{R"([1,"Ann B",null,null])", R"([2,"Bob",null,null])",
                                               R"([3,"Cy",null,null])"}));
}

TEST_F(Cdc, BatchesCloseByRecordCount) {
  std::string text;
  for (int i = 1; i <= 7; ++i) {
    text += R"({"op":"c","after":{"customer_id":)" + std::to_string(i) + R"(,"name":"n"}})" + "\n";
  }
  std::vector<int64_t> seen;
  CdcOptions o;
  o.keys = {"customer_id"};
  o.batch_rows = 3;
  o.batch_ms = 0;
  o.progress = [&](const CdcResult& done) { seen.push_back(done.records); };
  auto done = apply_changes(s(), "shop.customers", file("seven.jsonl", text), o);
  ASSERT_TRUE(done.ok()) << done.status().to_string();
  EXPECT_EQ(done->batches, 3);
  EXPECT_EQ(done->snapshots, 3);
  EXPECT_EQ(seen, (std::vector<int64_t>{3, 6, 7}));
  EXPECT_EQ(snapshots(), 3);
  EXPECT_EQ(rows(s(),
                 "SELECT summary['added-records'] FROM shop.customers.snapshots ORDER BY "
                 "committed_at"),
            (std::vector<std::string>{R"(["3"])", R"(["3"])", R"(["1"])"}));
  EXPECT_EQ(table().size(), 7u);
}

TEST_F(Cdc, BatchesCloseByTimeWhenAPipeIsIdle) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  using Clock = std::chrono::steady_clock;
  Clock::time_point second_write;
  std::thread writer([&] {
    const std::string first = R"({"op":"c","after":{"id":1}})"
                              "\n"
                              R"({"op":"c","after":{"id":2}})"
                              "\n";
    EXPECT_EQ(write(fds[1], first.data(), first.size()), static_cast<ssize_t>(first.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    second_write = Clock::now();
    const std::string second = R"({"op":"d","before":{"id":1}})"
                               "\n";
    EXPECT_EQ(write(fds[1], second.data(), second.size()), static_cast<ssize_t>(second.size()));
    close(fds[1]);
  });
  ChangeStreamOptions o;
  o.batch_rows = 100;
  o.batch_ms = 200;
  auto reader = ChangeStreamReader::from_fd(fds[0], "pipe", {"id"}, {0}, o);
  ASSERT_TRUE(reader.ok());
  ChangeBatch b;
  ASSERT_TRUE(*(*reader)->next(&b));
  const auto first_done = Clock::now();
  EXPECT_EQ(b.size(), 2);
  ASSERT_TRUE(*(*reader)->next(&b));
  EXPECT_EQ(b.size(), 1);
  EXPECT_EQ(b.kinds, std::vector<ChangeKind>{ChangeKind::kDelete});
  EXPECT_FALSE(*(*reader)->next(&b));
  writer.join();
  close(fds[0]);
  // The first batch closed while the pipe was idle, before the third record was written.
  EXPECT_LT(first_done, second_write);
}

TEST_F(Cdc, KeyColumns) {
  const std::string change = R"({"op":"c","after":{"customer_id":1,"name":"Ann"}})";
  // Without --key: the identifier fields, else an error saying what to do.
  auto r = apply(change, 10, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("has no identifier fields: name the key columns"),
            std::string::npos)
      << r.status().message();
  // A table with identifier fields (as Spark's SET IDENTIFIER FIELDS leaves it).
  auto catalog = *s().catalog(true);
  auto keyed = Table::create(
      catalog, {{"shop"}, "keyed"},
      std::make_shared<const Schema>(
          0,
          std::vector<NestedField>{test_support::field(1, "name", Type::string()),
                                   test_support::field(2, "customer_id", Type::int64(), true)},
          std::vector<int32_t>{2}));
  ASSERT_TRUE(keyed.ok()) << keyed.status().to_string();
  CdcOptions o;
  o.batch_ms = 0;
  r = apply_changes(s(), "shop.keyed", file("keyed.jsonl", change + "\n"), o);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(rows(s(), "SELECT equality_ids FROM shop.keyed.delete_files"),
            (std::vector<std::string>{"[[2]]"}));
  EXPECT_EQ(rows(s(), "SELECT * FROM shop.keyed"), (std::vector<std::string>{R"(["Ann",1])"}));

  r = apply(change, 10, {"nope"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("key column 'nope' is not a column"), std::string::npos);

  // A partitioned table: the partition source column must be part of the key.
  must(s(),
       "CREATE TABLE shop.orders (order_id BIGINT NOT NULL, region STRING NOT NULL, total INT) "
       "USING iceberg PARTITIONED BY (region)");
  o.keys = {"order_id"};
  const std::string orders =
      file("orders.jsonl", R"({"op":"c","after":{"order_id":1,"region":"eu","total":5}})"
                           "\n"
                           R"({"op":"c","after":{"order_id":2,"region":"us","total":7}})"
                           "\n"
                           R"({"op":"d","before":{"order_id":1,"region":"eu"}})"
                           "\n");
  r = apply_changes(s(), "shop.orders", orders, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("comes from column region, which is not a key column"),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("Flink writer requires in upsert mode"), std::string::npos);
  o.keys = {"order_id", "REGION"};
  r = apply_changes(s(), "shop.orders", orders, o);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(rows(s(), "SELECT * FROM shop.orders"), (std::vector<std::string>{R"([2,"us",7])"}));
  EXPECT_EQ(rows(s(),
                 "SELECT partition.region, equality_ids, record_count FROM "
                 "shop.orders.delete_files ORDER BY 1"),
            (std::vector<std::string>{R"(["eu",[1,2],1])", R"(["us",[1,2],1])"}));
}

}  // namespace
}  // namespace floe::sql
