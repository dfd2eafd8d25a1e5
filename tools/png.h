#pragma once

// A PNG writer for the command line's snapshots: 8-bit RGB, no
// compression (zlib stored blocks), so that it needs no library.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace adj::cli {

struct Image {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgb;  // row by row, 3 bytes a pixel

  Image(std::uint32_t w, std::uint32_t h, std::uint8_t fill = 255)
      : width(w), height(h), rgb(std::size_t{w} * h * 3, fill) {}
  void Set(std::uint32_t x, std::uint32_t y, std::uint32_t color) {
    std::uint8_t* at = &rgb[(std::size_t{y} * width + x) * 3];
    at[0] = static_cast<std::uint8_t>(color >> 16);
    at[1] = static_cast<std::uint8_t>(color >> 8);
    at[2] = static_cast<std::uint8_t>(color);
  }
};

// The PNG file's bytes. Throws std::invalid_argument on an empty image or
// one whose rows do not fit a PNG (width or height over 2^31 - 1, a row
// over 2^32 bytes).
std::vector<std::uint8_t> EncodePng(const Image& image);

// Writes EncodePng(image) to `path`; throws std::runtime_error naming the
// path when it cannot.
void WritePng(const Image& image, const std::filesystem::path& path);

// The CRC-32 of PNG chunks (ISO 3309, as zlib's crc32).
std::uint32_t Crc32(const std::uint8_t* data, std::size_t size,
                    std::uint32_t crc = 0);

}  // namespace adj::cli
