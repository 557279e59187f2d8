#include "floe/format/avro/schema.h"

#include <algorithm>
#include <map>
#include <set>

#include "floe/spec/json_text.h"

namespace floe::avro {

const char* avro_type_name(AvroType type) {
  switch (type) {
    case AvroType::kNull:
      return "null";
    case AvroType::kBoolean:
      return "boolean";
    case AvroType::kInt:
      return "int";
    case AvroType::kLong:
      return "long";
    case AvroType::kFloat:
      return "float";
    case AvroType::kDouble:
      return "double";
    case AvroType::kBytes:
      return "bytes";
    case AvroType::kString:
      return "string";
    case AvroType::kRecord:
      return "record";
    case AvroType::kEnum:
      return "enum";
    case AvroType::kArray:
      return "array";
    case AvroType::kMap:
      return "map";
    case AvroType::kUnion:
      return "union";
    case AvroType::kFixed:
      return "fixed";
  }
  return "?";
}

int Node::null_branch() const {
  if (type != AvroType::kUnion || branches.size() != 2) return -1;
  if (branches[0]->type == AvroType::kNull) return 0;
  if (branches[1]->type == AvroType::kNull) return 1;
  return -1;
}

const Node* Node::non_null() const {
  int nb = null_branch();
  return nb < 0 ? this : branches[1 - nb];
}

const Field* Node::field(std::string_view field_name) const {
  for (const auto& f : fields) {
    if (f.name == field_name) return &f;
  }
  return nullptr;
}

Node* AvroSchema::add(Node node) {
  nodes_.push_back(std::make_unique<Node>(std::move(node)));
  return nodes_.back().get();
}

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

std::optional<AvroType> primitive_type(std::string_view name) {
  static const std::map<std::string_view, AvroType> kPrimitives = {
      {"null", AvroType::kNull},   {"boolean", AvroType::kBoolean}, {"int", AvroType::kInt},
      {"long", AvroType::kLong},   {"float", AvroType::kFloat},     {"double", AvroType::kDouble},
      {"bytes", AvroType::kBytes}, {"string", AvroType::kString},
  };
  auto it = kPrimitives.find(name);
  if (it == kPrimitives.end()) return std::nullopt;
  return it->second;
}

Result<std::optional<int32_t>> id_prop(const json& j, const char* key, const std::string& path) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::optional<int32_t>();
  if (it->is_number_unsigned()) {
    if (it->get<uint64_t>() <= INT32_MAX) return std::optional<int32_t>(it->get<int32_t>());
  } else if (it->is_number_integer()) {
    int64_t v = it->get<int64_t>();
    if (v >= INT32_MIN && v <= INT32_MAX) return std::optional<int32_t>(static_cast<int32_t>(v));
  }
  // Some writers store ids as strings.
  if (it->is_string()) {
    try {
      return std::optional<int32_t>(std::stoi(it->get<std::string>()));
    } catch (...) {
    }
  }
  return invalid_data("avro schema {}: {} must be an int, got {}", path, key,
                      json_for_message(*it));
}

class Parser {
 public:
  explicit Parser(AvroSchema* schema) : schema_(schema) {}

  Result<const Node*> parse(const json& j, const std::string& ns, const std::string& path) {
    if (++depth_ > 256) return invalid_data("avro schema {}: nested too deeply", path);
    auto r = parse_inner(j, ns, path);
    --depth_;
    return r;
  }

 private:
  std::string full_name(const std::string& name, const std::string& ns) {
    if (name.find('.') != std::string::npos || ns.empty()) return name;
    return ns + "." + name;
  }

  Result<const Node*> lookup(const std::string& name, const std::string& ns,
                             const std::string& path) {
    auto it = named_.find(full_name(name, ns));
    if (it == named_.end()) it = named_.find(name);
    if (it == named_.end()) return invalid_data("avro schema {}: unknown type '{}'", path, name);
    return static_cast<const Node*>(it->second);
  }

  Result<const Node*> parse_inner(const json& j, const std::string& ns, const std::string& path) {
    if (j.is_string()) {
      std::string name = j.get<std::string>();
      if (auto p = primitive_type(name)) {
        Node n;
        n.type = *p;
        return static_cast<const Node*>(schema_->add(std::move(n)));
      }
      return lookup(name, ns, path);
    }
    if (j.is_array()) {
      Node n;
      n.type = AvroType::kUnion;
      for (size_t i = 0; i < j.size(); ++i) {
        const Node* b = FLOE_TRY(parse(j[i], ns, path + "[" + std::to_string(i) + "]"));
        if (b->type == AvroType::kUnion) {
          return invalid_data("avro schema {}: unions may not contain unions", path);
        }
        n.branches.push_back(b);
      }
      return static_cast<const Node*>(schema_->add(std::move(n)));
    }
    if (!j.is_object())
      return invalid_data("avro schema {}: expected a string, array or object", path);
    auto t = j.find("type");
    if (t == j.end()) return invalid_data("avro schema {}: missing \"type\"", path);
    if (!t->is_string()) {
      // {"type": {...}} or {"type": [...]}: a wrapped schema.
      return parse(*t, ns, path + ".type");
    }
    std::string type = t->get<std::string>();
    Node n;
    n.bare = false;
    static const std::set<std::string> kStructural = {"type",    "name", "namespace", "fields",
                                                      "symbols", "size", "items",     "values"};
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!kStructural.count(it.key())) n.props[it.key()] = it.value();
    }
    if (auto lt = j.find("logicalType"); lt != j.end() && lt->is_string()) {
      n.logical_type = lt->get<std::string>();
    }
    n.element_id = FLOE_TRY(id_prop(j, "element-id", path));
    n.key_id = FLOE_TRY(id_prop(j, "key-id", path));
    n.value_id = FLOE_TRY(id_prop(j, "value-id", path));

    if (auto p = primitive_type(type)) {
      n.type = *p;
      return static_cast<const Node*>(schema_->add(std::move(n)));
    }
    if (type == "array") {
      n.type = AvroType::kArray;
      if (!j.contains("items")) return invalid_data("avro schema {}: array without items", path);
      n.items = FLOE_TRY(parse(j["items"], ns, path + ".items"));
      return static_cast<const Node*>(schema_->add(std::move(n)));
    }
    if (type == "map") {
      n.type = AvroType::kMap;
      if (!j.contains("values")) return invalid_data("avro schema {}: map without values", path);
      n.items = FLOE_TRY(parse(j["values"], ns, path + ".values"));
      return static_cast<const Node*>(schema_->add(std::move(n)));
    }
    if (type != "record" && type != "error" && type != "enum" && type != "fixed") {
      // A reference written as {"type": "name"}.
      return lookup(type, ns, path);
    }
    auto name_it = j.find("name");
    if (name_it == j.end() || !name_it->is_string()) {
      return invalid_data("avro schema {}: {} without a name", path, type);
    }
    std::string name = name_it->get<std::string>();
    std::string my_ns = ns;
    if (auto nsi = j.find("namespace"); nsi != j.end() && nsi->is_string()) {
      my_ns = nsi->get<std::string>();
    }
    if (name.find('.') != std::string::npos) my_ns = name.substr(0, name.rfind('.'));
    n.name = full_name(name, my_ns);
    if (named_.count(n.name)) {
      return invalid_data("avro schema {}: type '{}' defined twice", path, n.name);
    }
    if (type == "fixed") {
      n.type = AvroType::kFixed;
      auto s = j.find("size");
      if (s == j.end() || !s->is_number_integer() || s->get<int64_t>() < 0 ||
          s->get<int64_t>() > (1 << 30)) {
        return invalid_data("avro schema {}: fixed '{}' needs a valid size", path, n.name);
      }
      n.size = s->get<int32_t>();
      Node* node = schema_->add(std::move(n));
      named_[node->name] = node;
      return static_cast<const Node*>(node);
    }
    if (type == "enum") {
      n.type = AvroType::kEnum;
      auto s = j.find("symbols");
      if (s == j.end() || !s->is_array()) {
        return invalid_data("avro schema {}: enum '{}' needs symbols", path, n.name);
      }
      for (const auto& sym : *s) {
        if (!sym.is_string()) return invalid_data("avro schema {}: enum symbol not a string", path);
        n.symbols.push_back(sym.get<std::string>());
      }
      Node* node = schema_->add(std::move(n));
      named_[node->name] = node;
      return static_cast<const Node*>(node);
    }
    n.type = AvroType::kRecord;
    // Register before the fields so that recursive references resolve.
    Node* node = schema_->add(std::move(n));
    named_[node->name] = node;
    auto fields = j.find("fields");
    if (fields == j.end() || !fields->is_array()) {
      return invalid_data("avro schema {}: record '{}' needs fields", path, node->name);
    }
    for (size_t i = 0; i < fields->size(); ++i) {
      const json& fj = (*fields)[i];
      std::string fpath = path + "." + node->name + ".fields[" + std::to_string(i) + "]";
      if (!fj.is_object() || !fj.contains("name") || !fj["name"].is_string() ||
          !fj.contains("type")) {
        return invalid_data("avro schema {}: a field needs a name and a type", fpath);
      }
      Field f;
      f.name = fj["name"].get<std::string>();
      f.type = FLOE_TRY(parse(fj["type"], my_ns, fpath));
      for (auto it = fj.begin(); it != fj.end(); ++it) {
        if (it.key() != "name" && it.key() != "type") f.props[it.key()] = it.value();
      }
      f.field_id = FLOE_TRY(id_prop(fj, "field-id", fpath));
      node->fields.push_back(std::move(f));
    }
    return static_cast<const Node*>(node);
  }

  AvroSchema* schema_;
  std::map<std::string, Node*> named_;
  int depth_ = 0;
};

ojson node_json(const Node& n, std::set<const Node*>& defined) {
  if (n.type == AvroType::kUnion) {
    ojson arr = ojson::array();
    for (const Node* b : n.branches) arr.push_back(node_json(*b, defined));
    return arr;
  }
  if (n.is_named()) {
    if (defined.count(&n)) return n.name;
    defined.insert(&n);
  }
  bool primitive = n.type <= AvroType::kString;
  if (primitive && n.bare && n.props.empty()) return avro_type_name(n.type);
  ojson j = ojson::object();
  j["type"] = avro_type_name(n.type);
  if (n.is_named()) j["name"] = n.name;
  switch (n.type) {
    case AvroType::kRecord: {
      ojson fields = ojson::array();
      for (const auto& f : n.fields) {
        ojson fj = ojson::object();
        fj["name"] = f.name;
        fj["type"] = node_json(*f.type, defined);
        for (auto it = f.props.begin(); it != f.props.end(); ++it) fj[it.key()] = it.value();
        fields.push_back(std::move(fj));
      }
      j["fields"] = std::move(fields);
      break;
    }
    case AvroType::kEnum:
      j["symbols"] = n.symbols;
      break;
    case AvroType::kFixed:
      j["size"] = n.size;
      break;
    case AvroType::kArray:
      j["items"] = node_json(*n.items, defined);
      break;
    case AvroType::kMap:
      j["values"] = node_json(*n.items, defined);
      break;
    default:
      break;
  }
  for (auto it = n.props.begin(); it != n.props.end(); ++it) j[it.key()] = it.value();
  return j;
}

int64_t min_size_rec(const Node& n, std::vector<const Node*>* open_records) {
  constexpr int64_t kCap = int64_t{1} << 40;
  switch (n.type) {
    case AvroType::kNull:
      return 0;
    case AvroType::kFloat:
      return 4;
    case AvroType::kDouble:
      return 8;
    case AvroType::kFixed:
      return n.size;
    case AvroType::kRecord: {
      // A record inside itself (only finite through a union or an array, which count 1)
      // and records nested past the parser's depth count 0: still a lower bound.
      if (open_records->size() > 256 ||
          std::find(open_records->begin(), open_records->end(), &n) != open_records->end()) {
        return 0;
      }
      open_records->push_back(&n);
      int64_t total = 0;
      for (const auto& f : n.fields) {
        total = std::min(kCap, total + min_size_rec(*f.type, open_records));
      }
      open_records->pop_back();
      return total;
    }
    default:
      // boolean, int, long, enum and union indexes, string and bytes lengths, the end of an
      // array or map: at least one byte each.
      return 1;
  }
}

}  // namespace

int64_t min_encoded_size(const Node& node) {
  std::vector<const Node*> open_records;
  return min_size_rec(node, &open_records);
}

ojson AvroSchema::to_json_value() const {
  std::set<const Node*> defined;
  return root_ ? node_json(*root_, defined) : ojson();
}

std::string AvroSchema::to_json() const { return to_json_value().dump(); }

Result<AvroSchema> parse_avro_schema_value(const nlohmann::json& j) {
  AvroSchema schema;
  Parser parser(&schema);
  const Node* root = FLOE_TRY(parser.parse(j, "", "$"));
  schema.set_root(root);
  return schema;
}

Result<AvroSchema> parse_avro_schema(std::string_view text) {
  json j = FLOE_TRY(parse_json_text(text, "avro schema"));
  return parse_avro_schema_value(j);
}

}  // namespace floe::avro
