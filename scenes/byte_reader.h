#pragma once

// A cursor over a binary body whose errors name the byte offset of the
// field being read. Internal to scenes/.

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "scenes/mesh_io.h"

namespace adj::scenes::detail {

// The scalar types of PLY (and STL's float32 and uint16/uint32).
enum class Scalar {
  kInt8,
  kUint8,
  kInt16,
  kUint16,
  kInt32,
  kUint32,
  kFloat32,
  kFloat64
};

inline std::size_t SizeOf(Scalar type) {
  switch (type) {
    case Scalar::kInt8:
    case Scalar::kUint8:
      return 1;
    case Scalar::kInt16:
    case Scalar::kUint16:
      return 2;
    case Scalar::kInt32:
    case Scalar::kUint32:
    case Scalar::kFloat32:
      return 4;
    case Scalar::kFloat64:
      return 8;
  }
  return 8;
}

inline bool IsInteger(Scalar type) {
  return type != Scalar::kFloat32 && type != Scalar::kFloat64;
}

class ByteReader {
 public:
  // Reads `text` from `offset` on; `big_endian` says how multi-byte scalars
  // are stored.
  ByteReader(std::string_view text, std::size_t offset, bool big_endian,
             std::string name)
      : text_(text),
        pos_(offset),
        big_endian_(big_endian),
        name_(std::move(name)) {}

  std::size_t offset() const { return pos_; }
  std::size_t remaining_bytes() const { return text_.size() - pos_; }
  // "<name>: byte <offset>", how every message of this reader begins.
  std::string Where() const { return name_ + ": byte " + std::to_string(pos_); }

  [[noreturn]] void FailAt(std::size_t offset,
                           const std::string& reason) const {
    throw ParseError(name_, ByteOffset{offset}, reason);
  }

  // Throws the truncation error unless `bytes` more bytes follow.
  void Need(std::size_t bytes, std::string_view what) const {
    if (bytes > remaining_bytes()) {
      FailAt(text_.size(), "unexpected end of file: " + std::string(what) +
                               " needs " + std::to_string(bytes) +
                               " bytes from byte " + std::to_string(pos_) +
                               ", " + std::to_string(remaining_bytes()) +
                               " remain");
    }
  }

  void Skip(std::size_t bytes, std::string_view what) {
    Need(bytes, what);
    pos_ += bytes;
  }

  // Exactly representable for every integer type; the value of a float.
  double Real(Scalar type, std::string_view what) {
    switch (type) {
      case Scalar::kInt8:
        return static_cast<std::int8_t>(Bits(1, what));
      case Scalar::kUint8:
        return static_cast<double>(Bits(1, what));
      case Scalar::kInt16:
        return static_cast<std::int16_t>(Bits(2, what));
      case Scalar::kUint16:
        return static_cast<double>(Bits(2, what));
      case Scalar::kInt32:
        return static_cast<std::int32_t>(Bits(4, what));
      case Scalar::kUint32:
        return static_cast<double>(Bits(4, what));
      case Scalar::kFloat32:
        return std::bit_cast<float>(static_cast<std::uint32_t>(Bits(4, what)));
      case Scalar::kFloat64:
        return std::bit_cast<double>(Bits(8, what));
    }
    return 0;
  }

  std::int64_t Integer(Scalar type, std::string_view what) {
    switch (type) {
      case Scalar::kInt8:
        return static_cast<std::int8_t>(Bits(1, what));
      case Scalar::kInt16:
        return static_cast<std::int16_t>(Bits(2, what));
      case Scalar::kInt32:
        return static_cast<std::int32_t>(Bits(4, what));
      default:
        return static_cast<std::int64_t>(Bits(SizeOf(type), what));
    }
  }

  // A coordinate of `type` as float: finite, and within float's range once
  // rounded to nearest (a double just past FLT_MAX rounds to it, as the text
  // loaders' from_chars does).
  float Coordinate(Scalar type, std::string_view what) {
    const std::size_t at = pos_;
    const double value = Real(type, what);
    if (!std::isfinite(value)) {
      FailAt(at, std::string(what) + " " + std::to_string(value) +
                     " is not finite");
    }
    // Half an ulp of FLT_MAX above it: from there on rounding gives inf.
    constexpr double kFirstOverflow = static_cast<double>(FLT_MAX) + 0x1p103;
    if (std::fabs(value) >= kFirstOverflow) {
      FailAt(at, std::string(what) + " " + std::to_string(value) +
                     " overflows float");
    }
    if (std::fabs(value) > FLT_MAX) return value < 0 ? -FLT_MAX : FLT_MAX;
    return static_cast<float>(value);
  }

 private:
  std::uint64_t Bits(std::size_t bytes, std::string_view what) {
    Need(bytes, what);
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < bytes; ++i) {
      const std::size_t byte = big_endian_ ? i : bytes - 1 - i;
      bits = bits << 8 | static_cast<unsigned char>(text_[pos_ + byte]);
    }
    pos_ += bytes;
    return bits;
  }

  std::string_view text_;
  std::size_t pos_;
  bool big_endian_;
  std::string name_;
};

}  // namespace adj::scenes::detail
