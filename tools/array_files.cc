#include "tools/array_files.h"

#include <zlib.h>

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/common/errors.h"
#include "algorithms/common/memory_budget.h"

namespace adj::cli {
namespace {

using registry::Array;
using registry::Arrays;

// A message with the bytes outside printable ASCII escaped: a hostile
// file's names and tokens are any bytes, a NUL among them.
std::string Printable(const std::string& text) {
  std::string printable;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      printable += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      printable += escaped;
    }
  }
  return printable;
}

[[noreturn]] void Refuse(const std::string& name, const std::string& why) {
  throw Error(Printable(name + ": " + why));
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.substr(text.size() - suffix.size()) == suffix;
}

std::uint64_t LittleEndian(std::string_view bytes, std::size_t at,
                           std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t k = 0; k < width; ++k) {
    value |= std::uint64_t{static_cast<unsigned char>(bytes[at + k])}
             << (8 * k);
  }
  return value;
}

// The value of `key` in a .npy header's dict, up to the next top-level
// comma or the closing brace.
std::string HeaderValue(const std::string& header, const std::string& key,
                        const std::string& name) {
  const std::size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) Refuse(name, "the header has no " + key);
  std::size_t start = header.find(':', at);
  if (start == std::string::npos) Refuse(name, "malformed header");
  ++start;
  int depth = 0;
  std::size_t end = start;
  for (; end < header.size(); ++end) {
    const char c = header[end];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if ((c == ',' && depth == 0) || (c == '}' && depth == 0)) break;
  }
  std::string value = header.substr(start, end - start);
  const auto first = value.find_first_not_of(" ");
  const auto last = value.find_last_not_of(" ");
  return first == std::string::npos ? ""
                                    : value.substr(first, last - first + 1);
}

std::vector<std::size_t> ShapeOf(const std::string& text,
                                 const std::string& name) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    Refuse(name, "malformed shape " + text);
  }
  std::vector<std::size_t> shape;
  std::string_view rest(text.data() + 1, text.size() - 2);
  while (!rest.empty()) {
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == ',')) {
      rest.remove_prefix(1);
    }
    if (rest.empty()) break;
    std::uint64_t extent = 0;
    const auto [end, error] =
        std::from_chars(rest.data(), rest.data() + rest.size(), extent);
    if (error != std::errc() ||
        extent > std::numeric_limits<std::uint32_t>::max()) {
      Refuse(name, "malformed or too large shape " + text);
    }
    shape.push_back(static_cast<std::size_t>(extent));
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
  }
  if (shape.size() > 4) Refuse(name, "more than 4 dimensions: " + text);
  return shape;
}

template <typename T>
T Load(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

Array ParseNpy(std::string_view bytes, const std::string& name) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY") {
    Refuse(name, "not a .npy file (no \\x93NUMPY magic)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  const std::size_t width = major == 1 ? 2 : major <= 3 ? 4 : 0;
  if (width == 0) Refuse(name, ".npy version " + std::to_string(major));
  if (bytes.size() < 8 + width) Refuse(name, "truncated header");
  const std::uint64_t header_size = LittleEndian(bytes, 8, width);
  if (8 + width + header_size > bytes.size()) {
    Refuse(name, "truncated header");
  }
  const std::string header(bytes.substr(8 + width, header_size));
  const std::string descr = HeaderValue(header, "descr", name);
  if (HeaderValue(header, "fortran_order", name) != "False") {
    Refuse(name, "Fortran order: save np.ascontiguousarray(a) instead");
  }
  Array array;
  array.shape = ShapeOf(HeaderValue(header, "shape", name), name);
  std::uint64_t count = 1;
  for (const std::size_t extent : array.shape) {
    count *= extent;
    if (count > (std::uint64_t{1} << 40)) Refuse(name, "too many entries");
  }
  // '<' little-endian, '|' one byte; the kind and size follow.
  if (descr.size() < 5 || descr.front() != '\'' || descr.back() != '\'' ||
      (descr[1] != '<' && descr[1] != '|')) {
    Refuse(name, "dtype " + descr +
                     ": little-endian ints, uints or floats "
                     "only");
  }
  const char kind = descr[2];
  const std::string size_text = descr.substr(3, descr.size() - 4);
  const std::size_t size = size_text == "1"   ? 1
                           : size_text == "2" ? 2
                           : size_text == "4" ? 4
                           : size_text == "8" ? 8
                                              : 0;
  if (size == 0 || (kind != 'i' && kind != 'u' && kind != 'f' && kind != 'b') ||
      (kind == 'f' && size < 4)) {
    Refuse(name, "dtype " + descr + ": bool, int, uint or float32/64 only");
  }
  const std::size_t data_at = 8 + width + header_size;
  if (bytes.size() - data_at != count * size) {
    Refuse(name, std::to_string(bytes.size() - data_at) +
                     " bytes of data, the shape needs " +
                     std::to_string(count * size));
  }
  memory::Require(memory::Bytes(count, 8), name + "'s values");
  const char* data = bytes.data() + data_at;
  array.integral = kind != 'f';
  if (array.integral)
    array.integers.resize(count);
  else
    array.reals.resize(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    const char* at = data + k * size;
    if (kind == 'f') {
      array.reals[k] = size == 4 ? double{Load<float>(at)} : Load<double>(at);
    } else if (kind == 'u' && size == 8) {
      const auto value = Load<std::uint64_t>(at);
      if (value > static_cast<std::uint64_t>(
                      std::numeric_limits<std::int64_t>::max())) {
        Refuse(name, "entry " + std::to_string(k) + " exceeds 2^63 - 1");
      }
      array.integers[k] = static_cast<std::int64_t>(value);
    } else {
      const auto raw = static_cast<std::int64_t>(
          LittleEndian(std::string_view(data, count * size), k * size, size));
      const bool negative =
          kind == 'i' && size < 8 && (raw >> (8 * size - 1)) != 0;
      array.integers[k] =
          negative ? raw - (std::int64_t{1} << (8 * size)) : raw;
    }
  }
  return array;
}

// Deflate expands at most 1032 to 1 (a block of repeats), so a member that
// claims more than that from its bytes is corrupt: refused before its
// claimed size is allocated.
constexpr std::uint64_t kMaxDeflateRatio = 1032;

std::string Inflate(std::string_view compressed, std::uint64_t size,
                    const std::string& name) {
  if (size > kMaxDeflateRatio * compressed.size() + 64) {
    Refuse(name, "claims " + std::to_string(size) + " bytes from " +
                     std::to_string(compressed.size()) +
                     " deflated ones: corrupt");
  }
  memory::Require(size, name + " inflated");
  std::string out(size, '\0');
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) Refuse(name, "zlib");
  stream.next_in =
      reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&stream, Z_FINISH);
  const std::uint64_t produced = stream.total_out;
  inflateEnd(&stream);
  if (status != Z_STREAM_END || produced != size) {
    Refuse(name, "corrupt deflated data");
  }
  return out;
}

// The zip64 extended sizes and offset of a central directory entry whose
// 32-bit fields say 0xffffffff.
void ReadZip64(std::string_view extra, std::uint64_t& size,
               std::uint64_t& compressed, std::uint64_t& offset,
               const std::string& name) {
  for (std::size_t at = 0; at + 4 <= extra.size();) {
    const std::uint64_t id = LittleEndian(extra, at, 2);
    const std::uint64_t length = LittleEndian(extra, at + 2, 2);
    if (at + 4 + length > extra.size()) Refuse(name, "corrupt zip extra");
    if (id == 1) {
      std::size_t field = at + 4;
      for (std::uint64_t* value : {&size, &compressed, &offset}) {
        if (*value != 0xffffffffu) continue;
        if (field + 8 > at + 4 + length) Refuse(name, "corrupt zip64 field");
        *value = LittleEndian(extra, field, 8);
        field += 8;
      }
    }
    at += 4 + length;
  }
}

Arrays ParseNpz(std::string_view bytes, const std::string& name) {
  // The end of central directory record: the last "PK\5\6".
  const std::size_t end = bytes.rfind(std::string_view("PK\x05\x06", 4));
  if (end == std::string_view::npos || end + 22 > bytes.size()) {
    Refuse(name, "not a zip archive (no end of central directory)");
  }
  const std::uint64_t entries = LittleEndian(bytes, end + 10, 2);
  std::uint64_t at = LittleEndian(bytes, end + 16, 4);
  Arrays arrays;
  for (std::uint64_t e = 0; e < entries; ++e) {
    if (at + 46 > bytes.size() ||
        bytes.substr(at, 4) != std::string_view("PK\x01\x02", 4)) {
      Refuse(name, "corrupt central directory");
    }
    const std::uint64_t method = LittleEndian(bytes, at + 10, 2);
    const std::uint64_t crc = LittleEndian(bytes, at + 16, 4);
    std::uint64_t compressed = LittleEndian(bytes, at + 20, 4);
    std::uint64_t size = LittleEndian(bytes, at + 24, 4);
    const std::uint64_t name_length = LittleEndian(bytes, at + 28, 2);
    const std::uint64_t extra_length = LittleEndian(bytes, at + 30, 2);
    const std::uint64_t comment_length = LittleEndian(bytes, at + 32, 2);
    std::uint64_t offset = LittleEndian(bytes, at + 42, 4);
    if (at + 46 + name_length + extra_length > bytes.size()) {
      Refuse(name, "corrupt central directory");
    }
    std::string member(bytes.substr(at + 46, name_length));
    ReadZip64(bytes.substr(at + 46 + name_length, extra_length), size,
              compressed, offset, name);
    at += 46 + name_length + extra_length + comment_length;
    const std::string where = name + "[" + member + "]";
    if (offset + 30 > bytes.size() ||
        bytes.substr(offset, 4) != std::string_view("PK\x03\x04", 4)) {
      Refuse(where, "corrupt local header");
    }
    const std::uint64_t data_at = offset + 30 +
                                  LittleEndian(bytes, offset + 26, 2) +
                                  LittleEndian(bytes, offset + 28, 2);
    if (data_at > bytes.size() || compressed > bytes.size() - data_at) {
      Refuse(where, "truncated member");
    }
    const std::string_view data = bytes.substr(data_at, compressed);
    std::string inflated;
    if (method == 8) {
      inflated = Inflate(data, size, where);
    } else if (method != 0 || compressed != size) {
      Refuse(where, "compression method " + std::to_string(method) +
                        ": stored or deflated only");
    }
    const std::string_view content = method == 8 ? inflated : data;
    if (crc32(0, reinterpret_cast<const Bytef*>(content.data()),
              static_cast<uInt>(content.size())) != crc) {
      Refuse(where, "CRC mismatch: the archive is corrupt");
    }
    if (EndsWith(member, ".npy")) member.resize(member.size() - 4);
    arrays[member] = ParseNpy(content, where);
  }
  return arrays;
}

Array ParseText(std::string_view bytes, const std::string& name) {
  Array array;
  array.integral = true;
  std::vector<std::string> tokens;
  std::size_t columns = 0;
  std::size_t rows = 0;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < bytes.size()) {
    std::size_t stop = bytes.find('\n', start);
    if (stop == std::string_view::npos) stop = bytes.size();
    std::string_view line = bytes.substr(start, stop - start);
    start = stop + 1;
    ++line_number;
    line = line.substr(0, line.find('#'));
    std::size_t count = 0;
    for (std::size_t k = 0; k < line.size();) {
      while (k < line.size() &&
             (std::isspace(static_cast<unsigned char>(line[k])) ||
              line[k] == ',')) {
        ++k;
      }
      std::size_t end = k;
      while (end < line.size() &&
             !std::isspace(static_cast<unsigned char>(line[end])) &&
             line[end] != ',') {
        ++end;
      }
      if (end > k) {
        tokens.emplace_back(line.substr(k, end - k));
        ++count;
      }
      k = end;
    }
    if (count == 0) continue;
    if (columns != 0 && count != columns) {
      Refuse(name, "line " + std::to_string(line_number) + " has " +
                       std::to_string(count) + " numbers, the first row " +
                       std::to_string(columns));
    }
    columns = count;
    ++rows;
  }
  memory::Require(memory::Bytes(tokens.size(), 8), name + "'s values");
  for (const std::string& token : tokens) {
    if (token.find_first_of(".eEnN") != std::string::npos) {
      array.integral = false;
    }
  }
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string& token = tokens[k];
    const char* first = token.data();
    const char* last = token.data() + token.size();
    std::from_chars_result parsed{};
    if (array.integral) {
      std::int64_t value = 0;
      parsed = std::from_chars(first, last, value);
      array.integers.push_back(value);
    } else {
      double value = 0;
      parsed = std::from_chars(first, last, value);
      array.reals.push_back(value);
    }
    if (parsed.ec != std::errc() || parsed.ptr != last) {
      Refuse(name, "entry " + std::to_string(k) + " \"" + token +
                       "\" is not a number");
    }
  }
  array.shape = columns == 1 ? std::vector<std::size_t>{rows}
                             : std::vector<std::size_t>{rows, columns};
  return array;
}

void AppendLittleEndian(std::string& out, std::uint64_t value,
                        std::size_t width) {
  for (std::size_t k = 0; k < width; ++k) {
    out += static_cast<char>((value >> (8 * k)) & 0xff);
  }
}

std::string NpyBytes(const Array& array) {
  std::string shape = "(";
  for (std::size_t k = 0; k < array.shape.size(); ++k) {
    shape += std::to_string(array.shape[k]) + ",";
    if (k + 1 < array.shape.size()) shape += " ";
  }
  if (array.shape.size() > 1) shape.pop_back();
  shape += ")";
  std::string header = std::string("{'descr': '") +
                       (array.integral ? "<i8" : "<f8") +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // NumPy pads the header with spaces to a multiple of 64 bytes, "\n" last.
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string bytes("\x93NUMPY\x01\x00", 8);
  AppendLittleEndian(bytes, header.size(), 2);
  bytes += header;
  const std::size_t count = array.size();
  bytes.reserve(bytes.size() + 8 * count);
  for (std::size_t k = 0; k < count; ++k) {
    char value[8];
    if (array.integral) {
      std::memcpy(value, &array.integers[k], 8);
    } else {
      std::memcpy(value, &array.reals[k], 8);
    }
    bytes.append(value, 8);
  }
  return bytes;
}

}  // namespace

void WriteNpz(const std::string& path, const registry::Arrays& arrays) {
  std::string zip;
  std::string directory;
  std::uint64_t members = 0;
  for (const auto& [name, array] : arrays) {
    const std::string member = name + ".npy";
    const std::string data = NpyBytes(array);
    const auto crc = static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(data.data()),
              static_cast<uInt>(data.size())));
    if (data.size() >= 0xffffffffu || zip.size() >= 0xffffffffu) {
      Refuse(path, "over 4 GiB: too large for a plain zip");
    }
    // Version 2.0, no flags, stored, no time: the local header and the
    // central directory's record of the member.
    const auto common = [&](std::string& out) {
      AppendLittleEndian(out, 20, 2);  // version needed
      AppendLittleEndian(out, 0, 2);   // flags
      AppendLittleEndian(out, 0, 2);   // stored
      AppendLittleEndian(out, 0, 4);   // time and date
      AppendLittleEndian(out, crc, 4);
      AppendLittleEndian(out, data.size(), 4);
      AppendLittleEndian(out, data.size(), 4);
      AppendLittleEndian(out, member.size(), 2);
      AppendLittleEndian(out, 0, 2);  // extra
    };
    directory += std::string("PK\x01\x02", 4);
    AppendLittleEndian(directory, 20, 2);  // version made by
    common(directory);
    AppendLittleEndian(directory, 0, 2);  // comment
    AppendLittleEndian(directory, 0, 2);  // disk
    AppendLittleEndian(directory, 0, 2);  // internal attributes
    AppendLittleEndian(directory, 0, 4);  // external attributes
    AppendLittleEndian(directory, zip.size(), 4);
    directory += member;
    zip += std::string("PK\x03\x04", 4);
    common(zip);
    zip += member;
    zip += data;
    ++members;
  }
  const std::size_t directory_at = zip.size();
  zip += directory;
  zip += std::string("PK\x05\x06", 4);
  AppendLittleEndian(zip, 0, 4);  // disks
  AppendLittleEndian(zip, members, 2);
  AppendLittleEndian(zip, members, 2);
  AppendLittleEndian(zip, directory.size(), 4);
  AppendLittleEndian(zip, directory_at, 4);
  AppendLittleEndian(zip, 0, 2);  // comment
  std::ofstream out(path, std::ios::binary);
  out.write(zip.data(), static_cast<std::streamsize>(zip.size()));
  if (!out) Refuse(path, "cannot be written");
}

registry::Arrays ParseArrayBytes(std::string_view bytes,
                                 const std::string& name,
                                 std::string_view lone_name) {
  if (EndsWith(name, ".npz")) return ParseNpz(bytes, name);
  Arrays arrays;
  arrays[std::string(lone_name)] =
      EndsWith(name, ".npy") ? ParseNpy(bytes, name) : ParseText(bytes, name);
  return arrays;
}

registry::Arrays ReadArrayFile(const std::string& path,
                               std::string_view lone_name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Refuse(path, "cannot be read");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) Refuse(path, "not a regular file");
  memory::Require(static_cast<std::uint64_t>(size), path);
  in.seekg(0);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), size);
  if (!in) Refuse(path, "cannot be read");
  return ParseArrayBytes(bytes, path, lone_name);
}

}  // namespace adj::cli
