// S3-compatible object storage as a FileIO (floe/io/s3_file_io.h): requests signed by
// src/io/aws_sigv4.cc, sent by src/io/http_client.cc, retried here.
#include "floe/io/s3_file_io.h"

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <future>
#include <mutex>
#include <random>
#include <span>
#include <thread>

#include "floe/io/http_client.h"
#include "floe/util/binary_text.h"
#include "io/aws_sigv4_internal.h"
#include "io/s3_xml_internal.h"

namespace floe {

namespace {

// s3://bucket/key split; `scheme` kept so listed paths come back as they were asked for.
struct S3Path {
  std::string scheme;  // "s3", "s3a" or "s3n"
  std::string bucket;
  std::string key;

  std::string uri(std::string_view key_) const {
    return scheme + "://" + bucket + "/" + std::string(key_);
  }
};

Result<S3Path> parse_s3_path(std::string_view uri) {
  const size_t sep = uri.find("://");
  if (sep == std::string_view::npos || !is_s3_uri(uri)) {
    return invalid_argument("not an S3 location (s3://bucket/key): {}", uri);
  }
  S3Path p;
  p.scheme = std::string(uri.substr(0, sep));
  std::string_view rest = uri.substr(sep + 3);
  const size_t slash = rest.find('/');
  p.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) p.key = std::string(rest.substr(slash + 1));
  if (p.bucket.empty()) return invalid_argument("S3 location without a bucket: {}", uri);
  return p;
}

// "2026-12-03T19:00:00.000Z" as milliseconds since the epoch (0 when unreadable).
int64_t parse_iso8601_ms(std::string_view s) {
  std::tm tm{};
  int ms = 0;
  const std::string text(s);
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6) {
    return 0;
  }
  const size_t dot = text.find('.');
  if (dot != std::string::npos) {
    int digits = 0;
    for (size_t i = dot + 1;
         i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits < 3;
         ++i, ++digits) {
      ms = ms * 10 + (text[i] - '0');
    }
    while (digits++ < 3) ms *= 10;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1000 + ms;
}

std::string md5_base64(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(data.data(), data.size(), digest, &n, EVP_md5(), nullptr);
  return base64_encode(std::string_view(reinterpret_cast<const char*>(digest), n));
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// What a failed request says: "403 SignatureDoesNotMatch: The request signature ...".
struct S3Error {
  long status = 0;
  std::string code;
  std::string message;
};

S3Error error_of(const HttpResponse& r) {
  S3Error e;
  e.status = r.status;
  e.code = internal::xml_text(r.body, "Code");
  e.message = internal::xml_text(r.body, "Message");
  if (e.code.empty()) {
    switch (r.status) {
      case 404:
        e.code = "NoSuchKey";
        break;
      case 403:
        e.code = "AccessDenied";
        break;
      default:
        e.code = "HTTP " + std::to_string(r.status);
    }
  }
  return e;
}

// Server trouble that may pass: 500, 502, 503 (SlowDown among them), 504, and the codes S3
// sends for it. Never a 4xx nor 501 Not Implemented (a conditional PUT on some servers).
bool retryable(const S3Error& e) {
  return e.status == 500 || e.status == 502 || e.status == 503 || e.status == 504 ||
         e.code == "SlowDown" || e.code == "RequestTimeout" || e.code == "InternalError";
}

class S3FileIO;

// Writes a file front to back: one PUT when it stays under the multipart threshold, else a
// multipart upload whose parts go up `upload_threads` at a time while the writer goes on.
class S3OutputStream final : public OutputStream {
 public:
  S3OutputStream(S3FileIO* io, S3Path path, WriteMode mode)
      : io_(io), path_(std::move(path)), mode_(mode) {}
  ~S3OutputStream() override;

  Status write(std::string_view data) override;
  Status close() override;

 private:
  Status start_upload();
  Status upload_part(std::string part);
  Status wait_oldest();
  void abort_upload();

  S3FileIO* io_;
  S3Path path_;
  WriteMode mode_;
  std::string buffer_;
  std::string upload_id_;
  int next_part_ = 1;
  std::deque<std::future<Result<std::pair<int, std::string>>>> pending_;
  std::vector<std::pair<int, std::string>> etags_;  // part number, ETag
  bool closed_ = false;
  bool failed_ = false;
};

class S3FileIO final : public FileIO {
 public:
  explicit S3FileIO(S3Options options)
      : options_(std::move(options)),
        http_(HttpClientOptions{options_.max_connections, options_.connect_timeout_ms,
                                options_.request_timeout_ms, 30}) {
    std::string endpoint = options_.endpoint;
    if (endpoint.empty()) endpoint = "https://s3." + options_.region + ".amazonaws.com";
    const size_t sep = endpoint.find("://");
    if (sep == std::string::npos) {
      scheme_ = "https";
      host_ = endpoint;
    } else {
      scheme_ = endpoint.substr(0, sep);
      host_ = endpoint.substr(sep + 3);
    }
    while (!host_.empty() && host_.back() == '/') host_.pop_back();
    credentials_.access_key_id = options_.access_key_id;
    credentials_.secret_access_key = options_.secret_access_key;
    credentials_.session_token = options_.session_token;
  }

  const S3Options& options() const { return options_; }

  Result<std::string> read_file(std::string_view path) override {
    S3Path p = FLOE_TRY(parse_s3_path(path));
    Buffer body;
    HttpResponse r = FLOE_TRY(request("GET", p, {}, {}, {}, &body));
    if (r.status != 200) return failure("GET", p, r);
    counters_.read_requests++;
    counters_.bytes_read += static_cast<int64_t>(body.size());
    return std::string(reinterpret_cast<const char*>(body.data()), body.size());
  }

  Result<std::string> read_range(std::string_view path, int64_t offset, int64_t length) override {
    Buffer out;
    FLOE_TRY(read_range_into(path, offset, length, &out));
    return std::string(reinterpret_cast<const char*>(out.data()), out.size());
  }

  // A short read fetches read_ahead_bytes from its offset (less at the end of the file) and
  // keeps the rest: the next reads inside come from memory (a Parquet row group's column chunks
  // lie side by side, so one GET serves several).
  Status read_range_into(std::string_view path, int64_t offset, int64_t length,
                         Buffer* out) override {
    S3Path p = FLOE_TRY(parse_s3_path(path));
    if (offset < 0 || length < 0) {
      return invalid_argument("read {}: bad range offset {} length {}", path, offset, length);
    }
    out->clear();
    if (length == 0) return Status::OK();
    if (copy_read_ahead(path, offset, length, out)) return Status::OK();
    const int64_t ahead = options_.read_ahead_bytes;
    if (length >= ahead) return fetch_range(p, path, offset, length, length, out);
    auto bytes = std::make_shared<Buffer>();
    FLOE_TRY(fetch_range(p, path, offset, ahead, length, bytes.get()));
    out->resize(static_cast<size_t>(length));
    std::memcpy(out->data(), bytes->data(), static_cast<size_t>(length));
    keep_read_ahead(path, offset, length, std::move(bytes));
    return Status::OK();
  }

  // GET of [offset, offset + want), of which at least `need` bytes must exist.
  Status fetch_range(const S3Path& p, std::string_view path, int64_t offset, int64_t want,
                     int64_t need, Buffer* out) {
    out->clear();
    out->reserve(static_cast<size_t>(want));
    HttpHeaders headers = {
        {"range", "bytes=" + std::to_string(offset) + "-" + std::to_string(offset + want - 1)}};
    HttpResponse r = FLOE_TRY(request("GET", p, {}, headers, {}, out));
    if (r.status == 416) {
      return invalid_argument("read {}: range [{}, {}) passes the end of the file", path, offset,
                              offset + need);
    }
    if (r.status != 206 && r.status != 200) return failure("GET", p, r);
    counters_.read_requests++;
    counters_.bytes_read += static_cast<int64_t>(out->size());
    if (r.status == 200) {
      // A server that ignores Range sends the whole object: keep the slice asked for.
      const int64_t size = static_cast<int64_t>(out->size());
      if (size < offset + need) {
        return invalid_argument("read {}: range [{}, {}) passes the end of the file ({} bytes)",
                                path, offset, offset + need, size);
      }
      const int64_t keep = std::min(want, size - offset);
      std::memmove(out->data(), out->data() + offset, static_cast<size_t>(keep));
      out->resize(static_cast<size_t>(keep));
    }
    if (static_cast<int64_t>(out->size()) < need) {
      return invalid_argument("read {}: range [{}, {}) passes the end of the file", path, offset,
                              offset + need);
    }
    out->resize(static_cast<size_t>(std::min<int64_t>(want, static_cast<int64_t>(out->size()))));
    return Status::OK();
  }

  // Bytes fetched ahead are used once, front to back: a read inside them takes its bytes and
  // everything before (a row group's chunks are read in file order), so a later query reads
  // from S3 again rather than from memory, and an entry read to its end is dropped.
  bool copy_read_ahead(std::string_view path, int64_t offset, int64_t length, Buffer* out) {
    std::lock_guard lock(ahead_mu_);
    for (auto it = ahead_.begin(); it != ahead_.end(); ++it) {
      const int64_t end = it->start + static_cast<int64_t>(it->bytes->size());
      if (it->path != path || offset < it->unread || offset + length > end) continue;
      out->resize(static_cast<size_t>(length));
      std::memcpy(out->data(), it->bytes->data() + (offset - it->start),
                  static_cast<size_t>(length));
      it->unread = offset + length;
      it->used = ++ahead_clock_;
      if (it->unread >= end) {
        ahead_bytes_ -= static_cast<int64_t>(it->bytes->size());
        ahead_.erase(it);
      }
      return true;
    }
    return false;
  }

  // `bytes` fetched from `start`, of which the first `used` bytes went to the read that fetched
  // them.
  void keep_read_ahead(std::string_view path, int64_t start, int64_t used,
                       std::shared_ptr<Buffer> bytes) {
    if (used >= static_cast<int64_t>(bytes->size())) return;  // nothing ahead: end of file
    std::lock_guard lock(ahead_mu_);
    ahead_bytes_ += static_cast<int64_t>(bytes->size());
    ahead_.push_back({std::string(path), start, start + used, std::move(bytes), ++ahead_clock_});
    while (ahead_bytes_ > options_.read_ahead_cache_bytes && !ahead_.empty()) {
      auto oldest = std::min_element(ahead_.begin(), ahead_.end(),
                                     [](const auto& x, const auto& y) { return x.used < y.used; });
      ahead_bytes_ -= static_cast<int64_t>(oldest->bytes->size());
      ahead_.erase(oldest);
    }
  }

  // A file written or deleted through this FileIO: its read-ahead is stale.
  void forget(std::string_view path) {
    std::lock_guard lock(ahead_mu_);
    for (auto it = ahead_.begin(); it != ahead_.end();) {
      if (it->path == path) {
        ahead_bytes_ -= static_cast<int64_t>(it->bytes->size());
        it = ahead_.erase(it);
      } else {
        ++it;
      }
    }
  }

  Result<int64_t> file_size(std::string_view path) override {
    S3Path p = FLOE_TRY(parse_s3_path(path));
    HttpResponse r = FLOE_TRY(request("HEAD", p, {}, {}, {}));
    counters_.metadata_requests++;
    if (r.status != 200) return failure("HEAD", p, r);
    const std::string* len = r.header("content-length");
    if (!len) return io_error("HEAD {}: no Content-Length in the answer", path);
    return static_cast<int64_t>(std::strtoll(len->c_str(), nullptr, 10));
  }

  Result<bool> exists(std::string_view path) override {
    S3Path p = FLOE_TRY(parse_s3_path(path));
    HttpResponse r = FLOE_TRY(request("HEAD", p, {}, {}, {}));
    counters_.metadata_requests++;
    if (r.status == 200) return true;
    if (r.status == 404) return false;
    return failure("HEAD", p, r);
  }

  Status write_file(std::string_view path, std::string_view data, WriteMode mode) override {
    S3Path p = FLOE_TRY(parse_s3_path(path));
    forget(path);
    if (static_cast<int64_t>(data.size()) >= options_.multipart_threshold) {
      S3OutputStream stream(this, p, mode);
      FLOE_TRY(stream.write(data));
      return stream.close();
    }
    return put_object(p, data, mode);
  }

  Result<std::unique_ptr<OutputStream>> open_output(std::string_view path,
                                                    WriteMode mode) override {
    S3Path p = FLOE_TRY(parse_s3_path(path));
    forget(path);
    return std::unique_ptr<OutputStream>(std::make_unique<S3OutputStream>(this, p, mode));
  }

  // S3 answers 204 whether or not the key existed, so deleting a missing key succeeds here.
  Status delete_file(std::string_view path) override {
    S3Path p = FLOE_TRY(parse_s3_path(path));
    forget(path);
    HttpResponse r = FLOE_TRY(request("DELETE", p, {}, {}, {}));
    counters_.metadata_requests++;
    counters_.delete_requests++;
    if (r.status == 204 || r.status == 200) return Status::OK();
    if (r.status == 404) return not_found("DELETE: file not found: {}", path);
    return failure("DELETE", p, r);
  }

  // DeleteObjects, up to delete_batch_size keys a request, per bucket.
  bool bulk_deletes() const override { return true; }

  Status delete_files(const std::vector<std::string>& paths,
                      std::vector<std::string>* failed) override {
    std::map<std::string, std::vector<S3Path>> by_bucket;
    for (const auto& path : paths) {
      S3Path p = FLOE_TRY(parse_s3_path(path));
      forget(path);
      by_bucket[p.bucket].push_back(std::move(p));
    }
    const size_t batch = static_cast<size_t>(std::max(1, options_.delete_batch_size));
    Status first;
    for (const auto& [bucket, keys] : by_bucket) {
      for (size_t at = 0; at < keys.size(); at += batch) {
        const size_t end = std::min(keys.size(), at + batch);
        Status st = delete_batch(std::span<const S3Path>(keys).subspan(at, end - at), failed);
        if (first.ok() && !st.ok()) first = st;
      }
    }
    return first;
  }

  // One DeleteObjects request for keys of one bucket; the keys not deleted go to *failed (all
  // of them when the request itself fails).
  Status delete_batch(std::span<const S3Path> keys, std::vector<std::string>* failed) {
    std::string body = "<Delete><Quiet>true</Quiet>";
    for (const auto& k : keys) {
      body += "<Object><Key>" + internal::xml_escape(k.key) + "</Key></Object>";
    }
    body += "</Delete>";
    S3Path b = keys.front();
    b.key.clear();
    HttpHeaders headers = {{"content-md5", md5_base64(body)}, {"content-type", "application/xml"}};
    auto all_failed = [&](Status st) {
      if (failed) {
        for (const auto& k : keys) failed->push_back(k.uri(k.key));
      }
      return st;
    };
    auto r = request("POST", b, {{"delete", ""}}, headers, body);
    if (!r.ok()) return all_failed(r.status());
    counters_.metadata_requests++;
    counters_.delete_requests++;
    if (r->status != 200) return all_failed(failure("DeleteObjects", b, *r));
    auto errors = internal::xml_elements(r->body, "Error");
    if (errors.empty()) return Status::OK();
    if (failed) {
      for (std::string_view e : errors) failed->push_back(b.uri(internal::xml_text(e, "Key")));
    }
    return io_error("S3 DeleteObjects in bucket {}: {} of {} keys failed; first: key {}: {} {}",
                    b.bucket, errors.size(), keys.size(), internal::xml_text(errors[0], "Key"),
                    internal::xml_text(errors[0], "Code"),
                    internal::xml_text(errors[0], "Message"));
  }

  // ListObjectsV2 under prefix/ (as a directory), every page.
  Result<std::vector<FileInfo>> list(std::string_view prefix) override {
    S3Path p = FLOE_TRY(parse_s3_path(prefix));
    std::string key_prefix = p.key;
    if (!key_prefix.empty() && key_prefix.back() != '/') key_prefix.push_back('/');
    S3Path b = p;
    b.key.clear();
    std::vector<FileInfo> out;
    std::string token;
    while (true) {
      std::vector<std::pair<std::string, std::string>> query = {{"list-type", "2"}};
      if (!key_prefix.empty()) query.emplace_back("prefix", key_prefix);
      if (!token.empty()) query.emplace_back("continuation-token", token);
      HttpResponse r = FLOE_TRY(request("GET", b, query, {}, {}));
      counters_.metadata_requests++;
      counters_.list_requests++;
      if (r.status != 200) return failure("ListObjectsV2", p, r);
      counters_.bytes_read += static_cast<int64_t>(r.body.size());
      for (std::string_view c : internal::xml_elements(r.body, "Contents")) {
        FileInfo f;
        f.path = p.uri(internal::xml_text(c, "Key"));
        f.size = std::strtoll(internal::xml_text(c, "Size").c_str(), nullptr, 10);
        f.modified_ms = parse_iso8601_ms(internal::xml_text(c, "LastModified"));
        out.push_back(std::move(f));
      }
      if (internal::xml_text(r.body, "IsTruncated") != "true") break;
      token = internal::xml_text(r.body, "NextContinuationToken");
      if (token.empty()) {
        return io_error("S3 ListObjectsV2 {}: a truncated page without a continuation token",
                        prefix);
      }
    }
    std::sort(out.begin(), out.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return out;
  }

  // --- used by S3OutputStream ---

  Status put_object(const S3Path& p, std::string_view data, WriteMode mode) {
    HttpHeaders headers;
    if (mode == WriteMode::kCreateNew && !create_new_unsupported_) {
      headers.emplace_back("if-none-match", "*");
    }
    HttpResponse r = FLOE_TRY(request("PUT", p, {}, headers, data));
    if (r.status == 501 && !headers.empty()) {
      // No conditional writes on this server (Swift's s3api): check, then write. Names written
      // with kCreateNew are fresh (a UUID each), and the catalog's compare-and-swap decides a
      // commit; the filesystem catalog, which relies on create-if-absent, refuses S3.
      create_new_unsupported_ = true;
      return put_object(p, data, mode);
    }

    if (r.status == 412) {
      return Status(ErrorKind::kAlreadyExists,
                    fmt::format("PUT {}: the file already exists", p.uri(p.key)));
    }
    if (r.status != 200) return failure("PUT", p, r);
    counters_.write_requests++;
    counters_.bytes_written += static_cast<int64_t>(data.size());
    return Status::OK();
  }

  // Sends a signed request, retrying transient failures. Any final HTTP answer is returned.
  Result<HttpResponse> request(const std::string& method, const S3Path& p,
                               std::vector<std::pair<std::string, std::string>> query,
                               const HttpHeaders& headers, std::string_view body,
                               Buffer* sink = nullptr) {
    internal::SignedRequest sr;
    sr.method = method;
    const std::string key_path = p.key.empty() ? "" : "/" + internal::uri_encode(p.key, false);
    if (options_.path_style) {
      sr.host = host_;
      sr.path = "/" + p.bucket + key_path;
    } else {
      sr.host = p.bucket + "." + host_;
      sr.path = key_path.empty() ? "/" : key_path;
    }
    sr.query = query;
    sr.headers = headers;
    sr.payload_sha256 = "UNSIGNED-PAYLOAD";
    std::string url = scheme_ + "://" + sr.host + sr.path;
    for (size_t i = 0; i < query.size(); ++i) {
      url += i == 0 ? "?" : "&";
      url += internal::uri_encode(query[i].first, true) + "=" +
             internal::uri_encode(query[i].second, true);
    }
    const bool completes_upload =
        method == "POST" && std::any_of(query.begin(), query.end(),
                                        [](const auto& q) { return q.first == "uploadId"; });
    std::mt19937_64 rng(std::random_device{}());
    int64_t delay_cap = options_.retry_base_delay_ms;
    for (int attempt = 1;; ++attempt) {
      HttpRequest hr;
      hr.method = method;
      hr.url = url;
      hr.headers = headers;
      for (auto& h :
           internal::sign_v4(sr, credentials_, options_.region, "s3", internal::amz_date_now())) {
        hr.headers.push_back(std::move(h));
      }
      hr.body = body;
      const size_t sink_start = sink ? sink->size() : 0;
      TransportError transport;
      Result<HttpResponse> r =
          options_.inject_fault ? injected(options_.inject_fault(method, url), hr, sink, &transport)
                                : http_.send(hr, sink, &transport);
      bool retry = false;
      if (!r.ok()) {
        retry = transport.transient;
      } else {
        retry = retryable(error_of(*r)) && r->status >= 300;
        if (!retry && r->status == 200 && completes_upload &&
            r->body.find("<Error>") != std::string::npos) {
          retry = true;  // CompleteMultipartUpload can fail inside a 200
        }
      }
      if (!retry || attempt >= options_.max_attempts) {
        if (!r.ok()) {
          return io_error("S3 {} {}: {}{}", method, p.uri(p.key), r.status().message(),
                          attempt > 1 ? fmt::format(" (after {} attempts)", attempt) : "");
        }
        return std::move(*r);
      }
      if (sink) sink->resize(sink_start);
      counters_.retried_requests++;
      delay_cap = std::min(options_.retry_max_delay_ms, delay_cap * 2);
      std::uniform_int_distribution<int64_t> jitter(0, std::max<int64_t>(1, delay_cap));
      std::this_thread::sleep_for(std::chrono::milliseconds(jitter(rng)));
    }
  }

  // A fault in place of the request (S3Options::inject_fault), or the request itself.
  Result<HttpResponse> injected(S3Options::Fault fault, const HttpRequest& hr, Buffer* sink,
                                TransportError* transport) {
    using Fault = S3Options::Fault;
    HttpResponse r;
    switch (fault) {
      case Fault::kNone:
        return http_.send(hr, sink, transport);
      case Fault::kServiceUnavailable:
        r.status = 503;
        r.body = "<Error><Code>ServiceUnavailable</Code><Message>injected</Message></Error>";
        return r;
      case Fault::kSlowDown:
        r.status = 503;
        r.body = "<Error><Code>SlowDown</Code><Message>injected</Message></Error>";
        return r;
      case Fault::kReset:
      case Fault::kTimeout: {
        Status st = io_error("HTTP {} {}: {}", hr.method, hr.url,
                             fault == Fault::kReset ? "Connection reset by peer (injected)"
                                                    : "Operation timed out (injected)");
        *transport = {st, true};
        return st;
      }
    }
    return http_.send(hr, sink, transport);
  }

  Status failure(std::string_view op, const S3Path& p, const HttpResponse& r) const {
    S3Error e = error_of(r);
    const std::string where =
        p.key.empty() ? "bucket " + p.bucket : "s3://" + p.bucket + "/" + p.key;
    std::string text = fmt::format("S3 {} {}: {} {}", op, where, e.status, e.code);
    if (!e.message.empty()) text += ": " + e.message;
    if (e.status == 404 && (e.code == "NoSuchKey" || e.code == "NotFound")) {
      return not_found("{}: file not found: {}", op, p.uri(p.key));
    }
    if (e.status == 404 && e.code == "NoSuchBucket") return not_found("{}", text);
    return io_error("{}", text);
  }

  HttpClient& http() { return http_; }

 private:
  S3Options options_;
  HttpClient http_;
  internal::AwsCredentials credentials_;
  std::string scheme_;
  std::string host_;
  std::atomic<bool> create_new_unsupported_{false};
  struct ReadAhead {
    std::string path;
    int64_t start = 0;   // the file offset of bytes[0]
    int64_t unread = 0;  // reads before this offset are not served again
    std::shared_ptr<Buffer> bytes;
    uint64_t used = 0;  // LRU clock
  };
  std::mutex ahead_mu_;
  std::vector<ReadAhead> ahead_;
  int64_t ahead_bytes_ = 0;
  uint64_t ahead_clock_ = 0;
};

S3OutputStream::~S3OutputStream() {
  if (!closed_ && !upload_id_.empty()) abort_upload();
}

Status S3OutputStream::write(std::string_view data) {
  if (closed_) return invalid_argument("write {}: stream is closed", path_.uri(path_.key));
  if (failed_) return io_error("write {}: an earlier part failed", path_.uri(path_.key));
  buffer_.append(data);
  position_ += static_cast<int64_t>(data.size());
  const int64_t part = io_->options().multipart_part_size;
  if (upload_id_.empty() &&
      static_cast<int64_t>(buffer_.size()) < io_->options().multipart_threshold) {
    return Status::OK();
  }
  if (upload_id_.empty()) FLOE_TRY(start_upload());
  while (static_cast<int64_t>(buffer_.size()) >= part) {
    std::string chunk = buffer_.substr(0, static_cast<size_t>(part));
    buffer_.erase(0, static_cast<size_t>(part));
    Status st = upload_part(std::move(chunk));
    if (!st.ok()) {
      failed_ = true;
      return st;
    }
  }
  return Status::OK();
}

Status S3OutputStream::start_upload() {
  HttpResponse r = FLOE_TRY(io_->request("POST", path_, {{"uploads", ""}}, {}, {}));
  if (r.status != 200) return io_->failure("CreateMultipartUpload", path_, r);
  upload_id_ = internal::xml_text(r.body, "UploadId");
  if (upload_id_.empty()) {
    return io_error("S3 CreateMultipartUpload {}: no UploadId in the answer", path_.uri(path_.key));
  }
  return Status::OK();
}

Status S3OutputStream::upload_part(std::string part) {
  while (static_cast<int>(pending_.size()) >= std::max(1, io_->options().upload_threads)) {
    FLOE_TRY(wait_oldest());
  }
  const int number = next_part_++;
  pending_.push_back(std::async(
      std::launch::async,
      [io = io_, path = path_, id = upload_id_, number,
       part = std::move(part)]() -> Result<std::pair<int, std::string>> {
        HttpResponse r = FLOE_TRY(io->request(
            "PUT", path, {{"partNumber", std::to_string(number)}, {"uploadId", id}}, {}, part));
        if (r.status != 200) return io->failure("UploadPart", path, r);
        const std::string* etag = r.header("etag");
        if (!etag) return io_error("S3 UploadPart {}: no ETag in the answer", path.uri(path.key));
        io->counters().write_requests++;
        io->counters().bytes_written += static_cast<int64_t>(part.size());
        return std::make_pair(number, *etag);
      }));
  return Status::OK();
}

Status S3OutputStream::wait_oldest() {
  auto done = pending_.front().get();
  pending_.pop_front();
  if (!done.ok()) {
    failed_ = true;
    return done.status();
  }
  etags_.push_back(*done);
  return Status::OK();
}

void S3OutputStream::abort_upload() {
  while (!pending_.empty()) (void)wait_oldest();
  (void)io_->request("DELETE", path_, {{"uploadId", upload_id_}}, {}, {});
  upload_id_.clear();
}

Status S3OutputStream::close() {
  if (closed_) return invalid_argument("close {}: stream is already closed", path_.uri(path_.key));
  if (failed_) {
    closed_ = true;
    if (!upload_id_.empty()) abort_upload();
    return io_error("close {}: an earlier part failed; nothing was written", path_.uri(path_.key));
  }
  if (upload_id_.empty()) {
    closed_ = true;
    std::string data = std::move(buffer_);
    return io_->put_object(path_, data, mode_);
  }
  Status st = Status::OK();
  if (!buffer_.empty()) st = upload_part(std::move(buffer_));
  while (st.ok() && !pending_.empty()) st = wait_oldest();
  if (st.ok()) {
    std::sort(etags_.begin(), etags_.end());
    std::string body = "<CompleteMultipartUpload>";
    for (const auto& [n, etag] : etags_) {
      body += "<Part><PartNumber>" + std::to_string(n) + "</PartNumber><ETag>" +
              internal::xml_escape(etag) + "</ETag></Part>";
    }
    body += "</CompleteMultipartUpload>";
    auto r = io_->request("POST", path_, {{"uploadId", upload_id_}}, {}, body);
    if (!r.ok()) {
      st = r.status();
    } else if (r->status != 200 || r->body.find("<Error>") != std::string::npos) {
      st = io_->failure("CompleteMultipartUpload", path_, *r);
    }
  }
  if (!st.ok()) {
    failed_ = true;
    abort_upload();
  } else {
    upload_id_.clear();
  }
  closed_ = true;
  return st;
}

}  // namespace

bool is_s3_uri(std::string_view location) {
  return location.starts_with("s3://") || location.starts_with("s3a://") ||
         location.starts_with("s3n://");
}

Result<S3Options> S3Options::from_properties(const std::map<std::string, std::string>& props) {
  S3Options o;
  auto prop = [&](const char* key, const std::string& fallback) {
    auto it = props.find(key);
    return it != props.end() ? it->second : fallback;
  };
  auto long_prop = [&](const char* key, int64_t fallback) -> Result<int64_t> {
    auto it = props.find(key);
    if (it == props.end()) return fallback;
    char* end = nullptr;
    const long long v = std::strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || v <= 0) {
      return invalid_argument("{} must be a positive integer, not '{}'", key, it->second);
    }
    return static_cast<int64_t>(v);
  };
  std::string region = env("AWS_REGION");
  if (region.empty()) region = env("AWS_DEFAULT_REGION");
  o.region = prop("client.region", region.empty() ? "us-east-1" : region);
  std::string endpoint = env("AWS_ENDPOINT_URL_S3");
  if (endpoint.empty()) endpoint = env("AWS_ENDPOINT_URL");
  o.endpoint = prop("s3.endpoint", endpoint);
  o.access_key_id = prop("s3.access-key-id", env("AWS_ACCESS_KEY_ID"));
  o.secret_access_key = prop("s3.secret-access-key", env("AWS_SECRET_ACCESS_KEY"));
  o.session_token = prop("s3.session-token", env("AWS_SESSION_TOKEN"));
  const bool aws = o.endpoint.empty() || o.endpoint.find("amazonaws.com") != std::string::npos;
  const std::string path_style = prop("s3.path-style-access", aws ? "false" : "true");
  if (path_style != "true" && path_style != "false") {
    return invalid_argument("s3.path-style-access must be true or false, not '{}'", path_style);
  }
  o.path_style = path_style == "true";
  o.multipart_part_size =
      FLOE_TRY(long_prop("s3.multipart.part-size-bytes", o.multipart_part_size));
  if (o.multipart_part_size < (5LL << 20)) {
    return invalid_argument("s3.multipart.part-size-bytes must be at least 5 MiB (S3's minimum)");
  }
  o.multipart_threshold =
      FLOE_TRY(long_prop("s3.multipart.threshold", o.multipart_part_size * 3 / 2));
  o.delete_batch_size = static_cast<int>(
      std::min<int64_t>(1000, FLOE_TRY(long_prop("s3.delete.batch-size", o.delete_batch_size))));
  o.upload_threads = static_cast<int>(
      std::min<int64_t>(64, FLOE_TRY(long_prop("s3.multipart.num-threads", o.upload_threads))));
  if (o.access_key_id.empty() != o.secret_access_key.empty()) {
    return invalid_argument(
        "S3 credentials need both an access key id and a secret access key (s3.access-key-id "
        "and s3.secret-access-key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)");
  }
  return o;
}

Result<FileIOPtr> make_s3_file_io(S3Options options) {
  if (options.access_key_id.empty()) {
    return invalid_argument(
        "S3 needs credentials: s3.access-key-id and s3.secret-access-key, or AWS_ACCESS_KEY_ID "
        "and AWS_SECRET_ACCESS_KEY");
  }
  return FileIOPtr(std::make_shared<S3FileIO>(std::move(options)));
}

Result<FileIOPtr> make_file_io_for(std::string_view location,
                                   const std::map<std::string, std::string>& properties) {
  if (!is_s3_uri(location)) return make_local_file_io();
  return make_s3_file_io(FLOE_TRY(S3Options::from_properties(properties)));
}

}  // namespace floe
