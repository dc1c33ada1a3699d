// JSON for the position format: a DOM (Value), a strict parser (parse), a writer
// (Writer, dump), and Cursor, a reader whose errors name the JSON path at fault.
//
// parse() follows RFC 8259 strictly (no comments, trailing commas, NaN/Infinity,
// leading zeros, duplicate keys, invalid UTF-8, raw control characters in strings,
// or trailing garbage) and throws core::InvalidInput "line L, column C: what";
// lines and columns count from 1, columns in bytes. Nesting deeper than kMaxDepth
// is refused so hostile input cannot exhaust the stack, and input over
// kMaxInputBytes is refused outright (that message has no position). Numbers
// beyond the range of a double (1e400, 1e-400) are refused too.
//
// Reading a position:
//   json::Value doc = json::parse(text);
//   json::Cursor root(doc);
//   root.only_fields({"variant", "players"});
//   for (json::Cursor player : root["players"].as_array(2, 4)) {
//     int red = player["tokens"]["red"].as_int(0, 7);  // "players[1].tokens.red: 8 is more than 7"
//     bool ai = player.has("ai") && player["ai"].as_bool();
//   }
// Paths read `players[1].tokens.red`; a key that is not an identifier is quoted,
// `board["a b"]`. The root's path text is "(root)".
#pragma once
#include <algorithm>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/types.hpp"

namespace core::json {

inline constexpr int kMaxDepth = 128;
inline constexpr size_t kMaxInputBytes = size_t{16} << 20;

// Integer: the literal had no fraction or exponent and fits int64_t (exact).
// Double: any other number.
enum class Type { Null, Bool, Integer, Double, String, Array, Object };

// Integer types other than bool and char, which are meant as truth values and text.
template <typename T>
concept Integer = std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char>;
// Those whose every value fits in int64_t.
template <typename T>
concept Int64Compatible = Integer<T> && (std::is_signed_v<T> || sizeof(T) < sizeof(int64_t));

struct Member;

class Value {
 public:
  using Array = std::vector<Value>;
  using Object = std::vector<Member>;  // in insertion order

  Value() = default;  // null
  Value(std::nullptr_t) {}
  // Templates so that pointers and integers never silently become booleans.
  template <std::same_as<bool> B>
  Value(B b) : data_(b) {}
  template <Int64Compatible I>
  Value(I i) : data_(static_cast<int64_t>(i)) {}
  Value(double d) : data_(d) {}
  Value(std::string s) : data_(std::move(s)) {}
  Value(std::string_view s) : data_(std::string(s)) {}
  Value(const char* s) : data_(std::string(s)) {}
  Value(Array items) : data_(std::move(items)) {}
  Value(Object members);

  Type type() const { return static_cast<Type>(data_.index()); }
  bool is_null() const { return type() == Type::Null; }
  bool is_integer() const { return type() == Type::Integer; }
  bool is_double() const { return type() == Type::Double; }

  // Each accessor requires the matching type (std::bad_variant_access otherwise).
  bool as_bool() const { return std::get<bool>(data_); }
  int64_t as_integer() const { return std::get<int64_t>(data_); }
  double as_double() const { return std::get<double>(data_); }
  const std::string& as_string() const { return std::get<std::string>(data_); }
  const Array& as_array() const { return std::get<Array>(data_); }
  const Object& as_object() const { return std::get<Object>(data_); }

  // The member named `key` of an object, or nullptr.
  const Value* find(std::string_view key) const;

  friend bool operator==(const Value& a, const Value& b);

 private:
  // Alternative order matches Type.
  std::variant<std::nullptr_t, bool, int64_t, double, std::string, Array, Object> data_;
};

struct Member {
  std::string key;
  Value value;
  friend bool operator==(const Member&, const Member&) = default;
};

inline Value::Value(Object members) : data_(std::move(members)) {}

inline const Value* Value::find(std::string_view key) const {
  for (const Member& m : as_object())
    if (m.key == key) return &m.value;
  return nullptr;
}

inline bool operator==(const Value& a, const Value& b) { return a.data_ == b.data_; }

namespace detail {

inline const char* type_name(Type t) {
  static constexpr const char* kNames[] = {"null",     "a boolean", "an integer", "a number",
                                           "a string", "an array",  "an object"};
  return kNames[static_cast<int>(t)];
}

// Length of the well-formed UTF-8 sequence at s[i] (Unicode table 3-7: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 if there is none.
inline size_t utf8_sequence_length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) -> unsigned {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0x100u;
  };
  auto within = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  const unsigned lead = byte(0);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned second_lo = 0x80, second_hi = 0xBF;
  if (within(lead, 0xC2, 0xDF)) {
    length = 2;
  } else if (within(lead, 0xE0, 0xEF)) {
    length = 3;
    if (lead == 0xE0) second_lo = 0xA0;  // overlong
    if (lead == 0xED) second_hi = 0x9F;  // surrogates
  } else if (within(lead, 0xF0, 0xF4)) {
    length = 4;
    if (lead == 0xF0) second_lo = 0x90;  // overlong
    if (lead == 0xF4) second_hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (!within(byte(1), second_lo, second_hi)) return 0;
  for (size_t k = 2; k < length; ++k)
    if (!within(byte(k), 0x80, 0xBF)) return 0;
  return length;
}

inline void append_utf8(std::string& out, uint32_t cp) {
  auto put = [&](uint32_t bits) { out += static_cast<char>(bits); };
  if (cp < 0x80) {
    put(cp);
  } else if (cp < 0x800) {
    put(0xC0 | cp >> 6);
    put(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    put(0xE0 | cp >> 12);
    put(0x80 | (cp >> 6 & 0x3F));
    put(0x80 | (cp & 0x3F));
  } else {
    put(0xF0 | cp >> 18);
    put(0x80 | (cp >> 12 & 0x3F));
    put(0x80 | (cp >> 6 & 0x3F));
    put(0x80 | (cp & 0x3F));
  }
}

// Appends s as a JSON string literal. Invalid UTF-8 throws when `strict` (the
// output must parse again); otherwise it becomes U+FFFD (text for messages).
inline void append_quoted(std::string& out, std::string_view s, bool strict = true) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const size_t length = utf8_sequence_length(s, i);
      if (length == 0 && strict) throw InvalidInput("json: cannot write a string that is not valid UTF-8");
      if (length == 0) {
        out += "\xEF\xBF\xBD";
        ++i;
      } else {
        out.append(s, i, length);
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

// A key or string from the input, quoted for an error message and cut to a
// readable length (on a character boundary).
inline std::string quote_for_message(std::string_view s) {
  constexpr size_t kMaxBytes = 60;
  const bool cut = s.size() > kMaxBytes;
  if (cut) {
    size_t end = kMaxBytes;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
    s = s.substr(0, end);
  }
  std::string out;
  append_quoted(out, s, /*strict=*/false);
  if (cut) out.insert(out.size() - 1, "...");
  return out;
}

// Shortest text that reads back as the same double, and as a double: "3.0", not "3".
inline std::string format_double(double d) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, d);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

inline std::string count_of(size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// Optimal string alignment distance: insertions, deletions, substitutions and
// swaps of neighbours each count as one edit.
inline size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> before_previous(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before_previous[j - 2] + 1);
    }
    std::swap(before_previous, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

// The known name `key` is most likely a typo of, or empty if none is close.
inline std::string_view near_miss(std::string_view key, std::initializer_list<std::string_view> known) {
  constexpr size_t kLongestTypo = 64;  // bounds the quadratic distance on hostile keys
  if (key.size() > kLongestTypo) return {};
  std::string_view best;
  size_t best_distance = SIZE_MAX;
  for (std::string_view name : known) {
    const size_t distance = edit_distance(key, name);
    const size_t tolerated = std::clamp<size_t>(name.size() / 3, 1, 2);
    if (distance <= tolerated && distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Value document() {
    skip_whitespace();
    Value root = value(0);
    skip_whitespace();
    if (pos_ < text_.size()) fail("unexpected " + describe(pos_) + " after the JSON value");
    return root;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;

  [[noreturn]] void fail_at(size_t offset, const std::string& what) const {
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < offset; ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    throw InvalidInput("line " + std::to_string(line) + ", column " +
                       std::to_string(offset - line_start + 1) + ": " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_expected(const char* expected) const {
    fail("unexpected " + describe(pos_) + ", expected " + expected);
  }

  std::string describe(size_t offset) const {
    static constexpr char kHex[] = "0123456789ABCDEF";
    if (offset >= text_.size()) return "end of input";
    const auto c = static_cast<unsigned char>(text_[offset]);
    if (c >= 0x20 && c < 0x7F) return std::string{'\'', static_cast<char>(c), '\''};
    return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 0xF];
  }

  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  bool at_digit() const { return pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; }
  bool at_text(std::string_view word) const { return text_.substr(pos_).starts_with(word); }
  bool consume(char c) {
    if (!at(c)) return false;
    ++pos_;
    return true;
  }
  void skip_digits() {
    while (at_digit()) ++pos_;
  }
  void skip_whitespace() {
    while (at(' ') || at('\t') || at('\n') || at('\r')) ++pos_;
  }

  Value value(int depth) {
    if (pos_ >= text_.size()) fail_expected("a value");
    switch (text_[pos_]) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"': return string_text();
      case 't': return literal("true", true);
      case 'f': return literal("false", false);
      case 'n': return literal("null", nullptr);
      case '/': fail("comments are not allowed in JSON");
      case '\'': fail("strings must be in double quotes");
      default:
        if (at('-') || at_digit()) return number();
        if (at_text("NaN") || at_text("Infinity")) fail("NaN and Infinity are not valid JSON numbers");
        fail_expected("a value");
    }
  }

  Value literal(std::string_view word, Value result) {
    if (!at_text(word)) fail("invalid literal, expected " + std::string(word));
    pos_ += word.size();
    return result;
  }

  void check_depth(int depth) const {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
  }

  Value array(int depth) {
    check_depth(depth);
    ++pos_;
    Value::Array items;
    skip_whitespace();
    if (consume(']')) return items;
    while (true) {
      items.push_back(value(depth));
      skip_whitespace();
      if (consume(']')) return items;
      if (!consume(',')) fail_expected("',' or ']' after an array element");
      skip_whitespace();
      if (at(']')) fail("trailing comma before ']'");
    }
  }

  Value object(int depth) {
    check_depth(depth);
    ++pos_;
    Value::Object members;
    std::vector<size_t> key_offsets;
    skip_whitespace();
    if (consume('}')) return members;
    while (true) {
      if (!at('"')) fail_expected("a string key");
      key_offsets.push_back(pos_);
      std::string key = string_text();
      skip_whitespace();
      if (!consume(':')) fail_expected("':' after the key");
      skip_whitespace();
      members.push_back({std::move(key), value(depth)});
      skip_whitespace();
      if (consume('}')) break;
      if (!consume(',')) fail_expected("',' or '}' after an object member");
      skip_whitespace();
      if (at('}')) fail("trailing comma before '}'");
    }
    reject_duplicate_keys(members, key_offsets);
    return members;
  }

  // Sorting keeps this O(n log n): a linear scan per key would let one large
  // object take hours.
  void reject_duplicate_keys(const Value::Object& members, const std::vector<size_t>& key_offsets) const {
    std::vector<size_t> order(members.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return members[a].key < members[b].key; });
    size_t first_repeat = members.size();
    for (size_t i = 1; i < order.size(); ++i)
      if (members[order[i]].key == members[order[i - 1]].key) first_repeat = std::min(first_repeat, order[i]);
    if (first_repeat < members.size())
      fail_at(key_offsets[first_repeat], "duplicate key " + quote_for_message(members[first_repeat].key));
  }

  Value number() {
    const size_t start = pos_;
    consume('-');
    if (!at_digit()) {
      if (at_text("Infinity")) fail_at(start, "NaN and Infinity are not valid JSON numbers");
      fail_expected("a digit after '-'");
    }
    if (consume('0')) {
      if (at_digit()) fail_at(start, "leading zeros are not allowed in numbers");
    } else {
      skip_digits();
    }
    bool integer = true;
    if (consume('.')) {
      integer = false;
      if (!at_digit()) fail_expected("a digit after the decimal point");
      skip_digits();
    }
    if (consume('e') || consume('E')) {
      integer = false;
      if (!consume('+')) consume('-');
      if (!at_digit()) fail_expected("a digit in the exponent");
      skip_digits();
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (integer) {
      int64_t i = 0;
      if (std::from_chars(first, last, i).ec == std::errc{}) return i;
      // Beyond int64_t: kept as the nearest double.
    }
    double d = 0;
    if (std::from_chars(first, last, d).ec != std::errc{})
      fail_at(start, "number out of the range of a double");
    return d;
  }

  std::string string_text() {
    const size_t start = pos_;
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail_at(start, "unterminated string");
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c == '\\') {
        escape(out, start);
      } else if (c < 0x20) {
        fail("control character " + describe(pos_) + " in a string must be escaped");
      } else {
        const size_t length = utf8_sequence_length(text_, pos_);
        if (length == 0) fail("invalid UTF-8 in a string");
        out.append(text_, pos_, length);
        pos_ += length;
      }
    }
  }

  void escape(std::string& out, size_t string_start) {
    if (pos_ + 1 >= text_.size()) fail_at(string_start, "unterminated string");
    const char c = text_[pos_ + 1];
    switch (c) {
      case '"': case '\\': case '/': out += c; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': append_utf8(out, code_point()); return;
      default: fail_at(pos_ + 1, "invalid escape: " + describe(pos_ + 1) + " after a backslash");
    }
    pos_ += 2;
  }

  // At "\uXXXX": the code point, joining a surrogate pair written as two escapes.
  uint32_t code_point() {
    const size_t escape_start = pos_;
    pos_ += 2;
    const uint32_t unit = hex4();
    if (unit >= 0xDC00 && unit <= 0xDFFF) fail_at(escape_start, "unpaired low surrogate in a \\u escape");
    if (unit < 0xD800 || unit > 0xDBFF) return unit;
    if (!at_text("\\u")) fail_at(escape_start, "unpaired high surrogate in a \\u escape");
    pos_ += 2;
    const uint32_t low = hex4();
    if (low < 0xDC00 || low > 0xDFFF) fail_at(escape_start, "unpaired high surrogate in a \\u escape");
    return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
  }

  uint32_t hex4() {
    uint32_t unit = 0;
    for (int k = 0; k < 4; ++k, ++pos_) {
      const char c = pos_ < text_.size() ? text_[pos_] : '\0';
      uint32_t digit = 0;
      if (c >= '0' && c <= '9') digit = static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') digit = static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') digit = static_cast<uint32_t>(c - 'A' + 10);
      else fail_expected("4 hex digits after \\u");
      unit = unit * 16 + digit;
    }
    return unit;
  }
};

}  // namespace detail

// Throws core::InvalidInput "line L, column C: what" (see the top of this file).
inline Value parse(std::string_view text) {
  if (text.size() > kMaxInputBytes)
    throw InvalidInput("JSON input of " + std::to_string(text.size()) + " bytes is over the limit of " +
                       std::to_string(kMaxInputBytes) + " bytes");
  return detail::Parser(text).document();
}

// Streams one JSON document: compact, or with `pretty` 2-space indentation in the
// layout of Python's json.dumps(indent=2). Calls out of order (a value in an object
// without key(), unbalanced ends) throw std::logic_error: they are bugs, not input.
// A non-finite double or a string that is not UTF-8 throws core::InvalidInput.
// After an exception the Writer's output is incomplete; discard it.
class Writer {
 public:
  explicit Writer(bool pretty = false) : pretty_(pretty) {}

  Writer& begin_object() { return open('{', true); }
  Writer& end_object() { return close('}', true); }
  Writer& begin_array() { return open('[', false); }
  Writer& end_array() { return close(']', false); }

  Writer& key(std::string_view name) {
    if (frames_.empty() || !frames_.back().is_object || frames_.back().has_key)
      misuse("key() outside an object or twice in a row");
    separate();
    detail::append_quoted(out_, name);
    out_ += pretty_ ? ": " : ":";
    frames_.back().has_key = true;
    return *this;
  }

  Writer& value(std::nullptr_t) { return scalar("null"); }
  template <std::same_as<bool> B>
  Writer& value(B b) {
    return scalar(b ? "true" : "false");
  }
  template <Integer I>
  Writer& value(I i) {
    char buffer[24];
    return scalar(std::string_view(buffer, std::to_chars(buffer, buffer + sizeof buffer, i).ptr));
  }
  Writer& value(double d) {
    if (!std::isfinite(d)) throw InvalidInput("json: cannot write the non-finite number " + std::to_string(d));
    return scalar(detail::format_double(d));
  }
  Writer& value(std::string_view s) {
    before_value();
    detail::append_quoted(out_, s);
    return *this;
  }
  template <std::same_as<Value> V>  // a template, so strings and numbers never convert to Value
  Writer& value(const V& v) {
    switch (v.type()) {
      case Type::Null: value(nullptr); break;
      case Type::Bool: value(v.as_bool()); break;
      case Type::Integer: value(v.as_integer()); break;
      case Type::Double: value(v.as_double()); break;
      case Type::String: value(std::string_view(v.as_string())); break;
      case Type::Array:
        begin_array();
        for (const Value& item : v.as_array()) value(item);
        end_array();
        break;
      case Type::Object:
        begin_object();
        for (const Member& m : v.as_object()) key(m.key).value(m.value);
        end_object();
        break;
    }
    return *this;
  }

  template <typename T>
  Writer& field(std::string_view name, const T& v) {
    return key(name).value(v);
  }

  // The finished document.
  const std::string& str() const {
    if (!started_ || !frames_.empty()) misuse("str() before the document is complete");
    return out_;
  }

 private:
  struct Frame {
    bool is_object;
    bool empty = true;
    bool has_key = false;
  };

  std::string out_;
  std::vector<Frame> frames_;
  bool pretty_;
  bool started_ = false;

  [[noreturn]] static void misuse(const char* what) { throw std::logic_error(std::string("json::Writer: ") + what); }

  void before_value() {
    if (frames_.empty()) {
      if (started_) misuse("a second top-level value");
      started_ = true;
      return;
    }
    Frame& frame = frames_.back();
    if (!frame.is_object) {
      separate();
    } else if (frame.has_key) {
      frame.has_key = false;
    } else {
      misuse("a value in an object without key()");
    }
  }

  void separate() {
    Frame& frame = frames_.back();
    if (!frame.empty) out_ += ',';
    frame.empty = false;
    new_line();
  }

  void new_line() {
    if (!pretty_) return;
    out_ += '\n';
    out_.append(2 * frames_.size(), ' ');
  }

  Writer& scalar(std::string_view text) {
    before_value();
    out_ += text;
    return *this;
  }

  Writer& open(char bracket, bool is_object) {
    before_value();
    out_ += bracket;
    frames_.push_back({is_object});
    return *this;
  }

  Writer& close(char bracket, bool is_object) {
    if (frames_.empty() || frames_.back().is_object != is_object || frames_.back().has_key)
      misuse("end_object()/end_array() does not match the open container");
    const bool was_empty = frames_.back().empty;
    frames_.pop_back();
    if (!was_empty) new_line();
    out_ += bracket;
    return *this;
  }
};

inline std::string dump(const Value& v, bool pretty = false) { return Writer(pretty).value(v).str(); }

class Cursor;

// The elements of an array as cursors whose paths end in their index. Owns its
// path, so it outlives the temporary cursors of `root["a"].as_array()`.
class ArrayView {
 public:
  class iterator {
   public:
    Cursor operator*() const;
    iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const iterator&) const = default;

   private:
    friend class ArrayView;
    iterator(const ArrayView* view, size_t index) : view_(view), index_(index) {}
    const ArrayView* view_;
    size_t index_;
  };

  size_t size() const { return items_->size(); }
  Cursor operator[](size_t index) const;  // requires index < size()
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }

 private:
  friend class Cursor;
  ArrayView(const Value::Array& items, std::string path) : items_(&items), path_(std::move(path)) {}
  const Value::Array* items_;
  std::string path_;
};

// A position in a parsed document that knows its path, so every error names it:
// `players[1].tokens.red: 8 is more than 7`. All errors are core::InvalidInput.
// get() may return an absent cursor; reading one throws the "missing field" error
// of the first absent step. The Value must outlive the cursor.
class Cursor {
 public:
  explicit Cursor(const Value& root) : value_(&root) {}

  std::string path() const { return path_.empty() ? "(root)" : path_; }
  bool exists() const { return value_ != nullptr; }
  bool is_null() const { return value_ && value_->is_null(); }
  bool is_integer() const { return value_ && value_->is_integer(); }
  bool is_array() const { return value_ && value_->type() == Type::Array; }
  bool is_object() const { return value_ && value_->type() == Type::Object; }
  bool is_string() const { return value_ && value_->type() == Type::String; }

  // Whether this object has `key`; false when this cursor is absent.
  bool has(std::string_view key) const { return value_ && expect(Type::Object).find(key); }
  // The member `key`, or an absent cursor.
  Cursor get(std::string_view key) const {
    std::string child_path = key_path(key);
    if (!value_) return Cursor(nullptr, std::move(child_path), missing_);
    const Value* child = expect(Type::Object).find(key);
    return Cursor(child, std::move(child_path),
                  child ? std::string() : path() + ": missing field " + detail::quote_for_message(key));
  }
  // The member `key`; throws `path: missing field "key"` without it.
  Cursor required(std::string_view key) const {
    Cursor child = get(key);
    child.present();
    return child;
  }
  Cursor operator[](std::string_view key) const { return required(key); }
  Cursor operator[](size_t index) const {
    const ArrayView items = as_array();
    if (index >= items.size())
      fail("no index " + std::to_string(index) + " in an array of " + detail::count_of(items.size(), "element"));
    return items[index];
  }

  bool as_bool() const { return expect(Type::Bool).as_bool(); }
  const std::string& as_string() const { return expect(Type::String).as_string(); }

  // An integer in [lo, hi]. Out of range throws `path: 8 is more than 7`, or with
  // `out_of_range` given, `path: ` + out_of_range with its first "{}" replaced by the
  // value found.
  template <Int64Compatible T>
  T as_int(T lo, T hi, std::string_view out_of_range = {}) const {
    return static_cast<T>(int_in_range(lo, hi, out_of_range));
  }

  ArrayView as_array() const { return ArrayView(expect(Type::Array).as_array(), path_); }
  // Also requires min_size <= size <= max_size.
  ArrayView as_array(size_t min_size, size_t max_size) const {
    ArrayView items = as_array();
    if (items.size() < min_size || items.size() > max_size) {
      const std::string expected = min_size == max_size
                                       ? detail::count_of(min_size, "element")
                                       : std::to_string(min_size) + " to " + detail::count_of(max_size, "element");
      fail("expected " + expected + ", found " + std::to_string(items.size()));
    }
    return items;
  }

  // Requires an object whose keys are all in `known`; a typo gets a suggestion:
  // `players[0]: unknown field "tokns" (did you mean "tokens"?)`.
  void only_fields(std::initializer_list<std::string_view> known) const {
    for (const Member& m : expect(Type::Object).as_object()) {
      if (std::find(known.begin(), known.end(), m.key) != known.end()) continue;
      std::string what = "unknown field " + detail::quote_for_message(m.key);
      if (std::string_view guess = detail::near_miss(m.key, known); !guess.empty()) {
        what += " (did you mean " + detail::quote_for_message(guess) + "?)";
      } else if (known.size() > 0) {
        what += " (expected one of";
        for (std::string_view name : known) what += " " + detail::quote_for_message(name);
        what += ")";
      }
      fail(what);
    }
  }

  // Throws `path: what`, for checks only the caller understands.
  [[noreturn]] void fail(const std::string& what) const { throw InvalidInput(path() + ": " + what); }

 private:
  friend class ArrayView;
  Cursor(const Value* value, std::string path, std::string missing)
      : value_(value), path_(std::move(path)), missing_(std::move(missing)) {}

  const Value* value_;
  std::string path_;     // empty at the root
  std::string missing_;  // the error for reading this cursor when absent

  const Value& present() const {
    if (!value_) throw InvalidInput(missing_);
    return *value_;
  }

  const Value& expect(Type type) const {
    const Value& v = present();
    if (v.type() != type)
      fail(std::string("expected ") + detail::type_name(type) + ", found " + detail::type_name(v.type()));
    return v;
  }

  std::string key_path(std::string_view key) const {
    const bool identifier =
        !key.empty() && !(key[0] >= '0' && key[0] <= '9') && std::all_of(key.begin(), key.end(), [](char c) {
          return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        });
    if (!identifier) return path_ + "[" + detail::quote_for_message(key) + "]";
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }

  int64_t int_in_range(int64_t lo, int64_t hi, std::string_view out_of_range) const {
    const Value& v = present();
    if (v.is_integer()) {
      const int64_t i = v.as_integer();
      if (i < lo || i > hi) fail_range(std::to_string(i), i < lo, lo, hi, out_of_range);
      return i;
    }
    if (!v.is_double()) fail(std::string("expected an integer, found ") + detail::type_name(v.type()));
    // An integer literal beyond int64_t is out of any range; anything else with a
    // fraction or exponent is not an integer literal.
    const double d = v.as_double();
    const std::string text = detail::format_double(d);
    if (d == std::trunc(d) && (d < static_cast<double>(lo) || d > static_cast<double>(hi)))
      fail_range(text, d < static_cast<double>(lo), lo, hi, out_of_range);
    fail("expected an integer, found " + text);
  }

  [[noreturn]] void fail_range(const std::string& found, bool below, int64_t lo, int64_t hi,
                               std::string_view custom) const {
    if (custom.empty())
      fail(found + (below ? " is less than " + std::to_string(lo) : " is more than " + std::to_string(hi)));
    std::string what(custom);
    if (const size_t slot = what.find("{}"); slot != std::string::npos) what.replace(slot, 2, found);
    fail(what);
  }
};

inline Cursor ArrayView::operator[](size_t index) const {
  return Cursor(&(*items_)[index], path_ + "[" + std::to_string(index) + "]", {});
}

inline Cursor ArrayView::iterator::operator*() const { return (*view_)[index_]; }

}  // namespace core::json
