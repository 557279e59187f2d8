// The REST catalog protocol's shared pieces (floe/catalog/rest_protocol.h): path and JSON forms
// of namespaces and identifiers, the error model and its mapping to floe's error kinds, and the
// LoadTableResult / CommitTableRequest documents.
#include "floe/catalog/rest_protocol.h"

#include <fmt/format.h>

#include "floe/spec/json_text.h"

namespace floe::rest {

namespace {

bool is_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

const nlohmann::json* member(const nlohmann::json& j, const char* name) {
  auto it = j.find(name);
  return it == j.end() ? nullptr : &*it;
}

}  // namespace

std::string percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (is_unreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

Result<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      int hi = i + 1 < text.size() ? hex_value(text[i + 1]) : -1;
      int lo = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        return invalid_argument("malformed percent-encoding at byte {} of '{}'", i,
                                text.substr(0, 64));
      }
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string encode_namespace(const Namespace& ns) {
  std::string joined;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i) joined += kNamespaceSeparator;
    joined += ns[i];
  }
  return percent_encode(joined);
}

Result<Namespace> decode_namespace(std::string_view segment) {
  if (segment.empty()) return invalid_argument("empty namespace in the request path");
  Namespace ns;
  size_t start = 0;
  while (true) {
    size_t sep = segment.find(kNamespaceSeparator, start);
    std::string_view level =
        segment.substr(start, sep == std::string_view::npos ? std::string_view::npos : sep - start);
    if (level.empty()) {
      return invalid_argument("namespace '{}' has an empty level", segment.substr(0, 128));
    }
    ns.emplace_back(level);
    if (sep == std::string_view::npos) break;
    start = sep + 1;
  }
  return ns;
}

nlohmann::ordered_json namespace_to_json(const Namespace& ns) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& level : ns) out.push_back(level);
  return out;
}

Result<Namespace> parse_namespace_json(const nlohmann::json& json, std::string_view field) {
  if (!json.is_array()) {
    return invalid_argument("'{}' must be an array of strings, not {}", field, json_kind(json));
  }
  Namespace ns;
  for (const auto& level : json) {
    if (!level.is_string()) {
      return invalid_argument("'{}' must be an array of strings; it holds {}", field,
                              json_kind(level));
    }
    auto text = level.get<std::string>();
    if (text.empty()) return invalid_argument("'{}' has an empty namespace level", field);
    ns.push_back(std::move(text));
  }
  return ns;
}

nlohmann::ordered_json identifier_to_json(const TableIdentifier& id) {
  nlohmann::ordered_json out;
  out["namespace"] = namespace_to_json(id.ns);
  out["name"] = id.name;
  return out;
}

Result<TableIdentifier> parse_identifier_json(const nlohmann::json& json, std::string_view field) {
  if (!json.is_object()) {
    return invalid_argument("'{}' must be an object with 'namespace' and 'name', not {}", field,
                            json_kind(json));
  }
  TableIdentifier id;
  const auto* ns = member(json, "namespace");
  if (!ns) return invalid_argument("'{}' has no 'namespace'", field);
  id.ns = FLOE_TRY(parse_namespace_json(*ns, fmt::format("{}.namespace", field)));
  const auto* name = member(json, "name");
  if (!name || !name->is_string() || name->get_ref<const std::string&>().empty()) {
    return invalid_argument("'{}.name' must be a non-empty string", field);
  }
  id.name = name->get<std::string>();
  return id;
}

std::string error_response_to_json(const ErrorResponse& error) {
  nlohmann::ordered_json body;
  body["error"]["message"] = error.message;
  body["error"]["type"] = error.type;
  body["error"]["code"] = error.code;
  return body.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::optional<ErrorResponse> parse_error_response(std::string_view body) {
  auto parsed = parse_json_text(body, "REST error response");
  if (!parsed.ok() || !parsed->is_object()) return std::nullopt;
  const auto* error = member(*parsed, "error");
  if (!error || !error->is_object()) return std::nullopt;
  ErrorResponse out;
  if (const auto* code = member(*error, "code"); code && code->is_number_integer()) {
    out.code = code->get<int>();
  }
  if (const auto* type = member(*error, "type"); type && type->is_string()) {
    out.type = type->get<std::string>();
  }
  if (const auto* message = member(*error, "message"); message && message->is_string()) {
    out.message = message->get<std::string>();
  }
  return out;
}

ErrorResponse error_response_for(const Status& status, bool table_operation) {
  ErrorResponse out;
  out.message = status.message();
  switch (status.kind()) {
    case ErrorKind::kNotFound:
      out.code = 404;
      out.type = table_operation ? "NoSuchTableException" : "NoSuchNamespaceException";
      break;
    case ErrorKind::kAlreadyExists:
      out.code = 409;
      out.type = "AlreadyExistsException";
      break;
    case ErrorKind::kCommitConflict:
      out.code = 409;
      out.type = "CommitFailedException";
      break;
    case ErrorKind::kInvalidArgument:
    case ErrorKind::kInvalidData:
      out.code = 400;
      out.type = "BadRequestException";
      break;
    case ErrorKind::kNotSupported:
      out.code = 406;
      out.type = "UnsupportedOperationException";
      break;
    case ErrorKind::kNotAuthorized:
      out.code = 401;
      out.type = "NotAuthorizedException";
      break;
    case ErrorKind::kCommitStateUnknown:
      out.code = 500;
      out.type = "CommitStateUnknownException";
      break;
    case ErrorKind::kIo:
      out.code = 503;
      out.type = "ServiceUnavailableException";
      break;
    case ErrorKind::kOk:
    case ErrorKind::kInternal:
    case ErrorKind::kCancelled:
      out.code = 500;
      out.type = "ServerErrorException";
      break;
  }
  return out;
}

Status status_for_error_response(const ErrorResponse& error, bool commit) {
  std::string message =
      fmt::format("{} ({}, HTTP {})", error.message.empty() ? "no message" : error.message,
                  error.type.empty() ? "no type" : error.type, error.code);
  switch (error.code) {
    case 400:
      return Status(ErrorKind::kInvalidArgument, std::move(message));
    case 401:
    case 403:
    case 419:
      return Status(ErrorKind::kNotAuthorized, std::move(message));
    case 404:
      return Status(ErrorKind::kNotFound, std::move(message));
    case 405:
    case 406:
    case 501:
      return Status(ErrorKind::kNotSupported, std::move(message));
    case 409:
      if (error.type == "CommitFailedException") {
        return Status(ErrorKind::kCommitConflict, std::move(message));
      }
      if (error.type == "NamespaceNotEmptyException") {
        return Status(ErrorKind::kInvalidArgument, std::move(message));
      }
      if (error.type == "AlreadyExistsException" || !commit) {
        return Status(ErrorKind::kAlreadyExists, std::move(message));
      }
      return Status(ErrorKind::kCommitConflict, std::move(message));
    case 500:
    case 502:
    case 504:
      if (commit) return Status(ErrorKind::kCommitStateUnknown, std::move(message));
      return Status(ErrorKind::kIo, std::move(message));
    default:
      if (error.code >= 500) return Status(ErrorKind::kIo, std::move(message));
      return Status(ErrorKind::kInvalidArgument, std::move(message));
  }
}

std::string load_table_result_to_json(const LoadTableResult& result) {
  nlohmann::ordered_json config = nlohmann::ordered_json::object();
  for (const auto& [k, v] : result.config) config[k] = v;
  std::string out = "{";
  if (!result.metadata_location.empty()) {
    out += "\"metadata-location\":";
    out += nlohmann::ordered_json(result.metadata_location).dump();
    out += ',';
  }
  out += "\"metadata\":";
  out += result.metadata ? table_metadata_to_json(*result.metadata) : std::string("null");
  out += ",\"config\":";
  out += config.dump();
  out += '}';
  return out;
}

Result<LoadTableResult> parse_load_table_result(std::string_view body) {
  auto json = FLOE_TRY(parse_json_text(body, "REST LoadTableResult"));
  if (!json.is_object()) {
    return invalid_data("REST LoadTableResult must be an object, not {}", json_kind(json));
  }
  LoadTableResult out;
  if (const auto* location = member(json, "metadata-location"); location && !location->is_null()) {
    if (!location->is_string()) {
      return invalid_data("REST LoadTableResult 'metadata-location' must be a string, not {}",
                          json_kind(*location));
    }
    out.metadata_location = location->get<std::string>();
  }
  const auto* metadata = member(json, "metadata");
  if (!metadata || !metadata->is_object()) {
    return invalid_data("REST LoadTableResult has no 'metadata' object");
  }
  auto parsed = table_metadata_from_json(*metadata);
  if (!parsed.ok()) {
    return Status(ErrorKind::kInvalidData,
                  fmt::format("REST LoadTableResult 'metadata': {}", parsed.status().message()));
  }
  out.metadata = std::make_shared<const TableMetadata>(std::move(*parsed));
  if (const auto* config = member(json, "config"); config && !config->is_null()) {
    if (!config->is_object()) {
      return invalid_data("REST LoadTableResult 'config' must be an object, not {}",
                          json_kind(*config));
    }
    for (const auto& [k, v] : config->items()) {
      out.config[k] = FLOE_TRY(json_scalar_text(v, fmt::format("config '{}'", k)));
    }
  }
  return out;
}

nlohmann::ordered_json commit_table_request_to_json(const CommitTableRequest& request) {
  nlohmann::ordered_json out;
  if (request.identifier) out["identifier"] = identifier_to_json(*request.identifier);
  out["requirements"] = table_requirements_to_json(request.requirements);
  out["updates"] = metadata_updates_to_json(request.updates);
  return out;
}

Result<CommitTableRequest> parse_commit_table_request(const nlohmann::json& json) {
  if (!json.is_object()) {
    return invalid_argument("a commit request must be an object, not {}", json_kind(json));
  }
  CommitTableRequest out;
  if (const auto* id = member(json, "identifier"); id && !id->is_null()) {
    out.identifier = FLOE_TRY(parse_identifier_json(*id, "identifier"));
  }
  const auto* requirements = member(json, "requirements");
  if (!requirements) return invalid_argument("a commit request needs 'requirements'");
  out.requirements = FLOE_TRY(parse_table_requirements(*requirements));
  const auto* updates = member(json, "updates");
  if (!updates) return invalid_argument("a commit request needs 'updates'");
  out.updates = FLOE_TRY(parse_metadata_updates(*updates));
  return out;
}

}  // namespace floe::rest
