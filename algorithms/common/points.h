#pragma once

#include <cstddef>
#include <vector>

namespace adj {

// Particle positions as structure of arrays, so that SIMD and CUDA variants
// load each coordinate contiguously.
struct Points {
  std::vector<float> x;
  std::vector<float> y;
  std::vector<float> z;

  std::size_t size() const { return x.size(); }
  bool empty() const { return x.empty(); }
  void Resize(std::size_t n) {
    x.resize(n);
    y.resize(n);
    z.resize(n);
  }
  void PushBack(float px, float py, float pz) {
    x.push_back(px);
    y.push_back(py);
    z.push_back(pz);
  }

  friend bool operator==(const Points&, const Points&) = default;
};

}  // namespace adj
