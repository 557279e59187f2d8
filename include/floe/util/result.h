// Errors as values: Status (ok or an ErrorKind plus a message) and Result<T> (a value or a
// Status). Propagate with FLOE_TRY, which works both as a statement and as an expression:
//
//   FLOE_TRY(io->write_file(path, bytes));               // Status
//   auto metadata = FLOE_TRY(read_table_metadata(...));   // Result<T> -> T
#pragma once

#include <fmt/format.h>

#include <cassert>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace floe {

enum class ErrorKind {
  kOk = 0,
  kNotFound,
  kAlreadyExists,
  kInvalidArgument,
  kInvalidData,
  kCommitConflict,
  kCommitStateUnknown,
  kIo,
  kNotSupported,
  kInternal,
  kNotAuthorized,  // credentials missing, wrong or expired (a REST catalog's 401 / 403)
  kCancelled,      // a callback asked to stop early (e.g. a LIMIT was reached); not a failure
};

const char* error_kind_name(ErrorKind kind);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}

  static Status OK() { return Status(); }

  bool ok() const { return kind_ == ErrorKind::kOk; }
  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }

  // "invalid data: <message>" — the one line main() prints.
  std::string to_string() const;

  // Returns a copy whose message is prefixed with context ("reading x.json: ...").
  Status with_context(std::string_view context) const;

 private:
  ErrorKind kind_ = ErrorKind::kOk;
  std::string message_;
};

template <typename... Args>
Status make_error(ErrorKind kind, fmt::format_string<Args...> f, Args&&... args) {
  return Status(kind, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status invalid_data(fmt::format_string<Args...> f, Args&&... args) {
  return Status(ErrorKind::kInvalidData, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status invalid_argument(fmt::format_string<Args...> f, Args&&... args) {
  return Status(ErrorKind::kInvalidArgument, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status not_found(fmt::format_string<Args...> f, Args&&... args) {
  return Status(ErrorKind::kNotFound, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status not_supported(fmt::format_string<Args...> f, Args&&... args) {
  return Status(ErrorKind::kNotSupported, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status io_error(fmt::format_string<Args...> f, Args&&... args) {
  return Status(ErrorKind::kIo, fmt::format(f, std::forward<Args>(args)...));
}

template <typename T>
class [[nodiscard]] Result {
 public:
  static_assert(!std::is_same_v<T, Status>, "use Status directly");

  Result(T value) : data_(std::in_place_index<0>, std::move(value)) {}        // NOLINT
  Result(Status status) : data_(std::in_place_index<1>, std::move(status)) {  // NOLINT
    assert(!std::get<1>(data_).ok() && "Result constructed from an OK status");
  }
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U&&, T> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Status>>>
  Result(U&& value) : data_(std::in_place_index<0>, T(std::forward<U>(value))) {}  // NOLINT

  bool ok() const { return data_.index() == 0; }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<1>(data_);
  }

  T& value() & { return std::get<0>(data_); }
  const T& value() const& { return std::get<0>(data_); }
  T&& value() && { return std::get<0>(std::move(data_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  T value_or(T fallback) const& { return ok() ? value() : std::move(fallback); }

 private:
  std::variant<T, Status> data_;
};

namespace internal {
inline Status to_status(const Status& s) { return s; }
inline Status to_status(Status&& s) { return std::move(s); }
template <typename T>
Status to_status(const Result<T>& r) {
  return r.status();
}
inline void unwrap(Status&&) {}
template <typename T>
T unwrap(Result<T>&& r) {
  return std::move(r).value();
}
}  // namespace internal

}  // namespace floe

// Evaluates expr (a Status or Result<T>); on error returns it from the enclosing function,
// otherwise yields the value (void for a Status).
#define FLOE_TRY(expr)                                                 \
  ({                                                                   \
    auto&& floe_try_result_ = (expr);                                  \
    if (!floe_try_result_.ok()) {                                      \
      return ::floe::internal::to_status(std::move(floe_try_result_)); \
    }                                                                  \
    ::floe::internal::unwrap(std::move(floe_try_result_));             \
  })

// Like FLOE_TRY but prefixes the error message with a context string.
#define FLOE_TRY_CTX(expr, ctx)                                                          \
  ({                                                                                     \
    auto&& floe_try_result_ = (expr);                                                    \
    if (!floe_try_result_.ok()) {                                                        \
      return ::floe::internal::to_status(std::move(floe_try_result_)).with_context(ctx); \
    }                                                                                    \
    ::floe::internal::unwrap(std::move(floe_try_result_));                               \
  })
