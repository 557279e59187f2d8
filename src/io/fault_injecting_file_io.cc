#include "floe/io/fault_injecting_file_io.h"

namespace floe {

FaultInjectingFileIO::FaultInjectingFileIO(FileIOPtr inner) : inner_(std::move(inner)) {}

void FaultInjectingFileIO::fail_writes(WriteFault fault) {
  std::lock_guard lock(mu_);
  rules_.push_back({std::move(fault)});
}

void FaultInjectingFileIO::crash() {
  std::lock_guard lock(mu_);
  crashed_ = true;
}

void FaultInjectingFileIO::heal() {
  std::lock_guard lock(mu_);
  rules_.clear();
  crashed_ = false;
}

int64_t FaultInjectingFileIO::writes_attempted() const {
  std::lock_guard lock(mu_);
  return attempted_;
}

int64_t FaultInjectingFileIO::writes_failed() const {
  std::lock_guard lock(mu_);
  return failed_;
}

std::vector<std::string> FaultInjectingFileIO::written_paths() const {
  std::lock_guard lock(mu_);
  return written_;
}

std::vector<std::string> FaultInjectingFileIO::deleted_paths() const {
  std::lock_guard lock(mu_);
  return deleted_;
}

Status FaultInjectingFileIO::crashed(std::string_view op, std::string_view path) const {
  std::lock_guard lock(mu_);
  if (!crashed_) return Status::OK();
  return io_error("injected crash: cannot {} '{}'", op, path);
}

const FaultInjectingFileIO::Rule* FaultInjectingFileIO::select(std::string_view path) {
  for (auto& rule : rules_) {
    if (!rule.fault.path_contains.empty() &&
        path.find(rule.fault.path_contains) == std::string_view::npos) {
      continue;
    }
    int64_t index = rule.seen++;
    if (index < rule.fault.skip) return nullptr;
    if (rule.fault.times >= 0 && rule.failed >= rule.fault.times) return nullptr;
    rule.failed++;
    return &rule;
  }
  return nullptr;
}

Result<std::string> FaultInjectingFileIO::read_file(std::string_view path) {
  FLOE_TRY(crashed("read", path));
  return inner_->read_file(path);
}

Result<std::string> FaultInjectingFileIO::read_range(std::string_view path, int64_t offset,
                                                     int64_t length) {
  FLOE_TRY(crashed("read", path));
  return inner_->read_range(path, offset, length);
}

Result<int64_t> FaultInjectingFileIO::file_size(std::string_view path) {
  FLOE_TRY(crashed("stat", path));
  return inner_->file_size(path);
}

Status FaultInjectingFileIO::write_file(std::string_view path, std::string_view data,
                                        WriteMode mode) {
  FLOE_TRY(crashed("write", path));
  bool fail = false;
  bool lost_ack = false;
  {
    std::lock_guard lock(mu_);
    attempted_++;
    if (const Rule* rule = select(path)) {
      fail = true;
      lost_ack = rule->fault.lost_ack;
      failed_++;
    }
  }
  if (fail && !lost_ack) return io_error("injected failure writing '{}'", path);
  FLOE_TRY(inner_->write_file(path, data, mode));
  {
    std::lock_guard lock(mu_);
    written_.emplace_back(path);
  }
  if (fail) return io_error("injected failure after writing '{}' (lost acknowledgement)", path);
  return Status::OK();
}

Result<bool> FaultInjectingFileIO::exists(std::string_view path) {
  FLOE_TRY(crashed("stat", path));
  return inner_->exists(path);
}

Status FaultInjectingFileIO::delete_file(std::string_view path) {
  FLOE_TRY(crashed("delete", path));
  FLOE_TRY(inner_->delete_file(path));
  std::lock_guard lock(mu_);
  deleted_.emplace_back(path);
  return Status::OK();
}

Result<std::vector<FileInfo>> FaultInjectingFileIO::list(std::string_view prefix) {
  FLOE_TRY(crashed("list", prefix));
  return inner_->list(prefix);
}

}  // namespace floe
