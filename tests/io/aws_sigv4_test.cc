// AWS Signature Version 4: AWS's published S3 examples and signature test suite cases, the
// canonicalization rules one by one, the signing key cache, and a differential test against
// botocore (tests/oracle/sigv4_botocore.py) over a few hundred random requests.
#include <gtest/gtest.h>

#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "io/aws_sigv4_internal.h"
#include "test_support.h"

namespace floe::internal {
namespace {

using Headers = std::vector<std::pair<std::string, std::string>>;

constexpr const char* kEmptySha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

// ---- helpers --------------------------------------------------------------------------------

std::string header(const Headers& headers, std::string_view name) {
  for (const auto& [n, v] : headers) {
    if (n == name) return v;
  }
  return "<missing " + std::string(name) + ">";
}

bool has_header(const Headers& headers, std::string_view name) {
  for (const auto& [n, v] : headers) {
    if (n == name) return true;
  }
  return false;
}

// The headers sign_v4 signs: the request's own and the x-amz-* ones it adds.
Headers signed_by_sign_v4(const SignedRequest& r, std::string_view amz_date,
                          const std::string& session_token = "") {
  Headers out = r.headers;
  out.emplace_back("x-amz-date", std::string(amz_date));
  out.emplace_back("x-amz-content-sha256", r.payload_sha256);
  if (!session_token.empty()) out.emplace_back("x-amz-security-token", session_token);
  return out;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    out.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

// The canonical request's lines.
std::vector<std::string> lines_of(const std::string& text) { return split(text, '\n'); }

// ---- AWS's S3 examples ("Signature Calculations for the Authorization Header") ----------------

const AwsCredentials kS3ExampleCredentials{"AKIAIOSFODNN7EXAMPLE",
                                           "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
constexpr const char* kS3ExampleDate = "20130524T000000Z";
constexpr const char* kS3ExampleCredential =
    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ";

SignedRequest s3_example(std::string method, std::string path, Headers query, Headers headers,
                         std::string payload_sha256) {
  SignedRequest r;
  r.method = std::move(method);
  r.host = "examplebucket.s3.amazonaws.com";
  r.path = std::move(path);
  r.query = std::move(query);
  r.headers = std::move(headers);
  r.payload_sha256 = std::move(payload_sha256);
  return r;
}

// Checks the canonical request's SHA-256 and the Authorization header AWS publishes.
void expect_s3_example(const SignedRequest& r, const std::string& canonical_sha256,
                       const std::string& signed_headers, const std::string& signature) {
  std::string canonical = canonical_request(r, signed_by_sign_v4(r, kS3ExampleDate));
  EXPECT_EQ(sha256_hex(canonical), canonical_sha256) << canonical;
  Headers added = sign_v4(r, kS3ExampleCredentials, "us-east-1", "s3", kS3ExampleDate);
  EXPECT_EQ(header(added, "Authorization"), std::string(kS3ExampleCredential) + "SignedHeaders=" +
                                                signed_headers + ", Signature=" + signature);
  EXPECT_EQ(header(added, "x-amz-date"), kS3ExampleDate);
  EXPECT_EQ(header(added, "x-amz-content-sha256"), r.payload_sha256);
  EXPECT_FALSE(has_header(added, "x-amz-security-token"));
}

TEST(AwsSigV4PublishedS3, GetObjectWithRange) {
  SignedRequest r = s3_example("GET", "/test.txt", {}, {{"Range", "bytes=0-9"}}, kEmptySha256);
  // The canonical request as AWS prints it.
  EXPECT_EQ(canonical_request(r, signed_by_sign_v4(r, kS3ExampleDate)),
            std::string("GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
                        "x-amz-content-sha256:") +
                kEmptySha256 + "\nx-amz-date:20130524T000000Z\n\n" +
                "host;range;x-amz-content-sha256;x-amz-date\n" + kEmptySha256);
  EXPECT_EQ(string_to_sign(kS3ExampleDate, "us-east-1", "s3",
                           canonical_request(r, signed_by_sign_v4(r, kS3ExampleDate))),
            "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  expect_s3_example(r, "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972",
                    "host;range;x-amz-content-sha256;x-amz-date",
                    "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(AwsSigV4PublishedS3, PutObject) {
  std::string payload = sha256_hex("Welcome to Amazon S3.");
  ASSERT_EQ(payload, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  // The key "test$file.text" as the FileIO encodes it into the path.
  std::string path = "/" + uri_encode("test$file.text", false);
  ASSERT_EQ(path, "/test%24file.text");
  SignedRequest r = s3_example(
      "PUT", path, {},
      {{"Date", "Fri, 24 May 2013 00:00:00 GMT"}, {"x-amz-storage-class", "REDUCED_REDUNDANCY"}},
      payload);
  expect_s3_example(r, "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d",
                    "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
                    "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST(AwsSigV4PublishedS3, GetBucketLifecycle) {
  SignedRequest r = s3_example("GET", "/", {{"lifecycle", ""}}, {}, kEmptySha256);
  EXPECT_EQ(lines_of(canonical_request(r, signed_by_sign_v4(r, kS3ExampleDate)))[2], "lifecycle=");
  expect_s3_example(r, "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca",
                    "host;x-amz-content-sha256;x-amz-date",
                    "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST(AwsSigV4PublishedS3, ListObjectsWithMaxKeysAndPrefix) {
  // Given in the opposite order to the canonical one.
  SignedRequest r = s3_example("GET", "/", {{"prefix", "J"}, {"max-keys", "2"}}, {}, kEmptySha256);
  EXPECT_EQ(lines_of(canonical_request(r, signed_by_sign_v4(r, kS3ExampleDate)))[2],
            "max-keys=2&prefix=J");
  expect_s3_example(r, "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7",
                    "host;x-amz-content-sha256;x-amz-date",
                    "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST(AwsSigV4PublishedS3, SigningKeyDerivation) {
  // "Examples of how to derive a signing key for Signature Version 4".
  EXPECT_EQ(hex_encode(signing_key("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20120215",
                                   "us-east-1", "iam")),
            "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d");
}

// ---- AWS's signature test suite (aws-sig-v4-test-suite) --------------------------------------
// These requests sign only host, x-amz-date (and the token), without S3's x-amz-content-sha256,
// so they go through authorization() with the suite's headers.

struct SuiteCase {
  const char* name;
  const char* method = "GET";
  std::string path = "/";
  Headers query = {};
  Headers headers = {};  // besides host and x-amz-date
  std::string payload_sha256 = kEmptySha256;
  std::string session_token = "";
  const char* signed_headers = "host;x-amz-date";
  const char* signature;
};

constexpr const char* kSuiteDate = "20150830T123600Z";
const AwsCredentials kSuiteCredentials{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                       ""};
const std::string kUnreserved =
    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr const char* kSuiteToken =
    "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267";
constexpr const char* kOneHeader = "host;my-header1;x-amz-date";

std::vector<SuiteCase> suite_cases() {
  return {
      {.name = "get-vanilla",
       .signature = "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"},
      {.name = "get-vanilla-empty-query-key",
       .query = {{"Param1", "value1"}},
       .signature = "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"},
      {.name = "get-vanilla-query-order-key-case",
       .query = {{"Param2", "value2"}, {"Param1", "value1"}},
       .signature = "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"},
      {.name = "get-vanilla-query-order-key",
       .query = {{"Param1", "value2"}, {"Param1", "Value1"}},
       .signature = "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1"},
      {.name = "get-vanilla-query-order-value",
       .query = {{"Param1", "value2"}, {"Param1", "value1"}},
       .signature = "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"},
      {.name = "get-vanilla-query-order-encoded",
       .query = {{"Param-3", "Value3"}, {"Param", "Value2"}, {"\xE1\x88\xB4", "Value1"}},
       .signature = "371d3713e185cc334048618a97f809c9ffe339c62934c032af5a0e595648fcac"},
      {.name = "get-vanilla-query-unreserved",
       .query = {{kUnreserved, kUnreserved}},
       .signature = "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"},
      {.name = "get-vanilla-utf8-query",
       .query = {{"\xE1\x88\xB4", "bar"}},
       .signature = "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"},
      {.name = "get-vanilla-with-session-token",
       .session_token = kSuiteToken,
       .signed_headers = "host;x-amz-date;x-amz-security-token",
       .signature = "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"},
      {.name = "get-unreserved",
       .path = "/" + kUnreserved,
       .signature = "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"},
      {.name = "get-utf8",
       .path = "/" + uri_encode("\xE1\x88\xB4", false),
       .signature = "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"},
      {.name = "get-space",
       .path = uri_encode("/example space/", false),
       .signature = "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"},
      {.name = "get-header-key-duplicate",
       .headers = {{"My-Header1", "value2"}, {"My-Header1", "value2"}, {"My-Header1", "value1"}},
       .signed_headers = kOneHeader,
       .signature = "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"},
      {.name = "get-header-value-order",
       .headers = {{"My-Header1", "value4"},
                   {"My-Header1", "value1"},
                   {"My-Header1", "value3"},
                   {"My-Header1", "value2"}},
       .signed_headers = kOneHeader,
       .signature = "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"},
      {.name = "get-header-value-trim",
       .headers = {{"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}},
       .signed_headers = "host;my-header1;my-header2;x-amz-date",
       .signature = "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"},
      {.name = "post-x-www-form-urlencoded",
       .method = "POST",
       .headers = {{"Content-Type", "application/x-www-form-urlencoded"}},
       .payload_sha256 = sha256_hex("Param1=value1"),
       .signed_headers = "content-type;host;x-amz-date",
       .signature = "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"},
  };
}

TEST(AwsSigV4TestSuite, PublishedSignatures) {
  for (const SuiteCase& c : suite_cases()) {
    SCOPED_TRACE(c.name);
    SignedRequest r;
    r.method = c.method;
    r.host = "example.amazonaws.com";
    r.path = c.path;
    r.query = c.query;
    r.headers = c.headers;
    r.payload_sha256 = c.payload_sha256;
    Headers signed_headers = c.headers;
    signed_headers.emplace_back("X-Amz-Date", kSuiteDate);
    AwsCredentials credentials = kSuiteCredentials;
    if (!c.session_token.empty()) {
      credentials.session_token = c.session_token;
      signed_headers.emplace_back("X-Amz-Security-Token", c.session_token);
    }
    EXPECT_EQ(authorization(r, signed_headers, credentials, "us-east-1", "service", kSuiteDate),
              std::string("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/"
                          "aws4_request, SignedHeaders=") +
                  c.signed_headers + ", Signature=" + c.signature);
  }
}

TEST(AwsSigV4TestSuite, HeaderValueTrimCanonicalForm) {
  SignedRequest r;
  r.method = "GET";
  r.host = "example.amazonaws.com";
  r.path = "/";
  r.payload_sha256 = kEmptySha256;
  Headers headers = {
      {"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}, {"X-Amz-Date", kSuiteDate}};
  EXPECT_EQ(canonical_request(r, headers),
            std::string("GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\n"
                        "my-header2:\"a b c\"\nx-amz-date:20150830T123600Z\n\n"
                        "host;my-header1;my-header2;x-amz-date\n") +
                kEmptySha256);
}

// ---- the rules, one by one ---------------------------------------------------------------------

SignedRequest simple_request() {
  SignedRequest r;
  r.method = "GET";
  r.host = "localhost:9000";
  r.path = "/bucket/key";
  r.payload_sha256 = kEmptySha256;
  return r;
}

TEST(AwsSigV4Rules, UriEncodeKeepsOnlyUnreserved) {
  EXPECT_EQ(uri_encode(kUnreserved, true), kUnreserved);
  EXPECT_EQ(uri_encode("a b+c=d/e%f", true), "a%20b%2Bc%3Dd%2Fe%25f");
  EXPECT_EQ(uri_encode("a b+c=d/e%f", false), "a%20b%2Bc%3Dd/e%25f");
  EXPECT_EQ(uri_encode("!'()*$&,;:@?#[]\"", true),
            "%21%27%28%29%2A%24%26%2C%3B%3A%40%3F%23%5B%5D%22");
  // Upper-case hex digits, one %XX per byte, a NUL byte included.
  EXPECT_EQ(uri_encode(std::string("\xff\xfe\x00\x7f", 4), true), "%FF%FE%00%7F");
  EXPECT_EQ(uri_encode("", true), "");
}

TEST(AwsSigV4Rules, NonAsciiKeysEncodedPerUtf8Byte) {
  EXPECT_EQ(uri_encode("d\xC3\xA9j\xC3\xA0/\xE6\x97\xA5\xE6\x9C\xAC", false),
            "d%C3%A9j%C3%A0/%E6%97%A5%E6%9C%AC");
  EXPECT_EQ(uri_encode("\xF0\x9F\x98\x80", true), "%F0%9F%98%80");
  SignedRequest r = simple_request();
  r.path = "/bucket/" + uri_encode("caf\xC3\xA9 \xE2\x82\xAC.parquet", false);
  EXPECT_EQ(lines_of(canonical_request(r, {}))[1], "/bucket/caf%C3%A9%20%E2%82%AC.parquet");
}

TEST(AwsSigV4Rules, EmptyPathSignsAsSlash) {
  SignedRequest r = simple_request();
  r.path = "";
  std::string empty = canonical_request(r, {});
  r.path = "/";
  EXPECT_EQ(empty, canonical_request(r, {}));
  EXPECT_EQ(lines_of(empty)[1], "/");
}

TEST(AwsSigV4Rules, PathUsedExactlyAsGiven) {
  // S3 neither encodes the path again nor removes dot segments or repeated slashes.
  SignedRequest r = simple_request();
  r.path = "/bucket/a%20b/./c//../d%2Fe~";
  EXPECT_EQ(lines_of(canonical_request(r, {}))[1], "/bucket/a%20b/./c//../d%2Fe~");
}

TEST(AwsSigV4Rules, QueryEncodedAndSortedByNameThenValue) {
  SignedRequest r = simple_request();
  r.query = {{"k", "/v=w"}, {"a", "2"},   {"a b", "x+y z"}, {"e", ""},
             {"a", "1"},    {"a-b", "~"}, {"A", "%"}};
  // Sorted by encoded name ("A" < "a" < "a%20b" < "a-b"), repeated names by value; "a" before
  // "a%20b" although "a=" would sort after "a%20b=".
  EXPECT_EQ(lines_of(canonical_request(r, {}))[2],
            "A=%25&a=1&a=2&a%20b=x%2By%20z&a-b=~&e=&k=%2Fv%3Dw");
}

TEST(AwsSigV4Rules, HeadersLowerCasedTrimmedSortedAndJoined) {
  SignedRequest r = simple_request();
  Headers headers = {{"X-Amz-Meta-Note", "  two   inner\t\truns  "},
                     {"Content-Type", "\ttext/plain "},
                     {"x-amz-meta-note", "second"},
                     {"Range", "bytes=0-9"},
                     {"X-Amz-Meta-Empty", "   "}};
  std::vector<std::string> lines = lines_of(canonical_request(r, headers));
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[3], "content-type:text/plain");
  EXPECT_EQ(lines[4], "host:localhost:9000");
  EXPECT_EQ(lines[5], "range:bytes=0-9");
  EXPECT_EQ(lines[6], "x-amz-meta-empty:");
  EXPECT_EQ(lines[7], "x-amz-meta-note:two inner runs,second");
  EXPECT_EQ(lines[8], "");
  EXPECT_EQ(lines[9], "content-type;host;range;x-amz-meta-empty;x-amz-meta-note");
}

TEST(AwsSigV4Rules, HostAlwaysSignedFromTheRequest) {
  SignedRequest r = simple_request();
  Headers added = sign_v4(r, kS3ExampleCredentials, "us-east-1", "s3", kS3ExampleDate);
  EXPECT_NE(
      header(added, "Authorization").find("SignedHeaders=host;x-amz-content-sha256;x-amz-date, "),
      std::string::npos)
      << header(added, "Authorization");
  // A host entry among the headers does not replace or repeat the request's host.
  std::string plain = canonical_request(r, {});
  EXPECT_EQ(canonical_request(r, {{"Host", "other.example.com"}}), plain);
  EXPECT_EQ(lines_of(plain)[3], "host:localhost:9000");
}

TEST(AwsSigV4Rules, CredentialScopeDateFromAmzDate) {
  SignedRequest r = simple_request();
  Headers added = sign_v4(r, kS3ExampleCredentials, "eu-west-1", "s3", "20991231T235959Z");
  std::string auth = header(added, "Authorization");
  EXPECT_EQ(auth.rfind("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20991231/eu-west-1/s3/"
                       "aws4_request, ",
                       0),
            0u)
      << auth;
  EXPECT_EQ(header(added, "x-amz-date"), "20991231T235959Z");
  std::string canonical = canonical_request(r, signed_by_sign_v4(r, "20991231T235959Z"));
  EXPECT_EQ(string_to_sign("20991231T235959Z", "eu-west-1", "s3", canonical),
            "AWS4-HMAC-SHA256\n20991231T235959Z\n20991231/eu-west-1/s3/aws4_request\n" +
                sha256_hex(canonical));
}

TEST(AwsSigV4Rules, SessionTokenSentAndSigned) {
  SignedRequest r = simple_request();
  AwsCredentials credentials = kS3ExampleCredentials;
  credentials.session_token = "FQoGZXIvYXdzE+token/with=odd+chars";
  Headers added = sign_v4(r, credentials, "us-east-1", "s3", kS3ExampleDate);
  ASSERT_EQ(added.size(), 4u);
  EXPECT_EQ(header(added, "x-amz-security-token"), credentials.session_token);
  EXPECT_NE(header(added, "Authorization")
                .find("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token, "),
            std::string::npos);
  // The token changes the signature.
  Headers without = sign_v4(r, kS3ExampleCredentials, "us-east-1", "s3", kS3ExampleDate);
  EXPECT_NE(header(added, "Authorization"), header(without, "Authorization"));
}

TEST(AwsSigV4Rules, UnsignedPayload) {
  SignedRequest r = simple_request();
  r.method = "PUT";
  r.payload_sha256 = "UNSIGNED-PAYLOAD";
  Headers added = sign_v4(r, kS3ExampleCredentials, "us-east-1", "s3", kS3ExampleDate);
  EXPECT_EQ(header(added, "x-amz-content-sha256"), "UNSIGNED-PAYLOAD");
  EXPECT_EQ(lines_of(canonical_request(r, signed_by_sign_v4(r, kS3ExampleDate))).back(),
            "UNSIGNED-PAYLOAD");
}

TEST(AwsSigV4Rules, SecretNeverReturned) {
  SignedRequest r = simple_request();
  AwsCredentials credentials{"AKIDPLAIN", "secret/Key+With=Chars0123456789abcdefghij",
                             "session-token-value"};
  Headers added = sign_v4(r, credentials, "us-east-1", "s3", kS3ExampleDate);
  ASSERT_EQ(added.size(), 4u);
  for (const auto& [name, value] : added) {
    EXPECT_EQ(value.find(credentials.secret_access_key), std::string::npos) << name;
    EXPECT_EQ(value.find(uri_encode(credentials.secret_access_key, true)), std::string::npos)
        << name;
    EXPECT_EQ(value.find(hex_encode(credentials.secret_access_key)), std::string::npos) << name;
    if (name != "x-amz-security-token") {
      EXPECT_EQ(value.find(credentials.session_token), std::string::npos) << name;
    }
  }
  // The Authorization header holds the access key id, the scope, the signed header names and a
  // 64-digit signature, nothing else.
  std::string auth = header(added, "Authorization");
  const std::string prefix =
      "AWS4-HMAC-SHA256 Credential=AKIDPLAIN/20130524/us-east-1/s3/aws4_request, "
      "SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=";
  ASSERT_EQ(auth.rfind(prefix, 0), 0u) << auth;
  std::string signature = auth.substr(prefix.size());
  EXPECT_EQ(signature.size(), 64u);
  EXPECT_EQ(signature.find_first_not_of("0123456789abcdef"), std::string::npos) << signature;
  EXPECT_EQ(canonical_request(r, signed_by_sign_v4(r, kS3ExampleDate, credentials.session_token))
                .find(credentials.secret_access_key),
            std::string::npos);
}

TEST(AwsSigV4Rules, CachedSigningKeyMatchesFreshComputation) {
  struct Scope {
    std::string secret, date, region, service;
  };
  const std::vector<Scope> scopes = {
      {"secretA", "20240101", "us-east-1", "s3"},  {"secretB", "20240101", "us-east-1", "s3"},
      {"secretA", "20240102", "us-east-1", "s3"},  {"secretA", "20240101", "eu-west-1", "s3"},
      {"secretA", "20240101", "us-east-1", "iam"},
  };
  // Every scope gets its own key, and the cached key equals a fresh derivation, however the
  // calls interleave (and past the cache's size, which clears it).
  for (int round = 0; round < 3; ++round) {
    for (const Scope& s : scopes) {
      std::string fresh = signing_key(s.secret, s.date, s.region, s.service);
      EXPECT_EQ(cached_signing_key(s.secret, s.date, s.region, s.service), fresh);
    }
    for (int i = 0; i < 40; ++i) {
      std::string date = "2025" + std::to_string(1000 + i);
      EXPECT_EQ(cached_signing_key("filler", date, "us-east-1", "s3"),
                signing_key("filler", date, "us-east-1", "s3"));
    }
  }
  for (size_t i = 0; i < scopes.size(); ++i) {
    for (size_t j = i + 1; j < scopes.size(); ++j) {
      const Scope& a = scopes[i];
      const Scope& b = scopes[j];
      EXPECT_NE(signing_key(a.secret, a.date, a.region, a.service),
                signing_key(b.secret, b.date, b.region, b.service));
    }
  }
}

TEST(AwsSigV4Rules, RepeatedSigningEqualsFreshSignature) {
  SignedRequest r = simple_request();
  r.headers = {{"Range", "bytes=5-10"}};
  // Alternate two secrets with the same scope: a cache keyed wrongly would sign with the other's
  // key.
  const AwsCredentials one{"AKIDONE", "secret-one", ""};
  const AwsCredentials two{"AKIDTWO", "secret-two", ""};
  for (int i = 0; i < 4; ++i) {
    for (const AwsCredentials* c : {&one, &two}) {
      Headers added = sign_v4(r, *c, "us-east-1", "s3", kS3ExampleDate);
      std::string canonical = canonical_request(r, signed_by_sign_v4(r, kS3ExampleDate));
      std::string fresh =
          hex_encode(hmac_sha256(signing_key(c->secret_access_key, "20130524", "us-east-1", "s3"),
                                 string_to_sign(kS3ExampleDate, "us-east-1", "s3", canonical)));
      std::string auth = header(added, "Authorization");
      EXPECT_EQ(auth.substr(auth.size() - 64), fresh) << c->access_key_id;
    }
  }
}

TEST(AwsSigV4Rules, AmzDateNowIsCurrentUtc) {
  std::time_t before = std::time(nullptr);
  std::string now = amz_date_now();
  std::time_t after = std::time(nullptr);
  ASSERT_EQ(now.size(), 16u) << now;
  EXPECT_EQ(now[8], 'T');
  EXPECT_EQ(now[15], 'Z');
  std::tm parsed{};
  ASSERT_NE(strptime(now.c_str(), "%Y%m%dT%H%M%SZ", &parsed), nullptr) << now;
  std::time_t t = timegm(&parsed);
  EXPECT_GE(t, before);
  EXPECT_LE(t, after);
}

// ---- differential test against botocore -------------------------------------------------------

struct RandomRequest {
  SignedRequest request;
  AwsCredentials credentials;
  std::string scheme;
  std::string region;
  std::string amz_date;
  std::string body;
  bool unsigned_payload = false;
};

class RequestGenerator {
 public:
  explicit RequestGenerator(uint32_t seed) : rng_(seed) {}

  RandomRequest next() {
    RandomRequest out;
    static const std::vector<std::pair<std::string, std::string>> kEndpoints = {
        {"https", "s3.us-east-1.amazonaws.com"},
        {"https", "s3.eu-west-1.amazonaws.com"},
        {"http", "localhost:9000"},
        {"http", "127.0.0.1:9000"},
        {"https", "minio.example.com:8443"}};
    const auto& endpoint = pick(kEndpoints);
    out.scheme = endpoint.first;
    SignedRequest& r = out.request;
    r.host = endpoint.second;
    r.method = pick(std::vector<std::string>{"GET", "PUT", "HEAD", "DELETE", "POST"});
    out.region = pick(std::vector<std::string>{"us-east-1", "eu-west-1", "ap-southeast-2"});
    out.amz_date = random_date();

    std::string bucket = pick(std::vector<std::string>{"bucket", "my-bucket.v2", "b123"});
    int shape = below(10);
    if (shape == 0) {
      r.path = "/";
    } else if (shape == 1) {
      r.path = "/" + bucket;
    } else {
      r.path = "/" + bucket + "/" + uri_encode(random_text(1, 6), false);
    }

    int query_count = below(5);
    for (int i = 0; i < query_count; ++i) {
      std::string name = below(3) == 0
                             ? random_text(1, 3)
                             : pick(std::vector<std::string>{"prefix", "max-keys", "list-type", "a",
                                                             "a-b", "a.b", "A", "uploadId", "x"});
      std::string value = below(4) == 0 ? "" : random_text(1, 4);
      r.query.emplace_back(name, value);
      if (below(4) == 0) r.query.emplace_back(name, below(2) ? "" : random_text(1, 2));
    }

    int header_count = below(5);
    for (int i = 0; i < header_count; ++i) {
      std::string name = pick(std::vector<std::string>{
          "Range", "range", "Content-Type", "content-md5", "X-Amz-Meta-Note", "x-amz-meta-note",
          "X-AMZ-STORAGE-CLASS", "If-None-Match", "Cache-Control", "x-amz-copy-source"});
      r.headers.emplace_back(name, random_header_value());
    }

    int body_shape = below(4);
    if (body_shape == 0) {
      out.unsigned_payload = true;
      r.payload_sha256 = "UNSIGNED-PAYLOAD";
    } else {
      if (body_shape > 1) out.body = random_bytes(below(200));
      r.payload_sha256 = sha256_hex(out.body);
    }

    out.credentials.access_key_id = "AKIA" + random_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16);
    out.credentials.secret_access_key =
        random_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 40);
    if (below(3) == 0) {
      out.credentials.session_token = random_from(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", 20 + below(200));
    }
    return out;
  }

 private:
  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[below(static_cast<int>(items.size()))];
  }

  std::string random_date() {
    auto digits = [this](int low, int count, int width) {
      std::string text = std::to_string(low + below(count));
      return std::string(width - text.size(), '0') + text;
    };
    return digits(2000, 100, 4) + digits(1, 12, 2) + digits(1, 28, 2) + "T" + digits(0, 24, 2) +
           digits(0, 60, 2) + digits(0, 60, 2) + "Z";
  }

  // Pieces of object keys and query text: plain letters, every character S3 keys may hold that
  // needs encoding, multi-byte UTF-8, and path-like segments S3 must not normalise.
  std::string random_text(int min_pieces, int max_pieces) {
    // Separated by '|'; the last four are é, 日本, ሴ and a 4-byte emoji.
    static const std::vector<std::string> kPieces = split(
        "a|Z|09|data|file.parquet| |  |+|=|~|%|%20|/|//|.|..|./|-|_|!|*|'|(|)|&|$|@|:|,|;|?|#|[|]|"
        "\"|<|\xC3\xA9|\xE6\x97\xA5\xE6\x9C\xAC|\xE1\x88\xB4|\xF0\x9F\x98\x80",
        '|');
    int n = min_pieces + below(max_pieces - min_pieces + 1);
    std::string out;
    for (int i = 0; i < n; ++i) out += pick(kPieces);
    return out;
  }

  // A printable ASCII value with odd spacing: leading, trailing and inner runs of spaces and tabs.
  std::string random_header_value() {
    static const std::vector<std::string> kWords = {"bytes=0-99", "text/plain", "a", "B c",
                                                    "\"etag\"",   "x=1;y=2",    "*", "%2F",
                                                    "max-age=0",  "Q+w/e=="};
    static const std::vector<std::string> kGaps = {" ", "  ", "   ", "\t", " \t ", ""};
    std::string out = below(2) ? pick(kGaps) : "";
    int words = below(4);
    for (int i = 0; i < words; ++i) {
      if (i > 0) out += below(4) == 0 ? "" : pick(kGaps);
      out += pick(kWords);
    }
    if (below(2)) out += pick(kGaps);
    return out;
  }

  std::string random_bytes(int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out.push_back(static_cast<char>(below(256)));
    return out;
  }

  std::string random_from(std::string_view alphabet, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out.push_back(alphabet[below(static_cast<int>(alphabet.size()))]);
    return out;
  }

  std::mt19937 rng_;
};

nlohmann::json pairs_json(const Headers& pairs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [n, v] : pairs) out.push_back({n, v});
  return out;
}

nlohmann::json to_json(const RandomRequest& q) {
  nlohmann::json j;
  j["method"] = q.request.method;
  j["scheme"] = q.scheme;
  j["host"] = q.request.host;
  j["path"] = q.request.path;
  j["query"] = pairs_json(q.request.query);
  j["headers"] = pairs_json(q.request.headers);
  if (q.unsigned_payload) {
    j["unsigned_payload"] = true;
  } else {
    j["body_hex"] = hex_encode(q.body);
  }
  j["access_key"] = q.credentials.access_key_id;
  j["secret_key"] = q.credentials.secret_access_key;
  j["session_token"] = q.credentials.session_token;
  j["region"] = q.region;
  j["service"] = "s3";
  j["amz_date"] = q.amz_date;
  return j;
}

constexpr int kDifferentialRequests = 400;

TEST(AwsSigV4Differential, MatchesBotocore) {
  RequestGenerator generator(20130524);
  std::vector<RandomRequest> requests;
  nlohmann::json input = nlohmann::json::array();
  for (int i = 0; i < kDifferentialRequests; ++i) {
    requests.push_back(generator.next());
    input.push_back(to_json(requests.back()));
  }
  test_support::TempDir dir("floe-sigv4");
  std::string input_path = dir.str() + "/requests.json";
  {
    std::ofstream f(input_path);
    f << input.dump();
  }
  int code = -1;
  std::string out = test_support::run_command("/usr/bin/python3 " FLOE_SOURCE_DIR
                                              "/tests/oracle/sigv4_botocore.py " +
                                                  test_support::shell_quote(input_path) + " 2>&1",
                                              &code);
  // CI installs botocore (Debian python3-botocore); without it this fails rather than skips.
  ASSERT_EQ(code, 0) << "the botocore oracle failed (apt-get install python3-botocore):\n" << out;
  nlohmann::json got = nlohmann::json::parse(out, nullptr, false);
  ASSERT_TRUE(got.is_array()) << out.substr(0, 2000);
  ASSERT_EQ(got.size(), requests.size());

  int with_token = 0, unsigned_payloads = 0, with_query = 0, with_headers = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const RandomRequest& q = requests[i];
    const nlohmann::json& want = got[i];
    SCOPED_TRACE("request " + std::to_string(i) + ": " + input[i].dump());
    Headers added = sign_v4(q.request, q.credentials, q.region, "s3", q.amz_date);
    std::string canonical = canonical_request(
        q.request, signed_by_sign_v4(q.request, q.amz_date, q.credentials.session_token));
    EXPECT_EQ(canonical, want["canonical_request"].get<std::string>());
    EXPECT_EQ(header(added, "Authorization"), want["authorization"].get<std::string>());
    EXPECT_EQ(header(added, "x-amz-date"), want["x-amz-date"].get<std::string>());
    EXPECT_EQ(header(added, "x-amz-content-sha256"),
              want["x-amz-content-sha256"].get<std::string>());
    if (q.credentials.session_token.empty()) {
      EXPECT_TRUE(want["x-amz-security-token"].is_null());
      EXPECT_FALSE(has_header(added, "x-amz-security-token"));
    } else {
      EXPECT_EQ(header(added, "x-amz-security-token"),
                want["x-amz-security-token"].get<std::string>());
      ++with_token;
    }
    unsigned_payloads += q.unsigned_payload;
    with_query += !q.request.query.empty();
    with_headers += !q.request.headers.empty();
  }
  // The generator covered each kind of request.
  EXPECT_GT(with_token, 50);
  EXPECT_GT(unsigned_payloads, 50);
  EXPECT_GT(with_query, 100);
  EXPECT_GT(with_headers, 100);
}

}  // namespace
}  // namespace floe::internal
