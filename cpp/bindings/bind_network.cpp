// Python bindings of the C++ network reader and forward pass (search/network.hpp), so the
// trainer's outputs can be checked against what the search computes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bindings/registry.hpp"
#include "core/types.hpp"
#include "search/network.hpp"
#include "search/params.hpp"

namespace bindings {

namespace py = pybind11;
using namespace pybind11::literals;

namespace {
// Each observation's player count from an int or an array [batch]: InvalidInput unless
// each is one of `allowed`.
std::vector<int> player_counts(const py::object& players, py::ssize_t batch, const std::vector<int>& allowed,
                               const std::string& what) {
  const auto counts = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(players);
  if (!counts || (counts.ndim() != 0 && (counts.ndim() != 1 || counts.shape(0) != batch)))
    throw core::InvalidInput("players must be an int or an array [" + std::to_string(batch) + "] for " + what);
  std::vector<int> out(static_cast<size_t>(batch));
  for (py::ssize_t b = 0; b < batch; ++b) {
    const int64_t n = counts.ndim() == 0 ? counts.at() : counts.at(b);
    if (std::find(allowed.begin(), allowed.end(), n) == allowed.end()) {
      std::string known;
      for (int a : allowed) known += (known.empty() ? "" : ", ") + std::to_string(a);
      throw core::InvalidInput("players " + std::to_string(n) + " is not one of " + what + "'s (" + known + ")");
    }
    out[static_cast<size_t>(b)] = static_cast<int>(n);
  }
  return out;
}
}  // namespace

void bind_network(py::module_& m) {
  m.def(
      "network_info",
      [](const std::string& path) {
        const auto net = search::load_network(path);
        py::list layers;
        for (const auto& l : net->layers()) layers.append(py::dict("name"_a = l.name, "in"_a = l.in, "out"_a = l.out));
        return py::dict("family"_a = net->family(), "game"_a = net->game(), "players"_a = net->players(),
                        "observation_size"_a = net->observation_size(), "num_actions"_a = net->num_actions(),
                        "value_size"_a = net->value_size(), "layers"_a = layers,
                        "features"_a = net->features() ? py::object(py::str(std::string(net->features()->name)))
                                                       : py::object(py::none()),
                        "input_size"_a = net->input_size());
      },
      py::arg("path"), "The header of a .smnet file as the C++ reader sees it; ValueError naming any problem.");
  m.def(
      "network_forward",
      [](const std::string& path, const py::array_t<float, py::array::c_style | py::array::forcecast>& observations,
         const std::string& kernel_name, const py::object& players) {
        const auto kernel = search::Network::kernel_named(kernel_name);
        const auto net = search::load_network(path);
        if (observations.ndim() != 2 || observations.shape(1) != net->observation_size())
          throw core::InvalidInput("observations must be an array [batch, " + std::to_string(net->observation_size()) +
                                   "] for '" + path + "'");
        const py::ssize_t batch = observations.shape(0);
        if (players.is_none() && net->features() && net->players().size() > 1)
          throw core::InvalidInput("'" + path + "' reads input features, which depend on the player count: give players");
        const std::vector<int> seats = player_counts(players.is_none() ? py::int_(net->players().front()) : players,
                                                     batch, net->players(), "'" + path + "'");
        py::array_t<float> policy({batch, static_cast<py::ssize_t>(net->num_actions())});
        py::array_t<float> value({batch, static_cast<py::ssize_t>(net->value_size())});
        const float* in = observations.data();
        float* p = policy.mutable_data();
        float* v = value.mutable_data();
        {
          py::gil_scoped_release released;
          for (py::ssize_t b = 0; b < batch; ++b)
            net->forward(kernel, in + b * net->observation_size(), seats[static_cast<size_t>(b)],
                         p + b * net->num_actions(), v + b * net->value_size());
        }
        return py::make_tuple(policy, value);
      },
      py::arg("path"), py::arg("observations"), py::arg("kernel") = "best", py::arg("players") = py::none(),
      "The C++ forward pass of a .smnet network: (policy logits [batch, num_actions], value logits "
      "[batch, value_size]) for observations [batch, observation_size] (docs/network-format.md). "
      "kernel: 'best' (what the search uses on this CPU), 'portable' or 'avx2' (ValueError if this CPU lacks it). "
      "players: each observation's player count (an int or [batch]; needed for a network with input features "
      "that plays more than one count).");
  m.def(
      "input_feature_sets",
      [] {
        py::list sets;
        for (const auto& f : search::input_feature_sets())
          sets.append(py::dict("name"_a = std::string(f.name), "game"_a = std::string(f.game),
                               "help"_a = std::string(f.help), "observation_size"_a = f.observation_size,
                               "per_seat"_a = f.per_seat, "max_seats"_a = f.max_seats));
        return sets;
      },
      "The input features a network may read beside the observation (docs/network-format.md, 'features').");
  m.def(
      "input_features",
      [](const std::string& name, const py::array_t<float, py::array::c_style | py::array::forcecast>& observations,
         const py::object& players, int seats) {
        const search::InputFeatures* f = search::input_features_named(name);
        if (!f) throw core::InvalidInput("unknown input features '" + name + "'");
        if (seats < 1 || seats > f->max_seats)
          throw core::InvalidInput("seats must be from 1 to " + std::to_string(f->max_seats) + ", got " +
                                   std::to_string(seats));
        if (observations.ndim() != 2 || observations.shape(1) != f->observation_size)
          throw core::InvalidInput("observations must be an array [batch, " + std::to_string(f->observation_size) +
                                   "] for the input features '" + name + "'");
        const py::ssize_t batch = observations.shape(0);
        std::vector<int> allowed(static_cast<size_t>(seats));
        for (int s = 0; s < seats; ++s) allowed[static_cast<size_t>(s)] = s + 1;
        const std::vector<int> counts = player_counts(players, batch, allowed, "input features '" + name + "'");
        const int width = seats * f->per_seat;
        py::array_t<float> out({batch, static_cast<py::ssize_t>(width)});
        const float* in = observations.data();
        float* o = out.mutable_data();
        {
          py::gil_scoped_release released;
          for (py::ssize_t b = 0; b < batch; ++b) {
            float* row = o + b * width;
            const int n = counts[static_cast<size_t>(b)];
            f->compute(in + b * f->observation_size, n, row);
            std::fill(row + n * f->per_seat, row + width, 0.0f);
          }
        }
        return out;
      },
      py::arg("name"), py::arg("observations"), py::arg("players"), py::arg("seats"),
      "The input features `name` for observations [batch, observation_size] of games of `players` seats (an int "
      "or [batch]), for `seats` seats (the most the network plays): [batch, seats * per_seat], zeros past each "
      "row's player count (docs/network-format.md, 'features').");
  m.def(
      "network_kernels",
      [] {
        std::vector<std::string> names;
        for (auto k : search::Network::supported_kernels()) names.emplace_back(search::Network::kernel_name(k));
        return names;
      },
      "The forward-pass kernels this CPU runs: 'portable', then 'avx2' if it has AVX2 and FMA (the search uses the last).");
}

}  // namespace bindings
