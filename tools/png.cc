#include "tools/png.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <stdexcept>

namespace adj::cli {
namespace {

const std::array<std::uint32_t, 256>& CrcTable() {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  return table;
}

void PutBig32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<std::uint8_t>(value >> shift));
  }
}

void PutChunk(std::vector<std::uint8_t>& out, const char type[4],
              const std::vector<std::uint8_t>& data) {
  PutBig32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  PutBig32(out, Crc32(out.data() + start, out.size() - start));
}

}  // namespace

std::uint32_t Crc32(const std::uint8_t* data, std::size_t size,
                    std::uint32_t crc) {
  const auto& table = CrcTable();
  crc = ~crc;
  for (std::size_t k = 0; k < size; ++k) {
    crc = table[(crc ^ data[k]) & 0xFF] ^ (crc >> 8);
  }
  return ~crc;
}

std::vector<std::uint8_t> EncodePng(const Image& image) {
  constexpr std::uint32_t kMaxSide = 0x7FFFFFFFu;
  if (image.width == 0 || image.height == 0) {
    throw std::invalid_argument("png: an image of no pixels");
  }
  if (image.width > kMaxSide || image.height > kMaxSide ||
      std::uint64_t{image.width} * 3 + 1 > 0xFFFFFFFFull) {
    throw std::invalid_argument("png: the image is too large");
  }
  if (image.rgb.size() != std::size_t{image.width} * image.height * 3) {
    throw std::invalid_argument("png: pixel data does not match the size");
  }
  // Scanlines: filter byte 0 (none), then the row.
  std::vector<std::uint8_t> raw;
  const std::size_t row = std::size_t{image.width} * 3;
  raw.reserve((row + 1) * image.height);
  for (std::uint32_t y = 0; y < image.height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), image.rgb.begin() + y * row,
               image.rgb.begin() + (y + 1) * row);
  }
  // zlib: header 78 01, stored deflate blocks of at most 65535 bytes, the
  // Adler-32 of the raw data.
  std::vector<std::uint8_t> z = {0x78, 0x01};
  std::size_t at = 0;
  do {
    const std::size_t size = std::min<std::size_t>(65535, raw.size() - at);
    const bool last = at + size == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<std::uint8_t>(size));
    z.push_back(static_cast<std::uint8_t>(size >> 8));
    z.push_back(static_cast<std::uint8_t>(~size));
    z.push_back(static_cast<std::uint8_t>(~size >> 8));
    z.insert(z.end(), raw.begin() + at, raw.begin() + at + size);
    at += size;
  } while (at < raw.size());
  std::uint32_t a = 1, b = 0;
  for (const std::uint8_t byte : raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  PutBig32(z, (b << 16) | a);

  std::vector<std::uint8_t> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<std::uint8_t> header;
  PutBig32(header, image.width);
  PutBig32(header, image.height);
  header.insert(header.end(), {8, 2, 0, 0, 0});  // 8 bit, RGB
  PutChunk(out, "IHDR", header);
  PutChunk(out, "IDAT", z);
  PutChunk(out, "IEND", {});
  return out;
}

void WritePng(const Image& image, const std::filesystem::path& path) {
  const std::vector<std::uint8_t> bytes = EncodePng(image);
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  if (!file) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

}  // namespace adj::cli
