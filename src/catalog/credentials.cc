// Catalog URIs without their secrets: the password of a URI's user info, `password=` query
// parameters and the password values of a libpq keyword string are shown as "***" wherever a
// URI is printed (uri(), connection errors), and scrubbed from libpq's own messages, which can
// quote pieces of the connection string.
#include <algorithm>
#include <cctype>

#include "floe/catalog/catalog.h"

namespace floe {
namespace {

constexpr std::string_view kMask = "***";

// libpq's connection keywords (the ones a keyword string may start with).
constexpr std::string_view kLibpqKeywords[] = {"host",
                                               "hostaddr",
                                               "port",
                                               "dbname",
                                               "user",
                                               "password",
                                               "passfile",
                                               "channel_binding",
                                               "connect_timeout",
                                               "client_encoding",
                                               "options",
                                               "application_name",
                                               "fallback_application_name",
                                               "keepalives",
                                               "keepalives_idle",
                                               "keepalives_interval",
                                               "keepalives_count",
                                               "tcp_user_timeout",
                                               "replication",
                                               "gssencmode",
                                               "sslmode",
                                               "requiressl",
                                               "sslcompression",
                                               "sslcert",
                                               "sslkey",
                                               "sslpassword",
                                               "sslrootcert",
                                               "sslcrl",
                                               "sslcrldir",
                                               "sslsni",
                                               "requirepeer",
                                               "ssl_min_protocol_version",
                                               "ssl_max_protocol_version",
                                               "krbsrvname",
                                               "gsslib",
                                               "service",
                                               "target_session_attrs",
                                               "load_balance_hosts"};

bool is_secret_key(std::string_view key) { return key == "password" || key == "sslpassword"; }

bool is_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string percent_decode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// At `pos` (after whitespace): `key<spaces>=`? Returns the key's end, npos when not.
size_t keyword_at(std::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size() && is_key_char(text[end])) ++end;
  if (end == pos) return std::string_view::npos;
  size_t eq = end;
  while (eq < text.size() && is_space(text[eq])) ++eq;
  return eq < text.size() && text[eq] == '=' ? end : std::string_view::npos;
}

// A span of the text that holds a secret value.
struct Span {
  size_t begin, end;
};

// The secret spans of a libpq keyword string. A value runs to its closing quote when quoted,
// else up to the next `key=` (so an unquoted password with spaces is hidden whole).
std::vector<Span> keyword_secret_spans(std::string_view text) {
  std::vector<Span> spans;
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && is_space(text[pos])) ++pos;
    size_t key_end = keyword_at(text, pos);
    if (key_end == std::string_view::npos) break;
    std::string_view key = text.substr(pos, key_end - pos);
    pos = text.find('=', key_end) + 1;
    while (pos < text.size() && is_space(text[pos])) ++pos;
    size_t value_begin = pos;
    if (pos < text.size() && text[pos] == '\'') {
      ++pos;
      while (pos < text.size() && text[pos] != '\'') pos += text[pos] == '\\' ? 2 : 1;
      pos = std::min(text.size(), pos + 1);
    } else {
      while (pos < text.size()) {
        if (is_space(text[pos])) {
          size_t next = pos;
          while (next < text.size() && is_space(text[next])) ++next;
          if (next == text.size() || keyword_at(text, next) != std::string_view::npos) break;
          pos = next;
        } else {
          ++pos;
        }
      }
    }
    if (is_secret_key(key) && pos > value_begin) spans.push_back({value_begin, pos});
  }
  return spans;
}

// The secret spans of a URI: the password of its user info and password query parameters.
std::vector<Span> uri_secret_spans(std::string_view text) {
  std::vector<Span> spans;
  size_t scheme = text.find("://");
  if (scheme == std::string_view::npos) return spans;
  size_t start = scheme + 3;
  size_t query = text.find('?', start);
  // The last '@' before the query ends the user info: a password may hold '@' and '/'.
  size_t at = text.substr(0, query).rfind('@');
  if (at != std::string_view::npos && at >= start) {
    size_t colon = text.find(':', start);
    if (colon != std::string_view::npos && colon < at) spans.push_back({colon + 1, at});
  }
  if (query == std::string_view::npos) return spans;
  size_t pos = query + 1;
  while (pos <= text.size()) {
    size_t amp = text.find('&', pos);
    if (amp == std::string_view::npos) amp = text.size();
    std::string_view param = text.substr(pos, amp - pos);
    size_t eq = param.find('=');
    if (eq != std::string_view::npos && is_secret_key(percent_decode(param.substr(0, eq)))) {
      spans.push_back({pos + eq + 1, amp});
    }
    pos = amp + 1;
  }
  return spans;
}

std::vector<Span> secret_spans(std::string_view uri) {
  if (uri.find("://") != std::string_view::npos) return uri_secret_spans(uri);
  if (is_postgres_keyword_string(uri)) return keyword_secret_spans(uri);
  return {};
}

void replace_all(std::string& text, std::string_view what, std::string_view with) {
  if (what.empty()) return;
  size_t pos = 0;
  while ((pos = text.find(what, pos)) != std::string::npos) {
    text.replace(pos, what.size(), with);
    pos += with.size();
  }
}

}  // namespace

bool is_postgres_keyword_string(std::string_view uri) {
  size_t pos = 0;
  while (pos < uri.size() && is_space(uri[pos])) ++pos;
  size_t end = keyword_at(uri, pos);
  if (end == std::string_view::npos) return false;
  std::string_view key = uri.substr(pos, end - pos);
  return std::find(std::begin(kLibpqKeywords), std::end(kLibpqKeywords), key) !=
         std::end(kLibpqKeywords);
}

std::string redact_catalog_uri(std::string_view uri) {
  std::string out;
  size_t pos = 0;
  for (const auto& span : secret_spans(uri)) {
    out.append(uri.substr(pos, span.begin - pos));
    out.append(kMask);
    pos = span.end;
  }
  out.append(uri.substr(pos));
  return out;
}

std::vector<std::string> catalog_uri_secrets(std::string_view uri) {
  std::vector<std::string> out;
  for (const auto& span : secret_spans(uri)) {
    std::string raw(uri.substr(span.begin, span.end - span.begin));
    std::string decoded = percent_decode(raw);
    // A quoted keyword value: the value libpq sees is inside the quotes.
    if (raw.size() >= 2 && raw.front() == '\'') {
      out.push_back(raw.substr(1, raw.back() == '\'' ? raw.size() - 2 : raw.size() - 1));
    }
    out.push_back(std::move(raw));
    if (decoded != out.back()) out.push_back(std::move(decoded));
  }
  return out;
}

std::string scrub_secrets(std::string_view message, const std::vector<std::string>& secrets) {
  std::string out(message);
  auto is_secret_part = [&](std::string_view piece) {
    return std::any_of(secrets.begin(), secrets.end(), [&](const std::string& s) {
      return !s.empty() && s.find(piece) != std::string::npos;
    });
  };
  // Quoted fragments libpq cites ("missing "=" after "word"", "invalid port number: "x"").
  std::string scrubbed;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t open = out.find('"', pos);
    size_t close = open == std::string::npos ? std::string::npos : out.find('"', open + 1);
    if (close == std::string::npos) break;
    std::string_view inner = std::string_view(out).substr(open + 1, close - open - 1);
    scrubbed.append(out, pos, open + 1 - pos);
    scrubbed.append(!inner.empty() && is_secret_part(inner) ? kMask : inner);
    scrubbed += '"';
    pos = close + 1;
  }
  scrubbed.append(out, std::min(pos, out.size()));
  out = std::move(scrubbed);
  // Whole secrets, longest first, then their whitespace-separated pieces.
  std::vector<std::string> parts;
  for (const auto& s : secrets) {
    parts.push_back(s);
    size_t start = 0;
    while (start < s.size()) {
      while (start < s.size() && is_space(s[start])) ++start;
      size_t end = start;
      while (end < s.size() && !is_space(s[end])) ++end;
      if (end - start >= 2 && end - start < s.size()) parts.push_back(s.substr(start, end - start));
      start = end;
    }
  }
  std::sort(parts.begin(), parts.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const auto& p : parts) {
    if (p != kMask) replace_all(out, p, kMask);
  }
  return out;
}

}  // namespace floe
