#include "floe/util/result.h"

namespace floe {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kOk:
      return "ok";
    case ErrorKind::kNotFound:
      return "not found";
    case ErrorKind::kAlreadyExists:
      return "already exists";
    case ErrorKind::kInvalidArgument:
      return "invalid argument";
    case ErrorKind::kInvalidData:
      return "invalid data";
    case ErrorKind::kCommitConflict:
      return "commit conflict";
    case ErrorKind::kCommitStateUnknown:
      return "commit state unknown";
    case ErrorKind::kIo:
      return "I/O error";
    case ErrorKind::kNotSupported:
      return "not supported";
    case ErrorKind::kInternal:
      return "internal error";
    case ErrorKind::kNotAuthorized:
      return "not authorized";
    case ErrorKind::kCancelled:
      return "cancelled";
  }
  return "error";
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  return fmt::format("{}: {}", error_kind_name(kind_), message_);
}

Status Status::with_context(std::string_view context) const {
  if (ok()) return *this;
  return Status(kind_, fmt::format("{}: {}", context, message_));
}

}  // namespace floe
