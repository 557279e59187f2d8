// Date/time functions (UTC session time zone), interval arithmetic and Iceberg's transform
// functions (bucket, truncate, years, months, days, hours) computed exactly as the partition
// transforms in floe/spec/transform.h.
#include <chrono>

#include "floe/spec/transform.h"
#include "floe/util/calendar.h"
#include "floe/util/decimal.h"
#include "sql/functions/function_internal.h"

namespace floe::sql::internal {

namespace {

Status coerce_at(BindCtx& c, size_t i, const TypePtr& t) {
  c.args[i] = FLOE_TRY(coerce(c.args[i], t));
  return Status::OK();
}

struct Civil {
  int64_t y;
  unsigned m, d;
};
Civil civil(int64_t days) {
  Civil c{};
  civil_from_days(days, &c.y, &c.m, &c.d);
  return c;
}
bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
unsigned month_days(int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : kDays[m - 1];
}

int32_t add_months_days(int32_t days, int64_t months) {
  Civil c = civil(days);
  int64_t total = c.y * 12 + (c.m - 1) + months;
  int64_t y = floor_div(total, 12);
  auto m = static_cast<unsigned>(floor_mod(total, 12) + 1);
  unsigned d = std::min(c.d, month_days(y, m));
  return days_from_civil(y, m, d);
}

int64_t micros_of(int64_t v, bool ns) { return ns ? floor_div(v, 1000) : v; }

// ----- field extraction
// -----------------------------------------------------------------------------

enum class Field : uint8_t {
  kYear,
  kMonth,
  kDay,
  kDayOfWeek,
  kWeekday,
  kDayOfYear,
  kWeekOfYear,
  kQuarter,
  kHour,
  kMinute,
  kSecond,
};

Field field_of(const std::string& name) {
  if (name == "year") return Field::kYear;
  if (name == "month") return Field::kMonth;
  if (name == "day" || name == "dayofmonth") return Field::kDay;
  if (name == "dayofweek") return Field::kDayOfWeek;
  if (name == "weekday") return Field::kWeekday;
  if (name == "dayofyear") return Field::kDayOfYear;
  if (name == "weekofyear") return Field::kWeekOfYear;
  if (name == "quarter") return Field::kQuarter;
  if (name == "hour") return Field::kHour;
  if (name == "minute") return Field::kMinute;
  return Field::kSecond;
}

int32_t iso_week(int64_t days) {
  int64_t wd = floor_mod(days + 3, 7);  // 0 = Monday
  int64_t thursday = days - wd + 3;
  int64_t y = civil(thursday).y;
  int64_t jan1 = days_from_civil(y, 1, 1);
  return static_cast<int32_t>((thursday - jan1) / 7 + 1);
}

int32_t date_field(Field f, int32_t days) {
  switch (f) {
    case Field::kYear:
      return static_cast<int32_t>(civil(days).y);
    case Field::kMonth:
      return static_cast<int32_t>(civil(days).m);
    case Field::kDay:
      return static_cast<int32_t>(civil(days).d);
    case Field::kDayOfWeek:
      return static_cast<int32_t>(floor_mod(days + 4, 7) + 1);
    case Field::kWeekday:
      return static_cast<int32_t>(floor_mod(days + 3, 7));
    case Field::kDayOfYear:
      return static_cast<int32_t>(days - days_from_civil(civil(days).y, 1, 1) + 1);
    case Field::kWeekOfYear:
      return iso_week(days);
    case Field::kQuarter:
      return static_cast<int32_t>((civil(days).m - 1) / 3 + 1);
    default:
      return 0;
  }
}

Status bind_date_field(BindCtx& c) {
  Field f = field_of(c.name);
  bool time = f == Field::kHour || f == Field::kMinute || f == Field::kSecond;
  TypeId t = c.args[0]->type->id();
  if (time) {
    if (!is_timestamp(t) && t != TypeId::kTime) FLOE_TRY(coerce_at(c, 0, Type::timestamp()));
  } else {
    FLOE_TRY(coerce_at(c, 0, Type::date()));
  }
  c.type = Type::int32();
  return Status::OK();
}

Result<Datum> eval_date_field(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  Field f = field_of(e.name);
  int64_t m = args[0].scalar ? 1 : n;
  if (e.args[0]->type->id() == TypeId::kDate) {
    FixedReader<int32_t> r(args[0]);
    return kernel<int32_t>(
        e.type, m, args[0].scalar,
        [f](int32_t* o, int32_t d) { return *o = date_field(f, d), true; }, r);
  }
  bool ns = is_nanos(e.args[0]->type->id());
  FixedReader<int64_t> r(args[0]);
  return kernel<int32_t>(
      e.type, m, args[0].scalar,
      [f, ns](int32_t* o, int64_t v) {
        int64_t us = floor_mod(micros_of(v, ns), kMicrosPerDay);
        int64_t secs = us / kMicrosPerSecond;
        *o = static_cast<int32_t>(f == Field::kHour     ? secs / 3600
                                  : f == Field::kMinute ? (secs / 60) % 60
                                                        : secs % 60);
        return true;
      },
      r);
}

// ----- date arithmetic
// ----------------------------------------------------------------------------

Status bind_date_int(BindCtx& c) {
  FLOE_TRY(coerce_at(c, 0, Type::date()));
  FLOE_TRY(coerce_at(c, 1, Type::int32()));
  c.type = Type::date();
  return Status::OK();
}

Result<Datum> eval_date_add(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int sign = e.name == "date_sub" ? -1 : 1;
  bool months = e.name == "add_months";
  FixedReader<int32_t> d(args[0]), k(args[1]);
  return kernel<int32_t>(
      e.type, rows_for(args, n), all_scalar(args),
      [=](int32_t* o, int32_t day, int32_t x) {
        *o = months ? add_months_days(day, x) : static_cast<int32_t>(day + int64_t{sign} * x);
        return true;
      },
      d, k);
}

Status bind_datediff(BindCtx& c) {
  FLOE_TRY(coerce_at(c, 0, Type::date()));
  FLOE_TRY(coerce_at(c, 1, Type::date()));
  c.type = Type::int32();
  return Status::OK();
}

Result<Datum> eval_datediff(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int32_t> a(args[0]), b(args[1]);
  return kernel<int32_t>(
      e.type, rows_for(args, n), all_scalar(args),
      [](int32_t* o, int32_t x, int32_t y) { return *o = x - y, true; }, a, b);
}

Status bind_months_between(BindCtx& c) {
  FLOE_TRY(coerce_at(c, 0, Type::timestamp()));
  FLOE_TRY(coerce_at(c, 1, Type::timestamp()));
  if (c.args.size() > 2) FLOE_TRY(coerce_at(c, 2, Type::boolean()));
  c.type = Type::float64();
  return Status::OK();
}

// Spark's DateTimeUtils.monthsBetween (rounded to 8 digits).
Result<Datum> eval_months_between(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int64_t> a(args[0]), b(args[1]);
  return kernel<double>(
      e.type, rows_for(args, n), all_scalar(args),
      [](double* o, int64_t t1, int64_t t2) {
        int64_t d1 = floor_div(t1, kMicrosPerDay), d2 = floor_div(t2, kMicrosPerDay);
        Civil c1 = civil(d1), c2 = civil(d2);
        int64_t months = (c1.y - c2.y) * 12 + (int64_t(c1.m) - int64_t(c2.m));
        bool last1 = c1.d == month_days(c1.y, c1.m), last2 = c2.d == month_days(c2.y, c2.m);
        if (c1.d == c2.d || (last1 && last2)) return *o = static_cast<double>(months), true;
        int64_t tod1 = t1 - d1 * kMicrosPerDay, tod2 = t2 - d2 * kMicrosPerDay;
        double secs = static_cast<double>((int64_t(c1.d) - int64_t(c2.d)) * 86400) +
                      static_cast<double>(tod1 - tod2) / 1e6;
        double v = static_cast<double>(months) + secs / (31.0 * 86400);
        *o = std::round(v * 1e8) / 1e8;
        return true;
      },
      a, b);
}

Status bind_last_day(BindCtx& c) {
  FLOE_TRY(coerce_at(c, 0, Type::date()));
  c.type = Type::date();
  return Status::OK();
}

Result<Datum> eval_last_day(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int32_t> d(args[0]);
  return kernel<int32_t>(
      e.type, args[0].scalar ? 1 : n, args[0].scalar,
      [](int32_t* o, int32_t day) {
        Civil c = civil(day);
        *o = days_from_civil(c.y, c.m, month_days(c.y, c.m));
        return true;
      },
      d);
}

Status bind_make_date(BindCtx& c) {
  for (size_t i = 0; i < 3; ++i) FLOE_TRY(coerce_at(c, i, Type::int32()));
  c.type = Type::date();
  return Status::OK();
}

Result<Datum> eval_make_date(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int32_t> y(args[0]), m(args[1]), d(args[2]);
  return kernel<int32_t>(
      e.type, rows_for(args, n), all_scalar(args),
      [](int32_t* o, int32_t yy, int32_t mm, int32_t dd) {
        if (mm < 1 || mm > 12 || dd < 1 || static_cast<unsigned>(dd) > month_days(yy, mm)) {
          return false;
        }
        *o = days_from_civil(yy, static_cast<unsigned>(mm), static_cast<unsigned>(dd));
        return true;
      },
      y, m, d);
}

// ----- truncation
// ---------------------------------------------------------------------------------

enum class Unit : uint8_t {
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMillis,
  kMicros,
  kInvalid
};

Unit unit_of(std::string_view s) {
  std::string_view u = trim(s);
  auto is = [u](std::string_view name) { return iequals(u, name); };
  if (is("year") || is("yyyy") || is("yy")) return Unit::kYear;
  if (is("quarter")) return Unit::kQuarter;
  if (is("month") || is("mm") || is("mon")) return Unit::kMonth;
  if (is("week")) return Unit::kWeek;
  if (is("day") || is("dd")) return Unit::kDay;
  if (is("hour")) return Unit::kHour;
  if (is("minute")) return Unit::kMinute;
  if (is("second")) return Unit::kSecond;
  if (is("millisecond")) return Unit::kMillis;
  if (is("microsecond")) return Unit::kMicros;
  return Unit::kInvalid;
}

// First day of the unit containing `days` (year/quarter/month/week), else the day itself.
int32_t trunc_days(int32_t days, Unit u) {
  Civil c = civil(days);
  switch (u) {
    case Unit::kYear:
      return days_from_civil(c.y, 1, 1);
    case Unit::kQuarter:
      return days_from_civil(c.y, (c.m - 1) / 3 * 3 + 1, 1);
    case Unit::kMonth:
      return days_from_civil(c.y, c.m, 1);
    case Unit::kWeek:
      return static_cast<int32_t>(days - floor_mod(days + 3, 7));
    default:
      return days;
  }
}

bool trunc_micros(int64_t us, Unit u, int64_t* out) {
  int64_t unit = 0;
  switch (u) {
    case Unit::kInvalid:
      return false;
    case Unit::kYear:
    case Unit::kQuarter:
    case Unit::kMonth:
    case Unit::kWeek:
    case Unit::kDay:
      *out = trunc_days(static_cast<int32_t>(floor_div(us, kMicrosPerDay)), u) * kMicrosPerDay;
      return true;
    case Unit::kHour:
      unit = 3600 * kMicrosPerSecond;
      break;
    case Unit::kMinute:
      unit = 60 * kMicrosPerSecond;
      break;
    case Unit::kSecond:
      unit = kMicrosPerSecond;
      break;
    case Unit::kMillis:
      unit = 1000;
      break;
    case Unit::kMicros:
      unit = 1;
      break;
  }
  *out = floor_div(us, unit) * unit;
  return true;
}

Status bind_date_trunc(BindCtx& c) {
  FLOE_TRY(coerce_at(c, 0, Type::string()));
  TypeId t = c.args[1]->type->id();
  if (!is_timestamp(t) || is_nanos(t)) FLOE_TRY(coerce_at(c, 1, Type::timestamp()));
  c.type = c.args[1]->type;
  return Status::OK();
}

Result<Datum> eval_date_trunc(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  BytesReader u(args[0]);
  FixedReader<int64_t> ts(args[1]);
  return kernel<int64_t>(
      e.type, rows_for(args, n), all_scalar(args),
      [](int64_t* o, std::string_view unit, int64_t v) {
        return trunc_micros(v, unit_of(unit), o);
      },
      u, ts);
}

Status bind_trunc(BindCtx& c) {
  FLOE_TRY(coerce_at(c, 0, Type::date()));
  FLOE_TRY(coerce_at(c, 1, Type::string()));
  c.type = Type::date();
  return Status::OK();
}

Result<Datum> eval_trunc(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int32_t> d(args[0]);
  BytesReader u(args[1]);
  return kernel<int32_t>(
      e.type, rows_for(args, n), all_scalar(args),
      [](int32_t* o, int32_t day, std::string_view unit) {
        Unit x = unit_of(unit);
        if (x != Unit::kYear && x != Unit::kQuarter && x != Unit::kMonth && x != Unit::kWeek) {
          return false;
        }
        *o = trunc_days(day, x);
        return true;
      },
      d, u);
}

// ----- Java date/time patterns
// ----------------------------------------------------------------------

struct PatternToken {
  char letter;       // 0 = literal text
  int count;         // run length
  std::string text;  // literal
};

std::vector<PatternToken> compile_format(std::string_view f) {
  std::vector<PatternToken> out;
  for (size_t i = 0; i < f.size();) {
    char c = f[i];
    if (c == '\'') {
      size_t end = f.find('\'', i + 1);
      if (end == std::string_view::npos) end = f.size();
      std::string lit(f.substr(i + 1, end - i - 1));
      if (end == i + 1) lit = "'";
      out.push_back({0, 0, lit});
      i = end + 1;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      size_t j = i;
      while (j < f.size() && f[j] == c) ++j;
      out.push_back({c, static_cast<int>(j - i), {}});
      i = j;
    } else {
      out.push_back({0, 0, std::string(1, c)});
      ++i;
    }
  }
  return out;
}

const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                         "July",    "August",   "September", "October", "November", "December"};
const char* kDays[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                       "Friday", "Saturday", "Sunday"};

void pad_num(int64_t v, int width, std::string* o) {
  fmt::format_to(std::back_inserter(*o), "{:0{}d}", v, width);
}

void format_with(const std::vector<PatternToken>& toks, int64_t us, std::string* o) {
  int64_t days = floor_div(us, kMicrosPerDay);
  int64_t tod = us - days * kMicrosPerDay;
  Civil c = civil(days);
  int64_t secs = tod / kMicrosPerSecond;
  for (const auto& t : toks) {
    switch (t.letter) {
      case 0:
        o->append(t.text);
        break;
      case 'y':
      case 'u':
        if (t.count == 2) {
          pad_num(floor_mod(c.y, 100), 2, o);
        } else {
          pad_num(c.y, t.count, o);
        }
        break;
      case 'M':
      case 'L':
        if (t.count >= 4) {
          o->append(kMonths[c.m - 1]);
        } else if (t.count == 3) {
          o->append(kMonths[c.m - 1], 3);
        } else {
          pad_num(c.m, t.count, o);
        }
        break;
      case 'd':
        pad_num(c.d, t.count, o);
        break;
      case 'D':
        pad_num(days - days_from_civil(c.y, 1, 1) + 1, t.count, o);
        break;
      case 'H':
        pad_num(secs / 3600, t.count, o);
        break;
      case 'h': {
        int64_t h = (secs / 3600) % 12;
        pad_num(h == 0 ? 12 : h, t.count, o);
        break;
      }
      case 'm':
        pad_num((secs / 60) % 60, t.count, o);
        break;
      case 's':
        pad_num(secs % 60, t.count, o);
        break;
      case 'S': {
        char buf[8];
        fmt::format_to_n(buf, 7, "{:06d}", tod % kMicrosPerSecond);
        for (int i = 0; i < t.count; ++i) o->push_back(i < 6 ? buf[i] : '0');
        break;
      }
      case 'a':
        o->append(secs / 3600 < 12 ? "AM" : "PM");
        break;
      case 'E': {
        const char* name = kDays[floor_mod(days + 3, 7)];
        if (t.count >= 4) {
          o->append(name);
        } else {
          o->append(name, 3);
        }
        break;
      }
      default:
        o->append(static_cast<size_t>(t.count), t.letter);
    }
  }
}

bool parse_with(const std::vector<PatternToken>& toks, std::string_view s, int64_t* us) {
  int64_t y = 1970, mo = 1, d = 1, h = 0, mi = 0, sec = 0, frac = 0;
  bool pm = false, has_ampm = false;
  size_t pos = 0;
  for (size_t k = 0; k < toks.size(); ++k) {
    const auto& t = toks[k];
    if (t.letter == 0) {
      if (s.substr(pos, t.text.size()) != t.text) return false;
      pos += t.text.size();
      continue;
    }
    if (t.letter == 'a') {
      std::string_view x = s.substr(pos, 2);
      if (iequals(x, "AM") || iequals(x, "PM")) {
        pm = iequals(x, "PM");
        has_ampm = true;
        pos += 2;
        continue;
      }
      return false;
    }
    if (t.letter == 'M' && t.count >= 3) {
      bool found = false;
      for (int i = 0; i < 12 && !found; ++i) {
        std::string_view name = kMonths[i];
        if (t.count == 3) name = name.substr(0, 3);
        if (iequals(s.substr(pos, name.size()), name)) {
          mo = i + 1;
          pos += name.size();
          found = true;
        }
      }
      if (!found) return false;
      continue;
    }
    // Numeric field: exactly `count` digits when the next token is also numeric, else greedy.
    bool adjacent = k + 1 < toks.size() && toks[k + 1].letter != 0;
    size_t max = adjacent || t.count > 2 ? static_cast<size_t>(t.count) : (t.letter == 'y' ? 9 : 2);
    if (t.letter == 'S') max = adjacent ? static_cast<size_t>(t.count) : 9;
    size_t start = pos;
    int64_t v = 0;
    while (pos < s.size() && pos - start < max && s[pos] >= '0' && s[pos] <= '9') {
      v = v * 10 + (s[pos] - '0');
      ++pos;
    }
    size_t digits = pos - start;
    if (digits == 0 || (adjacent && digits != max)) return false;
    switch (t.letter) {
      case 'y':
      case 'u':
        y = t.count == 2 && digits == 2 ? 2000 + v : v;
        break;
      case 'M':
      case 'L':
        mo = v;
        break;
      case 'd':
        d = v;
        break;
      case 'H':
      case 'h':
        h = v;
        break;
      case 'm':
        mi = v;
        break;
      case 's':
        sec = v;
        break;
      case 'S': {
        int64_t f = v;
        for (size_t i = digits; i < 6; ++i) f *= 10;
        for (size_t i = 6; i < digits; ++i) f /= 10;
        frac = f;
        break;
      }
      default:
        return false;
    }
  }
  if (pos != s.size()) return false;
  if (has_ampm) {
    if (h < 1 || h > 12) return false;
    h = h % 12 + (pm ? 12 : 0);
  }
  if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, static_cast<unsigned>(mo)) || h > 23 ||
      mi > 59 || sec > 59) {
    return false;
  }
  int64_t days = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  *us = days * kMicrosPerDay + ((h * 60 + mi) * 60 + sec) * kMicrosPerSecond + frac;
  return true;
}

struct FormatState {
  std::vector<PatternToken> tokens;
};

// The compiled pattern of argument `i` when it is a constant.
void compile_constant_format(BindCtx& c, size_t i) {
  if (c.args.size() > i && c.args[i]->is_literal() && !c.args[i]->value.is_null()) {
    auto st = std::make_shared<FormatState>();
    st->tokens = compile_format(c.args[i]->value.as_bytes());
    c.state = st;
  }
}

class FormatSource {
 public:
  explicit FormatSource(const BoundExpr& e)
      : fixed_(std::static_pointer_cast<const FormatState>(e.state)) {}
  const std::vector<PatternToken>& at(std::string_view text) {
    if (fixed_) return fixed_->tokens;
    if (text != text_ || current_.empty()) {
      current_ = compile_format(text);
      text_.assign(text);
    }
    return current_;
  }

 private:
  std::shared_ptr<const FormatState> fixed_;
  std::vector<PatternToken> current_;
  std::string text_;
};

Status bind_to_date(BindCtx& c) {
  if (c.args.size() == 1) {
    TypeId t = c.args[0]->type->id();
    if (t != TypeId::kString && !is_datetime(t) && t != TypeId::kUnknown) {
      return invalid_argument("needs a string, date or timestamp");
    }
    FLOE_TRY(coerce_at(c, 0, c.name == "to_date" ? Type::date() : Type::timestamp()));
  } else {
    FLOE_TRY(coerce_at(c, 0, Type::string()));
    FLOE_TRY(coerce_at(c, 1, Type::string()));
    compile_constant_format(c, 1);
  }
  c.type = c.name == "to_date" ? Type::date() : Type::timestamp();
  return Status::OK();
}

Result<Datum> eval_to_date(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  if (args.size() == 1) return args[0];  // the cast did the work
  bool date = e.name == "to_date";
  BytesReader s(args[0]), f(args[1]);
  FormatSource src(e);
  if (date) {
    return kernel<int32_t>(
        e.type, rows_for(args, n), all_scalar(args),
        [&](int32_t* o, std::string_view v, std::string_view fmt) {
          int64_t us = 0;
          if (!parse_with(src.at(fmt), v, &us)) return false;
          *o = static_cast<int32_t>(floor_div(us, kMicrosPerDay));
          return true;
        },
        s, f);
  }
  return kernel<int64_t>(
      e.type, rows_for(args, n), all_scalar(args),
      [&](int64_t* o, std::string_view v, std::string_view fmt) {
        return parse_with(src.at(fmt), v, o);
      },
      s, f);
}

Status bind_date_format(BindCtx& c) {
  TypeId t = c.args[0]->type->id();
  if (!is_timestamp(t) || is_nanos(t)) FLOE_TRY(coerce_at(c, 0, Type::timestamp()));
  FLOE_TRY(coerce_at(c, 1, Type::string()));
  compile_constant_format(c, 1);
  c.type = Type::string();
  return Status::OK();
}

Result<Datum> eval_date_format(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int64_t> ts(args[0]);
  BytesReader f(args[1]);
  FormatSource src(e);
  return str_kernel(
      e.type, rows_for(args, n), all_scalar(args),
      [&](std::string* o, int64_t v, std::string_view fmt) {
        format_with(src.at(fmt), v, o);
        return true;
      },
      ts, f);
}

Status bind_from_unixtime(BindCtx& c) {
  FLOE_TRY(coerce_at(c, 0, Type::int64()));
  if (c.args.size() < 2) {
    c.args.push_back(FLOE_TRY(make_literal_expr(Literal::string("yyyy-MM-dd HH:mm:ss"))));
  }
  FLOE_TRY(coerce_at(c, 1, Type::string()));
  compile_constant_format(c, 1);
  c.type = Type::string();
  return Status::OK();
}

Result<Datum> eval_from_unixtime(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  FixedReader<int64_t> secs(args[0]);
  BytesReader f(args[1]);
  FormatSource src(e);
  return str_kernel(
      e.type, rows_for(args, n), all_scalar(args),
      [&](std::string* o, int64_t v, std::string_view fmt) {
        int64_t us = 0;
        if (__builtin_mul_overflow(v, kMicrosPerSecond, &us)) return false;
        format_with(src.at(fmt), us, o);
        return true;
      },
      secs, f);
}

int64_t now_micros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status bind_unix_timestamp(BindCtx& c) {
  c.type = Type::int64();
  if (c.args.empty()) {
    c.state = std::make_shared<Literal>(Literal::int64(floor_div(now_micros(), kMicrosPerSecond)));
    return Status::OK();
  }
  if (c.args.size() == 1) {
    TypeId t = c.args[0]->type->id();
    if (!is_timestamp(t)) FLOE_TRY(coerce_at(c, 0, Type::timestamp()));
    return Status::OK();
  }
  FLOE_TRY(coerce_at(c, 0, Type::string()));
  FLOE_TRY(coerce_at(c, 1, Type::string()));
  compile_constant_format(c, 1);
  return Status::OK();
}

Result<Datum> eval_unix_timestamp(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  if (args.size() == 1) {
    bool ns = is_nanos(e.args[0]->type->id());
    FixedReader<int64_t> ts(args[0]);
    return kernel<int64_t>(
        e.type, rows_for(args, n), all_scalar(args),
        [ns](int64_t* o, int64_t v) {
          *o = floor_div(micros_of(v, ns), kMicrosPerSecond);
          return true;
        },
        ts);
  }
  BytesReader s(args[0]), f(args[1]);
  FormatSource src(e);
  return kernel<int64_t>(
      e.type, rows_for(args, n), all_scalar(args),
      [&](int64_t* o, std::string_view v, std::string_view fmt) {
        int64_t us = 0;
        if (!parse_with(src.at(fmt), v, &us)) return false;
        *o = floor_div(us, kMicrosPerSecond);
        return true;
      },
      s, f);
}

Status bind_now(BindCtx& c) {
  int64_t us = now_micros();
  if (c.name == "current_date") {
    c.type = Type::date();
    c.state = std::make_shared<Literal>(
        Literal::date(static_cast<int32_t>(floor_div(us, kMicrosPerDay))));
  } else {
    c.type = Type::timestamptz();
    c.state = std::make_shared<Literal>(Literal::timestamptz(us));
  }
  return Status::OK();
}

// ----- intervals
// ------------------------------------------------------------------------------------

Status bind_interval_add(BindCtx&) { return invalid_argument("use interval_add()"); }

Result<Datum> eval_interval_add(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  int64_t m = args[0].scalar ? 1 : n;
  int32_t months = e.months, days = e.days;
  int64_t micros = e.micros;
  if (e.type->id() == TypeId::kDate) {
    FixedReader<int32_t> d(args[0]);
    return kernel<int32_t>(
        e.type, m, args[0].scalar,
        [=](int32_t* o, int32_t day) {
          *o = static_cast<int32_t>(add_months_days(day, months) + int64_t{days});
          return true;
        },
        d);
  }
  bool ns = is_nanos(e.type->id());
  int64_t per_us = ns ? 1000 : 1;
  FixedReader<int64_t> ts(args[0]);
  return kernel<int64_t>(
      e.type, m, args[0].scalar,
      [=](int64_t* o, int64_t v) {
        int64_t unit_day = kMicrosPerDay * per_us;
        int64_t day = floor_div(v, unit_day);
        int64_t tod = v - day * unit_day;
        int64_t nd = add_months_days(static_cast<int32_t>(day), months) + int64_t{days};
        *o = nd * unit_day + tod + micros * per_us;
        return true;
      },
      ts);
}

// ----- Iceberg transforms
// -----------------------------------------------------------------------------

struct TransformState {
  Transform transform;
};

Status bind_transform(BindCtx& c) {
  Transform t;
  size_t value_arg = 0;
  if (c.name == "bucket" || c.name == "truncate") {
    const auto& p = c.args[0];
    if (!p->is_literal() || !is_integral(p->type->id()) || p->value.is_null()) {
      return invalid_argument("the first argument must be a constant integer");
    }
    int64_t v = p->value.as_int64();
    if (v <= 0 || v > INT32_MAX) return invalid_argument("the width must be positive, got {}", v);
    t = c.name == "bucket" ? Transform::bucket(static_cast<int32_t>(v))
                           : Transform::truncate(static_cast<int32_t>(v));
    value_arg = 1;
  } else {
    t = c.name == "years"    ? Transform::year()
        : c.name == "months" ? Transform::month()
        : c.name == "days"   ? Transform::day()
                             : Transform::hour();
  }
  TypePtr src = c.args[value_arg]->type;
  if (src->id() == TypeId::kString && c.name != "bucket" && c.name != "truncate") {
    FLOE_TRY(coerce_at(c, value_arg, Type::timestamp()));
    src = c.args[value_arg]->type;
  }
  if (src->id() == TypeId::kUnknown) {
    src = t.is_time() ? Type::timestamp() : Type::int32();
    FLOE_TRY(coerce_at(c, value_arg, src));
  }
  c.type = FLOE_TRY(t.result_type(src));
  auto st = std::make_shared<TransformState>();
  st->transform = t;
  c.state = st;
  return Status::OK();
}

Result<Datum> eval_bucket(const BoundExpr& e, const Datum& v, int64_t n) {
  int32_t buckets = std::static_pointer_cast<const TransformState>(e.state)->transform.param();
  int64_t m = v.scalar ? 1 : n;
  TypeId t = v.col->type_id();
  auto out = [&](int32_t* o, int32_t hash) {
    *o = bucket_of(hash, buckets);
    return true;
  };
  switch (phys_of(t)) {
    case Phys::kI32: {
      FixedReader<int32_t> r(v);
      return kernel<int32_t>(
          e.type, m, v.scalar, [&](int32_t* o, int32_t x) { return out(o, hash_long(x)); }, r);
    }
    case Phys::kI64: {
      bool ns = is_nanos(t);
      FixedReader<int64_t> r(v);
      return kernel<int32_t>(
          e.type, m, v.scalar,
          [&](int32_t* o, int64_t x) { return out(o, hash_long(micros_of(x, ns))); }, r);
    }
    case Phys::kI128: {
      FixedReader<int128> r(v);
      return kernel<int32_t>(
          e.type, m, v.scalar,
          [&](int32_t* o, int128 x) { return out(o, hash_bytes(decimal_to_bytes(x))); }, r);
    }
    case Phys::kBytes: {
      BytesReader r(v);
      return kernel<int32_t>(
          e.type, m, v.scalar,
          [&](int32_t* o, std::string_view x) { return out(o, hash_bytes(x)); }, r);
    }
    default:
      return invalid_argument("bucket over {}", v.col->type()->to_string());
  }
}

Result<Datum> eval_truncate(const BoundExpr& e, const Datum& v, int64_t n) {
  int32_t w = std::static_pointer_cast<const TransformState>(e.state)->transform.param();
  int64_t m = v.scalar ? 1 : n;
  switch (v.col->type_id()) {
    case TypeId::kInt: {
      FixedReader<int32_t> r(v);
      return kernel<int32_t>(
          e.type, m, v.scalar,
          [w](int32_t* o, int32_t x) {
            *o = static_cast<int32_t>(static_cast<uint32_t>(x) -
                                      static_cast<uint32_t>(floor_mod(x, w)));
            return true;
          },
          r);
    }
    case TypeId::kLong: {
      FixedReader<int64_t> r(v);
      return kernel<int64_t>(
          e.type, m, v.scalar,
          [w](int64_t* o, int64_t x) {
            *o = static_cast<int64_t>(static_cast<uint64_t>(x) -
                                      static_cast<uint64_t>(floor_mod(x, w)));
            return true;
          },
          r);
    }
    case TypeId::kDecimal: {
      FixedReader<int128> r(v);
      return kernel<int128>(
          e.type, m, v.scalar,
          [w](int128* o, int128 x) {
            int128 rem = x % w;
            if (rem < 0) rem += w;
            *o = x - rem;
            return true;
          },
          r);
    }
    case TypeId::kString: {
      BytesReader r(v);
      return str_kernel(
          e.type, m, v.scalar,
          [w](std::string* o, std::string_view x) { return o->append(utf8_truncate(x, w)), true; },
          r);
    }
    default: {
      BytesReader r(v);
      return str_kernel(
          e.type, m, v.scalar,
          [w](std::string* o, std::string_view x) {
            return o->append(x.substr(0, std::min<size_t>(x.size(), w))), true;
          },
          r);
    }
  }
}

Result<Datum> eval_time_transform(const BoundExpr& e, const Datum& v, int64_t n) {
  Transform::Kind k = std::static_pointer_cast<const TransformState>(e.state)->transform.kind();
  int64_t m = v.scalar ? 1 : n;
  TypeId t = v.col->type_id();
  if (t == TypeId::kDate) {
    FixedReader<int32_t> r(v);
    return kernel<int32_t>(
        e.type, m, v.scalar,
        [k](int32_t* o, int32_t d) {
          *o = k == Transform::Kind::kYear    ? year_from_days(d)
               : k == Transform::Kind::kMonth ? month_from_days(d)
                                              : d;
          return true;
        },
        r);
  }
  bool ns = is_nanos(t);
  FixedReader<int64_t> r(v);
  return kernel<int32_t>(
      e.type, m, v.scalar,
      [k, ns](int32_t* o, int64_t x) {
        int64_t us = micros_of(x, ns);
        *o = k == Transform::Kind::kYear    ? year_from_micros(us)
             : k == Transform::Kind::kMonth ? month_from_micros(us)
             : k == Transform::Kind::kDay   ? day_from_micros(us)
                                            : hour_from_micros(us);
        return true;
      },
      r);
}

Result<Datum> eval_transform(const BoundExpr& e, std::vector<Datum>& args, int64_t n) {
  if (e.name == "bucket") return eval_bucket(e, args[1], n);
  if (e.name == "truncate") return eval_truncate(e, args[1], n);
  return eval_time_transform(e, args[0], n);
}

}  // namespace

void register_datetime_functions(std::vector<FunctionDef>* defs) {
  for (const char* name : {"year", "month", "day", "dayofmonth", "dayofweek", "weekday",
                           "dayofyear", "weekofyear", "quarter", "hour", "minute", "second"}) {
    defs->push_back({name, 1, 1, bind_date_field, eval_date_field});
  }
  defs->push_back({"date_add", 2, 2, bind_date_int, eval_date_add});
  defs->push_back({"dateadd", 2, 2, bind_date_int, eval_date_add});
  defs->push_back({"date_sub", 2, 2, bind_date_int, eval_date_add});
  defs->push_back({"add_months", 2, 2, bind_date_int, eval_date_add});
  defs->push_back({"datediff", 2, 2, bind_datediff, eval_datediff});
  defs->push_back({"months_between", 2, 3, bind_months_between, eval_months_between});
  defs->push_back({"last_day", 1, 1, bind_last_day, eval_last_day});
  defs->push_back({"make_date", 3, 3, bind_make_date, eval_make_date});
  defs->push_back({"date_trunc", 2, 2, bind_date_trunc, eval_date_trunc});
  defs->push_back({"trunc", 2, 2, bind_trunc, eval_trunc});
  defs->push_back({"to_date", 1, 2, bind_to_date, eval_to_date});
  defs->push_back({"to_timestamp", 1, 2, bind_to_date, eval_to_date});
  defs->push_back({"date_format", 2, 2, bind_date_format, eval_date_format});
  defs->push_back({"from_unixtime", 1, 2, bind_from_unixtime, eval_from_unixtime});
  defs->push_back({"unix_timestamp", 0, 2, bind_unix_timestamp, eval_unix_timestamp, false});
  defs->push_back({"current_date", 0, 0, bind_now, nullptr, false});
  defs->push_back({"current_timestamp", 0, 0, bind_now, nullptr, false});
  defs->push_back({"now", 0, 0, bind_now, nullptr, false});
  defs->push_back({"interval_add", 1, 1, bind_interval_add, eval_interval_add});
  defs->push_back({"bucket", 2, 2, bind_transform, eval_transform});
  defs->push_back({"truncate", 2, 2, bind_transform, eval_transform});
  for (const char* name : {"years", "months", "days", "hours"}) {
    defs->push_back({name, 1, 1, bind_transform, eval_transform});
  }
}

}  // namespace floe::sql::internal
