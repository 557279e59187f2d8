// The S3 server the tests use: scripts/start-s3 (run by CTest's `s3` fixture) writes its
// endpoint, credentials and bucket to $FLOE_S3_RUN/env (default /tmp/floe-test-s3/env). A test
// fails, never skips, when the server is not there. Each test works under its own random
// prefix of the bucket.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include "floe/io/s3_file_io.h"

namespace floe::s3_testing {

struct S3Server {
  std::string endpoint;
  std::string access_key_id;
  std::string secret_access_key;
  std::string region;
  std::string bucket;
  std::string error;  // why the server's settings could not be read
};

inline const S3Server& s3_server() {
  static const S3Server server = [] {
    S3Server s;
    const char* run = std::getenv("FLOE_S3_RUN");
    const std::string path = std::string(run ? run : "/tmp/floe-test-s3") + "/env";
    std::ifstream in(path);
    if (!in) {
      s.error = "no " + path + ": start the S3 test server with scripts/start-s3";
      return s;
    }
    std::map<std::string, std::string> vars;
    std::string line;
    while (std::getline(in, line)) {
      if (line.starts_with("export ")) line = line.substr(7);
      const size_t eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string value = line.substr(eq + 1);
      if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) {
        value = value.substr(1, value.size() - 2);
      }
      vars[line.substr(0, eq)] = value;
    }
    s.endpoint = vars["FLOE_S3_ENDPOINT"];
    s.access_key_id = vars["FLOE_S3_ACCESS_KEY_ID"];
    s.secret_access_key = vars["FLOE_S3_SECRET_ACCESS_KEY"];
    s.region = vars["FLOE_S3_REGION"];
    s.bucket = vars["FLOE_S3_BUCKET"];
    if (s.endpoint.empty() || s.bucket.empty() || s.access_key_id.empty()) {
      s.error = path + " lacks FLOE_S3_ENDPOINT, FLOE_S3_BUCKET or FLOE_S3_ACCESS_KEY_ID";
    }
    return s;
  }();
  return server;
}

inline S3Options server_options() {
  const S3Server& s = s3_server();
  S3Options o;
  o.endpoint = s.endpoint;
  o.region = s.region.empty() ? "us-east-1" : s.region;
  o.access_key_id = s.access_key_id;
  o.secret_access_key = s.secret_access_key;
  o.path_style = true;
  return o;
}

// s3://bucket/<test name>-<random>/
inline std::string unique_prefix(const std::string& name) {
  std::random_device rd;
  return "s3://" + s3_server().bucket + "/" + name + "-" + std::to_string(rd()) + "-" +
         std::to_string(rd());
}

// Fails the calling test when the server is not configured.
#define FLOE_REQUIRE_S3_SERVER()                             \
  ASSERT_TRUE(::floe::s3_testing::s3_server().error.empty()) \
      << ::floe::s3_testing::s3_server().error

}  // namespace floe::s3_testing
