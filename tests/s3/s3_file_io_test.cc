// The S3 FileIO (floe/io/s3_file_io.h) against a real SigV4-verifying S3 server
// (scripts/start-s3): whole and ranged reads, HEAD, PUT, multipart uploads, deletes one by one
// and in batches, paginated listings, keys that need encoding, errors that name the key and
// the S3 code without the secret, and retries through injected 503s, resets and timeouts.
#include "floe/io/s3_file_io.h"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "s3/s3_test_util.h"

namespace floe {
namespace {

using s3_testing::server_options;
using s3_testing::unique_prefix;

FileIOPtr s3_io(S3Options o = server_options()) {
  auto io = make_s3_file_io(std::move(o));
  EXPECT_TRUE(io.ok()) << io.status().to_string();
  return io.ok() ? *io : nullptr;
}

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

TEST(S3FileIO, WritesReadsRangesAndDeletes) {
  FLOE_REQUIRE_S3_SERVER();
  FileIOPtr io = s3_io();
  const std::string dir = unique_prefix("basic");
  const std::string path = dir + "/data/file.bin";
  const std::string data = random_bytes(100000, 1);
  ASSERT_TRUE(io->write_file(path, data).ok());
  EXPECT_EQ(*io->read_file(path), data);
  EXPECT_EQ(*io->file_size(path), 100000);
  EXPECT_TRUE(*io->exists(path));
  // A Parquet footer read: the last 8 bytes, and a range in the middle.
  EXPECT_EQ(*io->read_range(path, 99992, 8), data.substr(99992));
  EXPECT_EQ(*io->read_range(path, 12345, 1000), data.substr(12345, 1000));
  Buffer buf;
  ASSERT_TRUE(io->read_range_into(path, 7, 3, &buf).ok());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buf.data()), buf.size()), data.substr(7, 3));
  EXPECT_EQ(*io->read_range(path, 0, 0), "");
  // Past the end: an error, not a short read.
  auto past = io->read_range(path, 99990, 100);
  EXPECT_FALSE(past.ok());
  // Overwrite replaces the whole object.
  ASSERT_TRUE(io->write_file(path, "short").ok());
  EXPECT_EQ(*io->read_file(path), "short");
  ASSERT_TRUE(io->delete_file(path).ok());
  EXPECT_FALSE(*io->exists(path));
  auto missing = io->read_file(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().kind(), ErrorKind::kNotFound);
  EXPECT_NE(missing.status().message().find(path), std::string::npos);
  EXPECT_EQ(io->file_size(path).status().kind(), ErrorKind::kNotFound);
  // Requests were counted.
  auto c = io->counters().snapshot();
  EXPECT_GE(c.read_requests, 5);
  EXPECT_GE(c.write_requests, 2);
  EXPECT_GE(c.bytes_read, 100000 + 8 + 1000);
}

// Short ranged reads fetch ahead: the column chunks of a row group, side by side, cost one GET.
// A rewrite of the file through the same FileIO is never served from stale bytes.
TEST(S3FileIO, ReadAheadServesNearbyRanges) {
  FLOE_REQUIRE_S3_SERVER();
  S3Options o = server_options();
  o.read_ahead_bytes = 256 << 10;
  FileIOPtr io = s3_io(o);
  const std::string path = unique_prefix("ahead") + "/f.bin";
  const std::string data = random_bytes(1 << 20, 5);
  ASSERT_TRUE(io->write_file(path, data).ok());
  auto before = io->counters().snapshot();
  for (int64_t at = 0; at < (200 << 10); at += 20000) {
    EXPECT_EQ(*io->read_range(path, at, 15000), data.substr(static_cast<size_t>(at), 15000));
  }
  EXPECT_EQ((io->counters().snapshot() - before).read_requests, 1);
  // Bytes are served once, front to back: reading the start again is a GET again.
  EXPECT_EQ(*io->read_range(path, 0, 100), data.substr(0, 100));
  EXPECT_EQ((io->counters().snapshot() - before).read_requests, 2);
  // Past what was fetched: a GET; the end of the file: what is there, then an error.
  EXPECT_EQ(*io->read_range(path, 300000, 100), data.substr(300000, 100));
  EXPECT_EQ(*io->read_range(path, (1 << 20) - 10, 10), data.substr((1 << 20) - 10));
  EXPECT_FALSE(io->read_range(path, (1 << 20) - 10, 11).ok());
  EXPECT_EQ((io->counters().snapshot() - before).read_requests, 5);
  // Rewritten: the new bytes.
  const std::string other = random_bytes(1 << 20, 6);
  ASSERT_TRUE(io->write_file(path, other).ok());
  EXPECT_EQ(*io->read_range(path, 100, 1000), other.substr(100, 1000));
  // Off: exact ranges, one GET each.
  o.read_ahead_bytes = 0;
  FileIOPtr exact = s3_io(o);
  before = exact->counters().snapshot();
  EXPECT_EQ(*exact->read_range(path, 0, 10), other.substr(0, 10));
  EXPECT_EQ(*exact->read_range(path, 10, 10), other.substr(10, 10));
  const auto used = exact->counters().snapshot() - before;
  EXPECT_EQ(used.read_requests, 2);
  EXPECT_EQ(used.bytes_read, 20);
  ASSERT_TRUE(io->delete_file(path).ok());
}

// Keys with spaces, '+', '=', '~', '%', unicode and a leading dot sign and round-trip, and the
// listing gives them back as written.
TEST(S3FileIO, KeysThatNeedEncoding) {
  FLOE_REQUIRE_S3_SERVER();
  FileIOPtr io = s3_io();
  const std::string dir = unique_prefix("keys");
  const std::vector<std::string> names = {"a b.txt",
                                          "plus+sign",
                                          "eq=ual&amp",
                                          "tilde~x",
                                          "percent%41",
                                          "\xc3\xbc"
                                          "ber/caf\xc3\xa9",
                                          ".hidden",
                                          "x/y/z/deep",
                                          "quote'\"<>"};
  for (size_t i = 0; i < names.size(); ++i) {
    ASSERT_TRUE(io->write_file(dir + "/" + names[i], "v" + std::to_string(i)).ok()) << names[i];
  }
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(*io->read_file(dir + "/" + names[i]), "v" + std::to_string(i)) << names[i];
  }
  auto listed = io->list(dir);
  ASSERT_TRUE(listed.ok()) << listed.status().to_string();
  std::vector<std::string> got, want;
  for (const auto& f : *listed) got.push_back(f.path);
  for (const auto& n : names) want.push_back(dir + "/" + n);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  std::vector<std::string> all(want);
  ASSERT_TRUE(io->delete_files(all).ok());
  EXPECT_TRUE(io->list(dir)->empty());
}

// More than one page of ListObjectsV2 (1,000 keys a page): every key, once, sorted, with sizes
// and modification times, the answers' bytes counted; a prefix lists as a directory ("d" does
// not list "d2/x").
TEST(S3FileIO, ListingPagesThroughMoreThanAThousandKeys) {
  FLOE_REQUIRE_S3_SERVER();
  FileIOPtr io = s3_io();
  const std::string dir = unique_prefix("list");
  constexpr int kKeys = 1234;
  std::vector<std::thread> threads;
  std::atomic<int> next{0}, failures{0};
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&] {
      for (int i = next++; i < kKeys; i = next++) {
        if (!io->write_file(dir + "/d/" + fmt::format("{:05d}", i), std::string(i % 7, 'x')).ok()) {
          failures++;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(failures.load(), 0);
  ASSERT_TRUE(io->write_file(dir + "/d2/other", "x").ok());
  const auto before = io->counters().snapshot();
  auto listed = io->list(dir + "/d");
  ASSERT_TRUE(listed.ok()) << listed.status().to_string();
  ASSERT_EQ(listed->size(), static_cast<size_t>(kKeys));
  for (int i = 0; i < kKeys; ++i) {
    EXPECT_EQ((*listed)[i].path, dir + "/d/" + fmt::format("{:05d}", i));
    EXPECT_EQ((*listed)[i].size, i % 7);
    EXPECT_GT((*listed)[i].modified_ms, 1700000000000LL);
  }
  // Two pages at least, whose answers count as bytes read (over 40 bytes a key: the key and
  // its size, date and ETag), though not as read requests.
  const auto listing = io->counters().snapshot() - before;
  EXPECT_GE(listing.metadata_requests, 2);
  EXPECT_GT(listing.bytes_read, kKeys * 40);
  EXPECT_EQ(listing.read_requests, 0);
  // One DeleteObjects request per 1,000 keys.
  std::vector<std::string> paths;
  for (const auto& f : *listed) paths.push_back(f.path);
  const auto before_delete = io->counters().snapshot();
  ASSERT_TRUE(io->delete_files(paths).ok());
  EXPECT_EQ((io->counters().snapshot() - before_delete).metadata_requests, 2);
  EXPECT_TRUE(io->list(dir + "/d")->empty());
  EXPECT_EQ(io->list(dir)->size(), 1u);
}

// A file over the multipart threshold goes up in parts (in parallel) and reads back equal,
// written whole or through a stream in odd-sized pieces.
TEST(S3FileIO, MultipartUploadsReadBackEqual) {
  FLOE_REQUIRE_S3_SERVER();
  S3Options o = server_options();
  o.multipart_part_size = 5 << 20;
  o.multipart_threshold = 6 << 20;
  FileIOPtr io = s3_io(o);
  const std::string dir = unique_prefix("multipart");
  const std::string data = random_bytes((17 << 20) + 12345, 7);
  const auto before = io->counters().snapshot();
  ASSERT_TRUE(io->write_file(dir + "/whole.bin", data).ok());
  // 4 parts, each its own request.
  EXPECT_EQ((io->counters().snapshot() - before).write_requests, 4);
  EXPECT_EQ(*io->read_file(dir + "/whole.bin"), data);

  auto out = io->open_output(dir + "/stream.bin");
  ASSERT_TRUE(out.ok());
  for (size_t at = 0; at < data.size(); at += 777777) {
    ASSERT_TRUE((*out)->write(std::string_view(data).substr(at, 777777)).ok());
  }
  EXPECT_EQ((*out)->position(), static_cast<int64_t>(data.size()));
  // Nothing is visible before close.
  EXPECT_FALSE(*io->exists(dir + "/stream.bin"));
  ASSERT_TRUE((*out)->close().ok());
  EXPECT_EQ(*io->file_size(dir + "/stream.bin"), static_cast<int64_t>(data.size()));
  EXPECT_EQ(*io->read_range(dir + "/stream.bin", (10 << 20) - 5, 100),
            data.substr((10 << 20) - 5, 100));
  EXPECT_EQ(*io->read_file(dir + "/stream.bin"), data);

  // A stream dropped without close() leaves nothing, and its upload is aborted.
  {
    auto dropped = io->open_output(dir + "/dropped.bin");
    ASSERT_TRUE(dropped.ok());
    ASSERT_TRUE((*dropped)->write(data).ok());
  }
  EXPECT_FALSE(*io->exists(dir + "/dropped.bin"));
  ASSERT_TRUE(io->delete_files({dir + "/whole.bin", dir + "/stream.bin"}).ok());
}

// The size: 200 MB by multipart, read back equal (in 16 MB ranges).
TEST(S3FileIO, TwoHundredMegabytesByMultipart) {
  FLOE_REQUIRE_S3_SERVER();
  FileIOPtr io = s3_io();
  const std::string path = unique_prefix("big") + "/200mb.bin";
  const std::string data = random_bytes(200 << 20, 11);
  const auto before = io->counters().snapshot();
  ASSERT_TRUE(io->write_file(path, data).ok());
  EXPECT_EQ((io->counters().snapshot() - before).write_requests, 7);  // 32 MB parts
  ASSERT_EQ(*io->file_size(path), 200 << 20);
  const int64_t chunk = 16 << 20;
  for (int64_t at = 0; at < (200 << 20); at += chunk) {
    const int64_t n = std::min(chunk, (200 << 20) - at);
    auto part = io->read_range(path, at, n);
    ASSERT_TRUE(part.ok()) << part.status().to_string();
    ASSERT_TRUE(*part == std::string_view(data).substr(static_cast<size_t>(at), n))
        << "range at " << at;
  }
  ASSERT_TRUE(io->delete_file(path).ok());
}

// A wrong secret: 403 SignatureDoesNotMatch, the key named, the secret nowhere.
TEST(S3FileIO, WrongSecretIsSignatureDoesNotMatch) {
  FLOE_REQUIRE_S3_SERVER();
  S3Options o = server_options();
  o.secret_access_key = "not-the-secret-Zq81x";
  FileIOPtr io = s3_io(o);
  const std::string path = unique_prefix("secret") + "/k.txt";
  Status st = io->write_file(path, "x");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("SignatureDoesNotMatch"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("403"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("/k.txt"), std::string::npos) << st.message();
  EXPECT_EQ(st.message().find("not-the-secret-Zq81x"), std::string::npos) << st.message();
  auto read = io->read_file(path);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message().find("not-the-secret-Zq81x"), std::string::npos);
  // 4xx is not retried.
  EXPECT_EQ(io->counters().snapshot().retried_requests, 0);
}

// A share of requests fails with 503, SlowDown, resets or timeouts: everything still succeeds
// through retries. When every attempt fails, the error says so and names the key.
TEST(S3FileIO, RetriesTransientFailures) {
  FLOE_REQUIRE_S3_SERVER();
  S3Options o = server_options();
  o.retry_base_delay_ms = 1;
  o.retry_max_delay_ms = 5;
  o.multipart_part_size = 5 << 20;
  o.multipart_threshold = 6 << 20;
  std::atomic<int64_t> calls{0};
  o.inject_fault = [&](std::string_view, std::string_view) {
    const int64_t n = calls++;
    switch (n % 10) {
      case 1:
        return S3Options::Fault::kServiceUnavailable;
      case 4:
        return S3Options::Fault::kReset;
      case 6:
        return S3Options::Fault::kSlowDown;
      case 8:
        return S3Options::Fault::kTimeout;
      default:
        return S3Options::Fault::kNone;
    }
  };
  FileIOPtr io = s3_io(o);
  const std::string dir = unique_prefix("retry");
  const std::string big = random_bytes(13 << 20, 3);
  for (int i = 0; i < 20; ++i) {
    const std::string path = dir + "/f" + std::to_string(i);
    ASSERT_TRUE(io->write_file(path, "value " + std::to_string(i)).ok());
    EXPECT_EQ(*io->read_file(path), "value " + std::to_string(i));
    EXPECT_EQ(*io->read_range(path, 6, 1), std::to_string(i).substr(0, 1));
  }
  ASSERT_TRUE(io->write_file(dir + "/big", big).ok());
  EXPECT_EQ(*io->read_file(dir + "/big"), big);
  EXPECT_EQ(io->list(dir)->size(), 21u);
  EXPECT_GT(io->counters().snapshot().retried_requests, 10);

  // Every request fails: the budget runs out.
  S3Options dead = server_options();
  dead.retry_base_delay_ms = 1;
  dead.retry_max_delay_ms = 2;
  dead.max_attempts = 3;
  std::atomic<int> attempts{0};
  dead.inject_fault = [&](std::string_view, std::string_view) {
    attempts++;
    return S3Options::Fault::kServiceUnavailable;
  };
  FileIOPtr broken = s3_io(dead);
  Status st = broken->write_file(dir + "/never", "x");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(attempts.load(), 3);
  EXPECT_NE(st.message().find("503"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("/never"), std::string::npos) << st.message();
  EXPECT_FALSE(*io->exists(dir + "/never"));
}

// A part that keeps failing fails the upload, which is aborted: no object appears.
TEST(S3FileIO, FailedPartAbortsTheUpload) {
  FLOE_REQUIRE_S3_SERVER();
  S3Options o = server_options();
  o.retry_base_delay_ms = 1;
  o.retry_max_delay_ms = 2;
  o.max_attempts = 3;
  o.multipart_part_size = 5 << 20;
  o.multipart_threshold = 6 << 20;
  std::atomic<int> aborts{0}, completes{0};
  o.inject_fault = [&](std::string_view method, std::string_view url) {
    if (method == "DELETE" && url.find("uploadId=") != std::string_view::npos) aborts++;
    if (method == "POST" && url.find("uploadId=") != std::string_view::npos) completes++;
    if (method == "PUT" && url.find("partNumber=2&") != std::string_view::npos) {
      return S3Options::Fault::kServiceUnavailable;
    }
    return S3Options::Fault::kNone;
  };
  FileIOPtr io = s3_io(o);
  const std::string path = unique_prefix("abort") + "/f.bin";
  Status st = io->write_file(path, random_bytes(13 << 20, 9));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("503"), std::string::npos) << st.message();
  EXPECT_EQ(aborts.load(), 1);
  EXPECT_EQ(completes.load(), 0);
  EXPECT_FALSE(*io->exists(path));
}

// Options from Iceberg's properties and the AWS_* environment; bad values are errors.
TEST(S3FileIO, OptionsFromPropertiesAndEnvironment) {
  setenv("AWS_ACCESS_KEY_ID", "env-key", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "env-secret", 1);
  setenv("AWS_REGION", "eu-west-3", 1);
  setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9", 1);
  auto o = S3Options::from_properties({});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->access_key_id, "env-key");
  EXPECT_EQ(o->region, "eu-west-3");
  EXPECT_EQ(o->endpoint, "http://127.0.0.1:9");
  EXPECT_TRUE(o->path_style);  // not AWS: path-style
  o = S3Options::from_properties({{"s3.access-key-id", "k"},
                                  {"s3.secret-access-key", "s"},
                                  {"s3.endpoint", "https://s3.eu-west-3.amazonaws.com"},
                                  {"client.region", "eu-west-3"},
                                  {"s3.multipart.part-size-bytes", "8388608"}});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->access_key_id, "k");
  EXPECT_FALSE(o->path_style);
  EXPECT_EQ(o->multipart_part_size, 8388608);
  EXPECT_EQ(o->multipart_threshold, 8388608 * 3 / 2);
  EXPECT_FALSE(S3Options::from_properties({{"s3.path-style-access", "maybe"}}).ok());
  EXPECT_FALSE(S3Options::from_properties({{"s3.multipart.part-size-bytes", "1000"}}).ok());
  unsetenv("AWS_SECRET_ACCESS_KEY");
  auto half = S3Options::from_properties({});
  ASSERT_FALSE(half.ok());
  EXPECT_NE(half.status().message().find("secret access key"), std::string::npos);
  unsetenv("AWS_ACCESS_KEY_ID");
  unsetenv("AWS_REGION");
  unsetenv("AWS_ENDPOINT_URL");
  EXPECT_FALSE(make_s3_file_io(S3Options{}).ok());
  EXPECT_TRUE(is_s3_uri("s3a://b/k"));
  EXPECT_FALSE(is_s3_uri("/tmp/s3://x"));
}

}  // namespace
}  // namespace floe
