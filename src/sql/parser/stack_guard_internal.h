// How much call stack the current thread has left, so the recursive parts of the SQL engine
// (parser, binder, evaluator, printers, tree walkers) stop with an error instead of overflowing
// the stack on a deeply nested expression.
#pragma once

#include <cstddef>
#include <string_view>

#include "floe/util/result.h"

namespace floe::sql::internal {

// Bytes of stack below the caller's frame on the current thread (very large when unknown).
size_t stack_remaining();

// True when less stack is left than a recursive step may safely use (a quarter of the thread's
// stack, at most 512 KB, stays in reserve for the work done below the guarded call).
bool stack_low();

// The error text for it.
inline constexpr std::string_view kTooDeep =
    "expression too deeply nested: simplify it (fewer terms or levels)";

// kInvalidArgument "expression too deeply nested <where>: ..." when stack_low().
Status check_stack(std::string_view where);

}  // namespace floe::sql::internal
