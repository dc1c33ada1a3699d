// Tests for core/json.hpp: parser strictness and messages, limits, unicode, writer,
// Cursor paths, and a deterministic mutation fuzz loop (meant to run under ASan/UBSan).
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "core/rng.hpp"

using core::json::Cursor;
using core::json::Member;
using core::json::Value;

namespace {

int passed = 0, failed = 0;

void check(bool ok, const std::string& what) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

// The core::InvalidInput message `action` throws, or "(no error)".
std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const core::InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

void expect_error(const std::function<void()>& action, const std::string& message, const std::string& label) {
  const std::string got = error_of(action);
  check(got == message, label + ": expected error [" + message + "], got [" + got + "]");
}

void expect_parse_error(std::string_view text, const std::string& message) {
  expect_error([&] { core::json::parse(text); }, message, "parse " + std::string(text.substr(0, 40)));
}

// Rejected with a message containing `fragment`, whatever the position.
void expect_rejected(std::string_view text, const std::string& fragment) {
  const std::string got = error_of([&] { core::json::parse(text); });
  check(got.find(fragment) != std::string::npos && got.starts_with("line "),
        "parse " + std::string(text.substr(0, 40)) + ": expected [" + fragment + "], got [" + got + "]");
}

void expect_round_trip(std::string_view compact) {
  const std::string got = error_of([&] {
    const Value v = core::json::parse(compact);
    check(core::json::dump(v) == compact, "round trip " + std::string(compact) + " gave " + core::json::dump(v));
    check(core::json::parse(core::json::dump(v, true)) == v, "pretty round trip " + std::string(compact));
  });
  check(got == "(no error)", "round trip " + std::string(compact) + " threw " + got);
}

void test_round_trips() {
  expect_round_trip("null");
  expect_round_trip("true");
  expect_round_trip("[]");
  expect_round_trip("{}");
  expect_round_trip(R"({"b":1,"a":[2,{"c":null}],"":""})");  // insertion order kept
  expect_round_trip(R"([0,-1,9223372036854775807,-9223372036854775808])");
  expect_round_trip(R"([0.5,-2.25,1e+300,5e-324,1.0,-0.0,0.1])");
  expect_round_trip(R"(["\"\\\b\f\n\r\t\u0001\u001f","/é€😀"])");
  expect_round_trip(R"([[[]],[{}],{"x":[[]]}])");

  const Value v = core::json::parse(" [1, 2.0, 1E2, -0, 9223372036854775808, \"\\/\"] ");
  const auto& items = v.as_array();
  check(items[0].is_integer() && items[0].as_integer() == 1, "1 is an integer");
  check(items[1].is_double() && items[1].as_double() == 2.0, "2.0 is a double");
  check(items[2].is_double() && items[2].as_double() == 100.0, "1E2 is a double");
  check(items[3].is_integer() && items[3].as_integer() == 0, "-0 is the integer 0");
  check(items[4].is_double() && items[4].as_double() == 9223372036854775808.0, "beyond int64 becomes a double");
  check(items[5].as_string() == "/", "escaped solidus");
  check(core::json::dump(v) == R"([1,2.0,100.0,0,9223372036854775808.0,"/"])", "dump " + core::json::dump(v));

  const Value built(Value::Object{{"name", "x"}, {"n", 3}, {"ok", true}, {"list", Value::Array{1, 2.5, nullptr}}});
  check(core::json::dump(built) == R"({"name":"x","n":3,"ok":true,"list":[1,2.5,null]})", "dump built value");
  check(core::json::dump(built, true) ==
            "{\n  \"name\": \"x\",\n  \"n\": 3,\n  \"ok\": true,\n  \"list\": [\n    1,\n    2.5,\n    null\n  ]\n}",
        "pretty layout " + core::json::dump(built, true));
  check(core::json::dump(Value(Value::Object{{"a", Value::Array{}}, {"b", Value::Object{}}}), true) ==
            "{\n  \"a\": [],\n  \"b\": {}\n}",
        "pretty empty containers");
  check(!(Value(1) == Value(1.0)), "integer 1 differs from double 1.0");
}

void test_unicode() {
  check(core::json::parse(R"("\u00e9\u20AC\ud83d\ude00\u0000")").as_string() ==
            std::string("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\0", 10),
        "\\u escapes and a surrogate pair become UTF-8");
  check(core::json::parse("\"\xF4\x8F\xBF\xBF\"").as_string() == "\xF4\x8F\xBF\xBF", "U+10FFFF raw");
  expect_parse_error(R"("\ud800")", "line 1, column 2: unpaired high surrogate in a \\u escape");
  expect_parse_error(R"("\ud800\u0041")", "line 1, column 2: unpaired high surrogate in a \\u escape");
  expect_parse_error(R"("ab\udc00")", "line 1, column 4: unpaired low surrogate in a \\u escape");
  expect_parse_error(R"("\u12g4")", "line 1, column 6: unexpected 'g', expected 4 hex digits after \\u");
  expect_parse_error(R"("\u12)", "line 1, column 6: unexpected end of input, expected 4 hex digits after \\u");
  expect_parse_error("\"a\xC0\x80\"", "line 1, column 3: invalid UTF-8 in a string");  // overlong
  for (std::string_view bad : {"\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\x80", "\xFF", "\xF0\x8F\xBF\xBF",
                               "\xE0\x9F\xBF", "\xC1\xBF"})
    expect_rejected("\"" + std::string(bad) + "\"", "invalid UTF-8 in a string");
  expect_rejected("\xEF\xBB\xBF{}", "unexpected byte 0xEF, expected a value");  // no BOM
}

void test_syntax_errors() {
  expect_parse_error("", "line 1, column 1: unexpected end of input, expected a value");
  expect_parse_error("  \n ", "line 2, column 2: unexpected end of input, expected a value");
  expect_parse_error("[1,]", "line 1, column 4: trailing comma before ']'");
  expect_parse_error("{\"a\":1,\n }", "line 2, column 2: trailing comma before '}'");
  expect_parse_error("{\n  \"a\": tru\n}", "line 2, column 8: invalid literal, expected true");
  expect_parse_error("[1] x", "line 1, column 5: unexpected 'x' after the JSON value");
  expect_parse_error("{} {}", "line 1, column 4: unexpected '{' after the JSON value");
  expect_parse_error("[1 2]", "line 1, column 4: unexpected '2', expected ',' or ']' after an array element");
  expect_parse_error("{\"a\" 1}", "line 1, column 6: unexpected '1', expected ':' after the key");
  expect_parse_error("{a:1}", "line 1, column 2: unexpected 'a', expected a string key");
  expect_parse_error("{\"a\":1 \"b\":2}",
                     "line 1, column 8: unexpected '\"', expected ',' or '}' after an object member");
  expect_parse_error(R"({"a":1,"b":2,"a":3})", "line 1, column 14: duplicate key \"a\"");
  expect_parse_error("[1, // note\n2]", "line 1, column 5: comments are not allowed in JSON");
  expect_parse_error("/* c */ 1", "line 1, column 1: comments are not allowed in JSON");
  expect_parse_error("['a']", "line 1, column 2: strings must be in double quotes");
  expect_parse_error("NaN", "line 1, column 1: NaN and Infinity are not valid JSON numbers");
  expect_parse_error("[-Infinity]", "line 1, column 2: NaN and Infinity are not valid JSON numbers");
  expect_parse_error("012", "line 1, column 1: leading zeros are not allowed in numbers");
  expect_parse_error("-01", "line 1, column 1: leading zeros are not allowed in numbers");
  expect_parse_error("1.", "line 1, column 3: unexpected end of input, expected a digit after the decimal point");
  expect_parse_error(".5", "line 1, column 1: unexpected '.', expected a value");
  expect_parse_error("1e+", "line 1, column 4: unexpected end of input, expected a digit in the exponent");
  expect_parse_error("-", "line 1, column 2: unexpected end of input, expected a digit after '-'");
  expect_parse_error("+1", "line 1, column 1: unexpected '+', expected a value");
  expect_parse_error("1e400", "line 1, column 1: number out of the range of a double");
  expect_parse_error("\"abc", "line 1, column 1: unterminated string");
  expect_parse_error("\"abc\\", "line 1, column 1: unterminated string");
  expect_parse_error("\"a\tb\"", "line 1, column 3: control character byte 0x09 in a string must be escaped");
  expect_parse_error(R"("\x41")", "line 1, column 3: invalid escape: 'x' after a backslash");
  expect_parse_error("[true false]", "line 1, column 7: unexpected 'f', expected ',' or ']' after an array element");
  expect_parse_error("nul", "line 1, column 1: invalid literal, expected null");
  expect_parse_error("[1,\x01]", "line 1, column 4: unexpected byte 0x01, expected a value");
  expect_parse_error(std::string_view("[1]\0", 4), "line 1, column 4: unexpected byte 0x00 after the JSON value");
  expect_rejected("\xA0", "expected a value");
  expect_rejected("1\f", "after the JSON value");  // form feed is not JSON whitespace
  check(error_of([] { core::json::parse(" \t\r\n[ 1 , { \"a\" : null } ]\n"); }) == "(no error)", "whitespace");

  // Duplicates are found in large objects too, at the second occurrence.
  std::string big = "{";
  for (int i = 0; i < 1000; ++i) big += "\"k" + std::to_string(i) + "\":0,";
  big += "\"k500\":1}";
  expect_rejected(big, "duplicate key \"k500\"");
}

void test_limits() {
  const auto nested = [](int depth) {
    return std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
  };
  check(error_of([&] { core::json::parse(nested(core::json::kMaxDepth)); }) == "(no error)", "depth 128 is fine");
  expect_parse_error(nested(core::json::kMaxDepth + 1), "line 1, column 129: nesting deeper than 128 levels");
  expect_rejected(std::string(1'000'000, '['), "nesting deeper than 128 levels");
  std::string objects;
  for (int i = 0; i < 200; ++i) objects += "{\"a\":";
  expect_rejected(objects, "nesting deeper than 128 levels");

  std::string at_limit(core::json::kMaxInputBytes, ' ');
  at_limit[0] = '0';
  check(core::json::parse(at_limit) == Value(0), "input at the size limit");
  at_limit += ' ';
  expect_error([&] { core::json::parse(at_limit); }, "JSON input of 16777217 bytes is over the limit of 16777216 bytes",
               "size limit");
}

void test_writer() {
  core::json::Writer w;
  w.begin_object().field("a", 1).field("b", "two").field("c", false).key("d").begin_array();
  w.value(std::string("x")).value(uint8_t{7}).value(-3.5).value(nullptr).value(core::json::parse("{\"e\":[]}"));
  w.end_array().end_object();
  check(w.str() == R"({"a":1,"b":"two","c":false,"d":["x",7,-3.5,null,{"e":[]}]})", "writer " + w.str());
  check(core::json::Writer().value(uint64_t{18446744073709551615u}).str() == "18446744073709551615",
        "uint64 prints exactly");

  const auto logic_error = [](const std::function<void()>& action) {
    try {
      action();
    } catch (const std::logic_error&) {
      return true;
    }
    return false;
  };
  check(logic_error([] { core::json::Writer().begin_object().value(1); }), "value without key");
  check(logic_error([] { core::json::Writer().begin_array().key("a"); }), "key in array");
  check(logic_error([] { core::json::Writer().begin_array().end_object(); }), "mismatched end");
  check(logic_error([] { core::json::Writer().value(1).value(2); }), "two top-level values");
  check(logic_error([] { (void)core::json::Writer().begin_array().str(); }), "str of an open document");
  check(logic_error([] { (void)core::json::Writer().str(); }), "str of an empty document");
  expect_error([] { core::json::Writer().value(std::nan("")); }, "json: cannot write the non-finite number nan", "NaN");
  expect_error([] { core::json::Writer().value(std::string_view("\xFF")); },
               "json: cannot write a string that is not valid UTF-8", "bad UTF-8");
}

const char* const kPosition = R"({
  "variant": {"players": "two", "seed": 7},
  "players": [
    {"tokens": {"red": 3, "blue": 0}, "name": "ann", "ai": true, "cards": [1, 2]},
    {"tokens": {"red": 8, "blue": 1.5}, "name": "bob", "ai": false, "cards": [], "tokns": 1, "note": null}
  ],
  "odd key": {"a b": 2.0},
  "big": 100000000000000000000
})";

void test_cursor() {
  const Value doc = core::json::parse(kPosition);
  const Cursor root(doc);
  const Cursor players = root["players"];
  check(root.path() == "(root)", "root path");
  check(players[1]["tokens"]["red"].path() == "players[1].tokens.red", "child path");
  check(root["odd key"]["a b"].path() == "[\"odd key\"][\"a b\"]", "quoted keys in paths");

  check(players[0]["tokens"]["red"].as_int(0, 7) == 3, "as_int");
  check(players[0]["name"].as_string() == "ann" && players[0]["ai"].as_bool(), "as_string, as_bool");
  expect_error([&] { players[1]["tokens"]["red"].as_int(0, 7); }, "players[1].tokens.red: 8 is more than 7", "range");
  expect_error([&] { players[1]["tokens"]["red"].as_int(9, 20); }, "players[1].tokens.red: 8 is less than 9", "range");
  expect_error([&] { players[1]["tokens"]["red"].as_int(0, 7, "{} exceeds the 7 in the game"); },
               "players[1].tokens.red: 8 exceeds the 7 in the game", "custom range message");
  expect_error([&] { players[1]["tokens"]["blue"].as_int(0, 7); },
               "players[1].tokens.blue: expected an integer, found 1.5", "double for int");
  expect_error([&] { root["odd key"]["a b"].as_int(0, 7); }, "[\"odd key\"][\"a b\"]: expected an integer, found 2.0",
               "integral double for int");
  expect_error([&] { root["big"].as_int(0, 7); }, "big: 1e+20 is more than 7", "huge integer literal");
  expect_error([&] { root["variant"]["players"].as_int(2, 4); },
               "variant.players: expected an integer, found a string", "type mismatch");
  expect_error([&] { root["variant"].as_array(); }, "variant: expected an array, found an object", "array mismatch");
  expect_error([&] { players[0]["cards"].as_bool(); }, "players[0].cards: expected a boolean, found an array", "bool");
  expect_error([&] { players.has("x"); }, "players: expected an object, found an array", "has on an array");
  expect_error([&] { root["note"]; }, "(root): missing field \"note\"", "missing at the root");
  expect_error([&] { players[0].required("note"); }, "players[0]: missing field \"note\"", "required");
  expect_error([&] { players[2]; }, "players: no index 2 in an array of 2 elements", "index past the end");
  expect_error([&] { players.as_array(3, 4); }, "players: expected 3 to 4 elements, found 2", "array size range");
  expect_error([&] { players[0]["cards"].as_array(1, 1); }, "players[0].cards: expected 1 element, found 2",
               "array size");

  check(players[1].get("note").exists() && players[1].get("note").is_null(), "explicit null");
  check(players[1].has("note") && !players[0].has("note"), "has");
  const Cursor absent = players[0].get("note").get("inner");
  check(!absent.exists() && !absent.is_null() && !absent.has("x"), "absent cursors");
  expect_error([&] { absent.as_int(0, 1); }, "players[0]: missing field \"note\"", "first absent step is named");
  expect_error([&] { players[1].get("note").as_string(); }, "players[1].note: expected a string, found null", "null");

  int index = 0;
  for (const Cursor card : players[0]["cards"].as_array()) {
    check(card.path() == "players[0].cards[" + std::to_string(index) + "]", "iteration path " + card.path());
    check(card.as_int(1, 90) == index + 1, "iteration value");
    ++index;
  }
  check(index == 2, "iterated both cards");

  players[0].only_fields({"tokens", "name", "ai", "cards"});
  expect_error([&] { players[1].only_fields({"tokens", "name", "ai", "cards", "note"}); },
               "players[1]: unknown field \"tokns\" (did you mean \"tokens\"?)", "did you mean");
  expect_error([&] { root.only_fields({"variant", "players", "big"}); },
               "(root): unknown field \"odd key\" (expected one of \"variant\" \"players\" \"big\")", "no near miss");
  expect_error([&] { root["variant"].only_fields({"players", "sede"}); },
               "variant: unknown field \"seed\" (did you mean \"sede\"?)", "transposition is one edit");
  expect_error([&] { players[1]["tokens"].fail("too many tokens"); }, "players[1].tokens: too many tokens", "fail");

  const Value text = core::json::parse(R"({"k": 1})");
  expect_error([&] { Cursor(text).only_fields({}); }, "(root): unknown field \"k\"", "no fields allowed");
  const std::string long_key(200, 'z');
  const Value long_doc = core::json::parse("{\"" + long_key + "\":1}");
  check(error_of([&] { Cursor(long_doc).only_fields({"zz"}); }) ==
            "(root): unknown field \"" + std::string(60, 'z') + "...\" (expected one of \"zz\")",
        "long keys are cut in messages");
}

// Mutates seed documents at random; every result must parse or throw InvalidInput,
// and whatever parses must survive dump -> parse unchanged.
void test_fuzz() {
  const std::string_view seeds[] = {
      kPosition,
      R"({"a":[1,-2.5e-3,true,false,null,"\u00e9\ud83d\ude00\n"],"b":{"c":{}}})",
      R"([[[[[[1]]]]],{"x":"y"},-0.0,123456789012345678901234567890])",
      "\"\xE2\x82\xAC\xF0\x9F\x98\x80\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
  };
  static constexpr char kInteresting[] =
      "{}[],:\"\\u0123456789abcdefABCDEFeE.-+ \t\n\rtruefalsenull/\x00\x7F\x80\xBF\xC2\xED\xF4\xFF";
  core::Rng rng(12345);
  int accepted = 0, rejected = 0, wrong = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string text(seeds[rng.below(std::size(seeds))]);
    const int mutations = 1 + static_cast<int>(rng.below(4));
    for (int m = 0; m < mutations && !text.empty(); ++m) {
      const size_t at = rng.below(static_cast<uint32_t>(text.size()));
      const size_t span = 1 + rng.below(static_cast<uint32_t>(std::min<size_t>(16, text.size() - at)));
      switch (rng.below(5)) {
        case 0: text[at] = static_cast<char>(rng.below(256)); break;
        case 1: text.insert(at, 1, kInteresting[rng.below(sizeof kInteresting - 1)]); break;
        case 2: text.erase(at, span); break;
        case 3: text.insert(at, text.substr(at, span)); break;
        case 4: text.resize(at); break;
      }
    }
    try {
      const Value v = core::json::parse(text);
      ++accepted;
      const std::string compact = core::json::dump(v);
      if (!(core::json::parse(compact) == v) || core::json::dump(core::json::parse(compact)) != compact ||
          !(core::json::parse(core::json::dump(v, true)) == v)) {
        ++wrong;
        std::printf("round trip differs for: %s\n", text.c_str());
      }
    } catch (const core::InvalidInput& e) {
      ++rejected;
      if (!std::string_view(e.what()).starts_with("line ")) {
        ++wrong;
        std::printf("message without a position: %s\n", e.what());
      }
    }
  }
  std::printf("fuzz: %d mutated inputs accepted, %d rejected\n", accepted, rejected);
  check(wrong == 0, "fuzz: every input parsed and round-tripped or was rejected with a position");
  check(accepted > 100 && rejected > 100, "fuzz covers both outcomes: " + std::to_string(accepted) + " accepted, " +
                                              std::to_string(rejected) + " rejected");
}

}  // namespace

int main() {
  test_round_trips();
  test_unicode();
  test_syntax_errors();
  test_limits();
  test_writer();
  test_cursor();
  test_fuzz();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
