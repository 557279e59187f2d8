// Arrow C Data Interface export: batches and batch streams leave floe as ArrowSchema /
// ArrowArray / ArrowArrayStream (structs declared from the published ABI,
// https://arrow.apache.org/docs/format/CDataInterface.html), so any Arrow consumer reads floe
// output without copies. The exported arrays share the column buffers (kept alive until the
// consumer calls release); only booleans are repacked into bits.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "floe/columnar/column_vector.h"

extern "C" {

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE
}

namespace floe {

// The schema of a batch as an Arrow struct ("+s") whose children are the fields. Field ids are
// kept as field metadata "PARQUET:field_id" (the key Arrow's Parquet reader uses).
Status export_arrow_schema(const std::vector<NestedField>& fields, ArrowSchema* out);
// A batch as an Arrow struct array. The batch's columns stay alive until release.
Status export_arrow_array(const ColumnBatch& batch, ArrowArray* out);

// Produces the next batch, or nullopt at the end.
using BatchSource = std::function<Result<std::optional<ColumnBatch>>()>;
// A stream over `next`; errors surface as EIO from get_next with get_last_error's message.
Status export_arrow_stream(std::vector<NestedField> fields, BatchSource next,
                           ArrowArrayStream* out);

}  // namespace floe
