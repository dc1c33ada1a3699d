// Splendor (base game, 2-4 players): state, move generation and rules.
// The rules are those of the base game's rules text (kept outside this repository); the
// action encoding is documented in docs/actions.md. See docs/engine-interface.md for the interface.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/bought_sampler.hpp"
#include "core/rng.hpp"
#include "core/swar.hpp"
#include "core/types.hpp"
#include "splendor/card_types.hpp"

namespace splendor {

using core::Action;
using core::BoughtSummary;
using core::CardSet;

inline constexpr int kColours = 5;
inline constexpr int kGold = 5;  // token kind index of gold
inline constexpr int kNumKinds = 6;
inline constexpr int kLevels = 3;
inline constexpr int kSlotsPerLevel = 4;
inline constexpr int kTableSlots = kLevels * kSlotsPerLevel;
inline constexpr int kMaxPlayers = 4;
inline constexpr int kMaxReserved = 3;
inline constexpr int kNumCards = 90;
inline constexpr int kNumNobles = 10;
inline constexpr int kDeckCapacity[kLevels] = {40, 30, 20};
inline constexpr uint8_t kNoCard = 0xFF;

// Dense action ids (docs/actions.md).
inline constexpr Action kTakeDistinct = 0;    // 25: colour subsets of size 3, then 2, then 1
inline constexpr Action kTakeTwo = 25;        // 5: two tokens of one colour
inline constexpr Action kReserveTable = 30;   // 12: level * 4 + slot
inline constexpr Action kReserveDeck = 42;    // 3: blind, top of a level's deck
inline constexpr Action kBuyTable = 45;       // 12: level * 4 + slot
inline constexpr Action kBuyReserved = 57;    // 3: index in the player's reserve
inline constexpr Action kPass = 60;
inline constexpr Action kReturnToken = 61;    // 6: token kind, gold last
inline constexpr Action kChooseNoble = 67;    // 10: noble id
inline constexpr Action kRevealCard = 77;     // 90: chance, card index
inline constexpr Action kRevealNoble = 167;   // 10: chance, noble id
inline constexpr int kNumDistinctActions = 177;
inline constexpr int kNumMainActions = 61;    // ids below this are the turn's main actions

inline constexpr int kMaxLegalActions = 64;
// observation_tensor layout: per seat relative to the
// observer 15 floats, bank 6, 12 table cards, 4x3 reserve cards (16 floats per card),
// nobles on the table 10, deck sizes 3, phase 5, seat to move 4, end triggered, passes.
inline constexpr int kCardFeatures = 16;
inline constexpr int kObservationSize = 4 * 15 + 6 + 12 * kCardFeatures + 12 * kCardFeatures + 10 + 3 + 5 + 4 + 2;
inline constexpr int kMaxChanceOutcomes = 40;
// The "needs" input features of a network (search/input_features.hpp), derived from an
// observation tensor alone: for each seat relative to the observer and each card that seat
// may buy (the 12 on the table, then its own 3 reserves; zeros for an empty slot or a
// reserve it cannot see) the gems of each colour still needed after its bonuses, their
// sum, the shortfall after its tokens, the shortfall after its gold too, and 1 if that is
// 0 (it can buy the card now); then for each noble on the table the bonuses it still needs.
inline constexpr int kNeedsPerCard = 9;
inline constexpr int kNeedsCards = kTableSlots + kMaxReserved;
inline constexpr int kNeedsPerSeat = kNeedsCards * kNeedsPerCard + kNumNobles;
// Writes players * kNeedsPerSeat floats (seats 0 .. players-1, players <= 4).
void needs_features(const float* observation, int players, float* out);
using ActionList = core::FixedList<Action, kMaxLegalActions>;
using ActionBits = std::array<uint64_t, (kNumDistinctActions + 63) / 64>;  // bit a of word a / 64
using ChanceList = core::FixedList<core::ChanceOutcome, kMaxChanceOutcomes>;

// Colour set and packed token word of each take-distinct action.
struct TakeDistinct {
  uint8_t colours;  // bit per colour
  uint64_t word;    // one token per chosen colour
};
extern const TakeDistinct kTakeDistinctTable[25];

// When a take of different colours may hold fewer than three (variant take_fewer_distinct,
// docs/variants.md): never (false: exactly three), only when fewer than three colours remain
// (true: the published rule), or always (1 to 3 at any time: the splendor-tools referee's
// rule). The values index State's table of legal takes, so legality stays one lookup.
enum class TakeFewer : uint8_t { kNever = 0, kWhenShort = 1, kAlways = 2 };
inline constexpr int kTakeFewerRules = 3;
inline constexpr const char* kTakeFewerAlways = "always";  // kAlways as written; the others are true and false

// A variant of the rules. Published values by default; Python validates and names
// fields, validate() guards the engine's own limits (array sizes, byte lanes).
struct Config {
  uint8_t players = 2;
  uint8_t points_to_win = 15;
  TakeFewer take_fewer_distinct = TakeFewer::kWhenShort;
  uint8_t gem_tokens = 4;    // per colour
  uint8_t gold_tokens = 5;
  uint8_t nobles = 3;        // revealed at setup
  uint8_t token_limit = 10;
  uint8_t reserve_limit = 3;
  uint8_t take_two_min = 4;  // a colour's supply needed to take two of it

  static Config standard(int players);
  void validate() const;
  bool operator==(const Config&) const = default;
};

enum class Phase : uint8_t { kMain, kReturning, kNobleChoice, kChance, kOver };

struct Player {
  uint64_t tokens = 0;    // byte lanes: 5 gem colours, then gold
  uint64_t bonuses = 0;   // byte lanes: 5 colours
  uint64_t owned[2] = {0, 0};  // bought cards, bit per card index
  uint16_t nobles = 0;    // bit per noble id
  uint8_t points = 0;
  uint8_t cards_bought = 0;
  uint8_t num_reserved = 0;
  uint8_t reserved_blind = 0;  // bit i: reserved[i] was taken blind from a deck
  uint8_t reserved[kMaxReserved] = {kNoCard, kNoCard, kNoCard};
  uint32_t reserved_cost[kColours] = {};  // byte lane i: reserved[i]'s cost in that colour
  uint16_t eligible_nobles = 0;  // nobles whose requirement the bonuses meet (table or not)
  // Bought cards a position gave only by colour, count and points (a subset of owned):
  // their identities are a sample that determinize draws again (core/bought_sampler.hpp).
  uint64_t sampled[2] = {0, 0};

  int num_tokens() const { return core::swar::sum(tokens); }
  bool owns(int card) const { return (owned[card >> 6] >> (card & 63)) & 1; }
  bool operator==(const Player&) const = default;
};

class State {
 public:
  static State initial(const Config& config, uint64_t seed, bool explicit_chance);

  const Config& config() const { return config_; }
  int num_players() const { return config_.players; }
  int current_player() const;
  bool is_terminal() const { return phase_ == Phase::kOver; }
  bool is_chance() const { return phase_ == Phase::kChance; }
  Phase phase() const { return phase_; }
  int turn_seat() const { return turn_seat_; }  // whose turn it is, also at chance nodes

  void legal_actions(ActionList& out) const;
  // The same set as a bitset: the search's tree step reads this (no list to build).
  void legal_action_bits(ActionBits& out) const;
  bool is_legal(Action a) const;
  void apply(Action a);
  // As apply, without the incremental hash update (random playouts and rollouts,
  // where nobody asks for the hash); hash() then recomputes it from scratch.
  void apply_unhashed(Action a);
  // As apply; an illegal `a` throws InvalidInput with why_illegal's reason, state unchanged.
  void apply_checked(Action a);
  // Why `a` is not legal here, in the player's terms ("needs 2 more red (you have 1 red
  // token, 1 red bonus, 0 gold)"); "" if it is legal. For refusals only (legality.cpp).
  std::string why_illegal(Action a) const;
  void chance_outcomes(ChanceList& out) const;
  Action dealt_outcome() const;
  Action random_action(core::Rng& rng) const;
  // Applies random_action moves unhashed until the game ends or `max_plies` were made
  // (random playouts and rollouts); returns the moves made.
  int play_random(core::Rng& rng, int max_plies);
  void returns(double* out) const;

  uint64_t hash() const { return hash_stale_ ? compute_hash() : hash_ ^ core::splitmix64(token_hash_sum_); }
  uint64_t compute_hash() const;
  void determinize(int observer, core::Rng& rng);
  // The search's determinize: the same distribution, but the decks are left unordered
  // and each reveal draws a random card from what is left (the state carries the
  // draw's random stream). Such a state has no deck order to save, read or compare.
  // With explicit chance on it is a full determinize (reveals follow the deck order).
  void determinize_lazily(int observer, core::Rng& rng);
  void set_explicit_chance(bool on);
  bool explicit_chance() const { return explicit_chance_; }

  void observation_tensor(int player, float* out) const;

  std::string to_json() const;
  std::string observation_json(int player) const;
  static State from_json(const Config& config, std::string_view text);
  static State from_observation(const Config& config, std::string_view text, uint64_t seed);

  // Search helpers (policy.cpp): a fast rollout policy move (any phase, chance
  // included) and a heuristic win chance in [0, 1] of `player`, summing to 1 over seats.
  Action heuristic_action(core::Rng& rng) const;
  // The card heuristic_action collects tokens toward (-1: none) for its tie-break bits
  // `noise`: lowest 4 * tokens missing - 3 * points (+ noise), the first card lane on a
  // tie. The reference computes it card by card (the self-check compares the two).
  int heuristic_target(uint64_t noise) const;
  int heuristic_target_reference(uint64_t noise) const;
  // Its take-distinct action (-1: none of `legal`, bit a = action a) toward the colour set
  // `needed`: most needed colours, then most colours, a noise bit, the lowest id on a tie.
  static int heuristic_take(uint32_t legal, uint32_t needed, uint64_t noise);
  static int heuristic_take_reference(uint32_t legal, uint32_t needed, uint64_t noise);
  double evaluate(int player) const;
  // The search's proof probe (core/game.hpp, HasWinProbe): another seat holds a blind
  // reserve `seat` cannot see, or some bought card is a sample (the decks' cards are then
  // unknown too, so a proof over one sample's decks would not hold); and false when the seat to move cannot win within its
  // next `turns` (1 or 2; more: true) turns, because its points plus the most a buy now,
  // a buy next turn and the nobles within reach can add stay below the target.
  bool others_hold_unseen(int seat) const;
  bool may_win_within(int turns) const;

  std::string action_to_string(Action a) const;
  std::string action_label(Action a) const;  // the notation and the card it names: "buy 2.1 (green 1pt W2U3K2)"
  Action string_to_action(std::string_view text) const;

  bool operator==(const State&) const;
  // The rule invariants this state breaks (none for any state play reaches): card and
  // token conservation, the buy mask and nobles against the tables (invariants.cpp).
  std::vector<std::string> invariant_problems() const;

  // Read access for position io, tensors, heuristics and tests.
  const Player& player(int seat) const { return players_[seat]; }
  uint64_t bank() const { return bank_; }
  int table_card(int slot) const { return table_[slot]; }
  int deck_size(int level) const { return deck_size_[level]; }
  int deck_card(int level, int i) const { return deck_[level][i]; }  // i = deck_size-1 is the top
  uint64_t deck_set(int level) const { return deck_bits_[level]; }   // bit i: the level's card i
  bool decks_unordered() const { return decks_unordered_; }           // determinize_lazily was called
  bool has_sampled_cards() const;  // some bought card's identity is a sample (Player::sampled)
  // A card a table shows (a reveal being typed) that this state had drawn for a bought-card
  // summary: the summaries are drawn again without it and it goes back to its deck, the
  // decks reshuffled (following a real game from a position); `keep_out` (bit per card
  // index, may be null) are deck cards the new draw must not take either (revealed later in
  // a record replayed from here). False if it was not such a card, or no other draw fits
  // the summaries (nothing changes then).
  bool release_sampled_card(int card, core::Rng& rng, const uint64_t* keep_out = nullptr);
  uint16_t table_nobles() const { return table_nobles_; }
  // Passes in a row within the current round (a round runs from seat 0 to the last seat).
  int passes_this_round() const { return passes_; }
  bool in_setup() const { return in_setup_; }
  int pending_blind_level() const { return pending_blind_ - 1; }  // -1: none
  int noble_order(int i) const { return noble_order_[i]; }
  bool end_triggered() const;
  uint64_t legal_main_mask() const;   // bit per main action id (< kNumMainActions)
  uint16_t qualifying_nobles(int seat) const;
  static uint64_t card_cost(int card);  // packed cost word
  static int first_card_of_level(int level);  // a level's cards have consecutive indexes

 private:
  friend class PositionReader;  // builds states from JSON (position.cpp)

  Action random_chance_outcome(core::Rng& rng) const;
  // The card in lane `lane` of card_lanes (splendor/card_lanes.hpp): table slot or reserve.
  int card_in_lane(const Player& p, int lane) const { return lane < kTableSlots ? table_[lane] : p.reserved[lane - kTableSlots]; }
  Action parse_action(std::string_view text) const;
  uint64_t misc_key() const;         // seat to move and phase
  uint64_t rare_fields_key() const;  // passes, pending blind reserve, setup, explicit chance
  uint64_t compute_key_part() const;  // every hashed component but the tokens
  uint64_t token_sum() const;
  // H: whether the incremental hash is maintained (apply) or not (apply_unhashed).
  template <bool H>
  void mix_hash(uint64_t key) {
    if constexpr (H) hash_ ^= key;
  }
  template <bool H>
  void apply_impl(Action a);
  template <bool H>
  void set_tokens(int seat, uint64_t tokens);
  template <bool H>
  void place_on_table(int slot, int card);
  template <bool H>
  void clear_table_slot(int slot);
  template <bool H>
  void add_reserved(int seat, int card, bool hidden);
  template <bool H>
  void remove_reserved(int seat, int index);
  void set_reserved_lanes(int seat);
  void set_eligible_nobles(int seat);
  template <bool H>
  void take_gold_if_any(int seat);
  int pop_deck(int level);      // the top card, or a random one after determinize_lazily
  int pop_deck_top(int level);
  int draw_unordered(int level);
  template <class Self, class F>
  static unsigned for_each_unseen_reserve(Self& self, int observer, int level, F&& f);
  uint64_t unseen_cards(int observer, int level) const;
  // Draws the sampled bought cards again from `unseen` (bits per level, as unseen_cards)
  // and their own cards, keeping each seat's count, points and levels per colour;
  // `unseen` is left holding what the draw did not take.
  // `excluded` (bit per card index): cards that may not be drawn (seen elsewhere);
  // false if then no draw fitted and nothing changed.
  bool resample_bought(uint64_t unseen[kLevels], core::Rng& rng, const uint64_t* excluded = nullptr);
  void set_deck_bits();  // from deck_, after it is written directly
  void remove_from_deck(int level, int card);
  template <bool H>
  void buy(int seat, int card);
  template <bool H>
  void refill_or_wait(int slot);
  template <bool H>
  void after_main_action();
  template <bool H>
  void after_returns();
  template <bool H>
  void take_noble(int seat, int noble);
  template <bool H>
  void end_turn();
  template <bool H>
  void apply_main(Action a);
  template <bool H>
  void apply_chance(Action a);
  enum class ChanceTarget : uint8_t { kNone, kNoble, kBlindReserve, kTableSlot };
  ChanceTarget chance_target(int* slot_out) const;
  void resolve_chance_from_deal();

  Config config_{};
  Phase phase_ = Phase::kMain;
  uint8_t turn_seat_ = 0;
  uint8_t passes_ = 0;           // passes in a row this round; a round of passes only ends the game
  uint8_t pending_blind_ = 0;    // level + 1 of a blind reserve awaiting its chance card
  bool explicit_chance_ = false;
  bool in_setup_ = false;        // explicit chance: the opening reveals are not done yet
  uint8_t nobles_dealt_ = 0;     // nobles revealed so far (setup)
  uint8_t noble_order_[kNumNobles] = {};  // the deal's noble order
  uint16_t table_nobles_ = 0;    // bit per noble id on the table
  uint16_t table_mask_ = 0;      // bit per occupied table slot
  uint8_t table_[kTableSlots];
  uint8_t deck_size_[kLevels] = {0, 0, 0};
  uint8_t deck_[kLevels][40];    // bottom first; the top is deck_[l][deck_size_[l] - 1]
  uint64_t bank_ = 0;
  Player players_[kMaxPlayers];
  // Table card costs by colour, one byte lane per slot (12 of 16 used; empty slots
  // cost 0 and are masked out), so every table card's affordability is computed at once.
  alignas(16) uint8_t lane_cost_[kColours][16];
  alignas(16) uint8_t lane_points_[16] = {};  // the same lanes' prestige points (the rollout policy)
  uint64_t hash_ = 0;            // XOR of Zobrist keys of everything but tokens
  uint64_t token_hash_sum_ = 0;  // linear hash of the token vectors
  bool hash_stale_ = false;      // set by apply_unhashed: hash() recomputes
  // Each deck as a set (bit i: the level's card i), kept with deck_, so a sample of the
  // unseen cards needs no scan. After determinize_lazily the decks are these sets only
  // (deck_ is stale) and pop_deck draws from them with deck_rng_.
  uint64_t deck_bits_[kLevels] = {};
  bool decks_unordered_ = false;
  core::Rng deck_rng_{};
};

// Readable card descriptions (core/card_text.hpp), e.g. "green 1pt W2U1": unique per card.
std::string card_text(int card);            // card index (id - 1) -> canonical text
int card_from_text(std::string_view text);  // -> card index; InvalidInput suggests the closest card
// What the table shows of each card to the bought-card sampler (core/bought_sampler.hpp).
const core::CardCatalogue& shown_cards();

// Nobles as people name them: "noble 4", "#4", "4" or the requirement "3pt W4U4" / "W4U4"
// (the points may be left out) -> noble index; InvalidInput says why not.
int noble_from_text(std::string_view text);
std::string noble_text(int noble);  // its requirement, "W4U4"

}  // namespace splendor
