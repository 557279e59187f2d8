// The table's default sort order (Java's ReplaceSortOrder; Spark's ALTER TABLE ... WRITE
// [LOCALLY] ORDERED BY / UNORDERED): the order writers put rows in within each data file, and
// the sort_order_id those files carry. An order equal to an existing one is that one again
// (ids of new orders from the highest + 1; the unsorted order is always id 0). A sort field is
// a source column (case-insensitive unless case_sensitive(true)) under a transform, ascending
// or descending, nulls first or last; a transform the column's type does not take is an error.
//
//   FLOE_TRY(table->replace_sort_order().asc("event_ts", Transform::day()).desc("id").commit());
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "floe/spec/sort_order.h"
#include "floe/table/transaction.h"

namespace floe {

class ReplaceSortOrder {
 public:
  ReplaceSortOrder(Transaction txn, bool auto_commit);
  // Nulls first by default for ascending fields, last for descending (Spark's defaults).
  ReplaceSortOrder& asc(const std::string& source, Transform transform = Transform::identity(),
                        std::optional<NullOrder> nulls = std::nullopt);
  ReplaceSortOrder& desc(const std::string& source, Transform transform = Transform::identity(),
                         std::optional<NullOrder> nulls = std::nullopt);
  ReplaceSortOrder& case_sensitive(bool value);
  Status commit();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
  Transaction txn_;
  bool auto_commit_;
};

}  // namespace floe
