// `floe cdc` end to end through the built binary on the embedded SQLite catalog: change
// records from a file and from stdin (a pipe, also a slow one whose idle time closes a batch),
// the summary line, `floe sql` reading the upserted state, the equality delete files in the
// delete_files metadata table, and a bad record naming its line with the batches before it
// kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "integration/cli_runner.h"
#include "test_support.h"

namespace {

using floe::test_support::shell_quote;
using floe_test::run_floe;
namespace fs = std::filesystem;

class CliCdc : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/floe-cdc-XXXXXX";
    dir_ = mkdtemp(tmpl);
    warehouse_ = dir_ + "/warehouse";
    // Partitioned by a bucket of the key: deletes land in the partition of the rows they delete.
    sql("CREATE NAMESPACE shop; CREATE TABLE shop.customers (customer_id BIGINT NOT NULL, "
        "name STRING, region STRING, balance DECIMAL(10,2)) USING iceberg "
        "PARTITIONED BY (bucket(4, customer_id))");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string floe(const std::string& args) {
    return std::string(FLOE_CLI_PATH) + " --warehouse " + shell_quote(warehouse_) + " " + args;
  }
  std::string sql(const std::string& statements, const std::string& format = "table") {
    auto r = run_floe("--warehouse " + shell_quote(warehouse_) + " --format " + format + " sql " +
                      shell_quote(statements));
    EXPECT_EQ(r.exit_code, 0) << statements << "\n" << r.out;
    return r.out;
  }
  std::vector<nlohmann::json> rows(const std::string& query) {
    std::vector<nlohmann::json> out;
    std::string text = sql(query, "json");
    size_t start = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      std::string line = text.substr(start, nl - start);
      if (!line.empty()) out.push_back(nlohmann::json::parse(line));
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    return out;
  }
  std::string file(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  // customer_id, name, CAST(balance AS STRING) of every row, by customer_id.
  std::vector<std::string> customers() {
    std::vector<std::string> out;
    for (const auto& r : rows("SELECT customer_id, name, CAST(balance AS STRING) AS balance FROM "
                              "shop.customers ORDER BY customer_id")) {
      out.push_back(r["customer_id"].dump() + "," + r["name"].dump() + "," + r["balance"].dump());
    }
    return out;
  }
  int64_t snapshot_count() {
    return rows("SELECT count(*) AS n FROM shop.customers.snapshots")[0]["n"].get<int64_t>();
  }

  std::string dir_, warehouse_;
};

TEST_F(CliCdc, FileThenStdin) {
  std::string changes = file(
      "changes.jsonl",
      R"({"op":"r","before":null,"after":{"customer_id":1,"name":"Ann","region":"eu","balance":"10.50"}})"
      "\n"
      R"({"op":"c","after":{"customer_id":2,"name":"Bob","region":"us","balance":20}})"
      "\n"
      R"({"op":"c","after":{"customer_id":3,"name":"Cy","region":"us"}})"
      "\n"
      R"({"schema":{"type":"struct"},"payload":{"op":"u","before":{"customer_id":1},"after":{"customer_id":1,"name":"Ann B","region":"eu","balance":11}}})"
      "\n"
      R"({"op":"d","before":{"customer_id":2,"name":"Bob","region":"us","balance":20}})"
      "\n"
      R"({"op":"d","before":{"customer_id":404}})"
      "\n");
  auto r = run_floe("--warehouse " + shell_quote(warehouse_) +
                    " cdc shop.customers --key customer_id --batch-rows 3 " + shell_quote(changes));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("applied 6 change records to shop.customers (4 upserts, 2 deletes): 2 "
                       "snapshots committed"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(customers(), (std::vector<std::string>{R"(1,"Ann B","11.00")", R"(3,"Cy",null)"}));
  EXPECT_EQ(snapshot_count(), 2);

  // Every delete file is an equality delete on customer_id (field id 1), in a bucket partition.
  auto deletes = rows(
      "SELECT content, equality_ids, partition.customer_id_bucket AS bucket, record_count FROM "
      "shop.customers.delete_files");
  ASSERT_FALSE(deletes.empty());
  int64_t delete_rows = 0;
  for (const auto& d : deletes) {
    EXPECT_EQ(d["content"], 2) << d.dump();
    EXPECT_EQ(d["equality_ids"], nlohmann::json::array({1})) << d.dump();
    EXPECT_TRUE(d["bucket"].is_number_integer()) << d.dump();
    delete_rows += d["record_count"].get<int64_t>();
  }
  EXPECT_EQ(delete_rows, 6);  // 3 keys in each batch
  EXPECT_EQ(rows("SELECT operation FROM shop.customers.snapshots ORDER BY committed_at").size(),
            2u);

  // The plain envelope on stdin (a pipe), with JSON output.
  std::string plain =
      file("plain.jsonl", R"({"op":"upsert","row":{"customer_id":4,"name":"Di","balance":1}})"
                          "\n"
                          R"({"op":"delete","row":{"customer_id":3}})"
                          "\n");
  std::string out = floe::test_support::run_command(
      "cat " + shell_quote(plain) + " | " +
      floe("--format json cdc shop.customers --key customer_id -") + " 2>&1");
  auto summary = nlohmann::json::parse(out, nullptr, false);
  ASSERT_TRUE(summary.is_object()) << out;
  EXPECT_EQ(summary["file"], "-");
  EXPECT_EQ(summary["records"], 2);
  EXPECT_EQ(summary["upserts"], 1);
  EXPECT_EQ(summary["deletes"], 1);
  EXPECT_EQ(summary["snapshots"], 1);
  EXPECT_EQ(customers(), (std::vector<std::string>{R"(1,"Ann B","11.00")", R"(4,"Di","1.00")"}));
  EXPECT_EQ(snapshot_count(), 3);
}

TEST_F(CliCdc, SlowStdinStillCommits) {
  // Two records, two seconds of silence, one more: --batch-ms 200 closes the first batch while
  // the pipe is idle, so it is committed before the third record arrives.
  std::string cmd = "(printf '%s\\n%s\\n' " +
                    shell_quote(R"({"op":"c","after":{"customer_id":1,"name":"a"}})") + " " +
                    shell_quote(R"({"op":"c","after":{"customer_id":2,"name":"b"}})") +
                    "; sleep 2; printf '%s\\n' " +
                    shell_quote(R"({"op":"c","after":{"customer_id":3,"name":"c"}})") + ") | " +
                    floe("cdc shop.customers --key customer_id --batch-ms 200 -") + " 2>&1";
  int code = -1;
  std::string out = floe::test_support::run_command(cmd, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(out.find("applied 3 change records to shop.customers (3 upserts, 0 deletes): 2 "
                     "snapshots committed"),
            std::string::npos)
      << out;
  EXPECT_EQ(rows("SELECT summary['added-records'] AS n FROM shop.customers.snapshots ORDER BY "
                 "committed_at")
                .size(),
            2u);
  EXPECT_EQ(customers().size(), 3u);
}

TEST_F(CliCdc, BadRecordNamesItsLine) {
  std::string changes = file("bad.jsonl", R"({"op":"c","after":{"customer_id":1,"name":"Ann"}})"
                                          "\n"
                                          R"({"op":"c","after":{"customer_id":2,"name":"Bob"}})"
                                          "\n"
                                          R"({"op":"c","after":{"customer_id":3,"name":"Cy"}})"
                                          "\n"
                                          R"({"op":"t","after":{"customer_id":4}})"
                                          "\n");
  auto r = run_floe("--warehouse " + shell_quote(warehouse_) +
                    " cdc shop.customers --key customer_id --batch-rows 2 " + shell_quote(changes));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("bad.jsonl line 4: unknown op \"t\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nothing of its batch (from line 3) was committed, 1 batch before it (2 "
                       "records, up to snapshot "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(customers(), (std::vector<std::string>{R"(1,"Ann",null)", R"(2,"Bob",null)"}));

  // Without --key the table's identifier fields are the key; it has none.
  r = run_floe("--warehouse " + shell_quote(warehouse_) + " cdc shop.customers " +
               shell_quote(changes));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("has no identifier fields: name the key columns (floe cdc --key COL)"),
            std::string::npos)
      << r.out;
  // The key must cover the partition source (here it is customer_id itself; name is not).
  r = run_floe("--warehouse " + shell_quote(warehouse_) + " cdc shop.customers --key name " +
               shell_quote(changes));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("comes from column customer_id, which is not a key column"),
            std::string::npos)
      << r.out;
  r = run_floe("--warehouse " + shell_quote(warehouse_) +
               " cdc shop.customers --key customer_id --batch-rows 0 " + shell_quote(changes));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("--batch-rows) must be at least 1"), std::string::npos) << r.out;
}

}  // namespace
