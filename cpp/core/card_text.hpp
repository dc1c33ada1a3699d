// Readable card descriptions, the way a player reads a card off the table:
// bonus colour, points, cost, e.g. "green 1pt W2U1" (docs/position-format.md).
//
// Both games use the same grammar with their own alphabet:
//   text   := bonus extra* cost
//   bonus  := a colour name ("green") or its letter ("G"); game-specific extra
//             names without a letter (Duel: "joker", "none")
//   extra  := points | crowns | double | ability        in any order, each at most once
//   points := N "pt" | N "pts"                 omitted: 0 points
//   crowns := N "cr" | N "crown" | N "crowns"  (games with crowns) omitted: 0
//   double := "x2" | "2x"                      (games with double bonuses) omitted: any
//   ability:= an ability name ("steal"), several joined by "+" or spaces; omitted: none
//   cost   := groups "W2U1" or "2W1U" (letter then count, or count then letter),
//             spaces allowed between groups ("W2 U1"), each colour at most once
// Case does not matter; commas count as spaces. format() writes the canonical
// form: full bonus name, "x2" for a double bonus, points always, crowns when any,
// abilities, cost in colour order letter-first.
// Each game checks that its fields name exactly one of its cards.
#pragma once
#include <algorithm>
#include <array>
#include <initializer_list>
#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/types.hpp"
#include "core/words.hpp"

namespace core::card_text {

inline constexpr int kMaxCostColours = 6;

struct Face {
  int bonus = -1;   // index into Alphabet::bonus_names
  int points = 0;
  int crowns = 0;
  int bonus_count = 0;     // 0: not given (matches any)
  unsigned abilities = 0;  // bit i: Alphabet::ability_names[i]
  std::array<int, kMaxCostColours> cost{};  // by Alphabet::cost_letters order
};

struct Alphabet {
  std::vector<std::string_view> bonus_names;  // e.g. white, blue, ...; lower case
  std::string_view bonus_letters;             // letter per bonus name ('-' for none)
  std::string_view cost_letters;              // e.g. "WUGRK" or "WUGRKP"; upper case
  std::string_view example;                   // an example text for error messages
  std::vector<std::string_view> ability_names = {};  // bit order of Face::abilities; lower case
  bool crowns = false;                        // cards carry crowns ("1cr")
  bool doubles = false;                       // a card may give two bonuses ("x2")
};

namespace detail {

inline bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

inline std::string help(const Alphabet& a) {
  std::string colours, abilities;
  for (char ch : a.cost_letters) colours += std::string(colours.empty() ? "" : " ") + ch;
  for (std::string_view n : a.ability_names) abilities += std::string(abilities.empty() ? "" : ", ") + std::string(n);
  return "cards read like \"" + std::string(a.example) + "\": bonus colour" + (a.doubles ? " (x2 for a double bonus)" : "") +
         ", points (e.g. 1pt, may be left out when 0)" + (a.crowns ? ", crowns (e.g. 2cr)" : "") +
         (abilities.empty() ? "" : ", abilities (" + abilities + ")") + ", then the cost with colour letters " + colours;
}

// "<digits><suffix>" with one of `suffixes`: the number, else -1.
inline int counted(const std::string& word, std::initializer_list<std::string_view> suffixes) {
  size_t digits = 0;
  while (digits < word.size() && is_digit(word[digits])) ++digits;
  if (digits == 0 || digits > 2) return -1;
  for (std::string_view suffix : suffixes)
    if (std::string_view(word).substr(digits) == suffix) return std::stoi(word.substr(0, digits));
  return -1;
}

// The ability bits of a word like "steal" or "bonus_copy+again"; 0 if it is not one.
inline unsigned ability_bits(const std::string& word, const Alphabet& a) {
  if (a.ability_names.empty()) return 0;
  unsigned bits = 0;
  size_t start = 0;
  while (start <= word.size()) {
    const size_t end = std::min(word.find('+', start), word.size());
    const std::string_view part = std::string_view(word).substr(start, end - start);
    unsigned bit = 0;
    for (size_t i = 0; i < a.ability_names.size(); ++i)
      if (part == a.ability_names[i]) bit = 1u << i;
    if (bit == 0) return 0;
    bits |= bit;
    start = end + 1;
  }
  return bits;
}

}  // namespace detail

// Parses a description; throws InvalidInput (no JSON path: the caller adds it).
inline Face parse(std::string_view text, const Alphabet& a) {
  const std::vector<std::string> words = lower_words(text);
  const std::string quoted = "\"" + std::string(text) + "\"";
  if (words.size() < 2) throw InvalidInput(quoted + " is not a card (" + detail::help(a) + ")");

  Face face;
  for (size_t i = 0; i < a.bonus_names.size(); ++i) {
    const bool letter = words[0].size() == 1 && i < a.bonus_letters.size() && a.bonus_letters[i] != '-' &&
                        std::tolower(static_cast<unsigned char>(a.bonus_letters[i])) == words[0][0];
    if (words[0] == a.bonus_names[i] || letter) face.bonus = static_cast<int>(i);
  }
  if (face.bonus < 0) {
    std::string names;
    for (std::string_view n : a.bonus_names) names += std::string(names.empty() ? "" : ", ") + std::string(n);
    throw InvalidInput(quoted + ": unknown bonus colour \"" + words[0] + "\" (one of " + names + ")");
  }

  size_t next = 1;
  bool seen_points = false, seen_crowns = false;
  for (; next < words.size(); ++next) {
    const std::string& word = words[next];
    const auto twice = [&](const char* what) { throw InvalidInput(quoted + ": " + what + " given twice"); };
    if (const int pts = detail::counted(word, {"pt", "pts"}); pts >= 0) {
      if (seen_points) twice("the points are");
      face.points = pts, seen_points = true;
    } else if (const int cr = a.crowns ? detail::counted(word, {"cr", "crown", "crowns"}) : -1; cr >= 0) {
      if (seen_crowns) twice("the crowns are");
      face.crowns = cr, seen_crowns = true;
    } else if (a.doubles && (word == "x2" || word == "2x")) {
      if (face.bonus_count) twice("x2 is");
      face.bonus_count = 2;
    } else if (const unsigned bits = detail::ability_bits(word, a); bits) {
      if (face.abilities & bits) twice("an ability is");
      face.abilities |= bits;
    } else {
      break;
    }
  }

  std::string cost;
  for (size_t i = next; i < words.size(); ++i) cost += words[i];
  if (cost.empty()) throw InvalidInput(quoted + ": the cost is missing (" + detail::help(a) + ")");
  const bool count_first = detail::is_digit(cost[0]);
  std::array<bool, kMaxCostColours> seen{};
  for (size_t i = 0; i < cost.size();) {
    char letter = 0;
    std::string count;
    if (count_first) {
      while (i < cost.size() && detail::is_digit(cost[i])) count += cost[i++];
      if (i < cost.size()) letter = cost[i++];
    } else {
      letter = cost[i++];
      while (i < cost.size() && detail::is_digit(cost[i])) count += cost[i++];
    }
    const size_t colour = a.cost_letters.find(static_cast<char>(std::toupper(static_cast<unsigned char>(letter))));
    if (letter == 0 || detail::is_digit(letter) || colour == std::string_view::npos)
      throw InvalidInput(quoted + ": cannot read the cost \"" + cost + "\" (" + detail::help(a) + ")");
    if (count.empty() || count.size() > 2)
      throw InvalidInput(quoted + ": the cost needs a count for each colour, like " +
                         std::string(1, a.cost_letters[colour]) + "2 (" + detail::help(a) + ")");
    if (seen[colour])
      throw InvalidInput(quoted + ": colour " + std::string(1, a.cost_letters[colour]) + " appears twice in the cost");
    seen[colour] = true;
    face.cost[colour] = std::stoi(count);
  }
  return face;
}

// The canonical text of a face: "green 1pt W2U1" (Duel: "white x2 1pt U5G2", "red 2pt 1cr W2U2G2P1").
inline std::string format(const Face& face, const Alphabet& a) {
  std::string out(a.bonus_names[static_cast<size_t>(face.bonus)]);
  if (face.bonus_count >= 2) out += " x" + std::to_string(face.bonus_count);
  out += " " + std::to_string(face.points) + "pt ";
  if (face.crowns) out += std::to_string(face.crowns) + "cr ";
  for (size_t i = 0; i < a.ability_names.size(); ++i)
    if ((face.abilities >> i) & 1) out += std::string(a.ability_names[i]) + " ";
  for (size_t c = 0; c < a.cost_letters.size(); ++c)
    if (face.cost[c] > 0) out += a.cost_letters[c] + std::to_string(face.cost[c]);
  return out;
}

// How far apart two faces are, to suggest the card a typo most likely meant.
inline int distance(const Face& x, const Face& y) {
  int d = (x.bonus != y.bonus ? 2 : 0) + std::abs(x.points - y.points) + std::abs(x.crowns - y.crowns) +
          __builtin_popcount(x.abilities ^ y.abilities) +
          (x.bonus_count && y.bonus_count && x.bonus_count != y.bonus_count ? 1 : 0);
  for (int c = 0; c < kMaxCostColours; ++c) d += std::abs(x.cost[static_cast<size_t>(c)] - y.cost[static_cast<size_t>(c)]);
  return d;
}

// The card a description names among `count` cards (face_of: card index -> Face);
// InvalidInput names the closest card when none matches. `ignored` ability bits are
// implied by the bonus and never compared.
template <typename FaceOf>
int find(std::string_view text, const Alphabet& a, int count, FaceOf&& face_of, unsigned ignored = 0) {
  Face wanted = parse(text, a);
  wanted.abilities &= ~ignored;
  int best = -1, best_distance = 1 << 30;
  for (int card = 0; card < count; ++card) {
    const int d = distance(wanted, face_of(card));
    if (d == 0) return card;
    if (d < best_distance) best = card, best_distance = d;
  }
  throw InvalidInput("no card is \"" + std::string(text) + "\" (closest: \"" + format(face_of(best), a) + "\", #" +
                     std::to_string(best + 1) + ")");
}

// A card in a position: an id (1..count), "#id", or a description read by from_text
// (text -> card index). Returns the card index; a problem fails with the cursor's path.
template <typename FromText>
int read_card(const json::Cursor& c, int count, FromText&& from_text) {
  const std::string ids = "ids are 1 to " + std::to_string(count);
  if (c.is_string()) {
    const std::string& text = c.as_string();
    try {
      if (!text.empty() && text[0] == '#') {
        const std::string digits = text.substr(1);
        if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos)
          throw InvalidInput("\"" + text + "\" is not a card id (#1 to #" + std::to_string(count) + ")");
        const int id = std::stoi(digits);
        if (id < 1 || id > count) throw InvalidInput("card id " + text + " does not exist (" + ids + ")");
        return id - 1;
      }
      return from_text(text);
    } catch (const InvalidInput& e) {
      c.fail(e.what());
    }
  }
  return c.as_int(1, count, "card id {} does not exist (" + ids + ")") - 1;
}

}  // namespace core::card_text
