// The command line's PNG writer: the file's structure decoded by hand
// (chunks, their CRCs by a bitwise CRC-32, the stored zlib blocks and their
// Adler-32), and the known CRC of the fixed IEND chunk.
#include "tools/png.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace adj::cli {
namespace {

std::uint32_t BitwiseCrc32(const std::uint8_t* data, std::size_t size) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (std::size_t k = 0; k < size; ++k) {
    crc ^= data[k];
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
  }
  return ~crc;
}

std::uint32_t Big32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
         (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

struct Chunk {
  std::string type;
  std::vector<std::uint8_t> data;
};

// Splits the file into chunks, checking each one's CRC.
std::vector<Chunk> Chunks(const std::vector<std::uint8_t>& png) {
  std::vector<Chunk> chunks;
  std::size_t at = 8;
  while (at < png.size()) {
    const std::uint32_t length = Big32(png, at);
    Chunk chunk;
    chunk.type.assign(png.begin() + at + 4, png.begin() + at + 8);
    chunk.data.assign(png.begin() + at + 8, png.begin() + at + 8 + length);
    EXPECT_EQ(Big32(png, at + 8 + length),
              BitwiseCrc32(png.data() + at + 4, length + 4))
        << chunk.type;
    chunks.push_back(chunk);
    at += 12 + length;
  }
  EXPECT_EQ(at, png.size());
  return chunks;
}

TEST(Png, IendChunkHasItsKnownCrc) {
  const std::uint8_t iend[4] = {'I', 'E', 'N', 'D'};
  EXPECT_EQ(Crc32(iend, 4), 0xAE426082u);
}

// A 3 x 2 image: its rows come back from the stored blocks behind filter
// byte 0, and the zlib trailer is their Adler-32.
TEST(Png, SmallImageDecodesByHand) {
  Image image(3, 2);
  image.Set(0, 0, 0xFF0000);
  image.Set(2, 1, 0x0000FF);
  const std::vector<std::uint8_t> png = EncodePng(image);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(std::vector<std::uint8_t>(png.begin(), png.begin() + 8),
            (std::vector<std::uint8_t>{0x89, 'P', 'N', 'G', 13, 10, 26, 10}));
  const std::vector<Chunk> chunks = Chunks(png);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].type, "IHDR");
  EXPECT_EQ(Big32(chunks[0].data, 0), 3u);
  EXPECT_EQ(Big32(chunks[0].data, 4), 2u);
  EXPECT_EQ(chunks[0].data[8], 8);  // bit depth
  EXPECT_EQ(chunks[0].data[9], 2);  // RGB
  EXPECT_EQ(chunks[1].type, "IDAT");
  EXPECT_EQ(chunks[2].type, "IEND");
  const auto& z = chunks[1].data;
  ASSERT_EQ(z.size(), 2u + 5u + 20u + 4u);
  EXPECT_EQ(z[2], 1);  // the last (only) stored block
  EXPECT_EQ(z[3] | (z[4] << 8), 20);
  EXPECT_EQ((z[5] | (z[6] << 8)) ^ 0xFFFF, 20);
  const std::vector<std::uint8_t> raw(z.begin() + 7, z.begin() + 27);
  const std::vector<std::uint8_t> expected = {0,   255, 0,   0, 255, 255, 255,
                                              255, 255, 255, 0, 255, 255, 255,
                                              255, 255, 255, 0, 0,   255};
  EXPECT_EQ(raw, expected);
  std::uint32_t a = 1, b = 0;
  for (const std::uint8_t byte : raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  EXPECT_EQ(Big32(z, 27), (b << 16) | a);
}

// Past 65535 bytes of scanlines the data spans several stored blocks.
TEST(Png, LargeImageSpansStoredBlocks) {
  const Image image(200, 200, 7);
  const std::vector<Chunk> chunks = Chunks(EncodePng(image));
  ASSERT_EQ(chunks.size(), 3u);
  const std::size_t raw = 200 * (1 + 200 * 3);
  const std::size_t blocks = (raw + 65534) / 65535;
  EXPECT_EQ(chunks[1].data.size(), 2 + 5 * blocks + raw + 4);
}

TEST(Png, RefusesAnEmptyImage) {
  EXPECT_THROW(EncodePng(Image(0, 5)), std::invalid_argument);
}

}  // namespace
}  // namespace adj::cli
