// What the position readers and writers of both games share (docs/position-format.md):
// the root's common fields, token maps, card ids with their level, reserves, decks,
// and where each component was seen, with every problem reported by its JSON path.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/card_text.hpp"
#include "core/json.hpp"
#include "core/problems.hpp"
#include "core/swar.hpp"

namespace core {

// A position read from text by read_position: the variant it gives (completed with
// the defaults), a state consistent with it, and whose view it is (-1: a full state).
template <typename State, typename Config>
struct Position {
  Config variant;
  State state;
  int observer = -1;
};

// The "observer" field of a view (-1 when absent), a seat below `players`.
inline int observer_of(const json::Cursor& root, int players) {
  const json::Cursor observer = root.get("observer");
  return observer.exists() && !observer.is_null() ? observer.as_int(0, players - 1) : -1;
}

// The list type a State's legal_actions fills.
template <typename State, typename List>
List action_list_of(void (State::*)(List&) const);

// The last check at every door, the same as the random-game tests make (core/invariants.hpp,
// core/random_sim.hpp): the game's invariants hold (State::invariant_problems) and a state
// read is playable, so a position the reader's own checks missed is refused here, each
// broken invariant named, rather than handed to a search.
template <typename State>
State playable(State s) {
  std::vector<Problem> problems;
  for (const std::string& broken : s.invariant_problems())
    problems.push_back({"", "no game reaches this position: it breaks the rule invariant \"" + broken + "\""});
  if (!problems.empty()) throw InvalidPosition(std::move(problems));
  decltype(action_list_of(&State::legal_actions)) legal;
  s.legal_actions(legal);
  if (s.hash() != s.compute_hash() || (!s.is_terminal() && legal.empty()))
    throw PathError("", "this position is not over but has no legal move: no game reaches it");
  return s;
}

// A state from a position's text with a game's Reader (Reader(config, view, seed).read(root)).
template <typename Reader, typename Config>
auto read_state(const Config& config, std::string_view text, bool view, uint64_t seed) {
  config.validate();
  const json::Value doc = json::parse(text);
  return playable(Reader(config, view, seed).read(json::Cursor(doc)));
}

// A position with its own variant (read by the game, for `seats` players) and observer.
template <typename Reader, typename Config>
auto read_position(const json::Value& doc, const Config& variant, int seats, uint64_t seed, bool full) {
  const json::Cursor root(doc);
  Position<decltype(Reader(variant, !full, seed).read(root)), Config> position{variant, {}, observer_of(root, seats)};
  position.state = playable(Reader(position.variant, !full, seed).read(root));
  return position;
}

// The "game" field of a document (default "splendor"), lower-cased. Throws PathError.
inline std::string game_of(const json::Cursor& root) {
  if (!root.is_object()) root.only_fields({});  // "(root): expected an object, found ..."
  std::string name = root.has("game") ? root["game"].as_string() : "splendor";
  for (char& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return name;
}

// A token map {"white": 4, ...}: the first `kinds` of `names`, one byte lane each.
template <size_t N>
json::Ordered lanes_json(uint64_t lanes, const char* const (&names)[N], int kinds) {
  json::Ordered out = json::Ordered::object();
  for (int k = 0; k < kinds; ++k) out[names[k]] = swar::lane(lanes, k);
  return out;
}

// The common part of both games' readers. `cards` is the game's number of cards;
// `view`: unknown cards (deck counts, others' blind reserves) are allowed.
class PositionReaderBase : protected ProblemCollector {
 protected:
  PositionReaderBase(int cards, bool view) : card_at_(static_cast<size_t>(cards)), view_(view) {}

  std::vector<std::string> card_at_;  // where each card was seen; empty: nowhere yet
  bool view_;

  // Records where component #index+1 was seen; one seen twice fails by both paths.
  template <typename Where>
  static void see(Where& where, int index, const std::string& path, const char* what) {
    if (!where[static_cast<size_t>(index)].empty())
      throw PathError(path, std::string(what) + " #" + std::to_string(index + 1) + " is also at " +
                                where[static_cast<size_t>(index)]);
    where[static_cast<size_t>(index)] = path;
  }
  void see_card(int card, const std::string& path) { see(card_at_, card, path, "card"); }

  // The root's own checks: an object with only `fields`, of `game`.
  void check_root(const json::Cursor& root, std::string_view game, std::initializer_list<std::string_view> fields) {
    if (!root.is_object()) root.only_fields({});  // "(root): expected an object, found ..."
    attempt([&] { root.only_fields(fields); });
    attempt([&] {
      if (root.has("game") && game_of(root) != game)
        root["game"].fail("this is a position of \"" + root["game"].as_string() + "\", not of " + std::string(game));
    });
  }

  // Each field the position's "variant" gives must be the game's (`game`: its variant object).
  void check_variant(const json::Cursor& root, const json::Ordered& game) {
    const json::Cursor v = root.get("variant");
    if (!v.exists()) return;
    std::vector<std::string_view> names;
    for (const auto& [key, value] : game.items()) names.push_back(key);
    attempt([&] { v.only_fields(names); });
    for (const auto& item : game.items()) {
      // Named, not structured bindings: clang before 16 cannot capture those in a lambda.
      const std::string& key = item.key();
      const json::Ordered& expected = item.value();
      attempt([&] {
        const json::Cursor f = v.get(key);
        if (!f.exists()) return;
        // A field with a word among its values (Splendor's take_fewer_distinct: true, false or
        // "always") is read as the word or the boolean it is.
        const bool words = expected.is_string() || f.is_string();
        const json::Ordered given = words && f.is_string()            ? json::Ordered(f.as_string())
                                    : words || expected.is_boolean() ? json::Ordered(f.as_bool())
                                    : f.is_null()                    ? json::Ordered(nullptr)
                                                                     : json::Ordered(f.as_int(-1000, 1000));
        if (given != expected)
          f.fail("the position says " + given.dump() + " but the game was loaded with " + expected.dump() +
                 " (load the game with the position's variant)");
      });
    }
  }

  // A boolean field, false when absent.
  void read_flag(const json::Cursor& object, const char* field, bool& out) {
    attempt([&] { out = object.has(field) && object[field].as_bool(); });
  }

  // A token map: the keys among `names`, the first `kinds` read by count(k, cursor)
  // into byte lane k.
  template <typename Count>
  uint64_t read_lanes(const json::Cursor& c, std::initializer_list<std::string_view> names, int kinds, Count&& count) {
    uint64_t lanes = 0;
    attempt([&] { c.only_fields(names); });
    if (!c.is_object()) return 0;
    for (int k = 0; k < kinds; ++k) {
      attempt([&] {
        const json::Cursor n = c.get(names.begin()[k]);
        if (n.exists()) lanes += swar::unit(k) * static_cast<uint64_t>(count(k, n));
      });
    }
    return lanes;
  }

  // A card of level `level` (0-based; level_of(card) gives a card's), recorded as seen.
  template <typename FromText, typename LevelOf>
  int read_card_of_level(const json::Cursor& c, int level, FromText&& from_text, LevelOf&& level_of) {
    const int card = card_text::read_card(c, static_cast<int>(card_at_.size()), from_text);
    if (level_of(card) != level)
      c.fail("card #" + std::to_string(card + 1) + " is a level-" + std::to_string(level_of(card) + 1) +
             " card, not level " + std::to_string(level + 1));
    see_card(card, c.path());
    return card;
  }

  // One entry of a player's reserve: a card (id, text, or {"card", "blind", "level"}),
  // or in a view an opponent's blind reserve {"level": k, "blind": true} (card -1).
  struct Reserved {
    int card = -1;
    int level = 0;  // 0-based
    bool blind = false;
  };
  template <typename FromText, typename LevelOf>
  Reserved read_reserved(const json::Cursor& r, int levels, FromText&& from_text, LevelOf&& level_of) {
    Reserved entry;
    if (r.is_object() && !r.has("card")) {
      r.only_fields({"level", "blind"});
      if (r.has("blind") && !r["blind"].as_bool()) r.fail("a card reserved face up must name its card");
      if (!view_)
        r.fail("unknown reserved card: a full position must name every card (use state_from_observation for a "
               "player's view)");
      entry.level = r["level"].as_int(1, levels) - 1;
      entry.blind = true;
      return entry;
    }
    const json::Cursor card = r.is_object() ? r["card"] : r;
    if (r.is_object()) r.only_fields({"card", "blind", "level"});
    entry.card = card_text::read_card(card, static_cast<int>(card_at_.size()), from_text);
    entry.level = level_of(entry.card);
    entry.blind = r.is_object() && r.has("blind") && r["blind"].as_bool();
    if (r.is_object() && r.has("level") && r["level"].as_int(1, levels) - 1 != entry.level)
      r["level"].fail("card #" + std::to_string(entry.card + 1) + " is a level-" + std::to_string(entry.level + 1) +
                      " card");
    see_card(entry.card, r.path());
    return entry;
  }

  // One deck of `level`: a list of cards, each passed to add(card), or in a view a
  // count, returned (-1 for a list).
  template <typename FromText, typename LevelOf, typename Add>
  int read_deck(const json::Cursor& deck, int level, int capacity, FromText&& from_text, LevelOf&& level_of,
                Add&& add) {
    int count = -1;
    attempt([&] {
      if (deck.is_integer()) {
        if (!view_)
          deck.fail("a full position lists each deck's cards (bottom first); a count is only for a player's view "
                    "(use state_from_observation)");
        count = deck.as_int(0, capacity);
        return;
      }
      for (const json::Cursor c : deck.as_array(0, static_cast<size_t>(capacity)))
        attempt([&] { add(read_card_of_level(c, level, from_text, level_of)); });
    });
    return count;
  }

  // The cards of a level seen nowhere must be exactly the unknown ones: the deck's
  // count and the blind reserves of a view. `places` lists where a card can be.
  // A view without "decks": a deck holds the unseen cards of its level that the blind
  // reserves leave.
  void infer_deck_count(int level, int unseen, int unknown_reserved, int& deck_count) {
    deck_count = unseen - unknown_reserved;
    if (deck_count < 0)
      attempt([&] {
        throw PathError("players", std::to_string(unknown_reserved) + " blind reserves of level " +
                                       std::to_string(level + 1) + ", but only " + std::to_string(unseen) + " level-" +
                                       std::to_string(level + 1) + " cards are unseen");
      });
  }
  void check_unseen(const std::string& deck_path, int level, int unseen, int first_unseen, int deck_count,
                    int unknown_reserved, const char* places) {
    const int expected = (deck_count < 0 ? 0 : deck_count) + unknown_reserved;
    if (unseen == expected) return;
    attempt([&] {
      if (deck_count < 0 && unseen > expected)
        throw PathError(deck_path, "card #" + std::to_string(first_unseen + 1) + " is nowhere (" + places +
                                       "); every card must be placed");
      throw PathError(deck_path, std::to_string(unseen) + " level-" + std::to_string(level + 1) +
                                     " cards are not seen anywhere, but the deck count and unknown reserves account "
                                     "for " + std::to_string(expected));
    });
  }
};

}  // namespace core
