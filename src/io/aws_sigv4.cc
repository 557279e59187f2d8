// AWS Signature Version 4 for S3 requests (see aws_sigv4_internal.h), with OpenSSL's SHA-256
// and HMAC.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <ctime>
#include <mutex>
#include <unordered_map>

#include "floe/util/binary_text.h"
#include "io/aws_sigv4_internal.h"

namespace floe::internal {

namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
constexpr std::string_view kScopeTerminator = "aws4_request";
// Day keys kept by cached_signing_key: a few credentials, regions and services at once, and a
// day change, without growing without bound.
constexpr size_t kMaxCachedKeys = 32;

using HeaderList = std::vector<std::pair<std::string, std::string>>;

bool is_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// The value without leading and trailing white space, each inner run of it made one space.
std::string trim_all(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  bool pending_space = false;
  for (char c : value) {
    if (is_space(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

struct CanonicalHeaders {
  std::string block;         // "name:value\n" per header name
  std::string signed_names;  // "name;name;..."
};

CanonicalHeaders canonical_headers(const SignedRequest& request, const HeaderList& headers) {
  std::vector<std::pair<std::string, std::string>> entries;
  entries.reserve(headers.size() + 1);
  entries.emplace_back("host", trim_all(request.host));
  for (const auto& [name, value] : headers) {
    std::string lname = lower_ascii(name);
    if (lname == "host") continue;
    entries.emplace_back(std::move(lname), trim_all(value));
  }
  // Stable: the values of one name keep the order they are sent in.
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  CanonicalHeaders out;
  for (size_t i = 0; i < entries.size(); ++i) {
    const bool same_name = i > 0 && entries[i].first == entries[i - 1].first;
    if (same_name) {
      out.block.back() = ',';  // replaces the previous line's '\n'
    } else {
      if (i > 0) out.signed_names.push_back(';');
      out.signed_names += entries[i].first;
      out.block += entries[i].first;
      out.block.push_back(':');
    }
    out.block += entries[i].second;
    out.block.push_back('\n');
  }
  return out;
}

std::string canonical_query(const HeaderList& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const auto& [name, value] : query) {
    encoded.emplace_back(uri_encode(name, true), uri_encode(value, true));
  }
  // By encoded name, then by encoded value (not by "name=value", which orders "a-b" before "a").
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) out.push_back('&');
    out += name;
    out.push_back('=');
    out += value;
  }
  return out;
}

std::string canonical_request_of(const SignedRequest& request, const CanonicalHeaders& headers) {
  std::string out;
  out += request.method;
  out.push_back('\n');
  out += request.path.empty() ? std::string_view("/") : std::string_view(request.path);
  out.push_back('\n');
  out += canonical_query(request.query);
  out.push_back('\n');
  out += headers.block;
  out.push_back('\n');
  out += headers.signed_names;
  out.push_back('\n');
  out += request.payload_sha256;
  return out;
}

std::string sha256_raw(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  // With OpenSSL's default provider this fails only when memory runs out; the digest is then
  // empty and the server refuses the signature.
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1) return {};
  return std::string(reinterpret_cast<const char*>(digest), size);
}

struct KeyCache {
  std::mutex mutex;
  // Keyed by the SHA-256 of the secret (not the secret itself), the date, region and service.
  std::unordered_map<std::string, std::string> keys;
};

KeyCache& key_cache() {
  static KeyCache* cache = new KeyCache();  // never destroyed: signing may run during exit
  return *cache;
}

}  // namespace

std::string uri_encode(std::string_view s, bool encode_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (is_unreserved(c) || (c == '/' && !encode_slash)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

std::string hex_encode(std::string_view bytes) { return ::floe::hex_encode(bytes); }

std::string sha256_hex(std::string_view data) { return hex_encode(sha256_raw(data)); }

std::string hmac_sha256(std::string_view key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  // As sha256_raw: fails only without memory, leaving an empty MAC the server refuses.
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac,
           &size) == nullptr) {
    return {};
  }
  return std::string(reinterpret_cast<const char*>(mac), size);
}

std::string amz_date_now() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  size_t n = std::strftime(text, sizeof(text), "%Y%m%dT%H%M%SZ", &utc);
  return std::string(text, n);
}

namespace {

// "<date>/<region>/<service>/aws4_request".
std::string credential_scope(std::string_view date, std::string_view region,
                             std::string_view service) {
  std::string out(date);
  for (std::string_view part : {region, service, kScopeTerminator}) {
    out.push_back('/');
    out += part;
  }
  return out;
}

}  // namespace

std::string canonical_request(const SignedRequest& request, const HeaderList& all_signed_headers) {
  return canonical_request_of(request, canonical_headers(request, all_signed_headers));
}

std::string string_to_sign(std::string_view amz_date, std::string_view region,
                           std::string_view service, std::string_view canonical_request) {
  std::string out;
  out += kAlgorithm;
  out.push_back('\n');
  out += amz_date;
  out.push_back('\n');
  out += credential_scope(amz_date.substr(0, 8), region, service);
  out.push_back('\n');
  out += sha256_hex(canonical_request);
  return out;
}

std::string signing_key(std::string_view secret_access_key, std::string_view date,
                        std::string_view region, std::string_view service) {
  std::string seed = "AWS4";
  seed += secret_access_key;
  std::string key = hmac_sha256(seed, date);
  key = hmac_sha256(key, region);
  key = hmac_sha256(key, service);
  return hmac_sha256(key, kScopeTerminator);
}

std::string cached_signing_key(std::string_view secret_access_key, std::string_view date,
                               std::string_view region, std::string_view service) {
  std::string id = sha256_raw(secret_access_key);
  for (std::string_view part : {date, region, service}) {
    id.push_back('\n');
    id += part;
  }
  KeyCache& cache = key_cache();
  {
    std::lock_guard lock(cache.mutex);
    auto it = cache.keys.find(id);
    if (it != cache.keys.end()) return it->second;
  }
  std::string key = signing_key(secret_access_key, date, region, service);
  std::lock_guard lock(cache.mutex);
  if (cache.keys.size() >= kMaxCachedKeys) cache.keys.clear();
  cache.keys.emplace(std::move(id), key);
  return key;
}

std::string authorization(const SignedRequest& request, const HeaderList& all_signed_headers,
                          const AwsCredentials& credentials, std::string_view region,
                          std::string_view service, std::string_view amz_date) {
  CanonicalHeaders headers = canonical_headers(request, all_signed_headers);
  std::string to_sign =
      string_to_sign(amz_date, region, service, canonical_request_of(request, headers));
  std::string_view date = amz_date.substr(0, 8);
  std::string key = cached_signing_key(credentials.secret_access_key, date, region, service);
  std::string out;
  out += kAlgorithm;
  out += " Credential=";
  out += credentials.access_key_id;
  out.push_back('/');
  out += credential_scope(date, region, service);
  out += ", SignedHeaders=";
  out += headers.signed_names;
  out += ", Signature=";
  out += hex_encode(hmac_sha256(key, to_sign));
  return out;
}

std::vector<std::pair<std::string, std::string>> sign_v4(const SignedRequest& request,
                                                         const AwsCredentials& credentials,
                                                         std::string_view region,
                                                         std::string_view service,
                                                         std::string_view amz_date) {
  HeaderList added;
  added.emplace_back("x-amz-date", std::string(amz_date));
  added.emplace_back("x-amz-content-sha256", request.payload_sha256);
  if (!credentials.session_token.empty()) {
    added.emplace_back("x-amz-security-token", credentials.session_token);
  }
  HeaderList signed_headers = request.headers;
  signed_headers.insert(signed_headers.end(), added.begin(), added.end());
  HeaderList out;
  out.reserve(added.size() + 1);
  out.emplace_back("Authorization",
                   authorization(request, signed_headers, credentials, region, service, amz_date));
  out.insert(out.end(), added.begin(), added.end());
  return out;
}

}  // namespace floe::internal
