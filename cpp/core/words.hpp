// Splitting typed text (moves, card descriptions) into lower-case words.
#pragma once
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace core {

// Words of `text`, lower-cased; spaces and commas separate them.
inline std::vector<std::string> lower_words(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  for (char ch : text) {
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',') {
      if (!cur.empty()) words.push_back(cur), cur.clear();
    } else {
      cur.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    }
  }
  if (!cur.empty()) words.push_back(cur);
  return words;
}

}  // namespace core
