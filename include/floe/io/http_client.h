// A small HTTP/1.1 client over libcurl for the S3 FileIO and the REST catalog client: one
// request at a time per call, from a pool of easy handles whose connections stay open between
// requests (keep-alive), so a scan's thousands of ranged GETs do not each pay a TCP handshake. One
// attempt per call: retries are the caller's (it knows which errors are worth retrying).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "floe/util/buffer.h"
#include "floe/util/result.h"

namespace floe {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method;  // GET, HEAD, PUT, POST, DELETE
  std::string url;
  HttpHeaders headers;
  std::string_view body;  // PUT / POST
};

struct HttpResponse {
  long status = 0;
  HttpHeaders headers;  // names lower-cased
  std::string body;     // unless the request had a body sink
  const std::string* header(std::string_view name) const;
};

// How a request failed before any HTTP status arrived (connection refused or reset, timeout):
// kIo with the transport's message. `transient` says a retry may succeed.
struct TransportError {
  Status status;
  bool transient = false;
};

struct HttpClientOptions {
  int max_connections = 64;  // easy handles kept (each keeps its connection)
  int64_t connect_timeout_ms = 5000;
  int64_t request_timeout_ms = 120000;  // a whole request, body included
  int64_t low_speed_time_s = 30;        // abort when under 1 KB/s this long (a stalled peer)
};

class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends the request. A response of any status is a value; only transport failures are
  // errors (then *transport says whether they look transient). With `sink`, a 2xx body goes
  // there instead of HttpResponse::body (error bodies always go to body).
  Result<HttpResponse> send(const HttpRequest& request, Buffer* sink = nullptr,
                            TransportError* transport = nullptr);

 private:
  void* acquire();
  void release(void* handle, bool reusable);

  HttpClientOptions options_;
  std::mutex mu_;
  std::vector<void*> idle_;  // CURL* easy handles
};

}  // namespace floe
