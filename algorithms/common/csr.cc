#include "algorithms/common/csr.h"

#include <string>

#include "algorithms/common/errors.h"

namespace adj {

void ValidateCsr(const Csr& csr, std::size_t index_bound) {
  if (csr.offsets.empty()) throw Error("Csr: offsets is empty (needs rows+1)");
  if (csr.offsets.front() != 0) throw Error("Csr: offsets[0] != 0");
  for (std::size_t row = 0; row + 1 < csr.offsets.size(); ++row) {
    if (csr.offsets[row] > csr.offsets[row + 1]) {
      throw Error("Csr: offsets decrease at row " + std::to_string(row));
    }
  }
  if (csr.offsets.back() != csr.indices.size()) {
    throw Error("Csr: offsets end at " + std::to_string(csr.offsets.back()) +
                " but there are " + std::to_string(csr.indices.size()) +
                " indices");
  }
  if (index_bound == 0) return;
  for (std::size_t k = 0; k < csr.indices.size(); ++k) {
    if (csr.indices[k] >= index_bound) {
      throw Error("Csr: index " + std::to_string(csr.indices[k]) +
                  " at entry " + std::to_string(k) + " is not below " +
                  std::to_string(index_bound));
    }
  }
}

}  // namespace adj
