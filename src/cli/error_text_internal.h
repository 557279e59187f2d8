// How the floe commands report a failure: one line, with control characters read from files or
// typed in shown escaped (\n, \t, \x1b) rather than sent raw to the terminal, and exceptions that
// escape a command or statement (out of memory, a thread the system refuses to start, a value
// too large) turned into an error instead of ending the process.
#pragma once

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "floe/util/result.h"

namespace floe::cli {

// `text` with every control character (below 0x20, and 0x7f) escaped: \n, \r, \t, \\x1b, ...
inline std::string escape_control_chars(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7f) {
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The exception being handled (call inside a catch block) as an error.
inline Status status_of_current_exception() {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Status(ErrorKind::kInternal,
                  "out of memory (the operation needed more memory than "
                  "the system would give)");
  } catch (const std::length_error& e) {
    return Status(ErrorKind::kInternal,
                  fmt::format("a value or buffer would be larger than allowed ({})", e.what()));
  } catch (const std::system_error& e) {
    return Status(ErrorKind::kInternal, fmt::format("the system refused: {} (for example no more "
                                                    "threads could be started)",
                                                    e.what()));
  } catch (const std::exception& e) {
    return Status(ErrorKind::kInternal, fmt::format("unexpected error: {}", e.what()));
  } catch (...) {
    return Status(ErrorKind::kInternal, "unexpected error");
  }
}

// fn() with any exception it throws turned into an error.
template <typename Fn>
Status run_guarded(Fn&& fn) {
  try {
    return fn();
  } catch (...) {
    return status_of_current_exception();
  }
}

}  // namespace floe::cli
