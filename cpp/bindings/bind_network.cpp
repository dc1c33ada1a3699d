// Python bindings of the C++ network reader and forward pass (search/network.hpp), so the
// trainer's outputs can be checked against what the search computes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/registry.hpp"
#include "core/types.hpp"
#include "search/network.hpp"
#include "search/params.hpp"

namespace bindings {

namespace py = pybind11;
using namespace pybind11::literals;

void bind_network(py::module_& m) {
  m.def(
      "network_info",
      [](const std::string& path) {
        const auto net = search::load_network(path);
        py::list layers;
        for (const auto& l : net->layers()) layers.append(py::dict("name"_a = l.name, "in"_a = l.in, "out"_a = l.out));
        return py::dict("family"_a = net->family(), "game"_a = net->game(), "players"_a = net->players(),
                        "observation_size"_a = net->observation_size(), "num_actions"_a = net->num_actions(),
                        "value_size"_a = net->value_size(), "layers"_a = layers);
      },
      py::arg("path"), "The header of a .smnet file as the C++ reader sees it; ValueError naming any problem.");
  m.def(
      "network_forward",
      [](const std::string& path, const py::array_t<float, py::array::c_style | py::array::forcecast>& observations,
         const std::string& kernel_name) {
        const auto kernel = search::Network::kernel_named(kernel_name);
        const auto net = search::load_network(path);
        if (observations.ndim() != 2 || observations.shape(1) != net->observation_size())
          throw core::InvalidInput("observations must be an array [batch, " + std::to_string(net->observation_size()) +
                                   "] for '" + path + "'");
        const py::ssize_t batch = observations.shape(0);
        py::array_t<float> policy({batch, static_cast<py::ssize_t>(net->num_actions())});
        py::array_t<float> value({batch, static_cast<py::ssize_t>(net->value_size())});
        const float* in = observations.data();
        float* p = policy.mutable_data();
        float* v = value.mutable_data();
        {
          py::gil_scoped_release released;
          for (py::ssize_t b = 0; b < batch; ++b)
            net->forward(kernel, in + b * net->observation_size(), p + b * net->num_actions(), v + b * net->value_size());
        }
        return py::make_tuple(policy, value);
      },
      py::arg("path"), py::arg("observations"), py::arg("kernel") = "best",
      "The C++ forward pass of a .smnet network: (policy logits [batch, num_actions], value logits "
      "[batch, value_size]) for observations [batch, observation_size] (docs/network-format.md). "
      "kernel: 'best' (what the search uses on this CPU), 'portable' or 'avx2' (ValueError if this CPU lacks it).");
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
