// AWS Signature Version 4 for S3 requests: the canonical request, the string to sign, the
// signing key (cached per day, region and service) and the headers that authenticate a request.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace floe::internal {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: none
};

// What to sign.
struct SignedRequest {
  std::string method;  // "GET", "PUT", ...
  // The Host header value, with ":port" when not the scheme's default. Always signed.
  std::string host;
  // The request path as sent, already URI-encoded ("/bucket/a%20b.txt"). S3 signs it as it is:
  // no second encoding, no removal of "." or ".." segments or repeated slashes.
  std::string path;
  // Decoded names and values, in any order; the signer encodes and sorts them.
  std::vector<std::pair<std::string, std::string>> query;
  // The other headers sent and signed (range, content-type, content-md5, x-amz-*), names in any
  // case. Repeated names are signed as one header, their values joined by ',' in this order.
  std::vector<std::pair<std::string, std::string>> headers;
  // Lower-hex SHA-256 of the body, or "UNSIGNED-PAYLOAD".
  std::string payload_sha256;
};

// The headers to add to the request: Authorization, x-amz-date, x-amz-content-sha256 and, with
// a session token, x-amz-security-token (all of them signed). `amz_date` is
// "YYYYMMDD'T'HHMMSS'Z'" (UTC); the credential scope's date is its first 8 characters. Only the
// access key id, the signature and the session token appear in what is returned; never the
// secret access key.
std::vector<std::pair<std::string, std::string>> sign_v4(const SignedRequest& request,
                                                         const AwsCredentials& credentials,
                                                         std::string_view region,
                                                         std::string_view service,
                                                         std::string_view amz_date);

// RFC 3986: the unreserved bytes A-Z a-z 0-9 - . _ ~ are kept, every other byte becomes %XX
// (upper-case hex); '/' is kept when `encode_slash` is false.
std::string uri_encode(std::string_view s, bool encode_slash);
std::string sha256_hex(std::string_view data);
std::string hex_encode(std::string_view bytes);  // lower-case
// The raw 32-byte HMAC-SHA256 of `data` under `key`.
std::string hmac_sha256(std::string_view key, std::string_view data);
std::string amz_date_now();  // the current UTC time as "YYYYMMDD'T'HHMMSS'Z'"

// The canonical request: method, path, canonical query string, canonical headers, signed header
// names and payload hash, one per line. The headers are `host` (from request.host) and
// `all_signed_headers` (names lower-cased, values trimmed with inner runs of white space made one
// space, sorted by name, values of one name joined by ','); an entry named host in
// `all_signed_headers` is left out, as request.host is the host that is signed.
std::string canonical_request(
    const SignedRequest& request,
    const std::vector<std::pair<std::string, std::string>>& all_signed_headers);
// "AWS4-HMAC-SHA256\n<amz_date>\n<date>/<region>/<service>/aws4_request\n<sha256 of canonical>".
std::string string_to_sign(std::string_view amz_date, std::string_view region,
                           std::string_view service, std::string_view canonical_request);
// The signing key of one day (`date` is "YYYYMMDD"), computed afresh.
std::string signing_key(std::string_view secret_access_key, std::string_view date,
                        std::string_view region, std::string_view service);
// The same key from a small process-wide cache (the key changes once a day, and the FileIO
// signs thousands of requests with it). Safe to call from several threads.
std::string cached_signing_key(std::string_view secret_access_key, std::string_view date,
                               std::string_view region, std::string_view service);

// The Authorization header value for `request` signing `all_signed_headers` and host exactly as
// given (sign_v4 adds its own x-amz-* headers to the list and calls this).
std::string authorization(
    const SignedRequest& request,
    const std::vector<std::pair<std::string, std::string>>& all_signed_headers,
    const AwsCredentials& credentials, std::string_view region, std::string_view service,
    std::string_view amz_date);

}  // namespace floe::internal
