// The table's default sort order (floe/table/replace_sort_order.h).
#include "floe/table/replace_sort_order.h"

#include <fmt/format.h>

#include "floe/table/table.h"

namespace floe {

namespace {

struct OrderTerm {
  std::string source;
  Transform transform;
  SortDirection direction;
  NullOrder nulls;
};

}  // namespace

struct ReplaceSortOrder::Impl : PendingUpdate {
  std::vector<OrderTerm> terms;
  bool case_sensitive = false;

  Result<TableMetadata> apply(const TableMetadata& base) override {
    const Schema* schema = base.schema();
    if (!schema) return invalid_argument("the table has no current schema");
    std::vector<SortField> fields;
    for (const auto& t : terms) {
      const NestedField* f = schema->find_field(t.source, case_sensitive);
      if (!f) return invalid_argument("Cannot find source column for sort field: {}", t.source);
      if (!t.transform.can_transform(*f->type)) {
        return invalid_argument("Cannot sort by {}({}): {} does not apply to type {}",
                                t.transform.to_string(), t.source, t.transform.to_string(),
                                f->type->to_string());
      }
      SortField s;
      s.transform = t.transform;
      s.source_id = f->id;
      s.direction = t.direction;
      s.null_order = t.nulls;
      fields.push_back(std::move(s));
    }
    TableMetadata m = base;
    int32_t order_id = -1, next_id = 1;
    for (const auto& o : m.sort_orders) {
      if (order_id < 0 && o->fields == fields) order_id = o->order_id;
      next_id = std::max(next_id, o->order_id + 1);
    }
    if (order_id < 0) {
      if (fields.empty()) {
        order_id = 0;  // the unsorted order, missing from this table's list
        m.sort_orders.push_back(std::make_shared<const SortOrder>());
      } else {
        auto order = std::make_shared<SortOrder>();
        order->order_id = next_id;
        order->fields = std::move(fields);
        m.sort_orders.push_back(order);
        order_id = next_id;
      }
    }
    m.default_sort_order_id = order_id;
    return m;
  }
};

ReplaceSortOrder::ReplaceSortOrder(Transaction txn, bool auto_commit)
    : impl_(std::make_shared<Impl>()), txn_(std::move(txn)), auto_commit_(auto_commit) {}

ReplaceSortOrder& ReplaceSortOrder::asc(const std::string& source, Transform transform,
                                        std::optional<NullOrder> nulls) {
  impl_->terms.push_back(
      {source, std::move(transform), SortDirection::kAsc, nulls.value_or(NullOrder::kNullsFirst)});
  return *this;
}
ReplaceSortOrder& ReplaceSortOrder::desc(const std::string& source, Transform transform,
                                         std::optional<NullOrder> nulls) {
  impl_->terms.push_back(
      {source, std::move(transform), SortDirection::kDesc, nulls.value_or(NullOrder::kNullsLast)});
  return *this;
}
ReplaceSortOrder& ReplaceSortOrder::case_sensitive(bool value) {
  impl_->case_sensitive = value;
  return *this;
}

ReplaceSortOrder Transaction::replace_sort_order() { return ReplaceSortOrder(*this, false); }
ReplaceSortOrder Table::replace_sort_order() { return ReplaceSortOrder(new_transaction(), true); }

Status ReplaceSortOrder::commit() {
  FLOE_TRY(txn_.stage(impl_));
  return auto_commit_ ? txn_.commit() : Status::OK();
}

}  // namespace floe
