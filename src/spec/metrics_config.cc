// Metrics modes and their table properties (Java's MetricsConfig), and the truncation of bounds
// (Iceberg spec, Appendix B / Truncation).
#include "floe/spec/metrics_config.h"

#include <cctype>
#include <cstdlib>
#include <functional>

#include "floe/spec/table_properties.h"
#include "floe/util/utf8.h"

namespace floe {

Result<MetricsMode> MetricsMode::parse(std::string_view text) {
  std::string t;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  MetricsMode m;
  if (t == "none") {
    m.kind = kNone;
  } else if (t == "counts") {
    m.kind = kCounts;
  } else if (t == "full") {
    m.kind = kFull;
  } else if (t.rfind("truncate(", 0) == 0 && t.back() == ')') {
    std::string n = t.substr(9, t.size() - 10);
    if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos) {
      return invalid_argument("bad metrics mode {}", text);
    }
    m.kind = kTruncate;
    m.length = std::stoi(n);
    if (m.length <= 0) return invalid_argument("truncate length must be positive: {}", text);
  } else {
    return invalid_argument("bad metrics mode {}", text);
  }
  return m;
}

std::string MetricsMode::to_string() const {
  switch (kind) {
    case kNone:
      return "none";
    case kCounts:
      return "counts";
    case kFull:
      return "full";
    case kTruncate:
      return fmt::format("truncate({})", length);
  }
  return "";
}

Result<MetricsConfig> MetricsConfig::from_properties(
    const std::map<std::string, std::string>& props, const Schema& schema) {
  namespace tp = table_properties;
  MetricsConfig o;
  bool default_set = false;
  if (auto it = props.find(std::string(tp::kDefaultWriteMetricsMode)); it != props.end()) {
    o.default_mode = FLOE_TRY(MetricsMode::parse(it->second));
    default_set = true;
  }
  // Java's MetricsConfig: without an explicit default, a schema with more top-level columns than
  // write.metadata.metrics.max-inferred-column-defaults (100) keeps truncate(16) for the leaves
  // of the first 100 top-level columns only and `none` for the rest.
  int64_t max_inferred = tp::kMetricsMaxInferredColumnDefaultsDefault;
  if (auto it = props.find(std::string(tp::kMetricsMaxInferredColumnDefaults)); it != props.end()) {
    const std::string& v = it->second;
    char* end = nullptr;
    long long x = std::strtoll(v.c_str(), &end, 10);
    if (end == v.c_str() || *end != '\0' || x <= 0) {
      return invalid_argument("table property {}={} is not a positive integer", it->first, v);
    }
    max_inferred = x;
  }
  if (!default_set && static_cast<int64_t>(schema.fields().size()) > max_inferred) {
    std::function<void(const NestedField&)> disable = [&](const NestedField& f) {
      if (f.type->is_primitive()) o.column_modes[f.id] = MetricsMode{MetricsMode::kNone, 0};
      for (const auto& c : f.type->fields()) disable(c);
    };
    for (size_t i = static_cast<size_t>(max_inferred); i < schema.fields().size(); ++i) {
      disable(schema.fields()[i]);
    }
  }
  const std::string_view prefix = tp::kMetricsModeColumnConfPrefix;
  for (const auto& [k, v] : props) {
    if (k.rfind(prefix, 0) != 0) continue;
    std::string name = k.substr(prefix.size());
    const NestedField* f = schema.find_field(name);
    if (!f) continue;  // Java ignores metrics settings for unknown columns
    o.column_modes[f->id] = FLOE_TRY(MetricsMode::parse(v));
  }
  return o;
}

std::string truncate_lower_string(std::string_view utf8, int n) {
  size_t used = 0;
  utf8_decode(utf8, static_cast<size_t>(n), &used);
  return std::string(utf8.substr(0, used));
}

std::optional<std::string> truncate_upper_string(std::string_view utf8, int n) {
  size_t used = 0;
  utf8_decode(utf8, static_cast<size_t>(n), &used);
  if (used == utf8.size()) return std::string(utf8);
  return utf8_increment(utf8.substr(0, used));
}

std::string truncate_lower_binary(std::string_view bytes, int n) {
  return std::string(bytes.substr(0, static_cast<size_t>(n)));
}

std::optional<std::string> truncate_upper_binary(std::string_view bytes, int n) {
  if (bytes.size() <= static_cast<size_t>(n)) return std::string(bytes);
  std::string out(bytes.substr(0, static_cast<size_t>(n)));
  while (!out.empty()) {
    auto last = static_cast<unsigned char>(out.back());
    if (last != 0xFF) {
      out.back() = static_cast<char>(last + 1);
      return out;
    }
    out.pop_back();
  }
  return std::nullopt;
}

}  // namespace floe
