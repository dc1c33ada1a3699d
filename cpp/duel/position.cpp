// Duel positions as JSON (docs/position-format.md): full states, player views, and
// reading either back with every inconsistency reported by its JSON path.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "duel/position.hpp"

namespace duel {

namespace json = core::json;

namespace {

constexpr const char* kBoardSymbols = "WUGRKPY.";  // by kind; '.' empty; gold is Y as in Splendor
constexpr char kOldGoldSymbol = '*';              // gold's first spelling, still read

// The kind of a board symbol (kEmpty for '.'), or -1.
int board_kind(char symbol) {
  if (symbol == kOldGoldSymbol) return kGold;
  const char* sym = symbol ? std::strchr(kBoardSymbols, symbol) : nullptr;
  return sym ? static_cast<int>(sym - kBoardSymbols) : -1;
}
constexpr const char* kColourNames[5] = {"white", "blue", "green", "red", "black"};

int level_of(int card) { return tables::kCards[card].level - 1; }
std::string card_ref(int card) { return "card #" + std::to_string(card + 1); }

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::kMain: return "main";
    case Phase::kJoker: return "joker";
    case Phase::kToken: return "token";
    case Phase::kSteal: return "steal";
    case Phase::kRoyal: return "royal";
    case Phase::kDiscard: return "discard";
    case Phase::kOver: return "over";
    default: return "chance";
  }
}

json::Ordered tokens_json(uint64_t tokens, int kinds) { return core::lanes_json(tokens, kKindNames, kinds); }

std::string slot_text(int slot) {
  int l = slot_level(slot);
  return std::to_string(l + 1) + "." + std::to_string(slot - kSlotFirst[l] + 1);
}

bool meets_victory(const Player& p, const Config& c) {
  bool colour = false;
  for (int k = 0; k < 5; ++k) colour |= p.colour_points[k] >= c.colour_points_to_win;
  return p.points >= c.points_to_win || p.crowns >= c.crowns_to_win || colour;
}

}  // namespace

// ---- Writing -------------------------------------------------------------------------------

json::Ordered variant_json(const Config& c) {
  return {{"points_to_win", c.points_to_win},
          {"crowns_to_win", c.crowns_to_win},
          {"colour_points_to_win", c.colour_points_to_win},
          {"privileges", c.privileges},
          {"first_player", c.first_player < 0 ? json::Ordered(nullptr) : json::Ordered(c.first_player)}};
}

namespace {
// What the table shows of a player's cards of the kinds that hold a sampled card: per colour
// the coloured cards, the jokers per colour they joined, the colourless cards.
json::Ordered bought_json(const State& s, const Player& p) {
  struct Shown {
    int cards = 0, bonuses = 0, points = 0, crowns = 0;
    bool sampled = false;
  };
  Shown kinds[kBonusNone + 1], jokers[5];
  for (int card = 0; card < kNumCards; ++card) {
    if (!p.owns(card)) continue;
    const CardRow& c = tables::kCards[card];
    Shown& k = c.bonus == kBonusJoker ? jokers[std::max(s.joker_colour(card), 0)] : kinds[c.bonus];
    ++k.cards, k.bonuses += c.bonus_count, k.points += c.points, k.crowns += c.crowns;
    k.sampled = k.sampled || p.sampled(card);
  }
  json::Ordered out = json::Ordered::object();
  for (int k = 0; k < 5; ++k)
    if (kinds[k].sampled)
      out[kColourNames[k]] = {{"cards", kinds[k].cards}, {"bonuses", kinds[k].bonuses}, {"points", kinds[k].points},
                              {"crowns", kinds[k].crowns}};
  json::Ordered joined = json::Ordered::object();
  for (int k = 0; k < 5; ++k)
    if (jokers[k].sampled)
      joined[kColourNames[k]] = {{"cards", jokers[k].cards}, {"points", jokers[k].points}, {"crowns", jokers[k].crowns}};
  if (!joined.empty()) out["jokers"] = joined;
  if (kinds[kBonusNone].sampled) out["none"] = {{"cards", kinds[kBonusNone].cards}, {"points", kinds[kBonusNone].points}};
  return out;
}

json::Ordered position_json(const State& s, int observer) {
  const bool full = observer < 0;
  json::Ordered w = {{"game", "duel"}, {"variant", variant_json(s.config())}};
  if (!full) w["observer"] = observer;
  w["to_move"] = s.turn_seat();
  w["phase"] = phase_name(s.phase());
  w["explicit_chance"] = s.explicit_chance();
  if (s.in_setup()) w["setup"] = true;
  w["replenished"] = s.replenished();
  w["again"] = s.again_pending();
  w["action_done"] = s.action_done();
  json::Ordered& pending = w["pending"] = json::Ordered::object();
  if (s.pending_fills()) pending["fills"] = s.pending_fills();
  if (s.pending_reveal() != kNoCard)
    pending["reveal"] = s.pending_reveal() < kNumSlots ? slot_text(s.pending_reveal())
                                                       : "deck" + std::to_string(s.pending_reveal() - kNumSlots + 1);
  if (s.pending_joker() != kNoCard) pending["joker"] = s.pending_joker() + 1;
  if (s.pending_token() != kNoCard) pending["token"] = kKindNames[s.pending_token()];
  if (s.pending_steal()) pending["steal"] = s.pending_steal();
  if (s.pending_royal()) pending["royal"] = s.pending_royal();
  json::Ordered& board = w["board"] = json::Ordered::array();
  for (int r = 0; r < 5; ++r) {
    std::string row(5, '.');
    for (int col = 0; col < 5; ++col) row[static_cast<size_t>(col)] = kBoardSymbols[s.cell(r * 5 + col)];
    board.push_back(row);
  }
  w["bag"] = tokens_json(s.bag(), kNumKinds);
  w["privilege_supply"] = s.privilege_supply();
  json::Ordered& royals = w["royals"] = json::Ordered::array();
  for (int r = 0; r < kNumRoyals; ++r)
    if ((s.royals_available() >> r) & 1) royals.push_back(r + 1);
  json::Ordered& pyramid = w["pyramid"] = json::Ordered::array();
  for (int l = 0; l < 3; ++l) {
    json::Ordered& row = pyramid.emplace_back(json::Ordered::array());
    for (int slot = kSlotFirst[l]; slot < kSlotFirst[l + 1]; ++slot)
      row.push_back(s.pyramid(slot) == kNoCard ? json::Ordered(nullptr) : json::Ordered(s.pyramid(slot) + 1));
  }
  json::Ordered& decks = w["decks"] = json::Ordered::array();
  for (int l = 0; l < 3; ++l) {
    if (!full) {
      decks.push_back(core::popcount(s.deck(l)));
      continue;
    }
    json::Ordered& deck = decks.emplace_back(json::Ordered::array());
    core::for_each_bit(s.deck(l), [&](int i) { deck.push_back(kLevelFirst[l] + i + 1); });
  }
  json::Ordered& players = w["players"] = json::Ordered::array();
  for (int seat = 0; seat < 2; ++seat) {
    const Player& p = s.player(seat);
    json::Ordered& player = players.emplace_back(json::Ordered{{"tokens", tokens_json(p.tokens, kNumKinds)}});
    player["privileges"] = p.privileges;
    // A card drawn for a summary (Player::sampled_lo/hi) is written as the summary in a
    // view, and apart in a full state so that reading it back keeps it unknown.
    const auto list = [&](bool sampled) {
      json::Ordered cards = json::Ordered::array();
      for (int card = 0; card < kNumCards; ++card) {
        if (!p.owns(card) || p.sampled(card) != sampled) continue;
        const int colour = s.joker_colour(card);
        if (tables::kCards[card].bonus != kBonusJoker) {
          cards.push_back(card + 1);
        } else {
          cards.push_back(json::Ordered{
              {"card", card + 1}, {"colour", colour < 0 ? json::Ordered(nullptr) : json::Ordered(kColourNames[colour])}});
        }
      }
      return cards;
    };
    player["cards"] = list(false);
    if (p.sampled_lo | p.sampled_hi) {
      if (full) player["sampled_cards"] = list(true);
      else player["bought"] = bought_json(s, p);
    }
    json::Ordered& reserved = player["reserved"] = json::Ordered::array();
    for (int i = 0; i < p.num_reserved; ++i) {
      const bool blind = (p.reserved_blind >> i) & 1;
      if (blind && !full && seat != observer) reserved.push_back(json::Ordered{{"level", level_of(p.reserved[i]) + 1}, {"blind", blind}});
      else reserved.push_back(json::Ordered{{"card", p.reserved[i] + 1}, {"blind", blind}});
    }
    json::Ordered& held = player["royals"] = json::Ordered::array();
    for (int r = 0; r < kNumRoyals; ++r)
      if ((p.royals >> r) & 1) held.push_back(r + 1);
    player["points"] = p.points;
    player["crowns"] = p.crowns;
    json::Ordered& colour_points = player["colour_points"] = json::Ordered::object();
    for (int k = 0; k < 5; ++k) colour_points[kColourNames[k]] = p.colour_points[k];
  }
  if (full) {
    char hex[19];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(s.deal_state()));
    w["deal"] = std::string(hex);
  }
  return w;
}
}  // namespace

std::string State::to_json() const { return position_json(*this, -1).dump(); }

std::string State::observation_json(int player) const {
  if (player < 0 || player > 1)
    throw core::InvalidInput("observation_json: seat " + std::to_string(player) + " is out of range (0..1)");
  return position_json(*this, player).dump();
}

// ---- Reading --------------------------------------------------------------------------------

// Fills a State from a parsed position; a friend of State.
//
// Problems are collected, not thrown one at a time (as the base game's reader does):
// every field is read on its own (attempt), so one message lists every independent
// problem, one per line, each starting with its JSON path. Checks across fields (cards
// and tokens accounted for, the turn, the phase) run only once the fields read cleanly,
// so they never report a follow-on of a field's own problem.
class PositionReader : core::PositionReaderBase {
 public:
  PositionReader(const Config& cfg, bool view, uint64_t seed)
      : PositionReaderBase(kNumCards, view), config_(cfg), rng_(core::splitmix64(seed)) {}
  State read(const json::Cursor& root);

 private:
  int card_id(const json::Cursor& c) const;
  int kind_name(const json::Cursor& c, int count) const {
    const std::string& name = c.as_string();
    int k = parse_kind(name);
    if (k < 0 || k >= count) {
      std::string names;
      for (int i = 0; i < count; ++i) names += (i ? ", " : "") + std::string(kKindNames[i]);
      c.fail("\"" + name + "\" is not one of " + names);
    }
    return k;
  }
  uint64_t tokens(const json::Cursor& c, int kinds) {
    return read_lanes(c, {"white", "blue", "green", "red", "black", "pearl", "gold"}, kinds,
                      [](int k, const json::Cursor& n) { return n.as_int(0, k < kPearl ? 4 : k == kPearl ? 2 : 3); });
  }
  void read_board(State& s, const json::Cursor& root);
  struct JokerEntry {
    int card;
    std::optional<json::Cursor> colour;
    std::string path;
  };
  void read_owned(State& s, int seat, const json::Cursor& list, bool sampled, std::vector<JokerEntry>& jokers);
  void read_bought(State& s, int seat, const json::Cursor& b, const std::vector<JokerEntry>& jokers);
  void read_summary(State& s, int seat, const json::Cursor& e, int kind, int joined, const std::vector<JokerEntry>& jokers);
  void draw_summarised(State& s, const int n_unseen[3], const int unknown_reserved[3]);
  void read_player(State& s, int seat, const json::Cursor& c);
  void read_reserved(State& s, int seat, const json::Cursor& r);
  void check_player(const State& s, int seat, const json::Cursor& c);
  void read_pyramid(State& s, const json::Cursor& root);
  void read_decks(State& s, const json::Cursor& root);
  void place_unseen(State& s);
  void check_tokens(State& s, const json::Cursor& root);
  void read_turn(State& s, const json::Cursor& root);
  void check_turn(State& s, const json::Cursor& root);
  void check_phase(State& s, const json::Cursor& root);

  const Config& config_;
  core::Rng rng_;
  struct Unknown {
    int seat, index, level;
  };
  core::FixedList<Unknown, 2 * kMaxReserved> unknown_;
  int deck_counts_[3] = {-1, -1, -1};
  std::string deck_paths_[3];
  std::string royal_where_[kNumRoyals];
  int unplaced_joker_ = kNoCard;  // an owned joker given without a colour
  bool decks_given_ = true;       // a view may leave them out: they follow from the rest
  // Bought cards given as the table shows them (views): drawn in place_unseen.
  struct Summarised {
    core::BoughtSummary summary;
    int joined;  // the colour a summary of jokers joined; -1 for other kinds
    std::string path;
  };
  std::vector<Summarised> summarised_;
};

// A card by id (1-67), "#id", or readable description ("red 2pt 1cr W2U2G2P1").
int PositionReader::card_id(const json::Cursor& c) const {
  return core::card_text::read_card(c, kNumCards, card_from_text);
}


void PositionReader::read_board(State& s, const json::Cursor& root) {
  const json::ArrayView rows = root["board"].as_array(5, 5);
  for (int r = 0; r < 5; ++r) {
    attempt([&] {
      const json::Cursor row = rows[static_cast<size_t>(r)];
      const std::string& text = row.as_string();
      if (text.size() != 5) row.fail("a row is 5 symbols (W U G R K, P pearl, Y gold, . empty), found \"" + text + "\"");
      for (int col = 0; col < 5; ++col)
        if (board_kind(text[static_cast<size_t>(col)]) < 0)
          row.fail("cell " + cell_name(r * 5 + col) + ": '" + std::string(1, text[static_cast<size_t>(col)]) +
                   "' is not one of W U G R K P Y .");
      for (int col = 0; col < 5; ++col) {
        int kind = board_kind(text[static_cast<size_t>(col)]);
        if (kind != kEmpty) s.place(r * 5 + col, kind);
      }
    });
  }
}

// A list of bought cards given exactly (`sampled`: drawn for a summary by an earlier read,
// the full state's "sampled_cards", which stay unknown).
void PositionReader::read_owned(State& s, int seat, const json::Cursor& list, bool sampled, std::vector<JokerEntry>& jokers) {
  Player& p = s.players_[seat];
  for (const json::Cursor entry : list.as_array()) {
    attempt([&] {
      int card;
      if (entry.is_object()) {
        entry.only_fields({"card", "colour"});
        card = card_id(entry["card"]);
        if (tables::kCards[card].bonus != kBonusJoker && entry.has("colour"))
          entry["colour"].fail(card_ref(card) + " is not a joker: it has no colour to choose");
      } else {
        card = card_id(entry);
      }
      see_card(card, entry.path());
      s.own_card(seat, card);
      if (sampled && card < 64) p.sampled_lo |= uint64_t{1} << card;
      if (sampled && card >= 64) p.sampled_hi = static_cast<uint8_t>(p.sampled_hi | (1u << (card - 64)));
      if (tables::kCards[card].bonus == kBonusJoker) {
        std::optional<json::Cursor> colour;
        if (entry.is_object() && entry.has("colour") && !entry["colour"].is_null()) colour = entry["colour"];
        jokers.push_back({card, colour, entry.path()});
      }
    });
  }
}

// "bought": what the table shows of the player's cards, per colour (coloured cards), the
// jokers per colour they joined, and the colourless cards.
void PositionReader::read_bought(State& s, int seat, const json::Cursor& b, const std::vector<JokerEntry>& jokers) {
  if (!view_)
    b.fail("a full position names every card; bought cards by colour are for a player's view (use state_from_observation)");
  attempt([&] { b.only_fields({"white", "blue", "green", "red", "black", "jokers", "none"}); });
  if (!b.is_object()) return;
  for (int colour = 0; colour < 5; ++colour)
    if (b.has(kColourNames[colour])) attempt([&] { read_summary(s, seat, b[kColourNames[colour]], colour, -1, jokers); });
  if (b.has("jokers"))
    attempt([&] {
      const json::Cursor j = b["jokers"];
      j.only_fields({"white", "blue", "green", "red", "black"});
      for (int colour = 0; colour < 5; ++colour)
        if (j.has(kColourNames[colour]))
          attempt([&] { read_summary(s, seat, j[kColourNames[colour]], kBonusJoker, colour, jokers); });
    });
  if (b.has("none")) attempt([&] { read_summary(s, seat, b["none"], kBonusNone, -1, jokers); });
}

// One summary: totals of the player's cards of a kind (a joker: of a colour it joined),
// the cards listed exactly among them; the rest are unknown and drawn in place_unseen.
void PositionReader::read_summary(State& s, int seat, const json::Cursor& e, int kind, int joined,
                                  const std::vector<JokerEntry>& jokers) {
  Player& p = s.players_[seat];
  const bool coloured = kind < 5;
  int most = 0;  // cards of the kind in the game
  for (int card = 0; card < kNumCards; ++card) most += tables::kCards[card].bonus == kind;
  int shown[4] = {0, -1, 0, 0};  // cards, bonuses (-1: one per card), points, crowns
  const char* names[4] = {"cards", "bonuses", "points", "crowns"};
  if (e.is_integer()) {
    shown[0] = e.as_int(0, most);
  } else {
    if (coloured) e.only_fields({"cards", "bonuses", "points", "crowns"});
    else if (kind == kBonusJoker) e.only_fields({"cards", "points", "crowns"});
    else e.only_fields({"cards", "points"});
    shown[0] = e["cards"].as_int(0, most);
    for (int f = 1; f < 4; ++f)
      if (e.has(names[f])) shown[f] = e[names[f]].as_int(0, 2 * 6 * most);  // at most 2 bonuses, 6 points a card
  }
  if (shown[1] < 0) shown[1] = shown[0];
  // The cards of the kind the player's "cards" list exactly are part of the totals.
  int known[4] = {0, 0, 0, 0};
  for (int card = 0; card < kNumCards; ++card) {
    const CardRow& r = tables::kCards[card];
    if (!p.owns(card) || r.bonus != kind) continue;
    if (kind == kBonusJoker) {
      int colour = -1;
      for (const JokerEntry& j : jokers)
        if (j.card == card && j.colour && j.colour->is_string()) colour = parse_kind(j.colour->as_string());
      if (colour != joined) continue;
    }
    ++known[0], known[1] += coloured ? r.bonus_count : 1, known[2] += r.points, known[3] += r.crowns;
  }
  const std::string what = kind == kBonusJoker ? std::string("jokers joined to ") + kColourNames[joined]
                           : coloured          ? std::string(kColourNames[kind]) + " cards"
                                               : std::string("colourless cards");
  for (int f = 0; f < 4; ++f)
    if (shown[f] < known[f])
      e.fail(std::to_string(shown[f]) + " " + names[f] + " on " + what + ", but the cards \"cards\" lists give " +
             std::to_string(known[f]));
  if (shown[0] == known[0] && (shown[1] != known[1] || shown[2] != known[2] || shown[3] != known[3]))
    e.fail("the " + std::to_string(shown[0]) + " " + what + " are all listed in \"cards\", and they give " +
           std::to_string(known[1]) + " bonuses, " + std::to_string(known[2]) + " points and " + std::to_string(known[3]) +
           " crowns");
  core::BoughtSummary sum{static_cast<uint8_t>(seat), static_cast<uint8_t>(kind), static_cast<uint8_t>(shown[0] - known[0]),
                          static_cast<uint8_t>(shown[2] - known[2]), {-1, -1, -1}, static_cast<uint8_t>(shown[3] - known[3]), 0};
  const int extra = (shown[1] - known[1]) - sum.count;
  if (coloured && extra < 0)
    e["bonuses"].fail(std::to_string(shown[1]) + " bonuses from " + std::to_string(shown[0]) +
                      " cards: every coloured card gives at least one");
  sum.extra = static_cast<uint8_t>(coloured ? extra : 0);
  if (sum.count == 0) return;
  if (kind == kBonusJoker && !core::swar::lane(p.bonuses, joined))
    e.fail("jokers join a card of their colour, and the player has no " + std::string(kColourNames[joined]) + " card");
  summarised_.push_back({sum, joined, e.path()});
  p.points = static_cast<uint8_t>(p.points + sum.points);
  p.crowns = static_cast<uint8_t>(p.crowns + sum.crowns);
  const int bonus_colour = coloured ? kind : joined;
  if (bonus_colour >= 0) {
    p.bonuses += core::swar::unit(bonus_colour) * static_cast<uint64_t>(sum.count + sum.extra);
    p.colour_points[bonus_colour] = static_cast<uint8_t>(p.colour_points[bonus_colour] + sum.points);
  }
}

void PositionReader::read_player(State& s, int seat, const json::Cursor& c) {
  if (!c.is_object()) return attempt([&] { c.only_fields({}); });  // "expected an object, found ..."
  attempt([&] {
    c.only_fields({"tokens", "privileges", "cards", "sampled_cards", "bought", "reserved", "royals", "points", "crowns",
                   "colour_points", "name"});
  });
  Player& p = s.players_[seat];
  if (c.has("tokens")) p.tokens = tokens(c["tokens"], kNumKinds);
  if (c.has("privileges"))
    attempt([&] { p.privileges = static_cast<uint8_t>(c["privileges"].as_int(0, int{config_.privileges})); });
  // Coloured cards first: a joker must join a colour the player owns.
  std::vector<JokerEntry> jokers;
  if (c.has("cards")) attempt([&] { read_owned(s, seat, c["cards"], false, jokers); });
  if (c.has("sampled_cards")) attempt([&] { read_owned(s, seat, c["sampled_cards"], true, jokers); });
  if (c.has("bought")) attempt([&] { read_bought(s, seat, c["bought"], jokers); });
  for (const JokerEntry& j : jokers) {
    attempt([&] {
      if (!j.colour) {
        if (unplaced_joker_ != kNoCard)
          throw core::PathError(j.path, "only one joker can be waiting for its colour (" + card_ref(unplaced_joker_) +
                                            " is too)");
        unplaced_joker_ = j.card;
        return;
      }
      int colour = kind_name(*j.colour, 5);
      if (!core::swar::lane(p.bonuses, colour))
        j.colour->fail("the joker joins a card of its colour, and the player has no " +
                       std::string(kColourNames[colour]) + " card");
      s.join_joker(seat, j.card, colour);
    });
  }
  if (c.has("reserved")) {
    attempt([&] {
      for (const json::Cursor r : c["reserved"].as_array(0, kMaxReserved)) {
        p.reserved[p.num_reserved++] = kNoCard;
        attempt([&] { read_reserved(s, seat, r); });
      }
    });
  }
  if (c.has("royals")) {
    attempt([&] {
      for (const json::Cursor r : c["royals"].as_array(0, 2)) {
        attempt([&] {
          int royal = r.as_int(1, kNumRoyals, "royal id {} does not exist (ids are 1 to 4)") - 1;
          see(royal_where_, royal, r.path(), "royal");
          p.royals = static_cast<uint8_t>(p.royals | (1u << royal));
          p.points = static_cast<uint8_t>(p.points + tables::kRoyals[royal].points);
        });
      }
    });
  }
  // Read now so a malformed field is reported with the others; compared in check_player.
  for (const char* field : {"points", "crowns"})
    if (c.has(field)) attempt([&] { c[field].as_int(0, 255); });
  if (c.has("colour_points")) {
    attempt([&] {
      const json::Cursor cp = c["colour_points"];
      cp.only_fields({"white", "blue", "green", "red", "black"});
      for (int k = 0; k < 5; ++k)
        if (cp.has(kColourNames[k])) attempt([&] { cp[kColourNames[k]].as_int(0, 255); });
    });
  }
}

// One entry of a player's `reserved`; the slot was added (kNoCard) by the caller.
void PositionReader::read_reserved(State& s, int seat, const json::Cursor& r) {
  Player& p = s.players_[seat];
  const int index = p.num_reserved - 1;
  const Reserved entry = PositionReaderBase::read_reserved(r, 3, card_from_text, level_of);
  if (entry.card < 0) unknown_.push({seat, index, entry.level});  // only its level is known
  p.reserved[index] = static_cast<uint8_t>(entry.card < 0 ? kNoCard : entry.card);
  if (entry.blind) p.reserved_blind = static_cast<uint8_t>(p.reserved_blind | (1u << index));
}

// Checks of a player that need all its cards and royals read.
void PositionReader::check_player(const State& s, int seat, const json::Cursor& c) {
  const Player& p = s.players_[seat];
  attempt([&] {
    if (c.has("points") && c["points"].as_int(0, 255) != p.points)
      c["points"].fail(std::to_string(c["points"].as_int(0, 255)) + " does not match the cards and royals, which give " +
                       std::to_string(p.points));
  });
  attempt([&] {
    if (c.has("crowns") && c["crowns"].as_int(0, 255) != p.crowns)
      c["crowns"].fail(std::to_string(c["crowns"].as_int(0, 255)) + " does not match the cards, which give " +
                       std::to_string(p.crowns));
  });
  if (c.has("colour_points")) {
    const json::Cursor cp = c["colour_points"];
    for (int k = 0; k < 5; ++k)
      attempt([&] {
        if (cp.has(kColourNames[k]) && cp[kColourNames[k]].as_int(0, 255) != p.colour_points[k])
          cp[kColourNames[k]].fail("does not match the cards, which give " + std::to_string(p.colour_points[k]));
      });
  }
  const int earned = (p.crowns >= 3) + (p.crowns >= 6);
  const int taken = core::popcount(p.royals) + (seat == s.turn_seat_ ? s.pend_royal_ : 0);
  if (taken != earned)
    attempt([&] {
      c.fail(std::to_string(p.crowns) + " crowns earn " + std::to_string(earned) + " royal cards, but " +
             std::to_string(taken) + " are held or pending");
    });
}

void PositionReader::read_pyramid(State& s, const json::Cursor& root) {
  const json::ArrayView levels = root["pyramid"].as_array(3, 3);
  for (int l = 0; l < 3; ++l) {
    attempt([&] {
      const int slots = kSlotFirst[l + 1] - kSlotFirst[l];
      const json::ArrayView row =
          levels[static_cast<size_t>(l)].as_array(static_cast<size_t>(slots), static_cast<size_t>(slots));
      for (int i = 0; i < slots; ++i) {
        attempt([&] {
          const json::Cursor slot = row[static_cast<size_t>(i)];
          if (slot.is_null()) return;
          const int card = read_card_of_level(slot, l, card_from_text, level_of);
          s.set_pyramid(kSlotFirst[l] + i, card);
        });
      }
    });
  }
}

void PositionReader::read_decks(State& s, const json::Cursor& root) {
  if (view_ && !root.has("decks")) {  // a view's deck counts follow from the rest (place_unseen)
    decks_given_ = false;
    for (int l = 0; l < 3; ++l) deck_paths_[l] = "decks";
    return;
  }
  const json::ArrayView decks = root["decks"].as_array(3, 3);
  for (int l = 0; l < 3; ++l) {
    const json::Cursor deck = decks[static_cast<size_t>(l)];
    deck_paths_[l] = deck.path();
    deck_counts_[l] = read_deck(deck, l, kLevelFirst[l + 1] - kLevelFirst[l], card_from_text, level_of,
                                [&](int card) { s.deck_[l] |= 1u << (card - kLevelFirst[l]); });
  }
}

// Every card is somewhere; in a view the unseen ones fill the deck counts and the
// opponent's blind reserves, drawn at random: first the bought cards given as the table
// shows them, then the blind reserves and the decks.
void PositionReader::place_unseen(State& s) {
  int unknown_reserved[3] = {0, 0, 0};
  for (const Unknown& u : unknown_) ++unknown_reserved[u.level];
  int n_unseen[3] = {0, 0, 0};
  for (int card = 0; card < kNumCards; ++card) n_unseen[level_of(card)] += card_at_[card].empty();
  if (!summarised_.empty()) {
    draw_summarised(s, n_unseen, unknown_reserved);
    throw_if_errors();
  }
  uint8_t unseen[3][30];
  for (int l = 0; l < 3; ++l) {
    n_unseen[l] = 0;
    for (int card = kLevelFirst[l]; card < kLevelFirst[l + 1]; ++card)
      if (card_at_[card].empty()) unseen[l][n_unseen[l]++] = static_cast<uint8_t>(card);
    if (decks_given_)
      check_unseen(deck_paths_[l], l, n_unseen[l], unseen[l][0], deck_counts_[l], unknown_reserved[l],
                   "not in the pyramid, a deck, a reserve or bought");
    else
      infer_deck_count(l, n_unseen[l], unknown_reserved[l], deck_counts_[l]);
  }
  throw_if_errors();
  for (int l = 0; l < 3; ++l) {
    rng_.shuffle(unseen[l], n_unseen[l]);
    int next = 0;
    for (const Unknown& u : unknown_)
      if (u.level == l) s.players_[u.seat].reserved[u.index] = unseen[l][next++];
    for (; next < n_unseen[l]; ++next) s.deck_[l] |= 1u << (unseen[l][next] - kLevelFirst[l]);
  }
}

// The bought cards given as the table shows them: each summary must be possible on its
// own, and all of them at once with the decks given (their levels then add up to what the
// decks leave).
void PositionReader::draw_summarised(State& s, const int n_unseen[3], const int unknown_reserved[3]) {
  core::CardSet pool{};
  for (int card = 0; card < kNumCards; ++card)
    if (card_at_[card].empty()) core::add_card(pool, card);
  std::vector<core::BoughtSummary> sums;
  for (const Summarised& u : summarised_) {
    sums.push_back(u.summary);
    if (core::count_bought(shown_cards(), u.summary, pool) == 0)
      attempt([&] {
        const core::BoughtSummary& b = u.summary;
        const auto count = [](int n, const std::string& one, const std::string& many) {
          return std::to_string(n) + " " + (n == 1 ? one : many);
        };
        const std::string kind = b.kind == kBonusJoker ? count(b.count, "joker", "jokers") + " joined to " + kColourNames[u.joined]
                                 : b.kind == kBonusNone ? count(b.count, "colourless card", "colourless cards")
                                                        : count(b.count, std::string(kColourNames[b.kind]) + " card",
                                                                std::string(kColourNames[b.kind]) + " cards");
        std::string shown = count(b.points, "point", "points");
        if (b.kind == kBonusJoker) shown += " and " + count(b.crowns, "crown", "crowns");
        if (b.kind < 5)
          shown += ", " + count(b.crowns, "crown", "crowns") + " and " + count(b.count + b.extra, "bonus", "bonuses");
        throw core::PathError(u.path, "no " + kind + " with " + shown +
                                          " are left among the cards not in the pyramid, reserved or listed");
      });
  }
  throw_if_errors();
  attempt([&] {
    const std::vector<core::CardSet> drawn =
        core::draw_position_summaries(shown_cards(), sums, pool, n_unseen, unknown_reserved,
                                      decks_given_ ? deck_counts_ : nullptr, "in the pyramid, reserved or listed", rng_);
    for (size_t k = 0; k < sums.size(); ++k) {
      Player& p = s.players_[sums[k].seat];
      for (int card = 0, joker = 0; card < kNumCards; joker += tables::kCards[card].bonus == kBonusJoker, ++card) {
        if (!core::card_in(drawn[k], card)) continue;
        if (card < 64) p.owned_lo |= uint64_t{1} << card, p.sampled_lo |= uint64_t{1} << card;
        else p.owned_hi = static_cast<uint8_t>(p.owned_hi | (1u << (card - 64))), p.sampled_hi = static_cast<uint8_t>(p.sampled_hi | (1u << (card - 64)));
        if (summarised_[k].joined >= 0) s.joker_colour_[joker] = static_cast<uint8_t>(summarised_[k].joined);
        card_at_[card] = summarised_[k].path;
      }
    }
  });
}

// Tokens (25 between board, bag and players), privileges and royals.
void PositionReader::check_tokens(State& s, const json::Cursor& root) {
  uint64_t placed = s.players_[0].tokens + s.players_[1].tokens;
  for (int c = 0; c < kNumCells; ++c)
    if (s.cell_[c] != kEmpty) placed += core::swar::unit(s.cell_[c]);
  const uint64_t all = 4 * (core::swar::unit(kWhite) + core::swar::unit(kBlue) + core::swar::unit(kGreen) + core::swar::unit(kRed) + core::swar::unit(kBlack)) +
                       2 * core::swar::unit(kPearl) + 3 * core::swar::unit(kGold);
  bool over = false;
  for (int k = 0; k < kNumKinds; ++k)
    if (core::swar::lane(placed, k) > core::swar::lane(all, k)) {
      over = true;
      attempt([&] {
        root["players"].fail("the board and the players hold " + std::to_string(core::swar::lane(placed, k)) + " " +
                             kKindNames[k] + " tokens but the game has only " + std::to_string(core::swar::lane(all, k)));
      });
    }
  if (!over) {
    s.bag_ = all - placed;
    if (root.has("bag")) {
      const uint64_t given = tokens(root["bag"], kNumKinds);
      for (int k = 0; k < kNumKinds; ++k)
        if (core::swar::lane(given, k) != core::swar::lane(s.bag_, k))
          attempt([&] {
            root["bag"][kKindNames[k]].fail(std::to_string(core::swar::lane(given, k)) + " does not add up: the game has " +
                                            std::to_string(core::swar::lane(all, k)) + " and the board and players hold " +
                                            std::to_string(core::swar::lane(placed, k)));
          });
    }
  }
  const int held = s.players_[0].privileges + s.players_[1].privileges;
  if (held > config_.privileges)
    attempt([&] {
      root["players"].fail("the players hold " + std::to_string(held) + " privileges but the game has " +
                           std::to_string(config_.privileges));
    });
  else if (root.has("privilege_supply"))
    attempt([&] {
      if (root["privilege_supply"].as_int(0, 9) != s.privilege_supply())
        root["privilege_supply"].fail("does not add up: the game has " + std::to_string(config_.privileges) +
                                      " and the players hold " + std::to_string(held));
    });
  s.royals_avail_ = static_cast<uint8_t>(0xF & ~(s.players_[0].royals | s.players_[1].royals));
  if (root.has("royals"))
    attempt([&] {
      uint8_t given = 0;
      for (const json::Cursor r : root["royals"].as_array(0, 4))
        given = static_cast<uint8_t>(given | (1u << (r.as_int(1, kNumRoyals, "royal id {} does not exist (ids are 1 to 4)") - 1)));
      if (given != s.royals_avail_) root["royals"].fail("the available royals must be those no player holds");
    });
}

// The turn fields, each on its own; their consistency is check_turn's.
void PositionReader::read_turn(State& s, const json::Cursor& root) {
  attempt([&] { s.turn_seat_ = static_cast<uint8_t>(root.has("to_move") ? root["to_move"].as_int(0, 1) : 0); });
  read_flag(root, "explicit_chance", s.explicit_chance_);
  read_flag(root, "setup", s.setup_);
  read_flag(root, "replenished", s.replenished_);
  read_flag(root, "again", s.again_);
  read_flag(root, "action_done", s.mandatory_done_);
  attempt([&] { if (root.has("phase")) root["phase"].as_string(); });
  s.pend_joker_ = kNoCard;
  if (!root.has("pending")) return;
  const json::Cursor p = root["pending"];
  attempt([&] { p.only_fields({"fills", "reveal", "joker", "token", "steal", "royal"}); });
  if (!p.is_object()) return;
  if (p.has("fills")) attempt([&] { s.fills_ = static_cast<uint8_t>(p["fills"].as_int(0, 25)); });
  if (p.has("reveal"))
    attempt([&] {
      const std::string& t = p["reveal"].as_string();
      int target = -1;
      for (int slot = 0; slot < kNumSlots; ++slot)
        if (t == slot_text(slot)) target = slot;
      for (int l = 0; l < 3; ++l)
        if (t == "deck" + std::to_string(l + 1)) target = kNumSlots + l;
      if (target < 0) p["reveal"].fail("\"" + t + "\" is not a pyramid slot (1.1-3.3) or deck1-deck3");
      s.reveal_ = static_cast<uint8_t>(target);
    });
  if (p.has("joker"))
    attempt([&] {
      int card = card_id(p["joker"]);
      if (card != unplaced_joker_)
        p["joker"].fail(card_ref(card) + " is not a joker of the player to move waiting for its colour");
      s.pend_joker_ = static_cast<uint8_t>(card);
    });
  if (p.has("token")) attempt([&] { s.pend_token_ = static_cast<uint8_t>(kind_name(p["token"], 5)); });
  if (p.has("steal")) attempt([&] { s.pend_steal_ = static_cast<uint8_t>(p["steal"].as_int(0, 2)); });
  if (p.has("royal")) attempt([&] { s.pend_royal_ = static_cast<uint8_t>(p["royal"].as_int(0, 2)); });
}

// The turn fields against each other and the rest of the position.
void PositionReader::check_turn(State& s, const json::Cursor& root) {
  auto check = [&](bool bad, const json::Cursor& at, const std::string& what) {
    if (bad) attempt([&] { at.fail(what); });
  };
  check(s.setup_ && !s.explicit_chance_, root.get("setup"), "the setup can only be unfinished with explicit_chance");
  // In the setup nobody has taken a turn: the players hold nothing (the second player's
  // privilege comes with the choice of the first player, the setup's last outcome).
  for (int seat = 0; seat < 2 && s.setup_; ++seat) {
    const Player& p = s.players_[seat];
    check(p.tokens || p.owned_lo || p.owned_hi || p.num_reserved || p.privileges || p.royals,
          root["players"][static_cast<size_t>(seat)], "holds tokens, cards, privileges or royals, but in the setup nobody has taken a turn");
  }
  if (s.reveal_ != kNoCard) {
    const json::Cursor reveal = root["pending"]["reveal"];
    const int target = s.reveal_;
    check(target < kNumSlots && s.pyramid_[target] != kNoCard, reveal, "slot " + slot_text(target) + " is not empty");
    check(!s.deck_[target < kNumSlots ? slot_level(target) : target - kNumSlots], reveal,
          "the deck to reveal from is empty");
    check(target >= kNumSlots && s.players_[s.turn_seat_].num_reserved >= kMaxReserved, reveal,
          "the player to move already holds 3 reserved cards");
    check(!s.mandatory_done_ && !s.setup_, reveal, "a card is revealed only after a reserve or a buy (set action_done)");
  }
  if (unplaced_joker_ != kNoCard && s.pend_joker_ == kNoCard)
    attempt([&] {
      root.fail(card_ref(unplaced_joker_) + " has no colour: give it one, or set pending.joker while it is chosen");
    });
  if (unplaced_joker_ != kNoCard && s.pend_joker_ != kNoCard && !s.players_[s.turn_seat_].owns(unplaced_joker_))
    attempt([&] { root["pending"]["joker"].fail("the joker waiting for its colour must belong to the player to move"); });
  const bool pending_ability = s.pend_joker_ != kNoCard || s.pend_token_ != kNoCard || s.pend_steal_ || s.pend_royal_;
  check(pending_ability && !s.mandatory_done_, root.get("pending"),
        "abilities and royals are pending only after the mandatory action (set action_done)");
  check(s.again_ && !s.mandatory_done_, root.get("again"),
        "an extra turn is earned by the turn's purchase: only after the mandatory action (set action_done)");
  check(s.fills_ && s.fills_ != core::swar::sum(s.bag_), root.get("pending").get("fills"),
        "a replenish draws the whole bag: " + std::to_string(core::swar::sum(s.bag_)) + " tokens");
  // A slot is refilled at once when its deck has cards (chance nodes aside).
  for (int slot = 0; slot < kNumSlots && !s.explicit_chance_; ++slot)
    if (s.pyramid_[slot] == kNoCard && s.deck_[slot_level(slot)] && deck_counts_[slot_level(slot)] != 0)
      attempt([&] {
        root["pyramid"][static_cast<size_t>(slot_level(slot))][static_cast<size_t>(slot - kSlotFirst[slot_level(slot)])]
            .fail("empty while the level-" + std::to_string(slot_level(slot) + 1) + " deck still has cards");
      });
}

// The phase: "over" needs a winner; otherwise it must be where the engine's own
// sequencing stops (nothing pending that would resolve at once).
void PositionReader::check_phase(State& s, const json::Cursor& root) {
  const std::string phase = root.has("phase") ? root["phase"].as_string() : "";
  const int other = s.turn_seat_ ^ 1;
  if (!s.setup_ && meets_victory(s.players_[other], config_))
    root["players"][static_cast<size_t>(other)].fail("this player has already won (the game would be over at the end of their turn)");
  if (phase == "over") {
    if (!meets_victory(s.players_[s.turn_seat_], config_))
      root["phase"].fail("the game cannot be over: the player to move meets no victory condition");
    s.phase_ = Phase::kOver;
    s.winner_ = static_cast<int8_t>(s.turn_seat_);
    return;
  }
  State t = s;
  t.resolve();
  State same = t;
  same.phase_ = s.phase_;
  if (!(same == s))
    root.fail(std::string("the position is not at a decision: ") +
              (t.phase_ == Phase::kOver ? "the player to move has won, so the phase is \"over\""
               : !s.explicit_chance_ && (s.reveal_ != kNoCard || s.fills_ || s.setup_)
                   ? "a reveal or bag draw is pending, which needs explicit_chance"
                   : "pending steps would resolve at once (an ability with nothing to take, a finished turn)"));
  s.phase_ = t.phase_;
  if (!phase.empty() && phase != phase_name(s.phase_))
    root["phase"].fail("is \"" + phase + "\" but the position is at \"" + phase_name(s.phase_) + "\"");
  if (s.phase_ == Phase::kMain && meets_victory(s.players_[s.turn_seat_], config_))
    root["players"][static_cast<size_t>(s.turn_seat_)].fail("this player has already won");
}

State PositionReader::read(const json::Cursor& root) {
  check_root(root, "duel",
             {"game", "variant", "observer", "to_move", "phase", "explicit_chance", "setup", "replenished", "again",
              "action_done", "pending", "board", "bag", "privilege_supply", "royals", "pyramid", "decks", "players",
              "deal"});
  check_variant(root, variant_json(config_));
  throw_if_errors();  // with another game or variant, the rest would only repeat it

  State s = State::empty(config_);
  s.bag_ = 0;
  s.royals_avail_ = 0xF;
  for (int l = 0; l < 3; ++l) s.deck_[l] = 0;
  attempt([&] { read_board(s, root); });
  attempt([&] {
    const json::ArrayView players = root["players"].as_array(2, 2);
    for (int seat = 0; seat < 2; ++seat) read_player(s, seat, players[static_cast<size_t>(seat)]);
  });
  attempt([&] { read_pyramid(s, root); });
  attempt([&] { read_decks(s, root); });
  read_turn(s, root);
  throw_if_errors();

  const json::ArrayView players = root["players"].as_array();
  for (int seat = 0; seat < 2; ++seat) check_player(s, seat, players[static_cast<size_t>(seat)]);
  check_tokens(s, root);
  place_unseen(s);  // throws the problems so far before sampling
  check_turn(s, root);
  throw_if_errors();  // the phase checks below assume a well-formed position

  attempt([&] { check_phase(s, root); });
  for (int seat = 0; seat < 2; ++seat) {
    // The player to move may pass 10 during the turn (privileges, the take) until discarding.
    const bool mid_turn = seat == s.turn_seat_ && s.phase_ != Phase::kOver;
    if (!mid_turn && s.players_[seat].num_tokens() > kMaxTokensHeld)
      attempt([&] {
        players[static_cast<size_t>(seat)]["tokens"].fail(std::to_string(s.players_[seat].num_tokens()) +
                                                          " tokens: more than 10 only during the player's own turn");
      });
  }
  s.deal_.s = rng_.next();
  if (root.has("deal"))
    attempt([&] {
      if (view_) root["deal"].fail("a player's view has no deal (the draw order is unknown)");
      const std::string& hex = root["deal"].as_string();
      uint64_t v = 0;
      if (hex.empty() || hex.size() > 16) root["deal"].fail("expected up to 16 hex digits");
      for (char ch : hex) {
        int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (d < 0) root["deal"].fail("expected up to 16 hex digits");
        v = v * 16 + static_cast<uint64_t>(d);
      }
      s.deal_.s = v;
    });
  throw_if_errors();
  s.hash_ = {s.incremental_part(), false};
  return s;
}

namespace {
// The variant a position gives, the published rules where it says nothing.
Config config_of(const json::Cursor& root) {
  Config c;
  const json::Cursor v = root.get("variant");
  for (auto [field, value] : {std::pair{"points_to_win", &c.points_to_win}, {"crowns_to_win", &c.crowns_to_win},
                              {"colour_points_to_win", &c.colour_points_to_win}, {"privileges", &c.privileges},
                              {"first_player", &c.first_player}})
    if (v.has(field) && !v[field].is_null()) *value = v[field].as_int(int16_t{-1000}, int16_t{1000});
  try {
    c.validate();
  } catch (const core::InvalidInput& e) {
    v.fail(e.what());
  }
  return c;
}
}  // namespace

State State::from_json(const Config& c, std::string_view text) { return core::read_state<PositionReader>(c, text, false, 0); }
State State::from_observation(const Config& c, std::string_view text, uint64_t seed) {
  return core::read_state<PositionReader>(c, text, true, seed);
}

core::Position<State, Config> read_position(const json::Value& doc, uint64_t seed, bool full) {
  const Config variant = config_of(json::Cursor(doc));
  return core::read_position<PositionReader>(doc, variant, 2, seed, full);
}

}  // namespace duel
