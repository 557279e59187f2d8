// The pieces of the Iceberg REST catalog protocol (the Iceberg OpenAPI spec, rest-catalog-open-api)
// that its client (catalog/rest_catalog.cc) and floe's server (server/) share: namespaces and
// table identifiers in URL paths and JSON, the error model, the LoadTableResult and
// CommitTableRequest documents, and the mapping between floe's error kinds and the protocol's
// HTTP status codes and exception types.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/catalog/catalog.h"
#include "floe/spec/metadata_update.h"
#include "floe/spec/table_metadata.h"
#include "floe/util/result.h"

namespace floe::rest {

// The separator of namespace levels in a URL path segment (the unit separator, sent as %1F).
constexpr char kNamespaceSeparator = '\x1f';

// RFC 3986 percent-encoding of one path segment or query value (unreserved characters kept).
std::string percent_encode(std::string_view text);
// kInvalidArgument on a '%' not followed by two hex digits. '+' stays '+' (paths), unless
// `plus_is_space` (form bodies, query strings).
Result<std::string> percent_decode(std::string_view text, bool plus_is_space = false);

// A namespace as one path segment: levels joined by kNamespaceSeparator, percent-encoded.
std::string encode_namespace(const Namespace& ns);
// The inverse, from an already percent-decoded segment. kInvalidArgument when empty.
Result<Namespace> decode_namespace(std::string_view segment);

// ["a", "b"]
nlohmann::ordered_json namespace_to_json(const Namespace& ns);
// kInvalidArgument naming `field` when not an array of non-empty strings.
Result<Namespace> parse_namespace_json(const nlohmann::json& json, std::string_view field);
// {"namespace": [...], "name": "t"}
nlohmann::ordered_json identifier_to_json(const TableIdentifier& id);
Result<TableIdentifier> parse_identifier_json(const nlohmann::json& json, std::string_view field);

// --- The error model: {"error": {"message": ..., "type": ..., "code": ...}} ---
struct ErrorResponse {
  int code = 500;
  std::string type;  // Java's exception name: "NoSuchTableException", ...
  std::string message;
};
std::string error_response_to_json(const ErrorResponse& error);
// nullopt when `body` is not an error document.
std::optional<ErrorResponse> parse_error_response(std::string_view body);

// What a server answers for a failed operation (400 BadRequestException, 401
// NotAuthorizedException, 404 NoSuchNamespaceException / NoSuchTableException, 406
// UnsupportedOperationException, 409 AlreadyExistsException / CommitFailedException /
// NamespaceNotEmptyException, 500 CommitStateUnknownException / ServerError, 503
// ServiceUnavailableException). `table_operation` picks NoSuchTableException over
// NoSuchNamespaceException for a kNotFound.
ErrorResponse error_response_for(const Status& status, bool table_operation);
// What a client makes of an error response: the floe error kind for the code and type, with the
// server's message. A commit's 500, 502 and 504 are kCommitStateUnknown (`commit` true).
Status status_for_error_response(const ErrorResponse& error, bool commit);

// --- LoadTableResult / CommitTableResponse ---
struct LoadTableResult {
  std::string metadata_location;
  std::shared_ptr<const TableMetadata> metadata;
  std::map<std::string, std::string> config;  // per-table FileIO properties (s3.*, token)
};
// The document's text. The metadata is serialized by table_metadata_to_json.
std::string load_table_result_to_json(const LoadTableResult& result);
// kInvalidData naming the field at fault.
Result<LoadTableResult> parse_load_table_result(std::string_view body);

// --- CommitTableRequest ---
struct CommitTableRequest {
  std::optional<TableIdentifier> identifier;  // required inside a multi-table transaction
  std::vector<TableRequirement> requirements;
  std::vector<MetadataUpdate> updates;
};
nlohmann::ordered_json commit_table_request_to_json(const CommitTableRequest& request);
// kInvalidArgument naming the field at fault.
Result<CommitTableRequest> parse_commit_table_request(const nlohmann::json& json);

}  // namespace floe::rest
