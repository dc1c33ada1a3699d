// Splendor Duel rules engine: a small trivially copyable value type that follows
// docs/engine-interface.md. Rules: the Duel rules text (outside
// this repository); action ids: docs/actions-duel.md.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/bits.hpp"
#include "core/bought_sampler.hpp"
#include "core/rng.hpp"
#include "core/swar.hpp"
#include "core/types.hpp"
#include "duel_tables.inc"

namespace duel {

// ---- Components --------------------------------------------------------------------

// Token kinds; also the byte lane of a kind in packed token words.
enum Kind : uint8_t { kWhite, kBlue, kGreen, kRed, kBlack, kPearl, kGold, kNumKinds };
inline constexpr uint8_t kEmpty = kNumKinds;  // board cell without a token
inline constexpr uint8_t kBonusJoker = 5, kBonusNone = 6;
inline constexpr uint8_t kNoCard = 0xFF;
inline constexpr int kNumCards = tables::kNumCards;
inline constexpr int kNumRoyals = tables::kNumRoyals;
inline constexpr int kNumCells = 25;
inline constexpr int kNumSlots = 12;    // pyramid: slots 0-4 level 1, 5-8 level 2, 9-11 level 3
inline constexpr int kMaxReserved = 3;
inline constexpr int kMaxTokensHeld = 10;
inline constexpr int kNumJokers = 9;
inline constexpr uint32_t kBoardMask = (1u << kNumCells) - 1;

inline constexpr int kSlotFirst[4] = {0, 5, 9, 12};  // pyramid slots of level L+1
inline constexpr uint8_t kSlotLevel[kNumSlots + 3] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 0, 1, 2};
inline constexpr int slot_level(int slot) { return kSlotLevel[slot]; }  // a table: no branches

// First card index of each level (cards.csv is sorted by level; checked below).
inline constexpr int kLevelFirst[4] = {0, 30, 54, 67};
constexpr bool levels_sorted() {
  for (int l = 0; l < 3; ++l)
    for (int c = kLevelFirst[l]; c < kLevelFirst[l + 1]; ++c)
      if (tables::kCards[c].level != l + 1) return false;
  return true;
}
static_assert(levels_sorted(), "cards.csv must list level 1, then 2, then 3 (30/24/13 cards)");

// ---- Action ids (dense, stable; docs/actions-duel.md) -------------------------------

inline constexpr int kNumTakes = 145;                     // line segments of 1-3 cells
inline constexpr int kPrivilegeBase = kNumTakes;          // + cell (25)
inline constexpr int kReplenish = kPrivilegeBase + 25;    // 1
inline constexpr int kReserveBase = kReplenish + 1;       // + target*25 + gold cell; targets 0-11 slot, 12-14 deck
inline constexpr int kNumReserveTargets = 15;
inline constexpr int kBuyBase = kReserveBase + kNumReserveTargets * 25;  // + slot (12) / 12 + reserve index (3)
inline constexpr int kTokenBase = kBuyBase + 15;          // + cell (25): `token` ability
inline constexpr int kStealBase = kTokenBase + 25;        // + kind (6, not gold)
inline constexpr int kJokerBase = kStealBase + 6;         // + colour (5)
inline constexpr int kRoyalBase = kJokerBase + 5;         // + royal (4)
inline constexpr int kDiscardBase = kRoyalBase + 4;       // + kind (7)
inline constexpr int kRevealBase = kDiscardBase + 7;      // chance: + card index (67)
inline constexpr int kFillBase = kRevealBase + kNumCards; // chance: + kind (7)
inline constexpr int kFirstBase = kFillBase + 7;          // chance: + seat (2)
inline constexpr int kNumDistinctActions = kFirstBase + 2;

inline constexpr int kMaxPlayers = 2;
inline constexpr int kMaxLegalActions = 256;
inline constexpr int kMaxChanceOutcomes = 32;
// Board 25x8 one-hot, bag 7, two players x 25, pyramid 12x67, own reserve 3x67, the
// opponent's visible reserve 3x67 + blind ones by level 3, deck sizes 3, royals 4,
// phase 10, to-move / replenished / again 3.
inline constexpr int kObservationSize = 1486;
using ActionList = core::FixedList<core::Action, kMaxLegalActions>;
using ChanceList = core::FixedList<core::ChanceOutcome, kMaxChanceOutcomes>;

// ---- Line segments -----------------------------------------------------------------
// Segment types: length 1; length 2 and 3 in directions E, S, SE, SW (each unordered set
// of cells once, named by its first cell). Ids run type by type, start cells ascending.
inline constexpr int kNumSegTypes = 9;
inline constexpr int kSegLen[kNumSegTypes] = {1, 2, 2, 2, 2, 3, 3, 3, 3};
inline constexpr int kSegDr[kNumSegTypes] = {0, 0, 1, 1, 1, 0, 1, 1, 1};
inline constexpr int kSegDc[kNumSegTypes] = {0, 1, 0, 1, -1, 1, 0, 1, -1};

struct Segment {
  uint32_t mask;
  uint8_t len, cells[3];  // cells past len repeat the last one (a take clears all 3)
};

struct SegmentTables {
  Segment seg[kNumTakes];
  uint32_t valid_starts[kNumSegTypes];  // start cells whose segment fits on the board
  uint8_t id[kNumSegTypes][kNumCells];  // segment id by (type, start cell)
  uint8_t base[kNumSegTypes];
};

constexpr SegmentTables make_segment_tables() {
  SegmentTables t{};
  int n = 0;
  for (int ty = 0; ty < kNumSegTypes; ++ty) {
    t.base[ty] = static_cast<uint8_t>(n);
    for (int cell = 0; cell < kNumCells; ++cell) {
      int r = cell / 5, c = cell % 5, len = kSegLen[ty];
      int er = r + kSegDr[ty] * (len - 1), ec = c + kSegDc[ty] * (len - 1);
      t.id[ty][cell] = 0xFF;
      if (er < 0 || er > 4 || ec < 0 || ec > 4) continue;
      t.valid_starts[ty] |= 1u << cell;
      t.id[ty][cell] = static_cast<uint8_t>(n);
      Segment& s = t.seg[n++];
      s.len = static_cast<uint8_t>(len);
      for (int k = 0; k < len; ++k) {
        int cc = (r + kSegDr[ty] * k) * 5 + c + kSegDc[ty] * k;
        s.cells[k] = static_cast<uint8_t>(cc);
        s.mask |= 1u << cc;
      }
      for (int k = len; k < 3; ++k) s.cells[k] = s.cells[len - 1];
    }
  }
  return t;
}
inline constexpr SegmentTables kSeg = make_segment_tables();
static_assert(kSeg.seg[kNumTakes - 1].len == 3 && kSeg.base[8] + 9 == kNumTakes);
// Bit shift from a start cell to the next cell of each type's direction.
inline constexpr int kSegShift[kNumSegTypes] = {0, 1, 5, 6, 4, 1, 5, 6, 4};

// ---- Variants ----------------------------------------------------------------------

struct Config {
  int16_t points_to_win = 20;         // prestige points (cards + royals)
  int16_t crowns_to_win = 10;
  int16_t colour_points_to_win = 10;  // points on the cards of one colour
  int16_t privileges = 3;             // privilege scrolls in the game
  int16_t first_player = -1;          // 0 or 1; -1: drawn by chance from the seed
  void validate() const;              // throws core::InvalidInput naming the field
  bool operator==(const Config&) const = default;
};

// ---- Players -----------------------------------------------------------------------

// Packed byte lanes (core/swar.hpp): lane k of a token word counts tokens of Kind k.
inline constexpr uint64_t kGemLanes = 0x000000FFFFFFFFFFULL;       // token/bonus lanes W U G R K
inline constexpr uint64_t kGemPearlLanes = 0x0000FFFFFFFFFFFFULL;  // and pearl

struct Player {
  uint64_t tokens;         // lanes W U G R K pearl gold
  uint64_t bonuses;        // lanes W U G R K: bonuses (jokers counted in their colour)
  uint64_t owned_lo;       // bought cards 0-63 (bit = card index)
  uint8_t owned_hi;        // bought cards 64-66
  uint8_t colour_points[5];
  uint8_t points, crowns, privileges;
  uint8_t num_reserved;
  uint8_t reserved[kMaxReserved];
  uint8_t reserved_blind;  // bit i: reserved[i] came from a deck top (hidden from the opponent)
  uint8_t royals;          // bit mask of royal cards taken
  // Bought cards a position gave only as the table shows them (a subset of owned, bits as
  // owned_lo / owned_hi): their identities are a sample that determinize draws again.
  uint8_t sampled_hi;
  uint64_t sampled_lo;
  bool sampled(int card) const {
    return card < 64 ? (sampled_lo >> card) & 1 : (sampled_hi >> (card - 64)) & 1;
  }
  bool owns(int card) const {
    return card < 64 ? (owned_lo >> card) & 1 : (owned_hi >> (card - 64)) & 1;
  }
  int num_tokens() const { return core::swar::sum(tokens); }
  bool operator==(const Player&) const = default;
};

enum class Phase : uint8_t {
  kMain,       // optional privileges / replenish, then the mandatory action
  kJoker,      // colour of a bought joker
  kToken,      // `token` ability: board cell of the card's colour
  kSteal,      // `steal` ability: kind taken from the opponent
  kRoyal,      // royal card at the 3rd / 6th crown
  kDiscard,    // one token back to the bag while holding more than 10
  kReveal,     // chance: card from a deck (pyramid refill or blind reserve)
  kFill,       // chance: token drawn from the bag onto the next empty spiral cell
  kFirst,      // chance: first player
  kOver,
};
inline constexpr int kNumPhases = static_cast<int>(Phase::kOver) + 1;

// ---- State -------------------------------------------------------------------------

struct State {
  static State initial(const Config& config, uint64_t seed, bool explicit_chance = false);

  const Config& config() const { return config_; }
  int num_players() const { return 2; }
  int current_player() const {
    return phase_ == Phase::kOver ? core::kTerminalPlayer
           : phase_ >= Phase::kReveal ? core::kChancePlayer
                                    : turn_seat_;
  }
  bool is_terminal() const { return phase_ == Phase::kOver; }
  bool is_chance() const { return phase_ >= Phase::kReveal && phase_ < Phase::kOver; }
  void legal_actions(ActionList& out) const;
  bool is_legal(core::Action a) const;
  void apply(core::Action a);
  // As apply, without the incremental hash update (random playouts, where nobody asks
  // for the hash); hash() then recomputes it.
  void apply_unhashed(core::Action a);
  // As apply; an illegal `a` throws InvalidInput with why_illegal's reason, state unchanged.
  void apply_checked(core::Action a);
  // Why `a` is not legal here, in the player's terms ("take c3 c4 c5" -> "c4 holds gold
  // ..."); "" if it is legal. For refusals only (legality.cpp).
  std::string why_illegal(core::Action a) const;
  void chance_outcomes(ChanceList& out) const;
  core::Action dealt_outcome() const;
  core::Action random_action(core::Rng& rng) const;
  void returns(double* out) const;
  uint64_t hash() const;
  uint64_t compute_hash() const;
  void determinize(int observer, core::Rng& rng);
  void set_explicit_chance(bool on);
  bool explicit_chance() const { return explicit_chance_; }
  std::string action_to_string(core::Action a) const;
  std::string action_label(core::Action a) const;  // the notation and the card it names: "buy 2.3 (red 2pt 1cr W2U2G2P1)"
  core::Action string_to_action(std::string_view text) const;
  std::string to_json() const;
  std::string observation_json(int player) const;
  static State from_json(const Config& config, std::string_view text);
  static State from_observation(const Config& config, std::string_view text, uint64_t seed);
  void observation_tensor(int player, float* out) const;
  bool operator==(const State&) const = default;
  // The rule invariants this state breaks (none for any state play reaches): token, card
  // and privilege conservation, the buy mask against the card table (invariants.cpp).
  std::vector<std::string> invariant_problems() const;
  core::Action heuristic_action(core::Rng& rng) const;
  double evaluate(int player) const;
  // The search's proof probe (core/game.hpp, HasWinProbe): the opponent holds a blind
  // reserve `seat` cannot see, or some bought card is a sample (then which cards the decks
  // hold is unknown too, and a proof over one sample's decks would not hold); and false when the seat to move cannot reach a victory
  // condition within its next `turns` (1 or 2; more: true) turns by a bound on what it
  // can buy (policy.cpp: at most one extra turn of `again` counted).
  bool others_hold_unseen(int seat) const;
  bool may_win_within(int turns) const;
  bool has_sampled_cards() const;  // some bought card's identity is a sample (Player::sampled_lo/hi)
  // A card a table shows (a reveal being typed) that this state had drawn for a bought-card
  // summary: the summaries are drawn again without it and it goes back to its deck
  // (following a real game from a position); `keep_out` (bit per card index, 2 words, may
  // be null) are deck cards the new draw must not take either (revealed later in a record
  // replayed from here). False if it was not such a card, or no other draw fits the
  // summaries (nothing changes then).
  bool release_sampled_card(int card, core::Rng& rng, const uint64_t* keep_out = nullptr);

  // ---- Read access for tests, bindings and JSON io --------------------------------
  Phase phase() const { return phase_; }
  int turn_seat() const { return turn_seat_; }       // seat whose turn it is (meaningless before setup ends)
  int winner() const { return winner_; }     // seat, or -1
  const Player& player(int seat) const { return players_[seat]; }
  uint8_t cell(int c) const { return cell_[c]; }
  uint32_t kind_mask(int k) const { return kmask_[k]; }
  uint64_t bag() const { return bag_; }
  uint8_t pyramid(int slot) const { return pyramid_[slot]; }
  uint32_t deck(int level0) const { return deck_[level0]; }   // bit i: card kLevelFirst[level0]+i
  uint8_t royals_available() const { return royals_avail_; }
  int privilege_supply() const { return config_.privileges - players_[0].privileges - players_[1].privileges; }
  bool replenished() const { return replenished_; }
  bool again_pending() const { return again_; }
  int joker_colour(int card) const;          // colour a bought joker joined, -1 otherwise
  bool action_done() const { return mandatory_done_; }
  int pending_fills() const { return fills_; }
  int pending_reveal() const { return reveal_; }  // kNoCard, a pyramid slot, or 12 + level0 (blind)
  int pending_joker() const { return pend_joker_; }
  int pending_token() const { return pend_token_; }
  int pending_steal() const { return pend_steal_; }
  int pending_royal() const { return pend_royal_; }
  uint64_t deal_state() const { return deal_.s; }
  bool in_setup() const { return setup_; }

  // ---- Position editing (from_json, tests) -----------------------------------------
  // Each edit keeps the hash in step and moves tokens to or from the bag and cards to or
  // from their deck, so the 25 tokens and 67 cards stay accounted for as long as the
  // bag/deck holds what is asked for (callers check; from_json validates).
  static State empty(const Config& config);     // setup done, all cards in decks, all tokens in the bag
  void set_cell(int c, int kind);            // kEmpty clears
  void set_tokens(int seat, uint64_t tokens);
  void set_pyramid_card(int slot, int card); // kNoCard empties the slot
  void give_card(int seat, int card, int joker_colour = -1);  // as if bought (no ability)
  void give_reserved(int seat, int card, bool blind);
  void give_royal(int seat, int royal);
  void set_privileges(int seat, int n) { players_[seat].privileges = static_cast<uint8_t>(n); }
  void set_turn(int seat, bool replenished = false) {
    turn_seat_ = static_cast<uint8_t>(seat);
    replenished_ = replenished;
  }
  void set_deal(uint64_t seed) { deal_.s = seed; }

 private:
  friend class PositionReader;  // JSON io (position.cpp)

  // Chance resolution: what the seeded deal gives, and applying a given outcome.
  // Template H: whether a mutation keeps the incremental hash in step (apply, edits) or
  // not (apply_unhashed); position.cpp uses the H = true versions.
  core::Action draw(core::Rng& rng) const;
  template <bool H = true> void apply_impl(core::Action a);
  template <bool H = true> void apply_chance(core::Action a);
  template <bool H = true> void reveal(int card);  // the pending reveal gets `card`
  template <bool H = true> void resolve();  // sets the next phase after a step; auto mode runs chance at once
  void end_turn();
  void gain_privilege(int seat);
  template <bool H = true> void take_cell(int seat, int c);
  template <bool H = true> void place(int c, int kind);
  template <bool H = true> void add_card(int seat, int card);  // a purchase: own_card + abilities + royal count
  template <bool H = true> void own_card(int seat, int card);  // ownership, points, crowns, coloured bonus
  template <bool H = true> void join_joker(int seat, int card, int colour);
  uint64_t incremental_part() const;         // the hash_ field recomputed
  template <bool H = true> void add_reserved(int seat, int card, bool blind);
  template <bool H = true> void remove_reserved(int seat, int index);
  template <bool H = true> void set_pyramid(int slot, int card);
  template <bool H = true>
  void mix_hash(uint64_t key) {
    if constexpr (H) hash_.value ^= key;
  }
  void refill_slot(int slot);
  // Draws the sampled bought cards again from `unseen` (bits per level, as deck_) and their
  // own cards, keeping each seat's cards, points, crowns, bonuses and levels per kind (a
  // joker per colour it joined); `unseen` is left holding what the draw did not take.
  // `excluded` (bit per card index): cards that may not be drawn; false if then no draw
  // fitted and nothing changed. The hash is left stale for the caller to recompute.
  bool resample_bought(uint32_t unseen[3], core::Rng& rng, const uint64_t* excluded = nullptr);

  struct MainMoves {
    uint32_t starts[kNumSegTypes];  // legal take segments by (type, start cell)
    uint32_t privilege_cells;
    uint32_t gold_cells;            // 0 unless reserving is legal
    uint16_t reserve_targets;
    uint16_t buys;                  // bits 0-11 pyramid slots, 12-14 reserve indexes
    bool replenish;
  };
  MainMoves main_moves() const;
  uint16_t buyable(int seat) const;
  int draw_kind(core::Rng& rng) const;                // bag draw, by count
  int draw_card(core::Rng& rng) const;                // pending reveal's card, uniform over its deck
  uint32_t choice_mask() const;  // legal choices of a non-main phase (offsets from its base)
  int phase_base() const;

  Config config_;
  Phase phase_ = Phase::kMain;
  uint8_t turn_seat_ = 0;
  int8_t winner_ = -1;
  bool explicit_chance_ = false;
  bool setup_ = false;         // dealing the pyramid / filling the board / drawing the first seat
  bool replenished_ = false;   // this turn: no more privileges or replenish
  bool again_ = false;         // an extra turn follows this one
  bool mandatory_done_ = false;
  uint8_t fills_ = 0;          // bag draws left in the current replenish / setup fill
  uint8_t reveal_ = kNoCard;   // pending reveal: pyramid slot, or 12 + level0 for a blind reserve
  uint8_t pend_joker_ = kNoCard;  // joker card waiting for its colour
  uint8_t pend_token_ = kNoCard;  // colour of a pending `token` ability
  uint8_t pend_steal_ = 0;
  uint8_t pend_royal_ = 0;
  uint8_t royals_avail_ = 0xF;
  uint16_t pyramid_mask_ = 0;         // occupied pyramid slots
  uint8_t cell_[kNumCells];
  uint8_t pyramid_[kNumSlots];
  uint8_t joker_colour_[kNumJokers];  // by joker index; kEmpty until placed
  uint32_t kmask_[kNumKinds];         // board cells holding each kind
  uint32_t deck_[3];
  uint64_t bag_ = 0;                  // lanes by kind
  Player players_[2];
  struct Deal : core::Rng {           // Rng with equality, so State compares with = default
    bool operator==(const Deal& o) const { return s == o.s; }
  } deal_;                            // draw order of decks and bag (hidden from both players)
  // Incremental part of the hash: board, cards, jokers, royals. Stale after
  // apply_unhashed (hash() then recomputes it); a stale one compares equal to any, the
  // rest of the state decides.
  struct IncrementalHash {
    uint64_t value = 0;
    bool stale = false;
    bool operator==(const IncrementalHash& o) const { return stale || o.stale || value == o.value; }
  } hash_;
};

static_assert(std::is_trivially_copyable_v<State>);

// What the table shows of each card to the bought-card sampler (core/bought_sampler.hpp):
// kinds 0-4 the colours, then jokers (kBonusJoker) and colourless cards (kBonusNone).
const core::CardCatalogue& shown_cards();

// Names used by the notation and JSON.
inline constexpr const char* kKindNames[kNumKinds] = {"white", "blue", "green", "red",
                                                      "black", "pearl", "gold"};
std::string cell_name(int c);  // "a1" (top left) .. "e5": column letter, row number from the top
int parse_kind(std::string_view s);  // -1 if unknown
int parse_cell(std::string_view s);  // -1 if unknown

// Readable card descriptions (core/card_text.hpp), e.g. "red 2pt 1cr W2U2G2P1": unique per card.
std::string card_text(int card);            // card index (id - 1) -> canonical text
int card_from_text(std::string_view text);  // -> card index; InvalidInput suggests the closest card

}  // namespace duel
