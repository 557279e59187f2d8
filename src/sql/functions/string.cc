// String functions. Positions and lengths count Unicode code points (UTF-8), as Spark counts
// Java chars for the BMP; case mapping is ASCII-only.

#include <optional>

#include "sql/functions/function_internal.h"
#include "sql/functions/regex_internal.h"

namespace floe::sql::internal {

namespace {

Status coerce_at(BindCtx& c, size_t i, const TypePtr& t) {
  c.args[i] = FLOE_TRY(coerce(c.args[i], t));
  return Status::OK();
}

// Binds a fixed signature: argument i becomes types[i] (the last type repeats).
Status sig(BindCtx& c, std::initializer_list<TypePtr> types, TypePtr result) {
  std::vector<TypePtr> ts(types);
  for (size_t i = 0; i < c.args.size(); ++i) {
    FLOE_TRY(coerce_at(c, i, ts[std::min(i, ts.size() - 1)]));
  }
  c.type = std::move(result);
  return Status::OK();
}

char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
char upper_ascii(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

int64_t m_of(const std::vector<Datum>& args, int64_t n) { return rows_for(args, n); }

// ----- concat
// -------------------------------------------------------------------------------------

Status bind_concat(BindCtx& c) {
  bool all_binary = !c.args.empty();
  for (const auto& a : c.args) all_binary = all_binary && a->type->id() == TypeId::kBinary;
  TypePtr t = all_binary ? Type::binary() : Type::string();
  for (size_t i = 0; i < c.args.size(); ++i) FLOE_TRY(coerce_at(c, i, t));
  c.type = t;
  return Status::OK();
}

Result<Datum> eval_concat(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = m_of(args, n);
  std::vector<BytesReader> rs;
  for (const auto& a : args) rs.emplace_back(a);
  auto col = ColumnVector::make(e.type);
  std::string s;
  for (int64_t i = 0; i < m; ++i) {
    s.clear();
    bool ok = true;
    int64_t size = 0;
    for (const auto& r : rs) {
      if (!r.valid(i)) {
        ok = false;
        break;
      }
      size += static_cast<int64_t>(r[i].size());
    }
    if (ok) {
      FLOE_TRY(check_string_size(size, "concat"));
      for (const auto& r : rs) s.append(r[i]);
      col->append_bytes(s);
    } else {
      col->append_null();
    }
  }
  return Datum{col, all_scalar(args)};
}

Status bind_concat_ws(BindCtx& c) {
  for (size_t i = 0; i < c.args.size(); ++i) FLOE_TRY(coerce_at(c, i, Type::string()));
  c.type = Type::string();
  return Status::OK();
}

Result<Datum> eval_concat_ws(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = m_of(args, n);
  std::vector<BytesReader> rs;
  for (const auto& a : args) rs.emplace_back(a);
  auto col = ColumnVector::make(e.type);
  std::string s;
  for (int64_t i = 0; i < m; ++i) {
    if (!rs[0].valid(i)) {
      col->append_null();
      continue;
    }
    s.clear();
    int64_t size = 0;
    for (size_t k = 1; k < rs.size(); ++k) {
      if (rs[k].valid(i)) size += static_cast<int64_t>(rs[0][i].size() + rs[k][i].size());
    }
    FLOE_TRY(check_string_size(size, "concat_ws"));
    bool first = true;
    for (size_t k = 1; k < rs.size(); ++k) {
      if (!rs[k].valid(i)) continue;
      if (!first) s.append(rs[0][i]);
      s.append(rs[k][i]);
      first = false;
    }
    col->append_bytes(s);
  }
  return Datum{col, all_scalar(args)};
}

// ----- one-string functions ---------------------------------------------------------------------

Status bind_str_to_str(BindCtx& c) { return sig(c, {Type::string()}, Type::string()); }

template <typename F>
Datum str_map(const BoundExpr& e, const std::vector<Datum>& args, int64_t n, F f) {
  BytesReader r(args[0]);
  return str_kernel(e.type, args[0].scalar ? 1 : n, args[0].scalar, f, r);
}

Result<Datum> eval_lower(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  bool up = e.name == "upper" || e.name == "ucase";
  return str_map(e, args, n, [up](std::string* o, std::string_view s) {
    o->resize(s.size());
    for (size_t i = 0; i < s.size(); ++i) (*o)[i] = up ? upper_ascii(s[i]) : lower_ascii(s[i]);
    return true;
  });
}

Result<Datum> eval_initcap(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  return str_map(e, args, n, [](std::string* o, std::string_view s) {
    o->resize(s.size());
    bool start = true;
    for (size_t i = 0; i < s.size(); ++i) {
      (*o)[i] = start ? upper_ascii(s[i]) : lower_ascii(s[i]);
      start = s[i] == ' ';
    }
    return true;
  });
}

Result<Datum> eval_reverse(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  return str_map(e, args, n, [](std::string* o, std::string_view s) {
    o->resize(s.size());
    size_t pos = 0;
    while (pos < s.size()) {
      size_t len = std::min(utf8_len(static_cast<unsigned char>(s[pos])), s.size() - pos);
      std::memcpy(o->data() + s.size() - pos - len, s.data() + pos, len);
      pos += len;
    }
    return true;
  });
}

Status bind_length(BindCtx& c) {
  TypeId t = c.args[0]->type->id();
  if (t != TypeId::kBinary && t != TypeId::kFixed) FLOE_TRY(coerce_at(c, 0, Type::string()));
  c.type = Type::int32();
  return Status::OK();
}

Result<Datum> eval_length(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  bool bytes = e.name == "octet_length" || e.args[0]->type->id() != TypeId::kString;
  BytesReader r(args[0]);
  return kernel<int32_t>(
      e.type, args[0].scalar ? 1 : n, args[0].scalar,
      [bytes](int32_t* o, std::string_view s) {
        *o = static_cast<int32_t>(bytes ? static_cast<int64_t>(s.size()) : utf8_count(s));
        return true;
      },
      r);
}

Result<Datum> eval_ascii(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  BytesReader r(args[0]);
  return kernel<int32_t>(
      e.type, args[0].scalar ? 1 : n, args[0].scalar,
      [](int32_t* o, std::string_view s) {
        if (s.empty()) return *o = 0, true;
        auto c0 = static_cast<unsigned char>(s[0]);
        size_t len = utf8_len(c0);
        int32_t cp = len == 1 ? c0 : c0 & (0xFF >> (len + 1));
        for (size_t i = 1; i < len && i < s.size(); ++i) cp = (cp << 6) | (s[i] & 0x3F);
        *o = cp;
        return true;
      },
      r);
}

Result<Datum> eval_chr(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int64_t> r(args[0]);
  return str_kernel(
      e.type, args[0].scalar ? 1 : n, args[0].scalar,
      [](std::string* o, int64_t v) {
        if (v < 0) return true;
        utf8_append(static_cast<uint32_t>(v % 256), o);
        return true;
      },
      r);
}

// ----- substr, left, right
// ------------------------------------------------------------------------

// Spark's UTF8String.substringSQL (1-based; 0 acts as 1; negative counts from the end).
void substring_sql(std::string_view s, int64_t pos, int64_t length, std::string* o) {
  int64_t len = utf8_count(s);
  int64_t start = pos > 0 ? pos - 1 : pos < 0 ? len + pos : 0;
  int64_t end = length == INT64_MAX ? len : start + length;
  start = std::max<int64_t>(start, 0);
  end = std::min(end, len);
  if (start >= end) return;
  size_t b = utf8_offset(s, start);
  size_t e = b + utf8_offset(s.substr(b), end - start);
  o->append(s.substr(b, e - b));
}

Status bind_substr(BindCtx& c) {
  return sig(c, {Type::string(), Type::int32(), Type::int32()}, Type::string());
}

Result<Datum> eval_substr(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = m_of(args, n);
  BytesReader s(args[0]);
  FixedReader<int32_t> p(args[1]);
  if (args.size() == 2) {
    return str_kernel(
        e.type, m, all_scalar(args),
        [](std::string* o, std::string_view v, int32_t pos) {
          substring_sql(v, pos, INT64_MAX, o);
          return true;
        },
        s, p);
  }
  FixedReader<int32_t> l(args[2]);
  return str_kernel(
      e.type, m, all_scalar(args),
      [](std::string* o, std::string_view v, int32_t pos, int32_t len) {
        substring_sql(v, pos, len, o);
        return true;
      },
      s, p, l);
}

Status bind_str_int(BindCtx& c) { return sig(c, {Type::string(), Type::int32()}, Type::string()); }

Result<Datum> eval_left_right(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  bool left = e.name == "left";
  BytesReader s(args[0]);
  FixedReader<int32_t> k(args[1]);
  return str_kernel(
      e.type, m_of(args, n), all_scalar(args),
      [left](std::string* o, std::string_view v, int32_t len) {
        if (len <= 0) return true;
        if (left) {
          substring_sql(v, 1, len, o);
        } else {
          substring_sql(v, -len, INT64_MAX, o);
        }
        return true;
      },
      s, k);
}

Result<Datum> eval_repeat(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  BytesReader s(args[0]);
  FixedReader<int32_t> k(args[1]);
  const int64_t m = m_of(args, n);
  for (int64_t i = 0; i < m; ++i) {
    if (s.valid(i) && k.valid(i) && k[i] > 0) {
      FLOE_TRY(check_string_size(static_cast<int64_t>(s[i].size()) * k[i], e.name.c_str()));
    }
  }
  return str_kernel(
      e.type, m_of(args, n), all_scalar(args),
      [](std::string* o, std::string_view v, int32_t times) {
        for (int32_t i = 0; i < times; ++i) o->append(v);
        return true;
      },
      s, k);
}

// space(n): n spaces.
Result<Datum> eval_space(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int32_t> k(args[0]);
  const int64_t m = m_of(args, n);
  for (int64_t i = 0; i < m; ++i) {
    if (k.valid(i)) FLOE_TRY(check_string_size(k[i], "space"));
  }
  return str_kernel(
      e.type, m, all_scalar(args),
      [](std::string* o, int32_t times) {
        if (times > 0) o->assign(static_cast<size_t>(times), ' ');
        return true;
      },
      k);
}

// ----- trim
// ---------------------------------------------------------------------------------------

Status bind_trim(BindCtx& c) { return sig(c, {Type::string()}, Type::string()); }

Result<Datum> eval_trim(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  bool left = e.name != "rtrim", right = e.name != "ltrim";
  auto strip = [left, right](std::string* o, std::string_view v, std::string_view chars) {
    size_t b = 0, end = v.size();
    if (left) {
      while (b < end && chars.find(v[b]) != std::string_view::npos) ++b;
    }
    if (right) {
      while (end > b && chars.find(v[end - 1]) != std::string_view::npos) --end;
    }
    o->append(v.substr(b, end - b));
    return true;
  };
  BytesReader s(args[0]);
  if (args.size() == 1) {
    return str_kernel(
        e.type, m_of(args, n), all_scalar(args),
        [&](std::string* o, std::string_view v) { return strip(o, v, " "); }, s);
  }
  BytesReader chars(args[1]);
  return str_kernel(e.type, m_of(args, n), all_scalar(args), strip, s, chars);
}

// ----- search
// -------------------------------------------------------------------------------------

Status bind_replace(BindCtx& c) { return sig(c, {Type::string()}, Type::string()); }

Result<Datum> eval_replace(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  BytesReader s(args[0]), from(args[1]);
  auto rep = [](std::string* o, std::string_view v, std::string_view f, std::string_view t) {
    if (f.empty()) {
      o->append(v);
      return true;
    }
    size_t pos = 0;
    while (true) {
      size_t at = v.find(f, pos);
      if (at == std::string_view::npos) break;
      o->append(v.substr(pos, at - pos));
      o->append(t);
      pos = at + f.size();
    }
    o->append(v.substr(pos));
    return true;
  };
  if (args.size() == 2) {
    return str_kernel(
        e.type, m_of(args, n), all_scalar(args),
        [&](std::string* o, std::string_view v, std::string_view f) { return rep(o, v, f, ""); }, s,
        from);
  }
  BytesReader to(args[2]);
  return str_kernel(e.type, m_of(args, n), all_scalar(args), rep, s, from, to);
}

// substring_index(str, delim, count): the part of str before the count-th delim from the left
// (count > 0), or after the count-th delim from the right (count < 0); all of str when it has
// fewer delims; '' for count 0 or an empty delim. Delims are matched on bytes and may overlap,
// as Spark's UTF8String.subStringIndex does.
void substring_index(std::string_view s, std::string_view delim, int64_t count, std::string* o) {
  if (delim.empty() || count == 0) return;
  if (count > 0) {
    size_t at = 0, from = 0;
    for (; count > 0; --count) {
      at = s.find(delim, from);
      if (at == std::string_view::npos) {
        o->append(s);
        return;
      }
      from = at + 1;
    }
    o->append(s.substr(0, at));
    return;
  }
  // From the right: the next match starts at or before `last` (an index; -1 = none left).
  int64_t last = static_cast<int64_t>(s.size()) - static_cast<int64_t>(delim.size());
  int64_t at = -1;
  for (; count < 0; ++count) {
    at = last < 0 ? -1 : static_cast<int64_t>(s.rfind(delim, static_cast<size_t>(last)));
    if (at < 0) {  // npos is -1 as a signed index
      o->append(s);
      return;
    }
    last = at - 1;
  }
  o->append(s.substr(static_cast<size_t>(at) + delim.size()));
}

Status bind_substring_index(BindCtx& c) {
  return sig(c, {Type::string(), Type::string(), Type::int32()}, Type::string());
}

Result<Datum> eval_substring_index(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  BytesReader s(args[0]), delim(args[1]);
  FixedReader<int32_t> count(args[2]);
  return str_kernel(
      e.type, m_of(args, n), all_scalar(args),
      [](std::string* o, std::string_view v, std::string_view d, int32_t k) {
        substring_index(v, d, k, o);
        return true;
      },
      s, delim, count);
}

Status bind_str_pred(BindCtx& c) { return sig(c, {Type::string()}, Type::boolean()); }

Result<Datum> eval_str_pred(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int kind = e.name == "contains" ? 0 : (e.name == "starts_with" || e.name == "startswith") ? 1 : 2;
  BytesReader a(args[0]), b(args[1]);
  return kernel<uint8_t>(
      e.type, m_of(args, n), all_scalar(args),
      [kind](uint8_t* o, std::string_view s, std::string_view t) {
        *o = kind == 0   ? s.find(t) != std::string_view::npos
             : kind == 1 ? s.substr(0, t.size()) == t
                         : (s.size() >= t.size() && s.substr(s.size() - t.size()) == t);
        return true;
      },
      a, b);
}

// 1-based code-point position of t in s at or after code point `from` (0-based), 0 if absent.
int32_t find_position(std::string_view s, std::string_view t, int64_t from) {
  size_t b = utf8_offset(s, from);
  if (from > 0 && b >= s.size() && !(t.empty() && b == s.size())) return 0;
  size_t at = s.find(t, b);
  if (at == std::string_view::npos) return 0;
  return static_cast<int32_t>(utf8_count(s.substr(0, at)) + 1);
}

Status bind_instr(BindCtx& c) { return sig(c, {Type::string()}, Type::int32()); }

Result<Datum> eval_instr(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  BytesReader a(args[0]), b(args[1]);
  return kernel<int32_t>(
      e.type, m_of(args, n), all_scalar(args),
      [](int32_t* o, std::string_view s, std::string_view t) {
        *o = find_position(s, t, 0);
        return true;
      },
      a, b);
}

Status bind_locate(BindCtx& c) {
  return sig(c, {Type::string(), Type::string(), Type::int32()}, Type::int32());
}

Result<Datum> eval_locate(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  BytesReader t(args[0]), s(args[1]);
  if (args.size() == 2) {
    return kernel<int32_t>(
        e.type, m_of(args, n), all_scalar(args),
        [](int32_t* o, std::string_view sub, std::string_view str) {
          *o = find_position(str, sub, 0);
          return true;
        },
        t, s);
  }
  FixedReader<int32_t> p(args[2]);
  return kernel<int32_t>(
      e.type, m_of(args, n), all_scalar(args),
      [](int32_t* o, std::string_view sub, std::string_view str, int32_t pos) {
        *o = pos < 1 ? 0 : find_position(str, sub, pos - 1);
        return true;
      },
      t, s, p);
}

// ----- padding
// ------------------------------------------------------------------------------------

Status bind_pad(BindCtx& c) {
  return sig(c, {Type::string(), Type::int32(), Type::string()}, Type::string());
}

void pad(std::string* o, std::string_view s, int32_t len, std::string_view p, bool left) {
  if (len <= 0) return;
  int64_t have = utf8_count(s);
  if (have >= len) {
    o->append(s.substr(0, utf8_offset(s, len)));
    return;
  }
  if (p.empty()) {
    o->append(s);
    return;
  }
  int64_t need = len - have, plen = utf8_count(p);
  std::string fill;
  while (need > 0) {
    int64_t take = std::min(need, plen);
    fill.append(p.substr(0, utf8_offset(p, take)));
    need -= take;
  }
  if (left) {
    o->append(fill);
    o->append(s);
  } else {
    o->append(s);
    o->append(fill);
  }
}

// Bytes of pad(s, len, p) without building it.
int64_t padded_size(std::string_view s, int32_t len, std::string_view p) {
  if (len <= 0) return 0;
  int64_t have = utf8_count(s);
  if (have >= len || p.empty()) return static_cast<int64_t>(s.size());
  int64_t need = len - have, plen = utf8_count(p);
  return static_cast<int64_t>(s.size()) + need / plen * static_cast<int64_t>(p.size()) +
         static_cast<int64_t>(utf8_offset(p, need % plen));
}

Result<Datum> eval_pad(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  bool left = e.name == "lpad";
  BytesReader s(args[0]);
  FixedReader<int32_t> l(args[1]);
  const int64_t m = m_of(args, n);
  std::optional<BytesReader> fills;
  if (args.size() > 2) fills.emplace(args[2]);
  for (int64_t i = 0; i < m; ++i) {
    bool valid = s.valid(i) && l.valid(i) && (!fills || fills->valid(i));
    if (valid && l[i] > static_cast<int32_t>(s[i].size())) {
      std::string_view fill = fills ? (*fills)[i] : std::string_view(" ");
      FLOE_TRY(check_string_size(padded_size(s[i], l[i], fill), e.name.c_str()));
    }
  }
  if (args.size() == 2) {
    return str_kernel(
        e.type, m_of(args, n), all_scalar(args),
        [left](std::string* o, std::string_view v, int32_t len) {
          pad(o, v, len, " ", left);
          return true;
        },
        s, l);
  }
  BytesReader p(args[2]);
  return str_kernel(
      e.type, m_of(args, n), all_scalar(args),
      [left](std::string* o, std::string_view v, int32_t len, std::string_view f) {
        pad(o, v, len, f, left);
        return true;
      },
      s, l, p);
}

// ----- regular expressions
// ------------------------------------------------------------------------

// Binds (string, pattern, ...) and compiles a constant pattern once per query.
Status bind_regex(BindCtx& c, std::initializer_list<TypePtr> types, TypePtr result) {
  FLOE_TRY(sig(c, types, std::move(result)));
  const auto& p = c.args[1];
  if (p->is_literal() && !p->value.is_null()) {
    c.state = FLOE_TRY(Regex::compile(p->value.as_bytes()));
  }
  return Status::OK();
}

// The regex for row i: the constant one, or the row's pattern compiled when it changes.
class RegexSource {
 public:
  RegexSource(const BoundExpr& e, const Datum& pattern)
      : fixed_(std::static_pointer_cast<const Regex>(e.state)), reader_(pattern) {}
  Result<const Regex*> at(int64_t i) {
    if (fixed_) return fixed_.get();
    std::string_view p = reader_[i];
    if (!current_ || p != current_->pattern()) current_ = FLOE_TRY(Regex::compile(p));
    return current_.get();
  }

 private:
  std::shared_ptr<const Regex> fixed_;
  BytesReader reader_;
  std::shared_ptr<const Regex> current_;
};

Status bind_regexp_replace(BindCtx& c) {
  return bind_regex(c, {Type::string(), Type::string(), Type::string()}, Type::string());
}

Result<Datum> eval_regexp_replace(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = m_of(args, n);
  BytesReader s(args[0]), p(args[1]), r(args[2]);
  RegexSource src(e, args[1]);
  auto col = ColumnVector::make(e.type);
  std::string out;
  const Regex* parsed_for = nullptr;  // the replacement is parsed again only when it changes
  std::string replacement_text;
  Replacement replacement;
  for (int64_t i = 0; i < m; ++i) {
    if (!s.valid(i) || !p.valid(i) || !r.valid(i)) {
      col->append_null();
      continue;
    }
    const Regex* re = FLOE_TRY(src.at(i));
    if (re != parsed_for || r[i] != replacement_text) {
      replacement = FLOE_TRY(Replacement::parse(r[i], *re));
      replacement_text.assign(r[i]);
      parsed_for = re;
    }
    std::string_view v = s[i];
    out.clear();
    replace_all(*re, v, replacement, &out);
    FLOE_TRY(check_string_size(out.size(), "regexp_replace"));
    col->append_bytes(out);
  }
  return Datum{col, all_scalar(args)};
}

Status bind_regexp_extract(BindCtx& c) {
  return bind_regex(c, {Type::string(), Type::string(), Type::int32()}, Type::string());
}

Status bind_regexp_extract_all(BindCtx& c) {
  return bind_regex(c, {Type::string(), Type::string(), Type::int32()},
                    Type::list_of(0, Type::string(), true));
}

Result<int> regex_group(const Regex& re, const std::vector<Datum>& args, int64_t i,
                        const char* fn) {
  int32_t group = args.size() > 2 ? FixedReader<int32_t>(args[2])[i] : 1;
  if (group < 0 || group > re.groups()) {
    return invalid_argument("{}: group {} does not exist (the pattern '{}' has {})", fn, group,
                            re.pattern(), re.groups());
  }
  return group;
}

Result<Datum> eval_regexp_extract(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = m_of(args, n);
  BytesReader s(args[0]), p(args[1]);
  RegexSource src(e, args[1]);
  auto col = ColumnVector::make(e.type);
  std::vector<std::string_view> groups;
  for (int64_t i = 0; i < m; ++i) {
    bool idx_ok = args.size() < 3 || datum_valid(args[2], i);
    if (!s.valid(i) || !p.valid(i) || !idx_ok) {
      col->append_null();
      continue;
    }
    const Regex* re = FLOE_TRY(src.at(i));
    int group = FLOE_TRY(regex_group(*re, args, i, "regexp_extract"));
    groups.resize(static_cast<size_t>(group) + 1);
    std::string_view v = s[i];
    // A group that did not take part in the match gives '' (as Spark).
    if (re->find(v, 0, groups.data(), group + 1)) {
      col->append_bytes(groups[static_cast<size_t>(group)]);
    } else {
      col->append_bytes("");
    }
  }
  return Datum{col, all_scalar(args)};
}

// regexp_extract_all(s, pattern[, group]): the group of every match, in order.
Result<Datum> eval_regexp_extract_all(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = m_of(args, n);
  BytesReader s(args[0]), p(args[1]);
  RegexSource src(e, args[1]);
  auto col = ColumnVector::make(e.type);
  ColumnVector& elems = col->child(0);
  for (int64_t i = 0; i < m; ++i) {
    bool idx_ok = args.size() < 3 || datum_valid(args[2], i);
    if (!s.valid(i) || !p.valid(i) || !idx_ok) {
      col->append_null();
      continue;
    }
    const Regex* re = FLOE_TRY(src.at(i));
    int group = FLOE_TRY(regex_group(*re, args, i, "regexp_extract_all"));
    int64_t count = 0;
    re->for_each_match(s[i], group + 1, [&](const std::string_view* g) {
      elems.append_bytes(g[group]);
      ++count;
      return true;
    });
    col->append_list(count);
  }
  return Datum{col, all_scalar(args)};
}

Status bind_regexp_like(BindCtx& c) {
  return bind_regex(c, {Type::string(), Type::string()}, Type::boolean());
}

Result<Datum> eval_regexp_like(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = m_of(args, n);
  BytesReader s(args[0]), p(args[1]);
  RegexSource src(e, args[1]);
  FixedWriter<uint8_t> w(e.type, m);
  for (int64_t i = 0; i < m; ++i) {
    w.data[i] = 0;
    if (!s.valid(i) || !p.valid(i)) {
      w.valid[i] = 0;
      continue;
    }
    const Regex* re = FLOE_TRY(src.at(i));
    w.data[i] = re->contains(s[i]);
  }
  return Datum{w.finish(m), all_scalar(args)};
}

Status bind_split(BindCtx& c) {
  return bind_regex(c, {Type::string(), Type::string(), Type::int32()},
                    Type::list_of(0, Type::string(), false));
}

Result<Datum> eval_split(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = m_of(args, n);
  BytesReader s(args[0]), p(args[1]);
  RegexSource src(e, args[1]);
  auto col = ColumnVector::make(e.type);
  ColumnVector& elems = col->child(0);
  for (int64_t i = 0; i < m; ++i) {
    if (!s.valid(i) || !p.valid(i) || (args.size() > 2 && !datum_valid(args[2], i))) {
      col->append_null();
      continue;
    }
    int32_t limit = args.size() > 2 ? FixedReader<int32_t>(args[2])[i] : -1;
    const Regex* re = FLOE_TRY(src.at(i));
    std::string_view v = s[i];
    int32_t count = 0;
    size_t pos = 0;
    // An empty match splits off the next character.
    re->for_each_match(v, 1, [&](const std::string_view* g) {
      if (limit > 0 && count >= limit - 1) return false;
      size_t at = static_cast<size_t>(g[0].data() - v.data());
      if (g[0].empty()) {
        if (at >= v.size()) return false;
        at += utf8_len(static_cast<unsigned char>(v[at]));
        if (at <= pos) return true;
        elems.append_bytes(v.substr(pos, at - pos));
        pos = at;
      } else {
        elems.append_bytes(v.substr(pos, at - pos));
        pos = at + g[0].size();
      }
      ++count;
      return true;
    });
    elems.append_bytes(v.substr(std::min(pos, v.size())));
    col->append_list(count + 1);
  }
  return Datum{col, all_scalar(args)};
}

}  // namespace

void register_string_functions(std::vector<FunctionDef>* defs) {
  defs->push_back({"||", 2, 2, bind_concat, eval_concat});
  defs->push_back({"concat", 1, -1, bind_concat, eval_concat});
  defs->push_back({"concat_ws", 1, -1, bind_concat_ws, eval_concat_ws});
  for (const char* name : {"lower", "lcase", "upper", "ucase"}) {
    defs->push_back({name, 1, 1, bind_str_to_str, eval_lower});
  }
  defs->push_back({"initcap", 1, 1, bind_str_to_str, eval_initcap});
  defs->push_back({"reverse", 1, 1, bind_str_to_str, eval_reverse});
  for (const char* name : {"length", "char_length", "character_length", "len", "octet_length"}) {
    defs->push_back({name, 1, 1, bind_length, eval_length});
  }
  defs->push_back({"ascii", 1, 1,
                   [](BindCtx& c) { return sig(c, {Type::string()}, Type::int32()); }, eval_ascii});
  defs->push_back(
      {"chr", 1, 1, [](BindCtx& c) { return sig(c, {Type::int64()}, Type::string()); }, eval_chr});
  defs->push_back(
      {"char", 1, 1, [](BindCtx& c) { return sig(c, {Type::int64()}, Type::string()); }, eval_chr});
  defs->push_back({"substr", 2, 3, bind_substr, eval_substr});
  defs->push_back({"substring", 2, 3, bind_substr, eval_substr});
  defs->push_back({"left", 2, 2, bind_str_int, eval_left_right});
  defs->push_back({"right", 2, 2, bind_str_int, eval_left_right});
  defs->push_back({"repeat", 2, 2, bind_str_int, eval_repeat});
  defs->push_back({"space", 1, 1,
                   [](BindCtx& c) { return sig(c, {Type::int32()}, Type::string()); }, eval_space});
  for (const char* name : {"trim", "btrim", "ltrim", "rtrim"}) {
    defs->push_back({name, 1, 2, bind_trim, eval_trim});
  }
  defs->push_back({"replace", 2, 3, bind_replace, eval_replace});
  defs->push_back({"substring_index", 3, 3, bind_substring_index, eval_substring_index});
  for (const char* name : {"contains", "starts_with", "startswith", "ends_with", "endswith"}) {
    defs->push_back({name, 2, 2, bind_str_pred, eval_str_pred});
  }
  defs->push_back({"instr", 2, 2, bind_instr, eval_instr});
  defs->push_back({"locate", 2, 3, bind_locate, eval_locate});
  defs->push_back({"position", 2, 3, bind_locate, eval_locate});
  defs->push_back({"lpad", 2, 3, bind_pad, eval_pad});
  defs->push_back({"rpad", 2, 3, bind_pad, eval_pad});
  defs->push_back({"regexp_replace", 3, 3, bind_regexp_replace, eval_regexp_replace});
  defs->push_back({"regexp_extract", 2, 3, bind_regexp_extract, eval_regexp_extract});
  defs->push_back({"regexp_extract_all", 2, 3, bind_regexp_extract_all, eval_regexp_extract_all});
  defs->push_back({"regexp_like", 2, 2, bind_regexp_like, eval_regexp_like});
  defs->push_back({"regexp", 2, 2, bind_regexp_like, eval_regexp_like});
  defs->push_back({"split", 2, 3, bind_split, eval_split});
}

}  // namespace floe::sql::internal
