// The `.smnet` reader and the forward pass (docs/network-format.md).
#include "search/network.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "core/json.hpp"
#include "core/types.hpp"
#include "search/params.hpp"

namespace search {

namespace {

[[noreturn]] void refuse(const std::string& name, const std::string& problem) {
  throw core::InvalidInput("network file '" + name + "': " + problem);
}

// A JSON integer in [lo, hi] under `key` of `obj`.
int int_field(const nlohmann::json& obj, const char* key, int lo, int hi, const std::string& name,
              const std::string& where) {
  if (!obj.contains(key)) refuse(name, where + "missing key '" + key + "'");
  const auto& v = obj[key];
  if (!v.is_number_integer()) refuse(name, where + "'" + key + "' must be an integer");
  const auto x = v.get<int64_t>();
  if (x < lo || x > hi)
    refuse(name, where + "'" + key + "' must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                     ", got " + std::to_string(x));
  return static_cast<int>(x);
}

std::string string_field(const nlohmann::json& obj, const char* key, const std::string& name) {
  if (!obj.contains(key)) refuse(name, std::string("header: missing key '") + key + "'");
  if (!obj[key].is_string()) refuse(name, std::string("header: '") + key + "' must be a string");
  return obj[key].get<std::string>();
}

uint32_t read_u32le(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

float read_f32le(const unsigned char* p) {
  const uint32_t bits = read_u32le(p);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// y[o] = b[o] + sum_i W[o][i] x[i] with W stored transposed ([in][out]): the loop over o
// is a contiguous multiply-add the compiler vectorises (a dot product would be a
// reduction it may not reorder). Zero inputs (ReLU's, a sparse observation's) are skipped.
void dense(const float* wt, const float* b, int in, int out, const float* x, float* y) {
  std::copy(b, b + out, y);
  for (int i = 0; i < in; ++i) {
    const float xi = x[i];
    if (xi == 0.0f) continue;
    const float* row = wt + static_cast<size_t>(i) * static_cast<size_t>(out);
    for (int o = 0; o < out; ++o) y[o] += row[o] * xi;
  }
}

}  // namespace

std::shared_ptr<const Network> Network::load(const std::string& path) {
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error))
    refuse(path, "is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(path, "cannot be opened (no such file, or not readable)");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) refuse(path, "cannot be read");
  return std::make_shared<const Network>(parse(bytes.str(), path));
}

Network Network::parse(std::string_view bytes, const std::string& name) {
  Network net;
  net.name_ = name;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < kMagic.size() || bytes.substr(0, 7) != kMagic.substr(0, 7))
    refuse(name, "not a .smnet weight file (the first 8 bytes are not the magic SMNET\\0\\0\\1)");
  if (bytes[7] != kMagic[7])
    refuse(name, "format version " + std::to_string(static_cast<int>(data[7])) + ", this reader knows version 1");
  if (bytes.size() < 12) refuse(name, "too short: ends before the header length");
  const uint32_t header_len = read_u32le(data + 8);
  if (header_len > bytes.size() - 12)
    refuse(name, "too short: the header length says " + std::to_string(header_len) + " bytes, " +
                     std::to_string(bytes.size() - 12) + " follow");
  nlohmann::json h;
  try {  // strict, and bounded in size and depth (core/json.hpp)
    h = core::json::parse(bytes.substr(12, header_len));
  } catch (const core::InvalidInput& e) {
    refuse(name, std::string("header is not JSON: ") + e.what());
  }
  if (!h.is_object()) refuse(name, "header is not a JSON object");

  net.family_ = string_field(h, "family", name);
  net.game_ = string_field(h, "game", name);
  const std::string activation = string_field(h, "activation", name);
  if (activation != "relu") refuse(name, "activation '" + activation + "': only relu is known");
  net.observation_size_ = int_field(h, "observation_size", 1, 1 << 20, name, "header: ");
  net.num_actions_ = int_field(h, "num_actions", 1, 32768, name, "header: ");
  net.value_size_ = int_field(h, "value_size", 1, kMaxValueSize, name, "header: ");
  if (!h.contains("players") || !h["players"].is_array() || h["players"].empty())
    refuse(name, "header: 'players' must be a non-empty list of player counts");
  for (const auto& p : h["players"]) {
    if (!p.is_number_integer() || p.get<int64_t>() < 1 || p.get<int64_t>() > net.value_size_)
      refuse(name, "header: 'players' entries must be integers from 1 to value_size (" +
                       std::to_string(net.value_size_) + ")");
    net.players_.push_back(p.get<int>());
  }
  if (!h.contains("layers") || !h["layers"].is_array()) refuse(name, "header: missing key 'layers' (a list)");

  // Layers by role; the file holds them in header order.
  std::vector<Layer> in_file;
  int policy = -1, value = -1;
  std::vector<int> trunk;
  for (const auto& l : h["layers"]) {
    const std::string where = "header: layers[" + std::to_string(in_file.size()) + "]: ";
    if (!l.is_object()) refuse(name, where + "must be an object");
    if (!l.contains("name") || !l["name"].is_string()) refuse(name, where + "missing key 'name'");
    Layer layer;
    layer.name = l["name"].get<std::string>();
    layer.in = int_field(l, "in", 1, std::max(kMaxWidth, net.observation_size_), name, where);
    layer.out = int_field(l, "out", 1, std::max(kMaxWidth, net.num_actions_), name, where);
    const int index = static_cast<int>(in_file.size());
    if (layer.name == "policy" || layer.name == "value") {
      int& slot = layer.name == "policy" ? policy : value;
      if (slot >= 0) refuse(name, where + "a second '" + layer.name + "' layer");
      slot = index;
    } else if (layer.name.rfind("trunk.", 0) == 0 && layer.name.size() > 6 &&
               layer.name.substr(6) == std::to_string(trunk.size())) {
      trunk.push_back(index);
    } else {
      refuse(name, where + "name '" + layer.name + "': expected trunk.0, trunk.1, ... in order, policy, value");
    }
    in_file.push_back(layer);
  }
  if (policy < 0 || value < 0) refuse(name, "header: layers need a 'policy' and a 'value' layer");
  if (trunk.size() > kMaxTrunkLayers) refuse(name, "header: more than 16 trunk layers");

  // Sizes chain: observation -> trunk.0 -> ... -> (policy, value).
  int width = net.observation_size_;
  std::string from = "observation_size";
  auto chain = [&](const Layer& l) {
    if (l.in != width)
      refuse(name, "layer '" + l.name + "' takes " + std::to_string(l.in) + " inputs but " + from + " gives " +
                       std::to_string(width) + " (sizes do not chain)");
  };
  for (int t : trunk) {
    chain(in_file[t]);
    if (in_file[t].out > kMaxWidth) refuse(name, "layer '" + in_file[t].name + "' is wider than 4096");
    width = in_file[t].out;
    from = "'" + in_file[t].name + "'";
  }
  chain(in_file[policy]);
  chain(in_file[value]);
  if (in_file[policy].out != net.num_actions_)
    refuse(name, "layer 'policy' has " + std::to_string(in_file[policy].out) + " outputs, num_actions is " +
                     std::to_string(net.num_actions_));
  if (in_file[value].out != net.value_size_)
    refuse(name, "layer 'value' has " + std::to_string(in_file[value].out) + " outputs, value_size is " +
                     std::to_string(net.value_size_));

  // The exact size, then the floats (each weight matrix transposed for dense()).
  size_t floats = 0;
  for (const Layer& l : in_file) floats += static_cast<size_t>(l.in + 1) * static_cast<size_t>(l.out);
  const size_t expected = 12 + size_t{header_len} + 4 * floats;
  if (bytes.size() != expected)
    refuse(name, std::string("file is ") + (bytes.size() < expected ? "shorter" : "longer") + " than the header says (" +
                     std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected) + ")");
  net.params_.resize(floats);
  const unsigned char* p = data + 12 + header_len;
  size_t at = 0;
  for (Layer& l : in_file) {
    l.weights = at;
    for (int o = 0; o < l.out; ++o)
      for (int i = 0; i < l.in; ++i, p += 4)
        net.params_[at + static_cast<size_t>(i) * static_cast<size_t>(l.out) + static_cast<size_t>(o)] = read_f32le(p);
    at += static_cast<size_t>(l.in) * static_cast<size_t>(l.out);
    for (int o = 0; o < l.out; ++o, p += 4) net.params_[at++] = read_f32le(p);
  }
  for (size_t i = 0; i < floats; ++i)
    if (!std::isfinite(net.params_[i])) refuse(name, "a weight is not finite (NaN or infinity)");

  for (int t : trunk) net.layers_.push_back(in_file[t]);
  net.layers_.push_back(in_file[policy]);
  net.layers_.push_back(in_file[value]);
  net.n_trunk_ = static_cast<int>(trunk.size());
  return net;
}

void Network::check_game(std::string_view game, int observation_size, int num_actions) const {
  if (game_ != game) refuse(name_, "made for the game '" + game_ + "', not '" + std::string(game) + "'");
  if (observation_size_ != observation_size)
    refuse(name_, "observation_size " + std::to_string(observation_size_) + ", the game's observation has " +
                      std::to_string(observation_size));
  if (num_actions_ != num_actions)
    refuse(name_, "num_actions " + std::to_string(num_actions_) + ", the game has " + std::to_string(num_actions) +
                      " distinct actions");
}

void Network::check_players(int players) const {
  if (std::find(players_.begin(), players_.end(), players) != players_.end()) return;
  std::string known;
  for (int p : players_) known += (known.empty() ? "" : ", ") + std::to_string(p);
  refuse(name_, "trained for " + known + " players (family " + family_ + "), not " + std::to_string(players));
}

void Network::forward(const float* observation, float* policy_logits, float* value_logits) const {
  alignas(64) float a[kMaxWidth];
  alignas(64) float b[kMaxWidth];
  const float* x = observation;
  float* y = a;
  for (int t = 0; t < n_trunk_; ++t) {
    const Layer& l = layers_[static_cast<size_t>(t)];
    const float* w = params_.data() + l.weights;
    dense(w, w + static_cast<size_t>(l.in) * static_cast<size_t>(l.out), l.in, l.out, x, y);
    for (int o = 0; o < l.out; ++o) y[o] = std::max(y[o], 0.0f);
    x = y;
    y = y == a ? b : a;
  }
  for (int head = 0; head < 2; ++head) {
    float* out = head == 0 ? policy_logits : value_logits;
    if (!out) continue;
    const Layer& l = layers_[static_cast<size_t>(n_trunk_ + head)];
    const float* w = params_.data() + l.weights;
    dense(w, w + static_cast<size_t>(l.in) * static_cast<size_t>(l.out), l.in, l.out, x, out);
  }
}

void Network::value_shares(const float* value_logits, int players, int to_move, double* values) {
  float top = value_logits[0];
  for (int k = 1; k < players; ++k) top = std::max(top, value_logits[k]);
  double sum = 0.0;
  double e[kMaxValueSize];
  for (int k = 0; k < players; ++k) sum += e[k] = std::exp(static_cast<double>(value_logits[k] - top));
  for (int k = 0; k < players; ++k) values[(to_move + k) % players] = e[k] / sum;
}

// ---- The cache behind load_network (search/params.hpp) -----------------------------------

std::shared_ptr<const Network> load_network(const std::string& path) {
  struct Entry {
    std::uintmax_t size;
    std::filesystem::file_time_type time;
    std::shared_ptr<const Network> net;
  };
  static std::mutex mu;
  static std::map<std::string, Entry> cache;
  std::error_code size_error, time_error;
  const auto size = std::filesystem::file_size(path, size_error);
  const auto time = std::filesystem::last_write_time(path, time_error);
  std::lock_guard<std::mutex> lock(mu);
  if (!size_error && !time_error) {
    const auto it = cache.find(path);
    if (it != cache.end() && it->second.size == size && it->second.time == time) return it->second.net;
  }
  auto net = Network::load(path);  // throws for a missing file too
  if (!size_error && !time_error) cache[path] = Entry{size, time, net};
  return net;
}

std::optional<std::string> network_problem(const std::string& path) {
  try {
    load_network(path);
  } catch (const core::InvalidInput& e) {
    return e.what();
  }
  return std::nullopt;
}

}  // namespace search
