// FileIO's defaults. open_output: the parts are collected in memory and handed to write_file on
// close(), so every FileIO (memory, wrappers, test doubles) supports streams with its own
// write_file semantics. read_range_into: read_range. delete_files: delete_file per path.
#include "floe/io/file_io.h"

namespace floe {

namespace {

class CollectingOutputStream final : public OutputStream {
 public:
  CollectingOutputStream(FileIO* io, std::string path, WriteMode mode)
      : io_(io), path_(std::move(path)), mode_(mode) {}

  Status write(std::string_view data) override {
    if (closed_) return invalid_argument("write {}: stream is closed", path_);
    data_.append(data);
    position_ += static_cast<int64_t>(data.size());
    return Status::OK();
  }

  Status close() override {
    if (closed_) return invalid_argument("close {}: stream is already closed", path_);
    closed_ = true;
    Status st = io_->write_file(path_, data_, mode_);
    data_ = std::string();
    return st;
  }

 private:
  FileIO* io_;
  std::string path_;
  WriteMode mode_;
  std::string data_;
  bool closed_ = false;
};

}  // namespace

Result<std::unique_ptr<OutputStream>> FileIO::open_output(std::string_view path, WriteMode mode) {
  return std::unique_ptr<OutputStream>(
      std::make_unique<CollectingOutputStream>(this, std::string(path), mode));
}

Status FileIO::read_range_into(std::string_view path, int64_t offset, int64_t length, Buffer* out) {
  std::string bytes = FLOE_TRY(read_range(path, offset, length));
  out->clear();
  out->append(bytes.data(), bytes.size());
  return Status::OK();
}

Status FileIO::delete_files(const std::vector<std::string>& paths,
                            std::vector<std::string>* failed) {
  Status first;
  for (const auto& path : paths) {
    Status st = delete_file(path);
    if (st.ok() || st.kind() == ErrorKind::kNotFound) continue;
    if (failed) failed->push_back(path);
    if (first.ok()) first = st;
  }
  return first;
}

}  // namespace floe
