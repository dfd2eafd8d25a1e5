#pragma once

#include <cstddef>
#include <cstdint>

namespace adj {

// A parallel counting sort's middle step. Each of `team` threads counted
// the keys of its own contiguous block of items, thread u's count of key k
// at counts[u * keys + k]; this turns every count into that thread's first
// place for the key in an order that is key-major, thread-minor (a key's
// items contiguous, thread 0's block first), so that threads placing their
// blocks in ascending order give the serial, stable order. key_begin
// (keys + 1 entries) receives each key's first place, then the total.
// Serial: one thread calls it between the counting and the placing.
inline void KeyMajorOffsets(std::uint32_t* counts, std::size_t team,
                            std::size_t keys, std::uint32_t* key_begin) {
  std::uint32_t running = 0;
  for (std::size_t k = 0; k < keys; ++k) {
    key_begin[k] = running;
    for (std::size_t u = 0; u < team; ++u) {
      std::uint32_t& count = counts[u * keys + k];
      const std::uint32_t mine = count;
      count = running;
      running += mine;
    }
  }
  key_begin[keys] = running;
}

}  // namespace adj
