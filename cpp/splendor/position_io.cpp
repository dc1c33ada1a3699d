// JSON positions (docs/position-format.md): full states, player views, and reading
// either back with every inconsistency reported by its JSON path.
#include <algorithm>
#include <string>
#include <vector>

#include "core/card_text.hpp"
#include "core/json.hpp"
#include "core/problems.hpp"
#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace splendor {

namespace json = core::json;
using core::swar::lane;

namespace {

constexpr const char* kTokenNames[kTokenKinds] = {"white", "blue", "green", "red", "black", "gold"};
constexpr const char* kPhaseNames[] = {"main", "return_tokens", "choose_noble", "chance", "over"};

int card_level(int card) { return tables::kCards[card].level - 1; }

void write_tokens(json::Writer& w, uint64_t tokens, int kinds) {
  w.begin_object();
  for (int k = 0; k < kinds; ++k) w.field(kTokenNames[k], lane(tokens, k));
  w.end_object();
}

void write_variant(json::Writer& w, const Config& c) {
  w.key("variant").begin_object();
  w.field("players", int{c.players}).field("points_to_win", int{c.points_to_win});
  w.field("take_fewer_distinct", c.take_fewer_distinct).field("gem_tokens", int{c.gem_tokens});
  w.field("gold_tokens", int{c.gold_tokens}).field("nobles", int{c.nobles});
  w.field("token_limit", int{c.token_limit}).field("reserve_limit", int{c.reserve_limit});
  w.field("take_two_min", int{c.take_two_min});
  w.end_object();
}

}  // namespace

// Reads positions; a friend of State so it can fill the private fields directly.
//
// Problems are collected, not thrown one at a time: every field is read on its own
// (attempt), so one message lists every independent problem, one per line. Checks
// across fields (cards accounted for, tokens conserved, the phase) run only once the
// fields themselves read cleanly, so they never report a follow-on of a field error.
class PositionReader : core::ProblemCollector {
 public:
  PositionReader(const Config& config, bool allow_unknown, uint64_t seed)
      : config_(config), allow_unknown_(allow_unknown), rng_(core::splitmix64(seed ^ 0x9051710ULL)) {}

  State read(std::string_view text);

 private:
  // Where each card was seen, to report a card in two places by both paths.
  void see_card(int card, const std::string& path) {
    if (!where_[card].empty())
      throw core::InvalidInput(path + ": card #" + std::to_string(card + 1) + " is also at " + where_[card]);
    where_[card] = path;
  }
  int read_card_id(const json::Cursor& c) const;
  uint64_t read_tokens(const json::Cursor& c, int kinds, bool capped);
  void read_variant(const json::Cursor& root);
  void read_player(State& s, int seat, const json::Cursor& c);
  void read_reserved(State& s, int seat, const json::Cursor& r);
  void check_player(const State& s, int seat, const json::Cursor& c);
  void read_table(State& s, const json::Cursor& root);
  void read_decks(State& s, const json::Cursor& root);
  void read_nobles(State& s, const json::Cursor& root);
  void read_turn(State& s, const json::Cursor& root);
  void check_tokens(State& s, const json::Cursor& root);
  void place_unseen(State& s);
  void check_turn(State& s, const json::Cursor& root);

  const Config& config_;
  bool allow_unknown_;
  core::Rng rng_;
  std::string where_[kNumCards];
  std::string noble_where_[kNumNobles];
  // Unknown cards to sample (player views): reserve slots per seat and level.
  struct Unknown {
    int seat, index, level;
  };
  core::FixedList<Unknown, kMaxPlayers * kMaxReserved> unknown_reserves_;
  int deck_counts_[kLevels] = {-1, -1, -1};  // -1: the deck was given card by card
  std::string deck_paths_[kLevels];
  bool legacy_passes_ = false;  // passes_in_a_row was given (it counted across rounds)
};

// A card by id (1-90), "#id", or readable description ("green 1pt W2U1").
int PositionReader::read_card_id(const json::Cursor& c) const {
  return core::card_text::read_card(c, kNumCards, card_from_text);
}

// Token counts by colour. `capped`: no count above the game's tokens of that kind.
uint64_t PositionReader::read_tokens(const json::Cursor& c, int kinds, bool capped) {
  std::initializer_list<std::string_view> names = {"white", "blue", "green", "red", "black", "gold"};
  attempt([&] { c.only_fields(names); });
  uint64_t tokens = 0;
  for (int k = 0; k < kinds; ++k) {
    attempt([&] {
      const json::Cursor count = c.get(kTokenNames[k]);
      if (!count.exists()) return;
      const int n = count.as_int(0, 99);
      const int in_game = k == kGold ? config_.gold_tokens : config_.gem_tokens;
      if (capped && n > in_game)
        count.fail(std::to_string(n) + " exceeds the " + std::to_string(in_game) + " in the game");
      tokens |= uint64_t(n) << (8 * k);
    });
  }
  return tokens;
}

void PositionReader::read_variant(const json::Cursor& root) {
  const json::Cursor v = root.get("variant");
  if (!v.exists()) return;
  attempt([&] {
    v.only_fields({"players", "points_to_win", "take_fewer_distinct", "gem_tokens", "gold_tokens", "nobles",
                   "token_limit", "reserve_limit", "take_two_min"});
  });
  auto same = [&](const char* field, int expected) {
    attempt([&] {
      const json::Cursor f = v.get(field);
      if (f.exists() && f.as_int(0, 1000) != expected)
        f.fail("the position says " + std::to_string(f.as_int(0, 1000)) + " but the game was loaded with " +
               std::to_string(expected) + " (load the game with the position's variant)");
    });
  };
  same("players", config_.players);
  same("points_to_win", config_.points_to_win);
  same("gem_tokens", config_.gem_tokens);
  same("gold_tokens", config_.gold_tokens);
  same("nobles", config_.nobles);
  same("token_limit", config_.token_limit);
  same("reserve_limit", config_.reserve_limit);
  same("take_two_min", config_.take_two_min);
  attempt([&] {
    const json::Cursor fewer = v.get("take_fewer_distinct");
    if (fewer.exists() && fewer.as_bool() != config_.take_fewer_distinct)
      fewer.fail("the position's value differs from the game's (load the game with the position's variant)");
  });
}

void PositionReader::read_player(State& s, int seat, const json::Cursor& c) {
  if (!c.is_object()) return attempt([&] { c.only_fields({}); });  // "expected an object, found ..."
  attempt([&] { c.only_fields({"tokens", "cards", "reserved", "nobles", "points", "bonuses", "name"}); });
  Player& p = s.players_[seat];
  if (c.has("tokens")) p.tokens = read_tokens(c["tokens"], kTokenKinds, true);
  if (c.has("cards")) {
    attempt([&] {
      for (const json::Cursor card_cursor : c["cards"].as_array()) {
        attempt([&] {
          const int card = read_card_id(card_cursor);
          see_card(card, card_cursor.path());
          p.owned[card >> 6] |= uint64_t{1} << (card & 63);
          p.bonuses += core::swar::unit(tables::kCards[card].bonus);
          p.points = static_cast<uint8_t>(p.points + tables::kCards[card].points);
          ++p.cards_bought;
        });
      }
    });
  }
  if (c.has("reserved")) {
    attempt([&] {
      for (const json::Cursor r : c["reserved"].as_array(0, config_.reserve_limit)) {
        p.reserved[p.n_reserved++] = kNoCard;
        attempt([&] { read_reserved(s, seat, r); });
      }
    });
  }
  if (c.has("nobles")) {
    attempt([&] {
      for (const json::Cursor n : c["nobles"].as_array()) {
        attempt([&] {
          const int noble = n.as_int(1, kNumNobles, "noble id {} does not exist (ids are 1 to 10)") - 1;
          if (!noble_where_[noble].empty()) n.fail("noble #" + std::to_string(noble + 1) + " is also at " + noble_where_[noble]);
          noble_where_[noble] = n.path();
          p.nobles = static_cast<uint16_t>(p.nobles | (1u << noble));
          p.points = static_cast<uint8_t>(p.points + tables::kNobles[noble].points);
        });
      }
    });
  }
  // Read now so a malformed field is reported with the others; compared in check_player.
  if (c.has("points")) attempt([&] { c["points"].as_int(0, 255); });
  if (c.has("bonuses")) read_tokens(c["bonuses"], kColours, false);
}

// One entry of a player's `reserved`; the slot was added (kNoCard) by the caller.
void PositionReader::read_reserved(State& s, int seat, const json::Cursor& r) {
  Player& p = s.players_[seat];
  const int index = p.n_reserved - 1;
  if (r.is_object() && !r.has("card")) {
    // An opponent's blind reserve seen from another seat: only its level is known.
    r.only_fields({"level", "blind"});
    if (r.has("blind") && !r["blind"].as_bool()) r.fail("a card reserved face up must name its card");
    if (!allow_unknown_)
      r.fail("unknown reserved card: a full position must name every card (use state_from_observation for a player's view)");
    const int level = r["level"].as_int(1, kLevels) - 1;
    unknown_reserves_.push({seat, index, level});
    p.hidden_reserved = static_cast<uint8_t>(p.hidden_reserved | (1u << index));
    return;
  }
  int card;
  bool blind = false;
  if (r.is_object()) {
    r.only_fields({"card", "blind", "level"});
    card = read_card_id(r["card"]);
    blind = r.has("blind") && r["blind"].as_bool();
    if (r.has("level") && r["level"].as_int(1, kLevels) - 1 != card_level(card))
      r["level"].fail("card #" + std::to_string(card + 1) + " is a level-" + std::to_string(card_level(card) + 1) + " card");
  } else {
    card = read_card_id(r);
  }
  see_card(card, r.path());
  p.reserved[index] = static_cast<uint8_t>(card);
  if (blind) p.hidden_reserved = static_cast<uint8_t>(p.hidden_reserved | (1u << index));
}

// Checks of a player that need all its cards and nobles read.
void PositionReader::check_player(const State& s, int seat, const json::Cursor& c) {
  const Player& p = s.players_[seat];
  // Nobles are only ever earned with the bonuses they ask for.
  for (int noble = 0; noble < kNumNobles; ++noble)
    if ((p.nobles >> noble) & 1) {
      uint64_t req = 0;
      for (int col = 0; col < kColours; ++col) req |= uint64_t{tables::kNobles[noble].requirement[col]} << (8 * col);
      if (core::swar::sat_sub(req, p.bonuses) != 0)
        attempt([&] { c["nobles"].fail("noble #" + std::to_string(noble + 1) + " needs bonuses the player's cards do not give"); });
    }
  attempt([&] {
    if (c.has("points") && c["points"].as_int(0, 255) != p.points)
      c["points"].fail(std::to_string(c["points"].as_int(0, 255)) + " does not match the cards and nobles, which give " +
                       std::to_string(p.points));
  });
  attempt([&] {
    if (c.has("bonuses") && read_tokens(c["bonuses"], kColours, false) != p.bonuses)
      c["bonuses"].fail("does not match the bonuses of the player's cards");
  });
}

void PositionReader::read_table(State& s, const json::Cursor& root) {
  const json::ArrayView levels = root["table"].as_array(kLevels, kLevels);
  for (int l = 0; l < kLevels; ++l) {
    attempt([&] {
      const json::ArrayView row = levels[static_cast<size_t>(l)].as_array(0, kSlotsPerLevel);
      for (int i = 0; i < static_cast<int>(row.size()); ++i) {
        attempt([&] {
          const json::Cursor slot = row[static_cast<size_t>(i)];
          if (slot.is_null()) return;
          const int card = read_card_id(slot);
          if (card_level(card) != l)
            slot.fail("card #" + std::to_string(card + 1) + " is a level-" + std::to_string(card_level(card) + 1) +
                      " card, not level " + std::to_string(l + 1));
          see_card(card, slot.path());
          s.place_on_table<true>(l * kSlotsPerLevel + i, card);
        });
      }
    });
  }
}

void PositionReader::read_decks(State& s, const json::Cursor& root) {
  const json::ArrayView decks = root["decks"].as_array(kLevels, kLevels);
  for (int l = 0; l < kLevels; ++l) {
    const json::Cursor deck = decks[static_cast<size_t>(l)];
    deck_paths_[l] = deck.path();
    attempt([&] {
      if (deck.is_integer()) {
        if (!allow_unknown_)
          deck.fail("a full position lists each deck's cards (bottom first); a count is only for a player's view "
                    "(use state_from_observation)");
        deck_counts_[l] = deck.as_int(0, kDeckCapacity[l]);
        return;
      }
      for (const json::Cursor c : deck.as_array(0, static_cast<size_t>(kDeckCapacity[l]))) {
        attempt([&] {
          const int card = read_card_id(c);
          if (card_level(card) != l)
            c.fail("card #" + std::to_string(card + 1) + " is a level-" + std::to_string(card_level(card) + 1) +
                   " card, not level " + std::to_string(l + 1));
          see_card(card, c.path());
          s.deck_[l][s.deck_size_[l]++] = static_cast<uint8_t>(card);
        });
      }
    });
  }
}

void PositionReader::read_nobles(State& s, const json::Cursor& root) {
  const json::ArrayView nobles = root["nobles"].as_array(0, config_.nobles);
  for (const json::Cursor n : nobles) {
    attempt([&] {
      const int noble = n.as_int(1, kNumNobles, "noble id {} does not exist (ids are 1 to 10)") - 1;
      if (!noble_where_[noble].empty()) n.fail("noble #" + std::to_string(noble + 1) + " is also at " + noble_where_[noble]);
      noble_where_[noble] = n.path();
      s.table_nobles_ = static_cast<uint16_t>(s.table_nobles_ | (1u << noble));
    });
  }
  // The deal order of nobles: given in full positions, else the table's first.
  const json::Cursor order = root.get("noble_order");
  int next = 0;
  if (order.exists()) {
    bool used[kNumNobles] = {};
    for (const json::Cursor n : order.as_array(kNumNobles, kNumNobles)) {
      const int noble = n.as_int(1, kNumNobles) - 1;
      if (used[noble]) n.fail("noble #" + std::to_string(noble + 1) + " appears twice");
      used[noble] = true;
      s.noble_order_[next++] = static_cast<uint8_t>(noble);
    }
  } else {
    for (int pass = 0; pass < 2; ++pass)
      for (int noble = 0; noble < kNumNobles; ++noble)
        if (((s.table_nobles_ >> noble) & 1) == (pass == 0)) s.noble_order_[next++] = static_cast<uint8_t>(noble);
  }
}

// The turn fields, each on its own; their consistency is check_turn's.
void PositionReader::read_turn(State& s, const json::Cursor& root) {
  attempt([&] { s.current_ = static_cast<uint8_t>(root.has("to_move") ? root["to_move"].as_int(0, config_.players - 1) : 0); });
  attempt([&] {
    if (root.has("passes_this_round")) {
      s.passes_ = static_cast<uint8_t>(root["passes_this_round"].as_int(0, int{config_.players}));
      if (root.has("passes_in_a_row")) root["passes_in_a_row"].fail("give passes_this_round or the older passes_in_a_row, not both");
    } else if (root.has("passes_in_a_row")) {
      // Older positions counted passes across rounds; check_turn keeps those of this round.
      s.passes_ = static_cast<uint8_t>(root["passes_in_a_row"].as_int(0, 2 * int{config_.players} - 1));
      legacy_passes_ = true;
    }
  });
  attempt([&] { s.explicit_chance_ = root.has("explicit_chance") && root["explicit_chance"].as_bool(); });
  attempt([&] { s.in_setup_ = root.has("setup") && root["setup"].as_bool(); });
  attempt([&] {
    const json::Cursor pending = root.get("pending_blind_reserve");
    if (pending.exists() && !pending.is_null()) s.pending_blind_ = static_cast<uint8_t>(pending.as_int(1, kLevels));
  });
  attempt([&] {
    const std::string phase_name = root.has("phase") ? root["phase"].as_string() : "main";
    int phase = -1;
    for (int i = 0; i < 5; ++i)
      if (phase_name == kPhaseNames[i]) phase = i;
    if (phase < 0) root["phase"].fail("unknown phase \"" + phase_name + "\" (main, return_tokens, choose_noble, chance, over)");
    s.phase_ = static_cast<Phase>(phase);
  });
  attempt([&] {
    const json::Cursor bank = root.get("bank");
    if (bank.exists()) read_tokens(bank, kTokenKinds, true);
  });
}

void PositionReader::check_tokens(State& s, const json::Cursor& root) {
  uint64_t held = 0;
  for (int p = 0; p < config_.players; ++p) held += s.players_[p].tokens;
  uint64_t total = uint64_t{config_.gold_tokens} << (8 * kGold);
  for (int c = 0; c < kColours; ++c) total |= uint64_t{config_.gem_tokens} << (8 * c);
  bool over = false;
  for (int k = 0; k < kTokenKinds; ++k)
    if (lane(held, k) > lane(total, k)) {
      over = true;
      attempt([&] {
        root["players"].fail("the players hold " + std::to_string(lane(held, k)) + " " + kTokenNames[k] +
                             " tokens but the game has only " + std::to_string(lane(total, k)));
      });
    }
  if (over) return;
  s.bank_ = total - held;
  const json::Cursor bank = root.get("bank");
  if (bank.exists()) {
    const uint64_t given = read_tokens(bank, kTokenKinds, true);
    for (int k = 0; k < kTokenKinds; ++k)
      if (lane(given, k) != lane(s.bank_, k))
        attempt([&] {
          bank[kTokenNames[k]].fail(std::to_string(lane(given, k)) + " does not add up: the game has " +
                                    std::to_string(lane(total, k)) + " and the players hold " + std::to_string(lane(held, k)));
        });
  }
}

// Every card is somewhere; unknown ones (player views) are drawn from the unseen.
void PositionReader::place_unseen(State& s) {
  uint8_t unseen[kLevels][40];
  int n_unseen[kLevels] = {0, 0, 0};
  for (int card = 0; card < kNumCards; ++card)
    if (where_[card].empty()) unseen[card_level(card)][n_unseen[card_level(card)]++] = static_cast<uint8_t>(card);
  for (int l = 0; l < kLevels; ++l) {
    int unknown_reserved = 0;
    for (const Unknown& u : unknown_reserves_) unknown_reserved += u.level == l;
    const int expected_unknown = (deck_counts_[l] < 0 ? 0 : deck_counts_[l]) + unknown_reserved;
    if (n_unseen[l] == expected_unknown) continue;
    attempt([&] {
      if (deck_counts_[l] < 0 && !allow_unknown_ && n_unseen[l] > 0)
        throw core::InvalidInput(deck_paths_[l] + ": card #" + std::to_string(unseen[l][0] + 1) +
                                 " is nowhere (not on the table, in a deck, reserved or bought); every card must be placed");
      throw core::InvalidInput(deck_paths_[l] + ": " + std::to_string(n_unseen[l]) + " level-" + std::to_string(l + 1) +
                               " cards are not seen anywhere, but the deck count and unknown reserves account for " +
                               std::to_string(expected_unknown));
    });
  }
  throw_if_errors();
  for (int l = 0; l < kLevels; ++l) {
    rng_.shuffle(unseen[l], n_unseen[l]);
    int next = 0;
    for (const Unknown& u : unknown_reserves_)
      if (u.level == l) s.players_[u.seat].reserved[u.index] = unseen[l][next++];
    if (deck_counts_[l] >= 0)
      for (int i = 0; i < deck_counts_[l]; ++i) s.deck_[l][s.deck_size_[l]++] = unseen[l][next++];
  }
  for (int p = 0; p < config_.players; ++p) {
    s.set_reserved_lanes(p);
    s.set_eligible_nobles(p);
  }
}

// The turn and phase against the rest of the position.
void PositionReader::check_turn(State& s, const json::Cursor& root) {
  if (s.in_setup_ && !s.explicit_chance_)
    attempt([&] { root["setup"].fail("the setup can only be unfinished with explicit_chance"); });
  if (s.pending_blind_ && !s.explicit_chance_)
    attempt([&] { root["pending_blind_reserve"].fail("a blind reserve waits for its card only with explicit_chance"); });
  s.nobles_dealt_ = static_cast<uint8_t>(__builtin_popcount(s.table_nobles_));
  if (!s.in_setup_ && s.nobles_dealt_ != config_.nobles) {
    // Nobles leave the table only to players; count those too.
    int earned = 0;
    for (int p = 0; p < config_.players; ++p) earned += __builtin_popcount(s.players_[p].nobles);
    if (s.nobles_dealt_ + earned != config_.nobles)
      attempt([&] {
        root["nobles"].fail(std::to_string(s.nobles_dealt_) + " on the table and " + std::to_string(earned) +
                            " with players, but the game deals " + std::to_string(config_.nobles));
      });
    s.nobles_dealt_ = config_.nobles;
  }
  for (int p = 0; p < config_.players; ++p) {
    // Mid-turn (returning tokens, or a reveal before it) the mover may hold too many.
    const bool returning = (s.phase_ == Phase::kReturning || s.phase_ == Phase::kChance) && p == s.current_;
    const int count = s.players_[p].token_count();
    if (!returning && count > config_.token_limit)
      attempt([&] {
        root["players"][static_cast<size_t>(p)]["tokens"].fail(std::to_string(count) + " tokens exceed the limit of " +
                                                              std::to_string(config_.token_limit));
      });
  }
  if (!s.explicit_chance_) {
    for (int sl = 0; sl < kTableSlots; ++sl)
      if (s.table_[sl] == kNoCard && s.deck_size_[sl / kSlotsPerLevel] && deck_counts_[sl / kSlotsPerLevel] != 0)
        attempt([&] {
          root["table"].fail("level " + std::to_string(sl / kSlotsPerLevel + 1) + " slot " +
                             std::to_string(sl % kSlotsPerLevel + 1) + " is empty while its deck still has cards");
        });
  }
  throw_if_errors();  // the phase checks below assume a well-formed position

  int slot = 0;
  const bool chance_due = s.explicit_chance_ && s.chance_target(&slot) != State::ChanceTarget::kNone;
  if (chance_due != (s.phase_ == Phase::kChance))
    root.get("phase").exists()
        ? root["phase"].fail(chance_due ? "a card or noble must be revealed first: the phase is chance"
                                        : "nothing waits to be revealed, so the phase cannot be chance")
        : root.fail(chance_due ? "a card or noble must be revealed first: set \"phase\": \"chance\""
                               : "inconsistent phase");
  if (s.phase_ == Phase::kReturning && s.players_[s.current_].token_count() <= config_.token_limit)
    root["phase"].fail("return_tokens needs the player to move to hold more than " + std::to_string(config_.token_limit) + " tokens");
  if (s.phase_ == Phase::kNobleChoice && __builtin_popcount(s.qualifying_nobles(s.current_)) < 2)
    root["phase"].fail("choose_noble needs at least two nobles the player to move qualifies for");
  // Turns taken so far in this round: seats before the mover, the mover too once its main
  // action is made (returns, a noble choice, a reveal), every seat once the game is over.
  const bool mid_turn = s.phase_ != Phase::kMain && !s.in_setup_;
  const int turns_taken = s.phase_ == Phase::kOver ? config_.players : s.current_ + (mid_turn ? 1 : 0);
  if (legacy_passes_) s.passes_ = static_cast<uint8_t>(std::min<int>(s.passes_, turns_taken));
  if (s.passes_ > turns_taken)
    root["passes_this_round"].fail(std::to_string(s.passes_) + " passes this round, but only " + std::to_string(turns_taken) +
                                   (turns_taken == 1 ? " turn was" : " turns were") + " taken in it");
  const bool round_over = s.current_ == 0 && !s.in_setup_ && s.phase_ == Phase::kMain;
  const bool should_end = round_over && s.end_triggered();
  if (s.phase_ == Phase::kOver && !(s.end_triggered() || s.passes_ >= config_.players))
    root["phase"].fail("the game cannot be over: nobody has reached points_to_win and not every player passed in the last round");
  if (should_end && s.phase_ != Phase::kOver)
    root.fail("this position is finished (the last round is complete); set \"phase\": \"over\"");
}

State PositionReader::read(std::string_view text) {
  const json::Value doc = json::parse(text);
  const json::Cursor root(doc);
  if (!root.is_object()) root.only_fields({});  // "(root): expected an object, found ..."
  attempt([&] {
    root.only_fields({"game", "variant", "to_move", "phase", "explicit_chance", "setup", "passes_this_round", "passes_in_a_row", "bank",
                      "nobles", "noble_order", "table", "decks", "players", "pending_blind_reserve", "observer", "hash"});
  });
  attempt([&] {
    if (root.has("game") && root["game"].as_string() != "splendor")
      root["game"].fail("this is a position of \"" + root["game"].as_string() + "\", not of splendor");
  });
  read_variant(root);
  throw_if_errors();  // with another game or variant, the rest would only repeat it

  State s;
  s.config_ = config_;
  std::fill(std::begin(s.table_), std::end(s.table_), kNoCard);
  for (auto& row : s.deck_) std::fill(std::begin(row), std::end(row), kNoCard);
  std::fill(&s.lane_cost_[0][0], &s.lane_cost_[0][0] + sizeof s.lane_cost_, uint8_t{0});

  attempt([&] {
    const json::ArrayView players = root["players"].as_array(config_.players, config_.players);
    for (int p = 0; p < config_.players; ++p) read_player(s, p, players[static_cast<size_t>(p)]);
  });
  attempt([&] { read_table(s, root); });
  attempt([&] { read_decks(s, root); });
  attempt([&] { read_nobles(s, root); });
  read_turn(s, root);
  throw_if_errors();

  const json::ArrayView players = root["players"].as_array();
  for (int p = 0; p < config_.players; ++p) check_player(s, p, players[static_cast<size_t>(p)]);
  check_tokens(s, root);
  place_unseen(s);  // throws the problems so far before sampling
  check_turn(s, root);
  throw_if_errors();
  s.set_deck_bits();
  s.hash_ = s.compute_key_part();
  s.token_hash_sum_ = s.token_sum();
  return s;
}

// ---------------------------------------------------------------- writing

namespace {

void write_position(json::Writer& w, const State& s, int observer) {
  const Config& c = s.config();
  const bool full = observer < 0;
  w.begin_object();
  w.field("game", "splendor");
  write_variant(w, c);
  if (!full) w.field("observer", observer);
  w.field("to_move", s.turn_seat());
  w.field("phase", kPhaseNames[static_cast<int>(s.phase())]);
  w.field("explicit_chance", s.explicit_chance());
  if (s.in_setup()) w.field("setup", true);
  w.field("passes_this_round", s.passes_this_round());
  if (s.pending_blind_level() >= 0) w.field("pending_blind_reserve", s.pending_blind_level() + 1);
  w.key("bank");
  write_tokens(w, s.bank(), kTokenKinds);
  w.key("nobles").begin_array();
  for (int n = 0; n < kNumNobles; ++n)
    if ((s.table_nobles() >> n) & 1) w.value(n + 1);
  w.end_array();
  w.key("table").begin_array();
  for (int l = 0; l < kLevels; ++l) {
    w.begin_array();
    for (int i = 0; i < kSlotsPerLevel; ++i) {
      const int card = s.table_card(l * kSlotsPerLevel + i);
      card == kNoCard ? w.value(nullptr) : w.value(card + 1);
    }
    w.end_array();
  }
  w.end_array();
  w.key("decks").begin_array();
  for (int l = 0; l < kLevels; ++l) {
    if (!full) {
      w.value(s.deck_size(l));
      continue;
    }
    w.begin_array();
    for (int i = 0; i < s.deck_size(l); ++i) w.value(s.deck_card(l, i) + 1);
    w.end_array();
  }
  w.end_array();
  w.key("players").begin_array();
  for (int p = 0; p < c.players; ++p) {
    const Player& pl = s.player(p);
    w.begin_object();
    w.key("tokens");
    write_tokens(w, pl.tokens, kTokenKinds);
    w.key("cards").begin_array();
    for (int card = 0; card < kNumCards; ++card)
      if (pl.owns(card)) w.value(card + 1);
    w.end_array();
    w.key("reserved").begin_array();
    for (int i = 0; i < pl.n_reserved; ++i) {
      const bool blind = (pl.hidden_reserved >> i) & 1;
      w.begin_object();
      if (blind && !full && p != observer) {
        w.field("level", card_level(pl.reserved[i]) + 1);
      } else {
        w.field("card", pl.reserved[i] + 1);
      }
      w.field("blind", blind);
      w.end_object();
    }
    w.end_array();
    w.key("nobles").begin_array();
    for (int n = 0; n < kNumNobles; ++n)
      if ((pl.nobles >> n) & 1) w.value(n + 1);
    w.end_array();
    w.field("points", int{pl.points});
    w.key("bonuses");
    write_tokens(w, pl.bonuses, kColours);
    w.end_object();
  }
  w.end_array();
  if (full) {
    w.key("noble_order").begin_array();
    for (int i = 0; i < kNumNobles; ++i) w.value(s.noble_order(i) + 1);
    w.end_array();
  }
  w.end_object();
}

}  // namespace

std::string State::to_json() const {
  json::Writer w;
  write_position(w, *this, -1);
  return w.str();
}

std::string State::observation_json(int player) const {
  if (player < 0 || player >= config_.players)
    throw core::InvalidInput("observation_json: seat " + std::to_string(player) + " is out of range");
  json::Writer w;
  write_position(w, *this, player);
  return w.str();
}

State State::from_json(const Config& config, std::string_view text) {
  config.validate();
  return PositionReader(config, false, 0).read(text);
}

State State::from_observation(const Config& config, std::string_view text, uint64_t seed) {
  config.validate();
  return PositionReader(config, true, seed).read(text);
}

}  // namespace splendor
