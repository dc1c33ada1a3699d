// Tests for core/json.hpp over nlohmann/json: what parse() refuses and how it says
// where, the limits, Cursor paths and messages, a deterministic mutation fuzz loop
// (meant to run under ASan/UBSan), and a golden digest of both games' position
// writers (to_json, observation_json) over random games.
#include <doctest/doctest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "core/rng.hpp"
#include "duel/position.hpp"
#include "splendor/position.hpp"

using core::json::Cursor;
using core::json::Value;

namespace {

void check(bool ok, const std::string& what) { CHECK_MESSAGE(ok, what); }

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

// Rejected with "line L, column C: ..." containing `fragment`; `where` is "line L, column C" or empty.
void expect_rejected(std::string_view text, const std::string& fragment, const std::string& where = "") {
  const std::string got = error_of([&] { core::json::parse(text); });
  check(got.find(fragment) != std::string::npos && got.starts_with(where.empty() ? "line " : where + ": "),
        "parse " + std::string(text.substr(0, 40)) + ": expected [" + where + ": ..." + fragment + "], got [" + got +
            "]");
}

TEST_CASE("accepted") {
  const Value v = core::json::parse(" \t\r\n[1, 2.0, -3, 18446744073709551615, 1e-400, \"\\u00e9\\ud83d\\ude00\"] ");
  check(v.size() == 6, "whitespace and values");
  check(v[0].is_number_integer() && v[1].is_number_float() && v[2].get<int>() == -3, "integers and doubles");
  check(v[3].get<uint64_t>() == 18446744073709551615u, "uint64 kept exactly");
  check(v[5].get<std::string>() == "\xC3\xA9\xF0\x9F\x98\x80", "escapes and surrogate pairs");
  check(core::json::parse(R"({"b":1,"a":{"c":[null,true,false]}})")["a"]["c"][1] == true, "nested");
}

TEST_CASE("refused") {
  expect_rejected("", "empty input", "line 1, column 1");
  expect_rejected(" \n", "unexpected end of input", "line 2, column 1");
  expect_rejected("[1,]", "unexpected ']'", "line 1, column 4");
  expect_rejected("{\"a\":1,\n }", "unexpected '}'", "line 2, column 2");
  expect_rejected("[1] x", "expected end of input", "line 1, column 5");
  expect_rejected("{} {}", "expected end of input", "line 1, column 4");
  expect_rejected("{a:1}", "invalid literal", "line 1, column 2");
  expect_rejected(R"({"a":1,"b":2,"a":3})", "duplicate key \"a\"", "line 1, column 14");
  expect_rejected("{\"x\":{\"k\\\"\":1,\n \"k\\\"\":2}}", "duplicate key \"k\\\"\"", "line 2, column 2");
  expect_rejected("[1, // note\n2]", "invalid literal", "line 1, column 5");
  expect_rejected("NaN", "invalid literal");
  expect_rejected("[-Infinity]", "invalid number");
  expect_rejected("012", "expected end of input");
  expect_rejected("1.", "invalid number");
  expect_rejected("\"abc", "missing closing quote");
  expect_rejected("\"a\tb\"", "control character");
  expect_rejected(R"("\x41")", "invalid string");
  expect_rejected(R"("\ud800")", "surrogate");
  expect_rejected("1e400", "number overflow", "line 1, column 5");
  expect_rejected("[1e400]", "number overflow", "line 1, column 6");
  for (std::string_view bad : {"\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\x80", "\xFF", "\xC1\xBF"})
    expect_rejected("\"" + std::string(bad) + "\"", "ill-formed UTF-8");
  expect_rejected("\xA0", "invalid literal", "line 1, column 1");
  expect_rejected(std::string_view("[1]\0", 4), "unexpected byte 0x00", "line 1, column 4");
  expect_rejected(std::string_view("[1,\0 2]", 7), "unexpected byte 0x00", "line 1, column 4");

  // Duplicates are found in large objects too, at the second occurrence.
  std::string big = "{";
  for (int i = 0; i < 1000; ++i) big += "\"k" + std::to_string(i) + "\":0,";
  big += "\"k500\":1}";
  expect_rejected(big, "duplicate key \"k500\"");
}

TEST_CASE("limits") {
  const auto nested = [](int depth) {
    return std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
  };
  check(error_of([&] { core::json::parse(nested(core::json::kMaxDepth)); }) == "(no error)", "depth 128 is fine");
  expect_rejected(nested(core::json::kMaxDepth + 1), "nesting deeper than 128 levels", "line 1, column 129");
  expect_rejected(std::string(100'000, '['), "nesting deeper than 128 levels", "line 1, column 129");
  expect_rejected(nested(1'000'000), "nesting deeper than 128 levels");
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

const char* const kPosition = R"({
  "variant": {"players": "two", "seed": 7},
  "players": [
    {"tokens": {"red": 3, "blue": 0}, "name": "ann", "ai": true, "cards": [1, 2]},
    {"tokens": {"red": 8, "blue": 1.5}, "name": "bob", "ai": false, "cards": [], "tokns": 1, "note": null}
  ],
  "odd key": {"a b": 2.0},
  "big": 100000000000000000000,
  "huge": 18446744073709551615,
  "low": -9223372036854775808
})";

TEST_CASE("cursor") {
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
  expect_error([&] { root["big"].as_int(0, 7); }, "big: 1e+20 is more than 7", "integer literal beyond 64 bits");
  expect_error([&] { root["huge"].as_int(0, 7); }, "huge: 18446744073709551615 is more than 7", "uint64 literal");
  expect_error([&] { root["low"].as_int(0, 7); }, "low: -9223372036854775808 is less than 0", "int64 minimum");
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
  try {
    players[1]["tokens"]["red"].as_int(0, 7);
  } catch (const core::PathError& e) {
    check(e.problem().path == "players[1].tokens.red" && e.problem().message == "8 is more than 7",
          "PathError carries the path and the message apart");
  }

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
  expect_error([&] { root.only_fields({"variant", "players", "big", "huge", "low"}); },
               "(root): unknown field \"odd key\" (expected one of \"variant\" \"players\" \"big\" \"huge\" \"low\")",
               "no near miss");
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

// Mutates seed documents at random; every result must parse or be refused with a
// position, and whatever parses must survive dump -> parse unchanged.
TEST_CASE("fuzz") {
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
      if (!(core::json::parse(v.dump()) == v)) {
        ++wrong;
        std::printf("round trip differs for: %s\n", text.c_str());
      }
    } catch (const core::PathError& e) {
      ++rejected;
      if (!e.problem().path.empty() || !e.problem().message.starts_with("line ")) {
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

// read_position: the variant and observer from the text, problems apart by path.
TEST_CASE("read position") {
  splendor::Config c3;
  c3.players = 3, c3.gem_tokens = 5, c3.nobles = 4, c3.points_to_win = 12;
  const splendor::State s = splendor::State::initial(c3, 5, false);
  const auto view = splendor::read_position(core::json::parse(s.observation_json(1)), 9);
  check(view.variant == c3 && view.observer == 1 && view.state.observation_json(1) == s.observation_json(1),
        "splendor view: variant, observer and state");
  const auto full = splendor::read_position(core::json::parse(s.to_json()), 0, true);
  check(full.observer == -1 && full.state == s, "splendor full state");

  duel::Config first;
  first.first_player = 1;
  const duel::State d = duel::State::initial(first, 3, false);
  const auto duel_view = duel::read_position(core::json::parse(d.observation_json(0)), 4);
  check(duel_view.variant == first && duel_view.observer == 0 &&
            duel_view.state.observation_json(0) == d.observation_json(0),
        "duel view: variant, observer and state");

  std::string text = s.to_json();
  text.replace(text.find("\"to_move\":0"), 11, "\"to_move\":\"x\",\"setup\":3");
  try {
    splendor::read_position(core::json::parse(text), 0);
    check(false, "a damaged position is refused");
  } catch (const core::InvalidPosition& e) {
    const auto has = [&](const std::string& path, const std::string& message) {
      for (const core::Problem& p : e.problems())
        if (p.path == path && p.message == message) return true;
      return false;
    };
    check(e.problems().size() == 2 && has("to_move", "expected an integer, found a string") &&
              has("setup", "expected a boolean, found an integer"),
          std::string("problems by path: ") + e.what());
  }
  expect_error([] { splendor::read_position(core::json::parse(R"({"variant": {"players": 5}})"), 0); },
               "variant: players must be 2, 3 or 4", "variant checked by Config::validate");
}

// The seats a position refuses for the end of the game (the paths of its problems about
// points_to_win), or "read" when it reads back as written.
std::string end_of_game_problems(const splendor::Config& c, const std::string& text) {
  try {
    const splendor::State s = splendor::State::from_json(c, text);
    return s.to_json() == text ? "read" : "read differently";
  } catch (const core::InvalidPosition& e) {
    std::string paths;
    for (const core::Problem& p : e.problems())
      paths += p.message.find("points_to_win") != std::string::npos ? p.path + " " : "(" + p.message + ") ";
    return paths;
  } catch (const core::InvalidInput& e) {
    return std::string("(") + e.what() + ")";
  }
}

// Random 2- and 3-player games to their end. Before it, every state with someone at
// points_to_win (the round still going on) reads back, as a view too. The final state put
// back to the start of seat k's turn ("main", to_move k) is refused exactly for the seats
// from k on at points_to_win: they last played in the round whose close ended the game;
// with none of them there it is a legal position (a seat before k reached it this round).
TEST_CASE("the end of the game, whatever the seat to move") {
  for (int players = 2; players <= 3; ++players) {
    const splendor::Config c = splendor::Config::standard(players);
    int going_on = 0, refused_later_seat = 0, accepted_later_seat = 0;
    for (uint64_t g = 0; g < 40; ++g) {
      core::Rng rng(g);
      splendor::State s = splendor::State::initial(c, 500 + g, false);
      while (!s.is_terminal()) {
        splendor::ActionList a;
        s.legal_actions(a);
        s.apply(a[static_cast<int>(rng.below(static_cast<uint32_t>(a.size())))]);
        bool reached = false;
        for (int p = 0; p < players; ++p) reached = reached || s.player(p).points >= c.points_to_win;
        if (s.is_terminal() || !reached) continue;
        ++going_on;
        check(end_of_game_problems(c, s.to_json()) == "read", "a round going on to its end reads back");
        for (int p = 0; p < players; ++p)
          check(splendor::State::from_observation(c, s.observation_json(p), g).observation_json(p) == s.observation_json(p),
                "and its views");
      }
      std::string over = s.to_json();
      const size_t phase = over.find("\"phase\":\"over\"");
      if (over.find("\"passes_this_round\":0") == std::string::npos || phase == std::string::npos) continue;
      over.replace(phase, 14, "\"phase\":\"main\"");
      for (int k = 0; k < players; ++k) {
        std::string text = over;
        text.replace(text.find("\"to_move\":0"), 11, "\"to_move\":" + std::to_string(k));
        std::string expected;
        for (int p = k; p < players; ++p)
          if (s.player(p).points >= c.points_to_win) expected += "players[" + std::to_string(p) + "] ";
        const std::string got = end_of_game_problems(c, text);
        if (expected.empty()) {
          check(got == "read", std::to_string(players) + " players, seat " + std::to_string(k) +
                                   " to move after a seat before it reached points_to_win: legal, got [" + got + "]");
          accepted_later_seat += k > 0;
        } else {
          check(got == expected, std::to_string(players) + " players, seat " + std::to_string(k) + " to move: expected [" +
                                     expected + "], got [" + got + "]");
          refused_later_seat += k > 0;
        }
      }
    }
    check(going_on > 0 && refused_later_seat > 0 && accepted_later_seat > 0,
          "the games cover every case: " + std::to_string(going_on) + " " + std::to_string(refused_later_seat) + " " +
              std::to_string(accepted_later_seat));
  }
}

// FNV-1a over every to_json and observation_json of random games (chance nodes
// included), and of the states read back from them.
struct Digest {
  uint64_t h = 0xcbf29ce484222325ULL;
  size_t documents = 0;
  void add(const std::string& text) {
    for (char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    ++documents;
  }
};

template <typename State, typename ActionList, typename ChanceList, typename Config>
void digest_games(Digest& d, const Config& cfg, int games, uint64_t seed, bool explicit_chance) {
  for (int g = 0; g < games; ++g) {
    core::Rng rng(seed + static_cast<uint64_t>(g));
    State s = State::initial(cfg, seed * 1000 + static_cast<uint64_t>(g), explicit_chance);
    for (int step = 0; step < 400 && !s.is_terminal(); ++step) {
      if (step % 7 == 0) {
        d.add(s.to_json());
        d.add(State::from_json(cfg, s.to_json()).to_json());
        for (int p = 0; p < s.num_players(); ++p) {
          d.add(s.observation_json(p));
          d.add(State::from_observation(cfg, s.observation_json(p), seed + static_cast<uint64_t>(step)).to_json());
        }
      }
      if (s.is_chance()) {
        ChanceList c;
        s.chance_outcomes(c);
        s.apply(c[static_cast<int>(rng.below(static_cast<uint32_t>(c.size())))].action);
      } else {
        ActionList a;
        s.legal_actions(a);
        s.apply(a[static_cast<int>(rng.below(static_cast<uint32_t>(a.size())))]);
      }
    }
  }
}

// The positions and records in tests and docs depend on the writers' exact bytes.
// The golden digest was taken with the hand-written writer this file's JSON replaced, then
// again when passes_in_a_row became passes_this_round (the only change, checked byte for byte),
// and when Duel's board wrote gold as Y instead of * (hashing Y as * gave the old digest back).
TEST_CASE("writers golden") {
  Digest d;
  for (int players = 2; players <= 4; ++players) {
    splendor::Config c;
    c.players = static_cast<uint8_t>(players);
    c.gem_tokens = static_cast<uint8_t>(players == 2 ? 4 : players == 3 ? 5 : 7);
    c.nobles = static_cast<uint8_t>(players + 1);
    digest_games<splendor::State, splendor::ActionList, splendor::ChanceList>(d, c, 12, 7 + players, players == 3);
  }
  digest_games<duel::State, duel::ActionList, duel::ChanceList>(d, duel::Config{}, 20, 99, false);
  digest_games<duel::State, duel::ActionList, duel::ChanceList>(d, duel::Config{}, 10, 5, true);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(d.h));
  std::printf("writers: %zu documents, digest %s\n", d.documents, hex);
  check(std::string(hex) == "78490c8473dc7c80" && d.documents == 13064, "position writers and readers unchanged: digest " +
                                                              std::string(hex) + " over " +
                                                              std::to_string(d.documents) + " documents");
}

}  // namespace
