// Reserved field ids and the metadata columns a scan can return beside a table's own columns
// (Iceberg spec, "Reserved Field IDs"): `_file`, the path of the data file a row was read from,
// and `_pos`, the row's ordinal position in that file (the position a position delete names).
#pragma once

#include <cstdint>
#include <string_view>

#include "floe/spec/type.h"

namespace floe {

constexpr int32_t kFileColumnId = 2147483646;       // _file: string
constexpr int32_t kPositionColumnId = 2147483645;   // _pos: long
constexpr int32_t kSpecIdColumnId = 2147483647;     // _spec_id: int
constexpr int32_t kDeletedColumnId = 2147483644;    // _deleted: boolean
constexpr int32_t kPartitionColumnId = 2147483643;  // _partition: struct
// The columns of position delete files.
constexpr int32_t kDeleteFilePathColumnId = 2147483546;  // file_path: string
constexpr int32_t kDeletePositionColumnId = 2147483545;  // pos: long

// `_file` and `_pos` as required fields.
const NestedField& file_column();
const NestedField& position_column();

// The metadata column a reader can produce for `id` (`_file` or `_pos`), or null.
const NestedField* find_metadata_column(int32_t id);
// The same by name (case-insensitive).
const NestedField* find_metadata_column(std::string_view name);

}  // namespace floe
