// Readable card descriptions, the way a player reads a card off the table:
// bonus colour, points, cost, e.g. "green 1pt W2U1" (docs/position-format.md).
//
// Both games use the same grammar with their own colour alphabet:
//   text   := bonus [points] cost
//   bonus  := a colour name ("green") or its letter ("G"); game-specific extra
//             names without a letter (Duel: "joker", "none")
//   points := N "pt" | N "pts"                 omitted: 0 points
//   cost   := groups "W2U1" or "2W1U" (letter then count, or count then letter),
//             spaces allowed between groups ("W2 U1"), each colour at most once
// Case does not matter; commas count as spaces. format() writes the canonical
// form: full bonus name, points always, cost in colour order letter-first.
// Each game checks that (bonus, points, cost) names exactly one of its cards.
#pragma once
#include <array>
#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "core/words.hpp"

namespace core::card_text {

inline constexpr int kMaxCostColours = 6;

struct Face {
  int bonus = -1;   // index into Alphabet::bonus_names
  int points = 0;
  std::array<int, kMaxCostColours> cost{};  // by Alphabet::cost_letters order
};

struct Alphabet {
  std::vector<std::string_view> bonus_names;  // e.g. white, blue, ...; lower case
  std::string_view bonus_letters;             // letter per bonus name ('-' for none)
  std::string_view cost_letters;              // e.g. "WUGRK" or "WUGRKP"; upper case
  std::string_view example;                   // an example text for error messages
};

namespace detail {

inline bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

inline std::string help(const Alphabet& a) {
  std::string colours;
  for (char ch : a.cost_letters) colours += std::string(colours.empty() ? "" : " ") + ch;
  return "cards read like \"" + std::string(a.example) + "\": bonus colour, points (e.g. 1pt, may be left out when 0), "
         "then the cost with colour letters " + colours;
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
  const std::string& pts = words[1];
  size_t digits = 0;
  while (digits < pts.size() && detail::is_digit(pts[digits])) ++digits;
  if (digits > 0 && (pts.substr(digits) == "pt" || pts.substr(digits) == "pts")) {
    if (digits > 2) throw InvalidInput(quoted + ": " + pts + " is too many points");
    face.points = std::stoi(pts.substr(0, digits));
    ++next;
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

// The canonical text of a face: "green 1pt W2U1".
inline std::string format(const Face& face, const Alphabet& a) {
  std::string out(a.bonus_names[static_cast<size_t>(face.bonus)]);
  out += " " + std::to_string(face.points) + "pt ";
  for (size_t c = 0; c < a.cost_letters.size(); ++c)
    if (face.cost[c] > 0) out += a.cost_letters[c] + std::to_string(face.cost[c]);
  return out;
}

// How far apart two faces are, to suggest the card a typo most likely meant.
inline int distance(const Face& x, const Face& y) {
  int d = (x.bonus != y.bonus ? 2 : 0) + std::abs(x.points - y.points);
  for (int c = 0; c < kMaxCostColours; ++c) d += std::abs(x.cost[static_cast<size_t>(c)] - y.cost[static_cast<size_t>(c)]);
  return d;
}

}  // namespace core::card_text
