// S3-compatible object storage as a FileIO: `s3://bucket/key` (also `s3a://`, `s3n://`) over
// HTTP with floe's own AWS Signature V4 signer. Ranged GETs (Parquet footers, Puffin blobs),
// HEAD, PUT, multipart uploads for large files (parts in parallel, aborted on failure), DELETE
// and batch DeleteObjects, and paginated ListObjectsV2 for maintenance only (scan planning never
// lists; the answers' bytes count as bytes read). Connections are pooled and reused; requests that
// fail with 500, 503, SlowDown, a timeout or a reset are retried with exponential backoff and
// jitter, never a 4xx. Errors name the bucket, the key and the S3 error code; credentials never
// appear in an error or a log.
//
// S3 has no atomic rename and (on most servers) no create-if-absent: every object is written
// once under a fresh name and the catalog's compare-and-swap makes a commit atomic.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "floe/io/file_io.h"

namespace floe {

struct S3Options {
  // "http://127.0.0.1:9000" or "https://s3.eu-west-1.amazonaws.com"; empty: AWS's endpoint of
  // the region.
  std::string endpoint;
  std::string region = "us-east-1";
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  // Path-style (endpoint/bucket/key) rather than virtual-hosted (bucket.endpoint/key).
  bool path_style = false;
  int max_connections = 64;
  int max_attempts = 6;              // first try included
  int64_t retry_base_delay_ms = 50;  // doubled per attempt, full jitter
  int64_t retry_max_delay_ms = 5000;
  int64_t connect_timeout_ms = 5000;
  int64_t request_timeout_ms = 120000;
  // Files of at least this many bytes go up in parts of multipart_part_size, `upload_threads`
  // parts at a time (Iceberg's s3.multipart.threshold is 1.5 parts).
  int64_t multipart_part_size = 32LL << 20;
  int64_t multipart_threshold = 48LL << 20;
  int upload_threads = 4;
  // A ranged read shorter than this fetches this much from its offset and keeps it for the
  // reads that follow inside (0: exact ranges); at most read_ahead_cache_bytes are kept.
  int64_t read_ahead_bytes = 1LL << 20;
  int64_t read_ahead_cache_bytes = 64LL << 20;
  // Keys per DeleteObjects request (S3 allows 1000).
  int delete_batch_size = 1000;

  // Tests only: called before each HTTP request is sent (method, URL); a fault it returns
  // happens instead of the request, as if the network or the server had failed.
  enum class Fault { kNone, kServiceUnavailable, kSlowDown, kReset, kTimeout };
  std::function<Fault(std::string_view method, std::string_view url)> inject_fault;

  // From Iceberg's catalog and table properties (s3.endpoint, s3.access-key-id,
  // s3.secret-access-key, s3.session-token, s3.path-style-access, client.region,
  // s3.multipart.part-size-bytes, s3.multipart.threshold, s3.delete.batch-size), falling back
  // to the AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION (or
  // AWS_DEFAULT_REGION) and AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3) variables. An endpoint
  // other than AWS's defaults to path-style, as MinIO and most S3-compatible servers need.
  static Result<S3Options> from_properties(const std::map<std::string, std::string>& properties);
};

// True for s3://, s3a:// and s3n:// locations.
bool is_s3_uri(std::string_view location);

// A FileIO for S3 locations only (a local path is an error).
Result<FileIOPtr> make_s3_file_io(S3Options options);

// The FileIO for a warehouse or table location: S3 for S3 URIs (options from `properties` and
// the environment), local disk otherwise.
Result<FileIOPtr> make_file_io_for(std::string_view location,
                                   const std::map<std::string, std::string>& properties = {});

}  // namespace floe
