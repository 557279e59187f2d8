// The S3 FileIO's HTTP client over libcurl (src/io/http_client_internal.h).
#include "floe/io/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace floe {

namespace {

// curl_global_init is not thread-safe: run it once before the first handle.
void global_init() {
  static const bool done = [] {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    return true;
  }();
  (void)done;
}

struct Exchange {
  const HttpRequest* request = nullptr;
  size_t body_sent = 0;
  HttpResponse* response = nullptr;
  Buffer* sink = nullptr;
  bool use_sink = false;  // decided on the status line: 2xx goes to the sink
};

size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* x = static_cast<Exchange*>(user);
  std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) {
    // A new status line (after a 100 Continue or a redirect): start over.
    x->response->headers.clear();
    const size_t sp = line.find(' ');
    long status = 0;
    if (sp != std::string_view::npos) {
      for (size_t i = sp + 1; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]));
           ++i) {
        status = status * 10 + (line[i] - '0');
      }
    }
    x->use_sink = x->sink && status >= 200 && status < 300;
    return line.size();
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return line.size();
  std::string name(line.substr(0, colon));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  x->response->headers.emplace_back(std::move(name), std::string(value));
  return line.size();
}

size_t on_body(char* data, size_t size, size_t n, void* user) {
  auto* x = static_cast<Exchange*>(user);
  const size_t bytes = size * n;
  if (x->use_sink) {
    x->sink->append(data, bytes);
  } else {
    x->response->body.append(data, bytes);
  }
  return bytes;
}

size_t on_read(char* out, size_t size, size_t n, void* user) {
  auto* x = static_cast<Exchange*>(user);
  const std::string_view body = x->request->body;
  const size_t take = std::min(size * n, body.size() - x->body_sent);
  std::memcpy(out, body.data() + x->body_sent, take);
  x->body_sent += take;
  return take;
}

// Rewinds the upload when curl must send the body again (a redirect, a re-used connection
// that turned out closed).
int on_seek(void* user, curl_off_t offset, int origin) {
  auto* x = static_cast<Exchange*>(user);
  if (origin != SEEK_SET || offset < 0 || static_cast<size_t>(offset) > x->request->body.size()) {
    return CURL_SEEKFUNC_FAIL;
  }
  x->body_sent = static_cast<size_t>(offset);
  return CURL_SEEKFUNC_OK;
}

bool is_transient(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

}  // namespace

const std::string* HttpResponse::header(std::string_view name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return &v;
  }
  return nullptr;
}

HttpClient::HttpClient(HttpClientOptions options) : options_(options) { global_init(); }

HttpClient::~HttpClient() {
  for (void* h : idle_) curl_easy_cleanup(static_cast<CURL*>(h));
}

void* HttpClient::acquire() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      void* h = idle_.back();
      idle_.pop_back();
      return h;
    }
  }
  return curl_easy_init();
}

void HttpClient::release(void* handle, bool reusable) {
  CURL* h = static_cast<CURL*>(handle);
  if (reusable) {
    std::lock_guard<std::mutex> lock(mu_);
    if (static_cast<int>(idle_.size()) < options_.max_connections) {
      idle_.push_back(h);
      return;
    }
  }
  curl_easy_cleanup(h);
}

Result<HttpResponse> HttpClient::send(const HttpRequest& request, Buffer* sink,
                                      TransportError* transport) {
  CURL* h = static_cast<CURL*>(acquire());
  if (!h) return io_error("HTTP {} {}: cannot create a curl handle", request.method, request.url);
  curl_easy_reset(h);  // keeps the handle's open connection
  HttpResponse response;
  Exchange x;
  x.request = &request;
  x.response = &response;
  x.sink = sink;
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout_ms));
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options_.low_speed_time_s));
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &x);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &x);
  const bool has_body = request.method == "PUT" || request.method == "POST";
  if (request.method == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (has_body) {
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
    curl_easy_setopt(h, CURLOPT_READDATA, &x);
    curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, on_seek);
    curl_easy_setopt(h, CURLOPT_SEEKDATA, &x);
    if (request.method == "POST") curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, "POST");
  } else if (request.method != "GET") {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  curl_slist* headers = nullptr;
  for (const auto& [k, v] : request.headers) {
    headers = curl_slist_append(headers, (k + ": " + v).c_str());
  }
  // No "Expect: 100-continue" round trip before a PUT body; no Accept or encoding games.
  headers = curl_slist_append(headers, "Expect:");
  if (has_body) headers = curl_slist_append(headers, "Transfer-Encoding:");
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  const CURLcode code = curl_easy_perform(h);
  curl_slist_free_all(headers);
  if (code != CURLE_OK) {
    release(h, false);
    Status st = io_error("HTTP {} {}: {}", request.method, request.url,
                         error[0] ? error : curl_easy_strerror(code));
    if (transport) *transport = {st, is_transient(code)};
    return st;
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
  release(h, true);
  return response;
}

}  // namespace floe
