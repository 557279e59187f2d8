// The snapshot update handles (AppendFiles, OverwriteFiles, RowDelta, DeleteFiles,
// ReplacePartitions): each configures a SnapshotProducer and stages it into its transaction on
// commit().
#include "floe/table/snapshot_producer.h"
#include "floe/table/update_schema.h"
#include "table/snapshot_producer_internal.h"

namespace floe {

SnapshotUpdate::SnapshotUpdate(std::shared_ptr<SnapshotProducer> producer, Transaction txn,
                               bool auto_commit)
    : producer_(std::move(producer)), txn_(std::move(txn)), auto_commit_(auto_commit) {}

void SnapshotUpdate::set_branch(const std::string& name) { producer_->branch_ = name; }
void SnapshotUpdate::set_summary(const std::string& key, const std::string& value) {
  producer_->extra_summary_[key] = value;
}
int64_t SnapshotUpdate::snapshot_id() const { return producer_->snapshot_id(); }

Status SnapshotUpdate::commit() {
  // A second commit would add the same files again under a new snapshot.
  if (producer_->staged_) return invalid_argument("snapshot update already committed");
  FLOE_TRY(txn_.stage(producer_));
  producer_->staged_ = true;
  return auto_commit_ ? txn_.commit() : Status::OK();
}

static std::shared_ptr<SnapshotProducer> make_producer(ProducerKind kind, const Transaction& t) {
  return std::make_shared<SnapshotProducer>(kind, t.table()->io());
}

AppendFiles::AppendFiles(bool merge, Transaction txn, bool auto_commit)
    : SnapshotUpdate(
          make_producer(merge ? ProducerKind::kMergeAppend : ProducerKind::kFastAppend, txn), txn,
          auto_commit) {}

AppendFiles& AppendFiles::append_file(DataFile file) {
  producer_->added_.push_back(std::move(file));
  return *this;
}

OverwriteFiles::OverwriteFiles(Transaction txn, bool auto_commit)
    : SnapshotUpdate(make_producer(ProducerKind::kOverwrite, txn), txn, auto_commit) {
  producer_->fail_missing_deletes_ = true;
}

OverwriteFiles& OverwriteFiles::overwrite_by_row_filter(ExprPtr filter) {
  producer_->delete_filter_ = producer_->delete_filter_
                                  ? make_or(producer_->delete_filter_, std::move(filter))
                                  : std::move(filter);
  return *this;
}
OverwriteFiles& OverwriteFiles::delete_file(DataFile file) {
  producer_->delete_paths_.insert(file.file_path);
  producer_->removed_data_files_[file.file_path] = std::move(file);
  return *this;
}
OverwriteFiles& OverwriteFiles::add_file(DataFile file) {
  producer_->added_.push_back(std::move(file));
  return *this;
}
OverwriteFiles& OverwriteFiles::validate_from_snapshot(int64_t snapshot_id) {
  producer_->validate_from_ = snapshot_id;
  return *this;
}
OverwriteFiles& OverwriteFiles::conflict_detection_filter(ExprPtr filter) {
  producer_->conflict_filter_ = std::move(filter);
  return *this;
}
OverwriteFiles& OverwriteFiles::validate_no_conflicting_data() {
  producer_->validate_no_conflicting_data_ = true;
  return *this;
}
OverwriteFiles& OverwriteFiles::validate_no_conflicting_deletes() {
  producer_->validate_no_conflicting_deletes_ = true;
  return *this;
}
OverwriteFiles& OverwriteFiles::validate_added_files_match_overwrite_filter() {
  producer_->validate_added_match_filter_ = true;
  return *this;
}
OverwriteFiles& OverwriteFiles::case_sensitive(bool value) {
  producer_->case_sensitive_ = value;
  return *this;
}

RowDelta::RowDelta(Transaction txn, bool auto_commit)
    : SnapshotUpdate(make_producer(ProducerKind::kRowDelta, txn), txn, auto_commit) {}

RowDelta& RowDelta::add_rows(DataFile file) {
  producer_->added_.push_back(std::move(file));
  return *this;
}
RowDelta& RowDelta::add_deletes(DataFile file) {
  producer_->added_deletes_.push_back(std::move(file));
  return *this;
}
RowDelta& RowDelta::remove_rows(DataFile file) {
  producer_->delete_paths_.insert(file.file_path);
  producer_->removed_data_files_[file.file_path] = std::move(file);
  return *this;
}
RowDelta& RowDelta::remove_deletes(DataFile file) {
  internal::DeleteKey key = internal::delete_key(file);
  producer_->removed_deletes_[std::move(key)] = std::move(file);
  return *this;
}
RowDelta& RowDelta::validate_from_snapshot(int64_t snapshot_id) {
  producer_->validate_from_ = snapshot_id;
  return *this;
}
RowDelta& RowDelta::validate_data_files_exist(std::vector<std::string> paths) {
  producer_->required_data_files_.insert(std::make_move_iterator(paths.begin()),
                                         std::make_move_iterator(paths.end()));
  return *this;
}
RowDelta& RowDelta::validate_deleted_files() {
  producer_->validate_deleted_files_ = true;
  producer_->fail_missing_deletes_ = true;
  return *this;
}
RowDelta& RowDelta::conflict_detection_filter(ExprPtr filter) {
  producer_->conflict_filter_ = std::move(filter);
  return *this;
}
RowDelta& RowDelta::validate_no_conflicting_data_files() {
  producer_->validate_no_conflicting_data_ = true;
  return *this;
}
RowDelta& RowDelta::validate_no_conflicting_delete_files() {
  producer_->validate_no_conflicting_deletes_ = true;
  return *this;
}
RowDelta& RowDelta::case_sensitive(bool value) {
  producer_->case_sensitive_ = value;
  return *this;
}

RewriteFiles::RewriteFiles(Transaction txn, bool auto_commit)
    : SnapshotUpdate(make_producer(ProducerKind::kRewrite, txn), txn, auto_commit) {
  producer_->fail_missing_deletes_ = true;
}

RewriteFiles& RewriteFiles::remove_data(DataFile file) {
  producer_->delete_paths_.insert(file.file_path);
  producer_->removed_data_files_[file.file_path] = std::move(file);
  return *this;
}
RewriteFiles& RewriteFiles::remove_deletes(DataFile file) {
  internal::DeleteKey key = internal::delete_key(file);
  producer_->removed_deletes_[std::move(key)] = std::move(file);
  return *this;
}
RewriteFiles& RewriteFiles::add_file(DataFile file) {
  producer_->added_.push_back(std::move(file));
  return *this;
}
RewriteFiles& RewriteFiles::add_deletes(DataFile file,
                                        std::optional<int64_t> data_sequence_number) {
  if (data_sequence_number) {
    producer_->added_delete_sequence_numbers_[internal::delete_key(file)] = *data_sequence_number;
  }
  producer_->added_deletes_.push_back(std::move(file));
  return *this;
}
RewriteFiles& RewriteFiles::data_sequence_number(int64_t sequence_number) {
  producer_->new_data_sequence_number_ = sequence_number;
  return *this;
}
RewriteFiles& RewriteFiles::validate_from_snapshot(int64_t snapshot_id) {
  producer_->validate_from_ = snapshot_id;
  return *this;
}

DeleteFiles::DeleteFiles(Transaction txn, bool auto_commit)
    : SnapshotUpdate(make_producer(ProducerKind::kDelete, txn), txn, auto_commit) {}

DeleteFiles& DeleteFiles::delete_from_row_filter(ExprPtr filter) {
  producer_->delete_filter_ = producer_->delete_filter_
                                  ? make_or(producer_->delete_filter_, std::move(filter))
                                  : std::move(filter);
  return *this;
}
DeleteFiles& DeleteFiles::delete_file(const std::string& path) {
  producer_->delete_paths_.insert(path);
  return *this;
}
DeleteFiles& DeleteFiles::validate_files_exist() {
  producer_->fail_missing_deletes_ = true;
  return *this;
}
DeleteFiles& DeleteFiles::case_sensitive(bool value) {
  producer_->case_sensitive_ = value;
  return *this;
}

ReplacePartitions::ReplacePartitions(Transaction txn, bool auto_commit)
    : SnapshotUpdate(make_producer(ProducerKind::kReplacePartitions, txn), txn, auto_commit) {}

ReplacePartitions& ReplacePartitions::add_file(DataFile file) {
  producer_->added_.push_back(std::move(file));
  return *this;
}
ReplacePartitions& ReplacePartitions::validate_append_only() {
  producer_->fail_any_delete_ = true;
  return *this;
}
ReplacePartitions& ReplacePartitions::validate_from_snapshot(int64_t snapshot_id) {
  producer_->validate_from_ = snapshot_id;
  return *this;
}
ReplacePartitions& ReplacePartitions::validate_no_conflicting_data() {
  producer_->validate_no_conflicting_data_ = true;
  return *this;
}

// Transaction factories live here, next to the handle constructors.
AppendFiles Transaction::new_append() { return AppendFiles(true, *this, false); }
AppendFiles Transaction::new_fast_append() { return AppendFiles(false, *this, false); }
OverwriteFiles Transaction::new_overwrite() { return OverwriteFiles(*this, false); }
DeleteFiles Transaction::new_delete() { return DeleteFiles(*this, false); }
ReplacePartitions Transaction::new_replace_partitions() { return ReplacePartitions(*this, false); }
RowDelta Transaction::new_row_delta() { return RowDelta(*this, false); }
RewriteFiles Transaction::new_rewrite() { return RewriteFiles(*this, false); }
UpdateProperties Transaction::update_properties() { return UpdateProperties(*this, false); }
UpdateSchema Transaction::update_schema() { return UpdateSchema(*this, false); }
ManageSnapshots Transaction::manage_snapshots() { return ManageSnapshots(*this, false); }

}  // namespace floe
