// JSON for the position format through nlohmann/json: parse() (strict, with
// messages that say where), and Cursor, a reader whose errors name the JSON path
// at fault. Writers build nlohmann::ordered_json (members in the order written).
//
// parse() accepts RFC 8259 only (nlohmann's strict parser: no comments, trailing
// commas, NaN, leading zeros, invalid UTF-8 or trailing garbage) and also refuses
// duplicate keys, nesting deeper than kMaxDepth (so hostile input cannot build a
// structure too deep for anything recursive) and input over kMaxInputBytes. Errors
// are PathError with an empty path and the message "line L, column C: what".
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
#include <iterator>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/types.hpp"

namespace core {

// One problem of an input: the JSON path at fault ("" when the text is not JSON
// at all; "(root)" for the whole document) and what is wrong there.
struct Problem {
  std::string path;
  std::string message;
  // "path: message" on one line: a line break the input slipped into either is escaped,
  // so a list of problems stays one problem per line.
  std::string text() const {
    const std::string line = path.empty() ? message : path + ": " + message;
    std::string out;
    out.reserve(line.size());
    for (const char c : line) out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : std::string(1, c);
    return out;
  }
};

// An InvalidInput that knows its JSON path; what() is Problem::text().
class PathError : public InvalidInput {
 public:
  PathError(std::string path, std::string message)
      : InvalidInput(Problem{path, message}.text()), problem_{std::move(path), std::move(message)} {}
  const Problem& problem() const { return problem_; }

 private:
  Problem problem_;
};

}  // namespace core

namespace core::json {

using Value = nlohmann::json;           // parsed documents (objects keyed in sorted order)
using Ordered = nlohmann::ordered_json;  // written documents (members in the order written)

inline constexpr int kMaxDepth = 128;
inline constexpr size_t kMaxInputBytes = size_t{16} << 20;

template <typename T>
concept Int64Compatible = std::integral<T> && !std::same_as<T, bool> && (std::is_signed_v<T> || sizeof(T) < 8);

namespace detail {

inline const char* type_name(const Value& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
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
  std::string out = Value(std::string(s)).dump(-1, ' ', false, Value::error_handler_t::replace);
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
inline std::string_view near_miss(std::string_view key, std::span<const std::string_view> known) {
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

// "line L, column C: what" for the byte at `offset` (lines and columns from 1, in bytes).
inline std::string located(std::string_view text, size_t offset, const std::string& what) {
  offset = std::min(offset, text.size());
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1) + ": " + what;
}

// A char iterator that records how far the parser has read, so the checks made
// while building (duplicate keys, depth) can say where they failed.
class TrackingIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  TrackingIterator(const char* at, const char** furthest) : at_(at), furthest_(furthest) {}
  reference operator*() const { return *at_; }
  TrackingIterator& operator++() {
    *furthest_ = std::max(*furthest_, ++at_);
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackingIterator& other) const { return at_ == other.at_; }

 private:
  const char* at_;
  const char** furthest_;
};

// nlohmann's SAX events into a Value; refuses what nlohmann's DOM parser would
// silently accept (a repeated key keeps the last value there) or nest without bound.
class Builder {
 public:
  Builder(std::string_view text, Value& root) : text_(text), furthest_(text.data()), root_(root) {}

  const char** furthest() { return &furthest_; }
  const std::string& error() const { return error_; }

  bool null() { return add(nullptr) != nullptr; }
  bool boolean(bool b) { return add(b) != nullptr; }
  bool number_integer(int64_t i) { return add(i) != nullptr; }
  bool number_unsigned(uint64_t u) { return add(u) != nullptr; }
  bool number_float(double d, const std::string&) { return add(d) != nullptr; }
  bool string(std::string& s) { return add(std::move(s)) != nullptr; }
  bool binary(Value::binary_t&) { return fail(read_offset(), "binary values are not JSON"); }
  bool start_object(size_t) { return open(Value::object()); }
  bool start_array(size_t) { return open(Value::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string& k) {
    auto [slot, fresh] = open_.back()->get_ref<Value::object_t&>().try_emplace(k);
    if (!fresh) return fail(key_offset(), "duplicate key " + quote_for_message(k));
    member_ = &slot->second;
    return true;
  }
  bool parse_error(size_t offset, const std::string&, const nlohmann::detail::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 4: syntax error ..." -> "syntax error ..."
    std::string_view what = e.what();
    what.remove_prefix(std::min(what.find("] ") + 2, what.size()));
    if (what.starts_with("parse error at line ")) what.remove_prefix(std::min(what.find(": ") + 2, what.size()));
    return fail(offset == 0 ? 0 : offset - 1, std::string(what));
  }

 private:
  std::string_view text_;
  const char* furthest_;
  Value& root_;
  std::vector<Value*> open_;  // the containers being filled, innermost last
  Value* member_ = nullptr;   // where the value after a key goes
  std::string error_;

  size_t read_offset() const { return static_cast<size_t>(furthest_ - text_.data()); }

  // The opening quote of the key just read (the parser stops on its closing quote).
  size_t key_offset() const {
    size_t at = read_offset() - 1;
    while (at > 0) {
      at = text_.rfind('"', at - 1);
      if (at == std::string_view::npos) return 0;
      size_t backslashes = 0;
      while (at > backslashes && text_[at - 1 - backslashes] == '\\') ++backslashes;
      if (backslashes % 2 == 0) return at;
    }
    return 0;
  }

  bool fail(size_t offset, const std::string& what) {
    if (error_.empty()) error_ = located(text_, offset, what);
    return false;
  }

  template <typename V>
  Value* add(V&& v) {
    if (open_.empty()) {
      root_ = Value(std::forward<V>(v));
      return &root_;
    }
    if (open_.back()->is_array()) {
      open_.back()->emplace_back(std::forward<V>(v));
      return &open_.back()->back();
    }
    *member_ = Value(std::forward<V>(v));
    return member_;
  }

  bool open(Value container) {
    if (static_cast<int>(open_.size()) >= kMaxDepth)
      return fail(read_offset() - 1, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    open_.push_back(add(std::move(container)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }
};

}  // namespace detail

// Throws PathError with an empty path and "line L, column C: what" (see the top).
inline Value parse(std::string_view text) {
  if (text.size() > kMaxInputBytes)
    throw PathError("", "JSON input of " + std::to_string(text.size()) + " bytes is over the limit of " +
                            std::to_string(kMaxInputBytes) + " bytes");
  // nlohmann's lexer takes a NUL byte for the end of the input; no JSON text has one.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw PathError("", detail::located(text, nul, "unexpected byte 0x00"));
  Value root;
  detail::Builder builder(text, root);
  const detail::TrackingIterator first(text.data(), builder.furthest());
  const detail::TrackingIterator last(text.data() + text.size(), builder.furthest());
  if (!Value::sax_parse(first, last, &builder)) throw PathError("", builder.error());
  return root;
}

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
  ArrayView(const Value::array_t& items, std::string path) : items_(&items), path_(std::move(path)) {}
  const Value::array_t* items_;
  std::string path_;
};

// A position in a parsed document that knows its path, so every error names it:
// `players[1].tokens.red: 8 is more than 7`. All errors are PathError.
// get() may return an absent cursor; reading one throws the "missing field" error
// of the first absent step. The Value must outlive the cursor.
class Cursor {
 public:
  explicit Cursor(const Value& root) : value_(&root) {}

  std::string path() const { return path_.empty() ? "(root)" : path_; }
  bool exists() const { return value_ != nullptr; }
  bool is_null() const { return value_ && value_->is_null(); }
  bool is_integer() const { return value_ && value_->is_number_integer(); }
  bool is_array() const { return value_ && value_->is_array(); }
  bool is_object() const { return value_ && value_->is_object(); }
  bool is_string() const { return value_ && value_->is_string(); }

  // Whether this object has `key`; false when this cursor is absent.
  bool has(std::string_view key) const { return value_ && find(key); }
  // The member `key`, or an absent cursor.
  Cursor get(std::string_view key) const {
    std::string child_path = key_path(key);
    if (!value_) return Cursor(nullptr, std::move(child_path), missing_);
    const Value* child = find(key);
    return Cursor(child, std::move(child_path),
                  child ? Problem{} : Problem{path(), "missing field " + detail::quote_for_message(key)});
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

  bool as_bool() const { return expect(Value::value_t::boolean, "a boolean").get<bool>(); }
  const std::string& as_string() const {
    return expect(Value::value_t::string, "a string").get_ref<const std::string&>();
  }

  // An integer in [lo, hi]. Out of range throws `path: 8 is more than 7`, or with
  // `out_of_range` given, `path: ` + out_of_range with its first "{}" replaced by the
  // value found.
  template <Int64Compatible T>
  T as_int(T lo, T hi, std::string_view out_of_range = {}) const {
    return static_cast<T>(int_in_range(lo, hi, out_of_range));
  }

  ArrayView as_array() const {
    return ArrayView(expect(Value::value_t::array, "an array").get_ref<const Value::array_t&>(), path_);
  }
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
    only_fields(std::span<const std::string_view>(known.begin(), known.size()));
  }
  void only_fields(std::span<const std::string_view> known) const {
    for (const auto& [key, value] : expect(Value::value_t::object, "an object").items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      std::string what = "unknown field " + detail::quote_for_message(key);
      if (std::string_view guess = detail::near_miss(key, known); !guess.empty()) {
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
  [[noreturn]] void fail(const std::string& what) const { throw PathError(path(), what); }

 private:
  friend class ArrayView;
  Cursor(const Value* value, std::string path, Problem missing)
      : value_(value), path_(std::move(path)), missing_(std::move(missing)) {}

  const Value* value_;
  std::string path_;  // empty at the root
  Problem missing_;   // the error for reading this cursor when absent

  const Value& present() const {
    if (!value_) throw PathError(missing_.path, missing_.message);
    return *value_;
  }

  const Value& expect(Value::value_t type, const char* name) const {
    const Value& v = present();
    if (v.type() != type) fail(std::string("expected ") + name + ", found " + detail::type_name(v));
    return v;
  }

  const Value* find(std::string_view key) const {
    const Value::object_t& members = expect(Value::value_t::object, "an object").get_ref<const Value::object_t&>();
    const auto it = members.find(key);
    return it == members.end() ? nullptr : &it->second;
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
    if (v.is_number_unsigned()) {
      const uint64_t u = v.get<uint64_t>();
      if (u > static_cast<uint64_t>(hi) || static_cast<int64_t>(u) < lo)
        fail_range(std::to_string(u), u <= static_cast<uint64_t>(hi), lo, hi, out_of_range);
      return static_cast<int64_t>(u);
    }
    if (v.is_number_integer()) {
      const int64_t i = v.get<int64_t>();
      if (i < lo || i > hi) fail_range(std::to_string(i), i < lo, lo, hi, out_of_range);
      return i;
    }
    if (!v.is_number_float()) fail(std::string("expected an integer, found ") + detail::type_name(v));
    // An integer literal beyond 64 bits is out of any range; anything else with a
    // fraction or exponent is not an integer literal.
    const double d = v.get<double>();
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
