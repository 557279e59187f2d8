// The 128-bit signed integer that holds a decimal's unscaled value (Iceberg spec, Primitive
// Types: decimal(P,S) with P <= 38).
#pragma once

namespace floe {

using int128_t = __int128;

}  // namespace floe
