#include "floe/format/avro/generic.h"

#include <cmath>
#include <functional>

#include "floe/util/utf8.h"

namespace floe::avro {

std::string bytes_to_latin1(std::string_view bytes) {
  std::string s;
  s.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) utf8_append(c, &s);
  return s;
}

namespace {

constexpr int kMaxDepth = 1000;

template <typename T>
nlohmann::ordered_json finite_or_null(T v) {
  if (std::isfinite(v)) return v;
  return nullptr;
}

void decode_rec(const Node& n, Decoder& d, nlohmann::ordered_json* out, int depth) {
  if (depth > kMaxDepth) {
    d.fail("datum nested too deeply");
    return;
  }
  switch (n.type) {
    case AvroType::kNull:
      *out = nullptr;
      return;
    case AvroType::kBoolean:
      *out = d.read_bool();
      return;
    case AvroType::kInt:
      *out = d.read_int();
      return;
    case AvroType::kLong:
      *out = d.read_long();
      return;
    case AvroType::kFloat:
      *out = finite_or_null(d.read_float());
      return;
    case AvroType::kDouble:
      *out = finite_or_null(d.read_double());
      return;
    case AvroType::kString: {
      std::string_view s = d.read_bytes();
      *out = std::string(s);
      return;
    }
    case AvroType::kBytes:
      *out = bytes_to_latin1(d.read_bytes());
      return;
    case AvroType::kFixed:
      *out = bytes_to_latin1(d.read_fixed(static_cast<size_t>(n.size)));
      return;
    case AvroType::kEnum: {
      int64_t i = d.read_long();
      if (i < 0 || static_cast<size_t>(i) >= n.symbols.size()) {
        d.fail("enum index out of range");
        *out = nullptr;
        return;
      }
      *out = n.symbols[static_cast<size_t>(i)];
      return;
    }
    case AvroType::kUnion: {
      int64_t i = d.read_long();
      if (i < 0 || static_cast<size_t>(i) >= n.branches.size()) {
        d.fail("union branch out of range");
        *out = nullptr;
        return;
      }
      decode_rec(*n.branches[static_cast<size_t>(i)], d, out, depth + 1);
      return;
    }
    case AvroType::kRecord: {
      *out = nlohmann::ordered_json::object();
      for (const auto& f : n.fields) {
        nlohmann::ordered_json v;
        decode_rec(*f.type, d, &v, depth + 1);
        if (!d.ok()) return;
        (*out)[f.name] = std::move(v);
      }
      return;
    }
    case AvroType::kArray: {
      *out = nlohmann::ordered_json::array();
      while (int64_t count = d.read_block_count()) {
        for (int64_t i = 0; i < count && d.ok(); ++i) {
          nlohmann::ordered_json v;
          decode_rec(*n.items, d, &v, depth + 1);
          out->push_back(std::move(v));
        }
        if (!d.ok()) return;
      }
      return;
    }
    case AvroType::kMap: {
      *out = nlohmann::ordered_json::object();
      while (int64_t count = d.read_block_count()) {
        for (int64_t i = 0; i < count && d.ok(); ++i) {
          std::string key(d.read_bytes());
          nlohmann::ordered_json v;
          decode_rec(*n.items, d, &v, depth + 1);
          (*out)[key] = std::move(v);
        }
        if (!d.ok()) return;
      }
      return;
    }
  }
}

void skip_rec(const Node& n, Decoder& d, int depth) {
  if (depth > kMaxDepth) return d.fail("datum nested too deeply");
  switch (n.type) {
    case AvroType::kNull:
      return;
    case AvroType::kBoolean:
      d.read_bool();
      return;
    case AvroType::kInt:
    case AvroType::kLong:
    case AvroType::kEnum:
      d.read_long();
      return;
    case AvroType::kFloat:
      d.skip_fixed(4);
      return;
    case AvroType::kDouble:
      d.skip_fixed(8);
      return;
    case AvroType::kString:
    case AvroType::kBytes:
      d.skip_bytes();
      return;
    case AvroType::kFixed:
      d.skip_fixed(static_cast<size_t>(n.size));
      return;
    case AvroType::kUnion: {
      int64_t i = d.read_long();
      if (i < 0 || static_cast<size_t>(i) >= n.branches.size()) {
        return d.fail("union branch out of range");
      }
      skip_rec(*n.branches[static_cast<size_t>(i)], d, depth + 1);
      return;
    }
    case AvroType::kRecord:
      for (const auto& f : n.fields) {
        skip_rec(*f.type, d, depth + 1);
        if (!d.ok()) return;
      }
      return;
    case AvroType::kArray:
    case AvroType::kMap:
      while (int64_t count = d.read_block_count()) {
        for (int64_t i = 0; i < count && d.ok(); ++i) {
          if (n.type == AvroType::kMap) d.skip_bytes();
          skip_rec(*n.items, d, depth + 1);
        }
        if (!d.ok()) return;
      }
      return;
  }
}

}  // namespace

void decode_json(const Node& node, Decoder& decoder, nlohmann::ordered_json* out) {
  decode_rec(node, decoder, out, 0);
}

void skip_datum(const Node& node, Decoder& decoder) { skip_rec(node, decoder, 0); }

Status for_each_json(ContainerReader& reader,
                     const std::function<bool(nlohmann::ordered_json&)>& fn) {
  while (FLOE_TRY(reader.next_block())) {
    Decoder& d = reader.decoder();
    for (int64_t i = 0; i < reader.block_count(); ++i) {
      nlohmann::ordered_json rec;
      decode_json(reader.schema().root(), d, &rec);
      if (!d.ok()) return reader.finish_block();
      if (!fn(rec)) return Status::OK();
    }
    FLOE_TRY(reader.finish_block());
  }
  return Status::OK();
}

}  // namespace floe::avro
