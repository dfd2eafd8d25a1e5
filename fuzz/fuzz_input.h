#pragma once

// What the fuzz targets share: a reader that turns the fuzzer's bytes into
// typed values (running out yields zeros, so every input is some input), and
// the way a target reports a broken property (abort, which libFuzzer and
// the replay driver both catch).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace adj::fuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size)
      : data_(data), size_(size) {}

  template <typename T>
  T Take() {
    T value{};
    const std::size_t n = sizeof(T) < size_ - pos_ ? sizeof(T) : size_ - pos_;
    std::memcpy(&value, data_ + pos_, n);
    pos_ += n;
    return value;
  }

  // A value in [0, bound); 0 when bound is 0.
  std::uint32_t Below(std::uint32_t bound) {
    const auto value = Take<std::uint32_t>();
    return bound == 0 ? 0 : value % bound;
  }

  std::size_t remaining() const { return size_ - pos_; }
  bool empty() const { return pos_ == size_; }

  std::string_view Rest() {
    const std::string_view rest(reinterpret_cast<const char*>(data_) + pos_,
                                size_ - pos_);
    pos_ = size_;
    return rest;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// A property the target asserts failed: say which, and abort so that the
// input is kept as a crash.
[[noreturn]] inline void Broken(const std::string& what) {
  std::fprintf(stderr, "adjacent fuzz: property broken: %s\n", what.c_str());
  std::abort();
}

}  // namespace adj::fuzz
