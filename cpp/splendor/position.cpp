// JSON positions (docs/position-format.md): full states, player views, and reading
// either back with every inconsistency reported by its JSON path.
#include <algorithm>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "core/bought_sampler.hpp"
#include "splendor/position.hpp"
#include "splendor_tables.inc"

namespace splendor {

namespace json = core::json;
using core::swar::lane;

namespace {

constexpr const char* kTokenNames[kNumKinds] = {"white", "blue", "green", "red", "black", "gold"};
constexpr const char* kPhaseNames[] = {"main", "return_tokens", "choose_noble", "chance", "over"};

int card_level(int card) { return tables::kCards[card].level - 1; }

// take_fewer_distinct as positions and specs write it: true and false as before the third
// value existed, so older positions read the same; "always" for the referee's rule.
json::Ordered take_fewer_json(TakeFewer rule) {
  if (rule == TakeFewer::kAlways) return kTakeFewerAlways;
  return rule == TakeFewer::kWhenShort;
}

TakeFewer take_fewer_of(const json::Cursor& f) {
  if (!f.is_string()) return f.as_bool() ? TakeFewer::kWhenShort : TakeFewer::kNever;
  if (f.as_string() != kTakeFewerAlways)
    f.fail(std::string("expected true, false or \"") + kTakeFewerAlways + "\", found \"" + f.as_string() + "\"");
  return TakeFewer::kAlways;
}

}  // namespace

json::Ordered variant_json(const Config& c) {
  return {{"players", c.players},         {"points_to_win", c.points_to_win}, {"take_fewer_distinct", take_fewer_json(c.take_fewer_distinct)},
          {"gem_tokens", c.gem_tokens},   {"gold_tokens", c.gold_tokens},     {"nobles", c.nobles},
          {"token_limit", c.token_limit}, {"reserve_limit", c.reserve_limit}, {"take_two_min", c.take_two_min}};
}

// Reads positions; a friend of State so it can fill the private fields directly.
//
// Problems are collected, not thrown one at a time: every field is read on its own
// (attempt), so one message lists every independent problem, one per line. Checks
// across fields (cards accounted for, tokens conserved, the phase) run only once the
// fields themselves read cleanly, so they never report a follow-on of a field error.
class PositionReader : core::PositionReaderBase {
 public:
  PositionReader(const Config& config, bool allow_unknown, uint64_t seed)
      : PositionReaderBase(kNumCards, allow_unknown), config_(config), rng_(core::splitmix64(seed ^ 0x9051710ULL)) {}

  State read(const json::Cursor& root);

 private:
  static int level_of(int card) { return card_level(card); }
  int read_card_id(const json::Cursor& c) const;
  static int read_noble(const json::Cursor& n);
  void read_owned(Player& p, const json::Cursor& list, bool sampled);
  void read_bought(Player& p, int seat, const json::Cursor& b);
  void draw_summarised(State& s, int unseen_by_level[kLevels], const int unknown_reserved[kLevels]);
  uint64_t read_tokens(const json::Cursor& c, int kinds, bool capped);
  void read_player(State& s, int seat, const json::Cursor& c);
  void read_reserved(State& s, int seat, const json::Cursor& r);
  void check_player(const State& s, int seat, const json::Cursor& c);
  void read_table(State& s, const json::Cursor& root);
  void read_decks(State& s, const json::Cursor& root);
  void read_nobles(State& s, const json::Cursor& root);
  void read_turn(State& s, const json::Cursor& root);
  void check_tokens(State& s, const json::Cursor& root);
  void place_unseen(State& s);
  void check_setup(const State& s, const json::Cursor& root);
  void check_turn(State& s, const json::Cursor& root);
  void check_not_ended(const State& s, const json::Cursor& root, int turns_taken);

  const Config& config_;
  core::Rng rng_;
  std::string noble_where_[kNumNobles];
  // Unknown cards to sample (player views): reserve slots per seat and level.
  struct Unknown {
    int seat, index, level;
  };
  core::FixedList<Unknown, kMaxPlayers * kMaxReserved> unknown_reserves_;
  int deck_counts_[kLevels] = {-1, -1, -1};  // -1: the deck was given card by card
  std::string deck_paths_[kLevels];
  bool decks_given_ = true;  // a view may leave them out: they follow from the rest
  // Bought cards given by colour, count and points (views): drawn in place_unseen.
  struct Summarised {
    BoughtSummary summary;
    std::string path;
  };
  std::vector<Summarised> summarised_;
  bool legacy_passes_ = false;  // passes_in_a_row was given (it counted across rounds)
};

// A card by id (1-90), "#id", or readable description ("green 1pt W2U1").
int PositionReader::read_card_id(const json::Cursor& c) const {
  return core::card_text::read_card(c, kNumCards, card_from_text);
}

// A noble by id (1-10) or as play --follow reads it ("W4U4", "3pt W4U4", "#4").
int PositionReader::read_noble(const json::Cursor& n) {
  if (n.is_string()) {
    try {
      return noble_from_text(n.as_string());
    } catch (const core::InvalidInput& e) {
      n.fail(e.what());
    }
  }
  return n.as_int(1, kNumNobles, "noble id {} does not exist (ids are 1 to 10)") - 1;
}

// Bought cards by id; `sampled`: a full state's draw for a summary (Player::sampled).
void PositionReader::read_owned(Player& p, const json::Cursor& list, bool sampled) {
  for (const json::Cursor card_cursor : list.as_array()) {
    attempt([&] {
      const int card = read_card_id(card_cursor);
      see_card(card, card_cursor.path());
      p.owned[card >> 6] |= uint64_t{1} << (card & 63);
      if (sampled) p.sampled[card >> 6] |= uint64_t{1} << (card & 63);
      p.bonuses += core::swar::unit(tables::kCards[card].bonus);
      p.points = static_cast<uint8_t>(p.points + tables::kCards[card].points);
      ++p.cards_bought;
    });
  }
}

// "bought": per colour what the table shows, {"cards": 3, "points": 1} (a bare count:
// no points), optionally "levels": [2, 1, 0]. These are totals: the cards the player's
// "cards" names are among them, the rest are unknown and drawn in place_unseen.
void PositionReader::read_bought(Player& p, int seat, const json::Cursor& b) {
  if (!view_)
    b.fail("a full position names every card; bought cards by colour are for a player's view (use state_from_observation)");
  attempt([&] { b.only_fields({"white", "blue", "green", "red", "black"}); });
  if (!b.is_object()) return;
  for (int colour = 0; colour < kColours; ++colour) {
    const json::Cursor e = b.get(kTokenNames[colour]);
    if (!e.exists()) continue;
    attempt([&] {
      BoughtSummary sum{static_cast<uint8_t>(seat), static_cast<uint8_t>(colour), 0, 0, {-1, -1, -1}};
      int cards = 0, points = 0, levels[kLevels] = {-1, -1, -1};
      constexpr int kColourCards = 18, kMostPoints = 5 * kColourCards;  // a colour's cards, at most 5 points each
      if (e.is_integer()) {
        cards = e.as_int(0, kColourCards);
      } else {
        e.only_fields({"cards", "points", "levels"});
        cards = e["cards"].as_int(0, kColourCards);
        if (e.has("points")) points = e["points"].as_int(0, kMostPoints);
        if (e.has("levels")) {
          const json::ArrayView given = e["levels"].as_array(kLevels, kLevels);
          int total = 0;
          for (int l = 0; l < kLevels; ++l) total += levels[l] = given[static_cast<size_t>(l)].as_int(0, kColourCards);
          if (total != cards)
            e["levels"].fail("the levels count " + std::to_string(total) + " cards, but \"cards\" says " + std::to_string(cards));
        }
      }
      // The exact cards of this colour the player's "cards" lists are part of the totals.
      int known = 0, known_points = 0, known_levels[kLevels] = {};
      for (int card = 0; card < kNumCards; ++card)
        if (p.owns(card) && tables::kCards[card].bonus == colour)
          ++known, known_points += tables::kCards[card].points, ++known_levels[card_level(card)];
      const std::string name = kTokenNames[colour];
      if (cards < known)
        e.fail(std::to_string(cards) + " " + name + " cards bought, but \"cards\" lists " + std::to_string(known));
      if (points < known_points)
        e.fail(std::to_string(points) + " points on " + name + " cards, but the " + name + " cards \"cards\" lists give " +
               std::to_string(known_points));
      if (cards == known && points != known_points)
        e.fail("the " + std::to_string(cards) + " " + name + " cards are all listed in \"cards\", and they give " +
               std::to_string(known_points) + " points, not " + std::to_string(points));
      for (int l = 0; l < kLevels; ++l)
        if (levels[l] >= 0 && levels[l] < known_levels[l])
          e["levels"].fail(std::to_string(levels[l]) + " level-" + std::to_string(l + 1) + " " + name +
                           " cards, but \"cards\" lists " + std::to_string(known_levels[l]));
      sum.count = static_cast<uint8_t>(cards - known);
      sum.points = static_cast<uint8_t>(points - known_points);
      if (levels[0] >= 0)
        for (int l = 0; l < kLevels; ++l) sum.levels[l] = static_cast<int8_t>(levels[l] - known_levels[l]);
      if (sum.count == 0) return;
      summarised_.push_back({sum, e.path()});
      p.bonuses += core::swar::unit(colour) * sum.count;
      p.points = static_cast<uint8_t>(p.points + sum.points);
      p.cards_bought = static_cast<uint8_t>(p.cards_bought + sum.count);
    });
  }
}

// Token counts by colour. `capped`: no count above the game's tokens of that kind.
uint64_t PositionReader::read_tokens(const json::Cursor& c, int kinds, bool capped) {
  return read_lanes(c, {"white", "blue", "green", "red", "black", "gold"}, kinds, [&](int k, const json::Cursor& count) {
    const int n = count.as_int(0, 99);
    const int in_game = k == kGold ? config_.gold_tokens : config_.gem_tokens;
    if (capped && n > in_game) count.fail(std::to_string(n) + " exceeds the " + std::to_string(in_game) + " in the game");
    return n;
  });
}


void PositionReader::read_player(State& s, int seat, const json::Cursor& c) {
  if (!c.is_object()) return attempt([&] { c.only_fields({}); });  // "expected an object, found ..."
  attempt([&] {
    c.only_fields({"tokens", "cards", "bought", "sampled_cards", "reserved", "nobles", "points", "bonuses", "name"});
  });
  Player& p = s.players_[seat];
  if (c.has("tokens")) p.tokens = read_tokens(c["tokens"], kNumKinds, true);
  if (c.has("cards")) attempt([&] { read_owned(p, c["cards"], false); });
  if (c.has("sampled_cards")) attempt([&] { read_owned(p, c["sampled_cards"], true); });
  if (c.has("bought")) attempt([&] { read_bought(p, seat, c["bought"]); });
  if (c.has("reserved")) {
    attempt([&] {
      for (const json::Cursor r : c["reserved"].as_array(0, config_.reserve_limit)) {
        p.reserved[p.num_reserved++] = kNoCard;
        attempt([&] { read_reserved(s, seat, r); });
      }
    });
  }
  if (c.has("nobles")) {
    attempt([&] {
      for (const json::Cursor n : c["nobles"].as_array()) {
        attempt([&] {
          const int noble = read_noble(n);
          see(noble_where_, noble, n.path(), "noble");
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
  const int index = p.num_reserved - 1;
  const Reserved entry = PositionReaderBase::read_reserved(r, kLevels, card_from_text, level_of);
  if (entry.card < 0) unknown_reserves_.push({seat, index, entry.level});  // only its level is known
  p.reserved[index] = static_cast<uint8_t>(entry.card < 0 ? kNoCard : entry.card);
  if (entry.blind) p.reserved_blind = static_cast<uint8_t>(p.reserved_blind | (1u << index));
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
                       std::to_string(p.points) +
                       (c.has("bought") ? ""
                                        : " (when you do not know the cards, give what the table shows by colour: "
                                          "\"bought\": {\"white\": {\"cards\": 3, \"points\": 1}, ...})"));
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
          const int card = read_card_of_level(slot, l, card_from_text, level_of);
          s.place_on_table<true>(l * kSlotsPerLevel + i, card);
        });
      }
    });
  }
}

void PositionReader::read_decks(State& s, const json::Cursor& root) {
  if (view_ && !root.has("decks")) {  // a view's deck counts follow from the rest (place_unseen)
    decks_given_ = false;
    for (int l = 0; l < kLevels; ++l) deck_paths_[l] = "decks";
    return;
  }
  const json::ArrayView decks = root["decks"].as_array(kLevels, kLevels);
  for (int l = 0; l < kLevels; ++l) {
    const json::Cursor deck = decks[static_cast<size_t>(l)];
    deck_paths_[l] = deck.path();
    deck_counts_[l] = read_deck(deck, l, kDeckCapacity[l], card_from_text, level_of,
                                [&](int card) { s.deck_[l][s.deck_size_[l]++] = static_cast<uint8_t>(card); });
  }
}

void PositionReader::read_nobles(State& s, const json::Cursor& root) {
  const json::ArrayView nobles = root["nobles"].as_array(0, config_.nobles);
  for (const json::Cursor n : nobles) {
    attempt([&] {
      const int noble = read_noble(n);
      see(noble_where_, noble, n.path(), "noble");
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
  attempt([&] { s.turn_seat_ = static_cast<uint8_t>(root.has("to_move") ? root["to_move"].as_int(0, config_.players - 1) : 0); });
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
  read_flag(root, "explicit_chance", s.explicit_chance_);
  read_flag(root, "setup", s.in_setup_);
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
    if (bank.exists()) read_tokens(bank, kNumKinds, true);
  });
}

void PositionReader::check_tokens(State& s, const json::Cursor& root) {
  uint64_t held = 0;
  for (int p = 0; p < config_.players; ++p) held += s.players_[p].tokens;
  uint64_t total = uint64_t{config_.gold_tokens} << (8 * kGold);
  for (int c = 0; c < kColours; ++c) total |= uint64_t{config_.gem_tokens} << (8 * c);
  bool over = false;
  for (int k = 0; k < kNumKinds; ++k)
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
    const uint64_t given = read_tokens(bank, kNumKinds, true);
    for (int k = 0; k < kNumKinds; ++k)
      if (lane(given, k) != lane(s.bank_, k))
        attempt([&] {
          bank[kTokenNames[k]].fail(std::to_string(lane(given, k)) + " does not add up: the game has " +
                                    std::to_string(lane(total, k)) + " and the players hold " + std::to_string(lane(held, k)));
        });
  }
}

// Every card is somewhere; unknown ones (player views) are drawn from the unseen:
// first the bought cards given by colour, then the blind reserves and the decks.
void PositionReader::place_unseen(State& s) {
  int unknown_reserved[kLevels] = {0, 0, 0};
  for (const Unknown& u : unknown_reserves_) ++unknown_reserved[u.level];
  int n_unseen[kLevels] = {0, 0, 0};
  for (int card = 0; card < kNumCards; ++card) n_unseen[card_level(card)] += card_at_[card].empty();
  if (!summarised_.empty()) {
    draw_summarised(s, n_unseen, unknown_reserved);
    throw_if_errors();
  }
  uint8_t unseen[kLevels][40];
  for (int l = 0; l < kLevels; ++l) n_unseen[l] = 0;
  for (int card = 0; card < kNumCards; ++card)
    if (card_at_[card].empty()) unseen[card_level(card)][n_unseen[card_level(card)]++] = static_cast<uint8_t>(card);
  for (int l = 0; l < kLevels; ++l) {
    if (!decks_given_) {
      infer_deck_count(l, n_unseen[l], unknown_reserved[l], deck_counts_[l]);
      continue;
    }
    check_unseen(deck_paths_[l], l, n_unseen[l], unseen[l][0], deck_counts_[l], unknown_reserved[l],
                 "not on the table, in a deck, reserved or bought");
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

// The bought cards given by colour: each summary must be possible on its own, and all
// of them at once with the decks given (their levels then add up to what the decks leave).
void PositionReader::draw_summarised(State& s, int n_unseen[kLevels], const int unknown_reserved[kLevels]) {
  CardSet pool{};
  for (int card = 0; card < kNumCards; ++card)
    if (card_at_[card].empty()) core::add_card(pool, card);
  std::vector<BoughtSummary> sums;
  for (const Summarised& u : summarised_) {
    sums.push_back(u.summary);
    if (count_bought(shown_cards(), u.summary, pool) == 0)
      attempt([&] {
        const BoughtSummary& b = u.summary;
        throw core::PathError(u.path, "no " + std::to_string(b.count) + " " + kTokenNames[b.kind] + " card" +
                                          (b.count == 1 ? "" : "s") + " with " + std::to_string(b.points) + " point" +
                                          (b.points == 1 ? "" : "s") + (b.fixed_levels() ? " at those levels" : "") +
                                          " are left among the cards not on the table, reserved or listed");
      });
  }
  throw_if_errors();
  attempt([&] {
    const std::vector<CardSet> drawn =
        core::draw_position_summaries(shown_cards(), sums, pool, n_unseen, unknown_reserved,
                                      decks_given_ ? deck_counts_ : nullptr, "on the table, reserved or listed", rng_);
    for (size_t k = 0; k < sums.size(); ++k) {
      Player& p = s.players_[sums[k].seat];
      for (int card = 0; card < kNumCards; ++card)
        if (core::card_in(drawn[k], card)) {
          p.owned[card >> 6] |= uint64_t{1} << (card & 63);
          p.sampled[card >> 6] |= uint64_t{1} << (card & 63);
          card_at_[card] = summarised_[k].path;
        }
    }
  });
}

// An unfinished setup (explicit chance): only the opening reveals have happened, so
// nobody holds anything, seat 0 is to move, and table cards come after every noble.
void PositionReader::check_setup(const State& s, const json::Cursor& root) {
  for (int p = 0; p < config_.players; ++p) {
    const Player& pl = s.players_[p];
    if (pl.tokens || pl.cards_bought || pl.num_reserved || pl.nobles)
      attempt([&] {
        root["players"][static_cast<size_t>(p)].fail("holds tokens, cards or nobles, but in the setup nobody has taken a turn");
      });
  }
  if (s.turn_seat_ != 0 || s.passes_ != 0 || s.pending_blind_)
    attempt([&] { root["setup"].fail("in the setup seat 0 is to move, with no passes and no pending blind reserve"); });
  const int on_table = config_.nobles - __builtin_popcount(s.table_nobles_);
  bool cards = false;
  for (int sl = 0; sl < kTableSlots; ++sl) cards = cards || s.table_[sl] != kNoCard;
  if (on_table > 0 && cards)
    attempt([&] { root["table"].fail("in the setup the nobles are revealed before any card"); });
}

// The turn and phase against the rest of the position.
void PositionReader::check_turn(State& s, const json::Cursor& root) {
  if (s.in_setup_ && !s.explicit_chance_)
    attempt([&] { root["setup"].fail("the setup can only be unfinished with explicit_chance"); });
  if (s.pending_blind_ && !s.explicit_chance_)
    attempt([&] { root["pending_blind_reserve"].fail("a blind reserve waits for its card only with explicit_chance"); });
  if (s.pending_blind_) {
    // The card goes to the mover's reserve from that level's deck: both must have room/cards.
    const int level = s.pending_blind_ - 1;
    if (s.players_[s.turn_seat_].num_reserved >= config_.reserve_limit)
      attempt([&] {
        root["pending_blind_reserve"].fail("the player to move already holds " +
                                           std::to_string(int{s.players_[s.turn_seat_].num_reserved}) +
                                           " reserved cards, the most allowed (" + std::to_string(int{config_.reserve_limit}) +
                                           "), so no blind reserve can wait for its card");
      });
    if (s.deck_size_[level] == 0)
      attempt([&] {
        root["pending_blind_reserve"].fail("the level " + std::to_string(level + 1) +
                                           " deck is empty, so no blind reserve can wait for its card");
      });
  }
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
    const bool returning = (s.phase_ == Phase::kReturning || s.phase_ == Phase::kChance) && p == s.turn_seat_;
    const int count = s.players_[p].num_tokens();
    if (!returning && count > config_.token_limit)
      attempt([&] {
        root["players"][static_cast<size_t>(p)]["tokens"].fail(std::to_string(count) + " tokens exceed the limit of " +
                                                              std::to_string(config_.token_limit));
      });
  }
  if (s.in_setup_) check_setup(s, root);
  // Outside the setup a turn takes one card at most (from the table or, blind, from a
  // deck), so at most one card waits to be revealed.
  int waiting = s.pending_blind_ ? 1 : 0;
  for (int sl = 0; sl < kTableSlots; ++sl) waiting += s.table_[sl] == kNoCard && s.deck_size_[sl / kSlotsPerLevel] > 0;
  if (s.explicit_chance_ && !s.in_setup_ && waiting > 1)
    attempt([&] {
      root["table"].fail(std::to_string(waiting) + " cards wait to be revealed (empty slots whose deck has cards, "
                         "and a pending blind reserve), but a turn takes one card at most");
    });
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
  if (s.in_setup_ && !chance_due)
    root["setup"].fail("the setup ends with its last reveal: with nothing left to reveal it is over");
  if (chance_due != (s.phase_ == Phase::kChance))
    root.get("phase").exists()
        ? root["phase"].fail(chance_due ? "a card or noble must be revealed first: the phase is chance"
                                        : "nothing waits to be revealed, so the phase cannot be chance")
        : root.fail(chance_due ? "a card or noble must be revealed first: set \"phase\": \"chance\""
                               : "inconsistent phase");
  if (s.phase_ == Phase::kReturning && s.players_[s.turn_seat_].num_tokens() <= config_.token_limit)
    root["phase"].fail("return_tokens needs the player to move to hold more than " + std::to_string(config_.token_limit) + " tokens");
  if (s.phase_ == Phase::kNobleChoice && __builtin_popcount(s.qualifying_nobles(s.turn_seat_)) < 2)
    root["phase"].fail("choose_noble needs at least two nobles the player to move qualifies for");
  // Turns taken so far in this round: seats before the mover, the mover too once its main
  // action is made (returns, a noble choice, a reveal), every seat once the game is over.
  const bool mid_turn = s.phase_ != Phase::kMain && !s.in_setup_;
  const int turns_taken = s.phase_ == Phase::kOver ? config_.players : s.turn_seat_ + (mid_turn ? 1 : 0);
  if (legacy_passes_) s.passes_ = static_cast<uint8_t>(std::min<int>(s.passes_, turns_taken));
  if (s.passes_ > turns_taken)
    root["passes_this_round"].fail(std::to_string(s.passes_) + " passes this round, but only " + std::to_string(turns_taken) +
                                   (turns_taken == 1 ? " turn was" : " turns were") + " taken in it");
  if (s.phase_ == Phase::kOver && !(s.end_triggered() || s.passes_ >= config_.players))
    root["phase"].fail("the game cannot be over: nobody has reached points_to_win and not every player passed in the last round");
  check_not_ended(s, root, turns_taken);  // once over, every seat has played
}

// The end of the game, whatever the seat to move. Points change only on their owner's
// turn, and the game ends when a round closes with someone at points_to_win. The seats
// yet to play in this round (from turns_taken on) last played in an earlier round, so
// none of them can hold points_to_win: that round's close would have ended the game.
// The seats that played in this round may: the round goes on to its end.
void PositionReader::check_not_ended(const State& s, const json::Cursor& root, int turns_taken) {
  for (int p = turns_taken; p < config_.players; ++p) {
    const int points = s.players_[p].points;
    if (points < config_.points_to_win) continue;
    const std::string reached =
        std::to_string(points) + " points reach points_to_win (" + std::to_string(int{config_.points_to_win}) + ")";
    attempt([&] {
      root["players"][static_cast<size_t>(p)].fail(
          turns_taken == 0 ? reached + " and the round is complete: the game is over (set \"phase\": \"over\")"
                           : reached + ", but this seat has not played yet in this round: the game ended when the "
                                       "round before closed");
    });
  }
}

State PositionReader::read(const json::Cursor& root) {
  check_root(root, "splendor",
             {"game", "variant", "to_move", "phase", "explicit_chance", "setup", "passes_this_round", "passes_in_a_row", "bank",
              "nobles", "noble_order", "table", "decks", "players", "pending_blind_reserve", "observer", "hash"});
  check_variant(root, variant_json(config_));
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

json::Ordered tokens_json(uint64_t tokens, int kinds) { return core::lanes_json(tokens, kTokenNames, kinds); }

json::Ordered position_json(const State& s, int observer) {
  const Config& c = s.config();
  const bool full = observer < 0;
  json::Ordered w = {{"game", "splendor"}, {"variant", variant_json(c)}};
  if (!full) w["observer"] = observer;
  w["to_move"] = s.turn_seat();
  w["phase"] = kPhaseNames[static_cast<int>(s.phase())];
  w["explicit_chance"] = s.explicit_chance();
  if (s.in_setup()) w["setup"] = true;
  w["passes_this_round"] = s.passes_this_round();
  if (s.pending_blind_level() >= 0) w["pending_blind_reserve"] = s.pending_blind_level() + 1;
  w["bank"] = tokens_json(s.bank(), kNumKinds);
  json::Ordered& nobles = w["nobles"] = json::Ordered::array();
  for (int n = 0; n < kNumNobles; ++n)
    if ((s.table_nobles() >> n) & 1) nobles.push_back(n + 1);
  json::Ordered& table = w["table"] = json::Ordered::array();
  for (int l = 0; l < kLevels; ++l) {
    json::Ordered& row = table.emplace_back(json::Ordered::array());
    for (int i = 0; i < kSlotsPerLevel; ++i) {
      const int card = s.table_card(l * kSlotsPerLevel + i);
      row.push_back(card == kNoCard ? json::Ordered(nullptr) : json::Ordered(card + 1));
    }
  }
  json::Ordered& decks = w["decks"] = json::Ordered::array();
  for (int l = 0; l < kLevels; ++l) {
    if (!full) {
      decks.push_back(s.deck_size(l));
      continue;
    }
    json::Ordered& deck = decks.emplace_back(json::Ordered::array());
    for (int i = 0; i < s.deck_size(l); ++i) deck.push_back(s.deck_card(l, i) + 1);
  }
  json::Ordered& players = w["players"] = json::Ordered::array();
  for (int p = 0; p < c.players; ++p) {
    const Player& pl = s.player(p);
    json::Ordered& player = players.emplace_back(json::Ordered{{"tokens", tokens_json(pl.tokens, kNumKinds)}});
    // A card drawn for a summary (Player::sampled) is written as the summary in a view,
    // and apart in a full state so that reading it back keeps it unknown.
    const auto sampled = [&](int card) { return ((pl.sampled[card >> 6] >> (card & 63)) & 1) != 0; };
    json::Ordered& cards = player["cards"] = json::Ordered::array();
    for (int card = 0; card < kNumCards; ++card)
      if (pl.owns(card) && !sampled(card)) cards.push_back(card + 1);
    if (pl.sampled[0] | pl.sampled[1]) {
      if (full) {
        json::Ordered& drawn = player["sampled_cards"] = json::Ordered::array();
        for (int card = 0; card < kNumCards; ++card)
          if (sampled(card)) drawn.push_back(card + 1);
      } else {
        json::Ordered& bought = player["bought"] = json::Ordered::object();
        for (int colour = 0; colour < kColours; ++colour) {
          int count = 0, points = 0;
          bool summarised = false;
          for (int card = 0; card < kNumCards; ++card)
            if (pl.owns(card) && tables::kCards[card].bonus == colour)
              ++count, points += tables::kCards[card].points, summarised = summarised || sampled(card);
          if (summarised) bought[kTokenNames[colour]] = {{"cards", count}, {"points", points}};
        }
      }
    }
    json::Ordered& reserved = player["reserved"] = json::Ordered::array();
    for (int i = 0; i < pl.num_reserved; ++i) {
      const bool blind = (pl.reserved_blind >> i) & 1;
      if (blind && !full && p != observer) {
        reserved.push_back({{"level", card_level(pl.reserved[i]) + 1}, {"blind", blind}});
      } else {
        reserved.push_back({{"card", pl.reserved[i] + 1}, {"blind", blind}});
      }
    }
    json::Ordered& earned = player["nobles"] = json::Ordered::array();
    for (int n = 0; n < kNumNobles; ++n)
      if ((pl.nobles >> n) & 1) earned.push_back(n + 1);
    player["points"] = pl.points;
    player["bonuses"] = tokens_json(pl.bonuses, kColours);
  }
  if (full) {
    json::Ordered& order = w["noble_order"] = json::Ordered::array();
    for (int i = 0; i < kNumNobles; ++i) order.push_back(s.noble_order(i) + 1);
  }
  return w;
}

// The variant a position gives, completed with the published values for its
// number of players (taken from "players" when the variant does not say).
Config config_of(const json::Cursor& root) {
  Config c;
  const json::Cursor v = root.get("variant");
  const json::Cursor seats = root.get("players");
  int players = seats.is_array() ? std::clamp(static_cast<int>(seats.as_array().size()), 2, kMaxPlayers) : 2;
  if (v.has("players")) players = v["players"].as_int(0, 255);
  c.players = static_cast<uint8_t>(players);
  c.gem_tokens = static_cast<uint8_t>(players <= 2 ? 4 : players == 3 ? 5 : 7);
  c.nobles = static_cast<uint8_t>(players + 1);
  for (auto [field, value] : {std::pair{"points_to_win", &c.points_to_win}, {"gem_tokens", &c.gem_tokens},
                              {"gold_tokens", &c.gold_tokens}, {"nobles", &c.nobles}, {"token_limit", &c.token_limit},
                              {"reserve_limit", &c.reserve_limit}, {"take_two_min", &c.take_two_min}})
    if (v.has(field)) *value = v[field].as_int(uint8_t{0}, uint8_t{255});
  if (v.has("take_fewer_distinct")) c.take_fewer_distinct = take_fewer_of(v["take_fewer_distinct"]);
  try {
    c.validate();
  } catch (const core::InvalidInput& e) {
    v.exists() ? v.fail(e.what()) : root.fail(e.what());
  }
  return c;
}

}  // namespace

std::string State::to_json() const { return position_json(*this, -1).dump(); }

std::string State::observation_json(int player) const {
  if (player < 0 || player >= config_.players)
    throw core::InvalidInput("observation_json: seat " + std::to_string(player) + " is out of range");
  return position_json(*this, player).dump();
}

State State::from_json(const Config& c, std::string_view text) { return core::read_state<PositionReader>(c, text, false, 0); }
State State::from_observation(const Config& c, std::string_view text, uint64_t seed) {
  return core::read_state<PositionReader>(c, text, true, seed);
}

core::Position<State, Config> read_position(const json::Value& doc, uint64_t seed, bool full) {
  const Config variant = config_of(json::Cursor(doc));
  return core::read_position<PositionReader>(doc, variant, variant.players, seed, full);
}

}  // namespace splendor
