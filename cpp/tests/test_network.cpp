// C++ checks of the network reader's refusals, the forward pass on a hand-checkable
// network and the search with a network (search/network.hpp, search/puct.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "search/mcts.hpp"
#include "search/network.hpp"
#include "splendor/game.hpp"

using search::Network;

namespace {

// The bytes of a .smnet file: magic, header length, header, floats.
std::string smnet(const std::string& header, const std::vector<float>& floats, char version = 1) {
  std::string out("SMNET\0\0", 7);
  out += version;
  const auto h = static_cast<uint32_t>(header.size());
  for (int i = 0; i < 4; ++i) out += static_cast<char>((h >> (8 * i)) & 0xff);
  out += header;
  for (float f : floats) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    for (int i = 0; i < 4; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xff);
  }
  return out;
}

std::string header(int obs, int hidden, int actions, const std::string& game = "toy", const std::string& extra = "") {
  const std::string o = std::to_string(obs), h = std::to_string(hidden), a = std::to_string(actions);
  return R"({"family": "toy-2p", "game": ")" + game + R"(", "players": [2], "observation_size": )" + o +
         R"(, "num_actions": )" + a + R"(, "value_size": 4, "activation": "relu", "layers": [)" +
         R"({"name": "trunk.0", "in": )" + o + R"(, "out": )" + h + R"(}, {"name": "policy", "in": )" + h +
         R"(, "out": )" + a + R"(}, {"name": "value", "in": )" + h + R"(, "out": 4}])" + extra + "}";
}

// trunk 3 -> 2, policy 2 -> 2, value 2 -> 4: every output worked out by hand below.
std::vector<float> tiny_floats() {
  return {1, -1, 0, 0.5f, 0.5f, 1, /* b */ 0, -1,           // trunk.0
          1, 2, 3, -1, /* b */ 0.5f, 0,                       // policy
          1, 0, 0, 1, 1, 1, 0, 0, /* b */ 0, 0, 0, 1};       // value
}

std::string refusal(const std::string& bytes) {
  try {
    Network::parse(bytes, "bad.smnet");
  } catch (const core::InvalidInput& e) {
    return e.what();
  }
  return "(accepted)";
}

bool mentions(const std::string& text, const char* what) {
  const bool ok = text.find(what) != std::string::npos && text.find("bad.smnet") != std::string::npos;
  if (!ok) MESSAGE("message: " << text);
  return ok;
}

}  // namespace

TEST_CASE("network: the forward pass of a hand-checkable network") {
  const Network net = Network::parse(smnet(header(3, 2, 2), tiny_floats()), "tiny.smnet");
  const float x[3] = {1, 2, 3};
  float policy[2], value[4];
  net.forward(x, 2, policy, value);
  // hidden = relu([1 - 2, 0.5 + 1 + 3 - 1]) = [0, 3.5]
  CHECK(policy[0] == doctest::Approx(7.5));   // 0.5 + 1 * 0 + 2 * 3.5
  CHECK(policy[1] == doctest::Approx(-3.5));  // 0 + 3 * 0 - 1 * 3.5
  CHECK(value[0] == doctest::Approx(0.0));
  CHECK(value[1] == doctest::Approx(3.5));
  CHECK(value[2] == doctest::Approx(3.5));
  CHECK(value[3] == doctest::Approx(1.0));
  double shares[2];
  Network::value_shares(value, 2, 1, shares);  // index 0 is seat 1 (to move), index 1 seat 0
  CHECK(shares[1] == doctest::Approx(1.0 / (1.0 + std::exp(3.5))));
  CHECK(shares[0] == doctest::Approx(std::exp(3.5) / (1.0 + std::exp(3.5))));
  float only_value[4];
  net.forward(x, 2, nullptr, only_value);
  CHECK(only_value[1] == doctest::Approx(3.5));
}

TEST_CASE("network: the reader refuses each malformed file with a message naming it") {
  const std::string good = smnet(header(3, 2, 2), tiny_floats());
  CHECK(mentions(refusal(std::string("SMNXT\0\0\1", 8)), "not a .smnet"));
  CHECK(mentions(refusal(smnet(header(3, 2, 2), tiny_floats(), 2)), "format version 2"));
  CHECK(mentions(refusal(good.substr(0, 10)), "too short"));
  CHECK(mentions(refusal(smnet("{not json", tiny_floats())), "not JSON"));
  CHECK(mentions(refusal(smnet("[1, 2]", tiny_floats())), "not a JSON object"));
  std::string no_game = header(3, 2, 2);
  no_game.replace(no_game.find("\"game\""), 6, "\"gamx\"");
  CHECK(mentions(refusal(smnet(no_game, tiny_floats())), "missing key 'game'"));
  std::string bad_chain = header(3, 2, 2);
  bad_chain.replace(bad_chain.find("\"name\": \"policy\", \"in\": 2"), 25, "\"name\": \"policy\", \"in\": 5");
  CHECK(mentions(refusal(smnet(bad_chain, tiny_floats())), "do not chain"));
  std::vector<float> short_floats = tiny_floats();
  short_floats.pop_back();
  CHECK(mentions(refusal(smnet(header(3, 2, 2), short_floats)), "shorter than the header says"));
  std::vector<float> long_floats = tiny_floats();
  long_floats.push_back(0);
  CHECK(mentions(refusal(smnet(header(3, 2, 2), long_floats)), "longer than the header says"));
  std::vector<float> nan = tiny_floats();
  nan[9] = std::numeric_limits<float>::quiet_NaN();
  CHECK(mentions(refusal(smnet(header(3, 2, 2), nan)), "not finite"));
  nan[9] = std::numeric_limits<float>::infinity();
  CHECK(mentions(refusal(smnet(header(3, 2, 2), nan)), "not finite"));
  std::string tanh = header(3, 2, 2);
  tanh.replace(tanh.find("relu"), 4, "tanh");
  CHECK(mentions(refusal(smnet(tanh, tiny_floats())), "only relu"));
  const Network net = Network::parse(good, "bad.smnet");
  auto game_refusal = [&](auto&& check) {
    try {
      check();
    } catch (const core::InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(mentions(game_refusal([&] { net.check_game("splendor", 3, 2); }), "made for the game 'toy'"));
  CHECK(mentions(game_refusal([&] { net.check_game("toy", 4, 2); }), "observation_size 3"));
  CHECK(mentions(game_refusal([&] { net.check_game("toy", 3, 7); }), "num_actions 2"));
  CHECK(mentions(game_refusal([&] { net.check_players(3); }), "not 3"));
  CHECK(game_refusal([&] { net.check_game("toy", 3, 2); }) == "(accepted)");
  CHECK_THROWS_AS(Network::load("no/such/file.smnet"), core::InvalidInput);
}

TEST_CASE("network: input features are registered by their game, once per name") {
  search::register_game_input_features<splendor::Game>();
  search::register_game_input_features<splendor::Game>();  // again: nothing changes
  const auto sets = search::input_feature_sets();
  CHECK(std::count_if(sets.begin(), sets.end(), [](const search::InputFeatures& f) { return f.name == "needs"; }) == 1);
  REQUIRE(search::input_features_named("needs") != nullptr);
  CHECK(search::input_features_named("needs")->game == "splendor");
  CHECK(search::input_features_named("wants") == nullptr);
  search::InputFeatures other = *search::input_features_named("needs");
  other.game = "toy";
  CHECK_THROWS_WITH_AS(search::register_input_features(std::span<const search::InputFeatures>(&other, 1)),
                       "input features 'needs' of the game 'toy': the name is taken by the game 'splendor'",
                       std::logic_error);
}

TEST_CASE("network: input features are declared, checked and read after the observation") {
  search::register_game_input_features<splendor::Game>();
  using splendor::kNeedsPerSeat;
  using splendor::kObservationSize;
  const int obs = kObservationSize, actions = 3, hidden = 2;
  auto splendor_header = [&](int in, const std::string& features) {
    std::string h = header(obs, hidden, actions, "splendor", R"(, "features": )" + features);
    h.replace(h.find("\"in\": " + std::to_string(obs)), 6 + std::to_string(obs).size(), "\"in\": " + std::to_string(in));
    return h;
  };
  const int in = obs + 2 * kNeedsPerSeat;  // "players": [2]
  // trunk.0 sums the 9 needs of seat 0's first table card (the observation is weighted 0),
  // trunk.1 = 0; policy = trunk; value = 0.
  std::vector<float> floats(static_cast<size_t>(in * hidden), 0.0f);
  for (int k = 0; k < splendor::kNeedsPerCard; ++k) floats[static_cast<size_t>(obs + k)] = 1.0f;
  floats.insert(floats.end(), {0, 0, /* policy */ 1, 0, 0, 1, 0, 0, 0, 0, 0, /* value */ 0, 0, 0, 0, 0, 0, 0, 0,
                               0, 0, 0, 0});
  const Network net = Network::parse(smnet(splendor_header(in, "\"needs\""), floats), "needs.smnet");
  REQUIRE(net.features() != nullptr);
  CHECK(net.input_size() == in);
  const splendor::State s = splendor::State::initial(splendor::Config::standard(2), 7, false);
  float x[kObservationSize], needs[2 * kNeedsPerSeat];
  s.observation_tensor(0, x);
  splendor::needs_features(x, 2, needs);
  float want = 0.0f;
  for (int k = 0; k < splendor::kNeedsPerCard; ++k) want += needs[k];
  CHECK(want > 0.0f);  // nothing is bought at the start
  for (const Network::Kernel kernel : Network::supported_kernels()) {
    float policy[actions], value[4];
    net.forward(kernel, x, 2, policy, value);
    CHECK(policy[0] == doctest::Approx(want));
  }
  CHECK(mentions(refusal(smnet(splendor_header(in, "\"wants\""), floats)), "unknown input features 'wants'"));
  CHECK(mentions(refusal(smnet(splendor_header(in, "3"), floats)), "'features' must be a string"));
  CHECK(mentions(refusal(smnet(splendor_header(obs, "\"needs\""), floats)), "do not chain"));
  std::string duel = header(obs, hidden, actions, "duel", R"(, "features": "needs")");
  CHECK(mentions(refusal(smnet(duel, floats)), "are for the game 'splendor', not 'duel'"));
  std::string wrong_size = header(obs - 1, hidden, actions, "splendor", R"(, "features": "needs")");
  CHECK(mentions(refusal(smnet(wrong_size, floats)), "read an observation of 474 floats"));
}

TEST_CASE("network: a strong prior draws the search's visits, priors reach the result") {
  using G = splendor::Game;
  const splendor::State root = splendor::State::initial(splendor::Config::standard(2), 3, false);
  G::ActionList legal;
  root.legal_actions(legal);
  REQUIRE(legal.size() > 2);
  const core::Action favourite = legal[legal.size() / 2];
  // No trunk weights to speak of: the policy is its bias (favourite far ahead), the value 50:50.
  const int n = G::kObservationSize, a = G::kNumDistinctActions, h = 4;
  std::vector<float> floats(static_cast<size_t>((n + 1) * h + (h + 1) * a + (h + 1) * 4), 0.0f);
  floats[static_cast<size_t>((n + 1) * h + h * a + favourite)] = 5.0f;  // the policy bias
  const std::string path = "test_network_prior.smnet";
  {
    std::ofstream out(path, std::ios::binary);
    out << smnet(header(n, h, a, "splendor"), floats);
  }
  search::SearchParams p;
  p.iterations = 400;
  p.network = path;
  search::MCTS<G> mcts(p);
  const search::SearchResult r = mcts.search(root);
  REQUIRE(!r.moves.empty());
  CHECK(r.best_action == favourite);
  double total = 0.0;
  for (const auto& m : r.moves) total += m.prior;
  CHECK(total <= 1.0 + 1e-5);
  CHECK(r.moves[0].prior > 0.5);
  for (const auto mode : {search::Parallelism::kRoot, search::Parallelism::kTree}) {
    search::SearchParams threaded = p;  // two threads, each kind of tree, and a reused tree
    threaded.threads = 2;
    threaded.parallelism = mode;
    search::MCTS<G> two(threaded);
    CHECK(two.search(root).best_action == favourite);
    splendor::State next = root;
    next.apply(favourite);
    core::Rng rng(1);
    next.apply(next.heuristic_action(rng));
    CHECK(!two.search(next).moves.empty());
  }
  search::SearchParams plain;
  plain.iterations = 50;
  search::MCTS<G> without(plain);
  CHECK(without.search(root).moves[0].prior < 0.0);
  std::remove(path.c_str());
}

namespace {

// The forward pass in plain loops over the file's own layout (W [out][in], then b): each
// output summed as b + x[0] W[o][0] + x[1] W[o][1] + ... in float, zero inputs skipped.
std::vector<float> reference_layer(const std::vector<float>& f, size_t& at, int in, int out, const std::vector<float>& x,
                                   bool relu) {
  std::vector<float> y(static_cast<size_t>(out));
  for (int o = 0; o < out; ++o) {
    float sum = f[at + static_cast<size_t>(in) * static_cast<size_t>(out) + static_cast<size_t>(o)];
    for (int i = 0; i < in; ++i)
      if (x[static_cast<size_t>(i)] != 0.0f) sum += f[at + static_cast<size_t>(o * in + i)] * x[static_cast<size_t>(i)];
    y[static_cast<size_t>(o)] = relu ? std::max(sum, 0.0f) : sum;
  }
  at += static_cast<size_t>(in + 1) * static_cast<size_t>(out);
  return y;
}

}  // namespace

TEST_CASE("network: every kernel gives the plain loops' outputs, the portable one to the bit") {
  // Widths that are not multiples of the vector widths, and an observation wider than
  // the pieces (Network::kMaxWidth) its nonzero inputs are listed in.
  for (const auto& [obs, hidden, actions] : {std::tuple{37, 70, 13}, std::tuple{5000, 9, 177}, std::tuple{3, 64, 684}}) {
    CAPTURE(obs);
    uint64_t seed = 12345;
    auto next = [&] {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<float>(static_cast<int>(seed >> 40) % 2001 - 1000) / 1000.0f;
    };
    std::vector<float> floats(static_cast<size_t>((obs + 1) * hidden + (hidden + 1) * actions + (hidden + 1) * 4));
    for (float& f : floats) f = next();
    const Network net = Network::parse(smnet(header(obs, hidden, actions), floats), "random.smnet");
    std::vector<float> x(static_cast<size_t>(obs));
    for (size_t i = 0; i < x.size(); ++i) x[i] = i % 3 == 0 ? next() : 0.0f;  // two thirds zero
    size_t at = 0;
    const auto h = reference_layer(floats, at, obs, hidden, x, true);
    const auto want_policy = reference_layer(floats, at, hidden, actions, h, false);
    const auto want_value = reference_layer(floats, at, hidden, 4, h, false);
    CHECK(Network::supports(Network::Kernel::kPortable));
    CHECK(Network::supports(Network::best_kernel()));
    for (const Network::Kernel kernel : Network::supported_kernels()) {
      CAPTURE(Network::kernel_name(kernel));
      std::vector<float> policy(static_cast<size_t>(actions)), value(4);
      net.forward(kernel, x.data(), 2, policy.data(), value.data());
      for (size_t a = 0; a < policy.size(); ++a) {
        if (kernel == Network::Kernel::kPortable)
          CHECK(policy[a] == want_policy[a]);
        else
          CHECK(policy[a] == doctest::Approx(want_policy[a]).epsilon(1e-4));
      }
      for (size_t v = 0; v < 4; ++v) CHECK(value[v] == doctest::Approx(want_value[v]).epsilon(1e-4));
    }
  }
}

TEST_CASE("network: kernels by name") {
  CHECK(Network::kernel_named("portable") == Network::Kernel::kPortable);
  CHECK(Network::kernel_named("best") == Network::best_kernel());
  CHECK_THROWS_WITH_AS(Network::kernel_named("sse9"), "unknown network kernel 'sse9' (best, portable, avx2)",
                       core::InvalidInput);
  if (!Network::supports(Network::Kernel::kAvx2))
    CHECK_THROWS_AS(Network::kernel_named("avx2"), core::InvalidInput);
}

TEST_CASE("network: a policy cache entry gives choose_untried's moves and priors while the legal moves stay") {
  using G = splendor::Game;
  constexpr int kActions = G::kNumDistinctActions;
  uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (int round = 0; round < 200; ++round) {
    CAPTURE(round);
    float logits[kActions];
    for (float& l : logits) l = static_cast<float>(next() % 7) * 0.5f;  // few values: many equal priors
    search::ActionBits<G> legal{}, seen{};
    int n = 0;
    for (int a = 0; a < kActions; ++a)
      if (next() % 4 == 0) {
        search::bits::set(legal, a);
        ++n;
      }
    for (int a = 0; a < kActions; ++a)  // a few children from before the entry
      if (search::bits::test(legal, a) && next() % 10 == 0) search::bits::set(seen, a);
    search::puct::NodePolicy<G> entry;
    search::puct::policy_entry<G>(logits, legal, seen, entry);
    int refreshed = 0;
    for (int untried = n - search::bits::count(seen); untried > 0; --untried) {
      float want_prior = 0.0f, want_next = 0.0f, prior = 0.0f, next_prior = 0.0f;
      const core::Action want = search::puct::choose_untried<G>(logits, legal, seen, want_prior, want_next);
      core::Action a = search::puct::choose_cached<G>(entry, legal, seen, untried, prior, next_prior);
      if (a < 0) {  // the entry cannot tell: a fresh one from the same logits
        ++refreshed;
        search::puct::policy_entry<G>(logits, legal, seen, entry);
        a = search::puct::choose_cached<G>(entry, legal, seen, untried, prior, next_prior);
      }
      REQUIRE(a == want);
      CHECK(prior == want_prior);
      CHECK(next_prior == want_next);
      search::bits::set(seen, a);
    }
    CHECK(refreshed <= n / (search::puct::NodePolicy<G>::kMoves - 1));  // each entry serves kMoves - 1 expansions or more
  }
}

TEST_CASE("network: a policy cache entry does not answer where a move without a child was not legal when made") {
  using G = splendor::Game;
  float logits[G::kNumDistinctActions] = {};
  logits[3] = 2.0f;
  logits[9] = 1.0f;
  search::ActionBits<G> legal{}, seen{};
  for (const int a : {3, 5, 9}) search::bits::set(legal, a);
  search::puct::NodePolicy<G> entry;
  search::puct::policy_entry<G>(logits, legal, seen, entry);
  float prior = 0.0f, next = 0.0f;
  CHECK(search::puct::choose_cached<G>(entry, legal, seen, 3, prior, next) == 3);
  search::ActionBits<G> other = legal;
  search::bits::set(other, 20);  // legal in another sample only: the entry never ranked it
  CHECK(search::puct::choose_cached<G>(entry, other, seen, 4, prior, next) == -1);
  search::bits::set(seen, 20);  // with a child already, it is not for the entry to rank
  CHECK(search::puct::choose_cached<G>(entry, other, seen, 3, prior, next) == 3);
  search::ActionBits<G> fewer{};  // moves gone in this sample are passed over
  search::bits::set(fewer, 5);
  search::bits::set(fewer, 9);
  CHECK(search::puct::choose_cached<G>(entry, fewer, search::ActionBits<G>{}, 2, prior, next) == 9);
  CHECK(next == entry.prior[2]);
}

namespace {

// A network with random weights for `G` (trunk of `hidden`), written to `path`.
template <class G>
void write_random_network(const std::string& path, int hidden) {
  const int n = G::kObservationSize, a = G::kNumDistinctActions;
  std::vector<float> floats(static_cast<size_t>((n + 1) * hidden + (hidden + 1) * a + (hidden + 1) * 4));
  uint32_t x = 7;
  for (float& f : floats) {
    x = x * 1664525u + 1013904223u;
    f = static_cast<float>(x >> 8) / 16777216.0f - 0.5f;
  }
  std::ofstream out(path, std::ios::binary);
  out << smnet(header(n, hidden, a, G::kName), floats);
}

}  // namespace

TEST_CASE("network: the policy cache searches as the policy run at each expansion where samples agree") {
  using G = splendor::Game;
  const std::string path = "test_network_policy_cache.smnet";
  write_random_network<G>(path, 16);
  const splendor::State root = splendor::State::initial(splendor::Config::standard(2), 5, false);
  search::SearchParams p;
  p.iterations = 3000;
  p.seed = 3;
  p.network = path;
  p.value_mix = 0.5;
  auto same = [](const search::SearchResult& a, const search::SearchResult& b) {
    if (a.moves.size() != b.moves.size() || a.nodes != b.nodes) return false;
    for (size_t i = 0; i < a.moves.size(); ++i)
      if (a.moves[i].action != b.moves[i].action || a.moves[i].visits != b.moves[i].visits ||
          a.moves[i].win_rate != b.moves[i].win_rate || a.moves[i].prior != b.moves[i].prior)
        return false;
    return true;
  };
  // The searches, then the next ones a turn of each player on, along the principal
  // variation (a reused tree, its root's entry dropped).
  auto searches = [&](search::SearchParams q) {
    search::MCTS<G> mcts(q);
    std::vector<search::SearchResult> out{mcts.search(root)};
    splendor::State next = root;
    for (const core::Action a : out[0].moves[0].pv) {
      next.apply(a);
      if (next.current_player() == root.current_player()) break;
    }
    REQUIRE(next.current_player() == root.current_player());
    out.push_back(mcts.search(next));
    return out;
  };
  SUBCASE("perfect information: each node is one position, the cache is exact") {
    p.perfect_information = true;
    search::SearchParams off = p;
    off.policy_cache = false;
    const auto cached = searches(p), run = searches(off);
    CHECK(same(cached[0], run[0]));
    CHECK(cached[1].reused_visits > 0);
    CHECK(same(cached[1], run[1]));
    CHECK(cached[0].bytes > run[0].bytes);  // the entries are counted
  }
  SUBCASE("hidden cards: a node's samples differ, the cache keeps the first's priors") {
    search::SearchParams off = p;
    off.policy_cache = false;
    const auto cached = searches(p), run = searches(off);
    CHECK(cached[0].nodes == run[0].nodes);
    CHECK(!same(cached[0], run[0]));
  }
  SUBCASE("the entries stay within memory_limit") {
    p.iterations = 40000;
    p.memory_limit = 1 << 20;  // one chunk of nodes and priors (576 KiB), then one of entries (320 KiB)
    search::MCTS<G> mcts(p);
    const search::SearchResult r = mcts.search(root);
    CHECK(r.memory_full);
    CHECK(r.bytes == search::Tree::kChunkBytes + search::Tree::kPriorChunkBytes +
                         sizeof(search::puct::NodePolicy<G>) * search::Tree::kPolicyChunkSize);
  }
  SUBCASE("tree parallelism shares the entries") {
    p.threads = 2;
    p.parallelism = search::Parallelism::kTree;
    search::MCTS<G> mcts(p);
    const search::SearchResult r = mcts.search(root);
    CHECK(r.iterations == 3000);
    CHECK(r.bytes > search::Tree::kChunkBytes + search::Tree::kPriorChunkBytes);
  }
  std::remove(path.c_str());
}
