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

#ifdef __SSE2__
#include <immintrin.h>
#endif

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

// ---- The dense layer: y = b + W x, with a portable kernel and an AVX2 + FMA one ----------
//
// W is stored transposed ([in][stride], the stride `out` rounded up to kPad floats, the
// padding and b's zero), so an input's weights to a run of outputs are contiguous. The
// inputs that are not zero (about half of ReLU's outputs, a quarter of an observation)
// are listed first; then each block of outputs is summed over that list in vector registers,
// b + x[i0] W[i0] + x[i1] W[i1] + ... in ascending input order, as the plain loop did
// (the portable kernel gives its bits exactly; FMA rounds once per multiply-add).
constexpr int kPad = 8;

int padded(int out) { return (out + kPad - 1) / kPad * kPad; }

// The indices of the inputs that are not zero, ascending. On x86-64 without a branch per
// input: one compare of four gives a 4-bit mask of the nonzero ones, whose indices a table
// gives packed, and all four are stored (those past the count are overwritten next; they
// stay within idx, as n <= i). Eight are tested first, so a run of zeros costs one test.
#ifdef __SSE2__
struct PackedIndices {
  alignas(16) int32_t at[16][4] = {};
  constexpr PackedIndices() {
    for (int m = 0; m < 16; ++m)
      for (int i = 0, n = 0; i < 4; ++i)
        if (m >> i & 1) at[m][n++] = i;
  }
};
constexpr PackedIndices kPacked;
#endif

int nonzero_inputs(const float* x, int in, int* idx) {
  int n = 0, i = 0;
#ifdef __SSE2__
  auto pack = [&](int m, int at) {
    const __m128i packed = _mm_load_si128(reinterpret_cast<const __m128i*>(kPacked.at[m]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(idx + n), _mm_add_epi32(packed, _mm_set1_epi32(at)));
    n += __builtin_popcount(static_cast<unsigned>(m));
  };
  const __m128 zero = _mm_setzero_ps();
  for (; i + 8 <= in; i += 8) {
    const int lo = _mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(x + i), zero));
    const int hi = _mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(x + i + 4), zero));
    if ((lo | hi) == 0) continue;
    pack(lo, i);
    pack(hi, i + 4);
  }
  for (; i + 4 <= in; i += 4) pack(_mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(x + i), zero)), i);
#endif
  for (; i < in; ++i) {
    idx[n] = i;
    n += x[i] != 0.0f;
  }
  return n;
}

// R vectors of outputs from `o` on (kPart: the last one partly, up to `out`):
// b + sum_k x[idx[k]] W[idx[k]], then ReLU if asked. V is a GCC vector of floats, compiled
// to the caller's instruction set (always inlined into the kernels below).
template <class V, int R, bool kRelu, bool kPart>
[[gnu::always_inline]] inline void dense_block(const float* wt, const float* b, size_t stride, const int* idx,
                                               const float* x, int n, int o, int out, float* y) {
  constexpr int kLanes = sizeof(V) / sizeof(float);
  auto floats = [&](int r) {  // of vector r within `out`
    return kPart && r == R - 1 ? static_cast<size_t>(out - o - r * kLanes) * sizeof(float) : sizeof(V);
  };
  V acc[R] = {};
  // b may be y itself (a layer summed in pieces of its inputs): read as far as `out` only.
  for (int r = 0; r < R; ++r) std::memcpy(&acc[r], b + o + r * kLanes, floats(r));
  for (int k = 0; k < n; ++k) {
    const float* row = wt + static_cast<size_t>(idx[k]) * stride + static_cast<size_t>(o);
    const V xk = x[idx[k]] - V{};  // a broadcast (x + 0 would not fold: -0 + 0 is +0)
    for (int r = 0; r < R; ++r) {
      V w;
      std::memcpy(&w, row + r * kLanes, sizeof(V));
      acc[r] += w * xk;
    }
  }
  if constexpr (kRelu)
    for (int r = 0; r < R; ++r) acc[r] = acc[r] > V{} ? acc[r] : V{};
  for (int r = 0; r < R; ++r) std::memcpy(y + o + r * kLanes, &acc[r], floats(r));
}

// Blocks of kBlock vectors (in registers), then one block of the vectors left.
template <class V, int kBlock, bool kRelu>
[[gnu::always_inline]] inline void dense_kernel(const float* wt, const float* b, int out, const int* idx,
                                                const float* x, int n, float* y) {
  constexpr int kLanes = sizeof(V) / sizeof(float);
  static_assert(kPad % kLanes == 0 && kBlock <= 8);
  const size_t stride = static_cast<size_t>(padded(out));
  int o = 0;
  for (; o + kBlock * kLanes <= out; o += kBlock * kLanes)
    dense_block<V, kBlock, kRelu, false>(wt, b, stride, idx, x, n, o, out, y);
  switch ((out - o + kLanes - 1) / kLanes) {  // the stride's padding makes the last vector's weights whole
    case 0: break;
    case 1: dense_block<V, 1, kRelu, true>(wt, b, stride, idx, x, n, o, out, y); break;
    case 2: dense_block<V, 2, kRelu, true>(wt, b, stride, idx, x, n, o, out, y); break;
    case 3: dense_block<V, 3, kRelu, true>(wt, b, stride, idx, x, n, o, out, y); break;
    case 4: dense_block<V, 4, kRelu, true>(wt, b, stride, idx, x, n, o, out, y); break;
    case 5: dense_block<V, 5, kRelu, true>(wt, b, stride, idx, x, n, o, out, y); break;
    case 6: dense_block<V, 6, kRelu, true>(wt, b, stride, idx, x, n, o, out, y); break;
    default: dense_block<V, 7, kRelu, true>(wt, b, stride, idx, x, n, o, out, y); break;
  }
}

using Dense = void (*)(const float* wt, const float* b, int out, const int* idx, const float* x, int n, float* y,
                       bool relu);

// Portable: 4-float vectors (SSE at x86-64-v2), 8 of them (32 outputs) per block.
using V4 = float __attribute__((vector_size(16)));
void dense_portable(const float* wt, const float* b, int out, const int* idx, const float* x, int n, float* y,
                    bool relu) {
  if (relu)
    dense_kernel<V4, 8, true>(wt, b, out, idx, x, n, y);
  else
    dense_kernel<V4, 8, false>(wt, b, out, idx, x, n, y);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define SEARCH_NETWORK_AVX2 1
// AVX2 + FMA, chosen at run time (the build targets x86-64-v2): 8-float vectors, 8 of
// them (64 outputs) per block, each multiply-add contracted into one FMA here only (the
// build's -ffp-contract=off holds elsewhere; clang ignores the attribute: mul + add).
#ifdef __clang__
#define SEARCH_NETWORK_FMA target("avx2,fma")
#else
#define SEARCH_NETWORK_FMA target("avx2,fma"), optimize("fp-contract=fast")
#endif
using V8 = float __attribute__((vector_size(32)));
__attribute__((SEARCH_NETWORK_FMA)) void dense_avx2(const float* wt, const float* b, int out, const int* idx,
                                                    const float* x, int n, float* y, bool relu) {
  if (relu)
    dense_kernel<V8, 8, true>(wt, b, out, idx, x, n, y);
  else
    dense_kernel<V8, 8, false>(wt, b, out, idx, x, n, y);
}
#endif

Dense dense_for(Network::Kernel kernel) {
#ifdef SEARCH_NETWORK_AVX2
  if (kernel == Network::Kernel::kAvx2) return dense_avx2;
#endif
  (void)kernel;
  return dense_portable;
}

Network::Kernel detect_kernel() {
#ifdef SEARCH_NETWORK_AVX2
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Network::Kernel::kAvx2;
#endif
  return Network::Kernel::kPortable;
}

const Network::Kernel kBestKernel = detect_kernel();

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
  if (h.contains("features")) {
    if (!h["features"].is_string()) refuse(name, "header: 'features' must be a string");
    const std::string features = h["features"].get<std::string>();
    net.features_ = input_features_named(features);
    if (!net.features_) {
      std::string known;
      for (const InputFeatures& f : input_feature_sets()) known += (known.empty() ? "" : ", ") + std::string(f.name);
      refuse(name, "header: unknown input features '" + features + "' (known: " + known + ")");
    }
    if (net.features_->game != net.game_)
      refuse(name, "header: input features '" + features + "' are for the game '" + std::string(net.features_->game) +
                       "', not '" + net.game_ + "'");
    if (net.features_->observation_size != net.observation_size_)
      refuse(name, "header: input features '" + features + "' read an observation of " +
                       std::to_string(net.features_->observation_size) + " floats, observation_size is " +
                       std::to_string(net.observation_size_));
    net.feature_seats_ = *std::max_element(net.players_.begin(), net.players_.end());
    if (net.feature_seats_ > net.features_->max_seats)
      refuse(name, "header: input features '" + features + "' know at most " +
                       std::to_string(net.features_->max_seats) + " seats, the network plays " +
                       std::to_string(net.feature_seats_));
    if (net.input_size() > kMaxWidth)
      refuse(name, "header: the observation and its input features are wider than 4096");
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
    layer.in = int_field(l, "in", 1, std::max(kMaxWidth, net.input_size()), name, where);
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
  int width = net.input_size();
  std::string from = net.features_ ? "observation_size and the input features" : "observation_size";
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

  // The exact size, then the floats: each weight matrix transposed, its rows padded for dense().
  size_t file_floats = 0, floats = 0;
  for (const Layer& l : in_file) {
    file_floats += static_cast<size_t>(l.in + 1) * static_cast<size_t>(l.out);
    floats += static_cast<size_t>(l.in + 1) * static_cast<size_t>(padded(l.out));
  }
  const size_t expected = 12 + size_t{header_len} + 4 * file_floats;
  if (bytes.size() != expected)
    refuse(name, std::string("file is ") + (bytes.size() < expected ? "shorter" : "longer") + " than the header says (" +
                     std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected) + ")");
  net.params_.assign(floats, 0.0f);
  const unsigned char* p = data + 12 + header_len;
  size_t at = 0;
  for (Layer& l : in_file) {
    const auto stride = static_cast<size_t>(padded(l.out));
    l.weights = at;
    for (int o = 0; o < l.out; ++o)
      for (int i = 0; i < l.in; ++i, p += 4) {
        const float w = read_f32le(p);
        if (!std::isfinite(w)) refuse(name, "a weight is not finite (NaN or infinity)");
        net.params_[at + static_cast<size_t>(i) * stride + static_cast<size_t>(o)] = w;
      }
    at += static_cast<size_t>(l.in) * stride;
    for (int o = 0; o < l.out; ++o, p += 4) {
      const float w = read_f32le(p);
      if (!std::isfinite(w)) refuse(name, "a weight is not finite (NaN or infinity)");
      net.params_[at + static_cast<size_t>(o)] = w;
    }
    at += stride;
  }

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

void Network::forward(const float* observation, int players, float* policy_logits, float* value_logits) const {
  forward(kBestKernel, observation, players, policy_logits, value_logits);
}

void Network::forward(Kernel kernel, const float* observation, int players, float* policy_logits,
                      float* value_logits) const {
  const Dense dense = dense_for(kernel);
  alignas(64) float a[kMaxWidth];
  alignas(64) float b[kMaxWidth];
  alignas(64) float input[kMaxWidth];  // with features: the observation, then them (input_size() <= kMaxWidth)
  if (features_) {
    const int seats = std::clamp(players, 0, feature_seats_), per_seat = features_->per_seat;
    std::memcpy(input, observation, sizeof(float) * static_cast<size_t>(observation_size_));
    features_->compute(observation, seats, input + observation_size_);
    std::memset(input + observation_size_ + seats * per_seat, 0,
                sizeof(float) * static_cast<size_t>((feature_seats_ - seats) * per_seat));
    observation = input;
  }
  int idx[kMaxWidth];  // the nonzero inputs of one piece of kMaxWidth inputs
  // y = W x + b, summed over pieces of the inputs (an observation may be wider than kMaxWidth).
  auto layer = [&](const Layer& l, const float* x, float* y, bool relu) {
    const float* w = params_.data() + l.weights;
    const auto stride = static_cast<size_t>(padded(l.out));
    const float* bias = w + static_cast<size_t>(l.in) * stride;
    for (int from = 0; from < l.in; from += kMaxWidth) {
      const int len = std::min(kMaxWidth, l.in - from);
      const int n = nonzero_inputs(x + from, len, idx);
      dense(w + static_cast<size_t>(from) * stride, from == 0 ? bias : y, l.out, idx, x + from, n, y,
            relu && from + len == l.in);
    }
  };
  const float* x = observation;
  float* y = a;
  for (int t = 0; t < n_trunk_; ++t) {
    layer(layers_[static_cast<size_t>(t)], x, y, true);
    x = y;
    y = y == a ? b : a;
  }
  if (policy_logits) layer(layers_[static_cast<size_t>(n_trunk_)], x, policy_logits, false);
  if (value_logits) layer(layers_[static_cast<size_t>(n_trunk_ + 1)], x, value_logits, false);
}

Network::Kernel Network::best_kernel() { return kBestKernel; }

bool Network::supports(Kernel kernel) { return kernel == Kernel::kPortable || kernel == kBestKernel; }

const char* Network::kernel_name(Kernel kernel) { return kernel == Kernel::kAvx2 ? "avx2" : "portable"; }

Network::Kernel Network::kernel_named(std::string_view name) {
  if (name == "best") return kBestKernel;
  for (Kernel k : {Kernel::kPortable, Kernel::kAvx2}) {
    if (name != kernel_name(k)) continue;
    if (!supports(k)) throw core::InvalidInput("network kernel '" + std::string(name) + "': this CPU lacks AVX2 and FMA");
    return k;
  }
  throw core::InvalidInput("unknown network kernel '" + std::string(name) + "' (best, portable, avx2)");
}

std::vector<Network::Kernel> Network::supported_kernels() {
  std::vector<Kernel> out{Kernel::kPortable};
  if (kBestKernel != Kernel::kPortable) out.push_back(kBestKernel);
  return out;
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
