#include "scenes/mesh_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "algorithms/common/memory_budget.h"
#include "scenes/text_reader.h"

namespace adj::scenes {

ParseError::ParseError(std::string name, std::size_t line,
                       const std::string& reason)
    : Error(name + ":" + std::to_string(line) + ": " + reason),
      name_(std::move(name)),
      line_(line) {}

ParseError::ParseError(std::string name, ByteOffset offset,
                       const std::string& reason)
    : Error(name + ": byte " + std::to_string(offset.value) + ": " + reason),
      name_(std::move(name)),
      byte_offset_(offset.value) {}

namespace {

using detail::CheckPolygonSize;
using detail::IndexBelow;
using detail::kEmptyMesh;
using detail::kMaxCount;
using detail::LineReader;
using detail::LoadMemory;
using detail::PushFan;
using detail::PushXyz;
using detail::Quote;
using detail::ReadAll;
using detail::ReserveBound;

// ---------------------------------------------------------------- OFF

void CheckOffKeyword(const LineReader& reader, std::string_view keyword) {
  if (!keyword.ends_with("OFF")) {
    reader.Fail("expected the OFF keyword, found " + Quote(keyword));
  }
  std::string_view prefix = keyword.substr(0, keyword.size() - 3);
  for (const std::string_view optional : {"ST", "C", "N"}) {
    if (prefix.starts_with(optional)) prefix.remove_prefix(optional.size());
  }
  if (prefix.empty()) return;
  if (prefix.find_first_not_of("4n") == std::string_view::npos) {
    reader.Fail(Quote(keyword) +
                ": 4OFF and nOFF (vertices of other dimensions than 3) are "
                "not supported");
  }
  reader.Fail("unknown OFF keyword " + Quote(keyword));
}

}  // namespace

namespace {

Mesh OffFromText(std::string text, const std::string& name) {
  LineReader reader(std::move(text), name, /*hash_comments=*/true);
  if (!reader.Next()) reader.Fail("empty file: expected the OFF keyword");
  CheckOffKeyword(reader, reader.tokens()[0]);
  std::span<const std::string_view> counts = reader.tokens().subspan(1);
  if (!counts.empty() && counts[0] == "BINARY") {
    reader.Fail("binary OFF is not supported");
  }
  if (counts.empty()) {
    if (!reader.Next()) {
      reader.Fail(
          "unexpected end of file: expected the vertex and face counts");
    }
    counts = reader.tokens();
  }
  if (counts.size() < 2 || counts.size() > 3) {
    reader.Fail("expected 'vertices faces edges' counts, found " +
                std::to_string(counts.size()) + " fields");
  }
  const std::uint64_t vertices =
      reader.Unsigned(counts[0], "vertex count", kMaxCount);
  const std::uint64_t faces =
      reader.Unsigned(counts[1], "face count", kMaxCount);
  if (counts.size() == 3) reader.Unsigned(counts[2], "edge count");
  const std::size_t counts_line = reader.line();
  if (vertices == 0) {
    reader.Fail("the file declares 0 vertices: " + std::string(kEmptyMesh));
  }

  Mesh mesh;
  LoadMemory memory(reader.text().size(), mesh.positions, &mesh.triangles);
  memory.ReservePoints(ReserveBound(vertices, reader.remaining_bytes(), 6),
                       reader);
  for (std::uint64_t i = 0; i < vertices; ++i) {
    if (!reader.Next()) reader.FailTruncated(vertices - i, "vertices");
    reader.NeedFields(3, "vertex 'x y z'");
    PushXyz(reader, reader.tokens(), memory);
  }

  memory.ReserveTriangles(ReserveBound(faces, reader.remaining_bytes(), 8),
                          reader);
  std::vector<std::uint32_t> polygon;  // at most a line's tokens
  for (std::uint64_t f = 0; f < faces; ++f) {
    if (!reader.Next()) reader.FailTruncated(faces - f, "faces");
    const std::span<const std::string_view> tokens = reader.tokens();
    const std::uint64_t size =
        reader.Unsigned(tokens[0], "face vertex count", kMaxCount);
    CheckPolygonSize(reader, size);
    if (tokens.size() - 1 < size) {
      reader.Fail("face declares " + std::to_string(size) +
                  " vertices but lists " + std::to_string(tokens.size() - 1));
    }
    polygon.clear();
    for (std::size_t j = 1; j <= size; ++j) {
      polygon.push_back(IndexBelow(reader, tokens[j], vertices));
    }
    PushFan(polygon, memory, reader);
  }
  // OFF has no end marker; its grammar allows '#' comments and white space
  // anywhere, nothing else after the last declared face. A record there
  // means the counts under-declare the file (or it was cut and glued), and
  // loading only the declared part would hide that.
  if (reader.Next()) {
    reader.Fail("data after the " + std::to_string(vertices) +
                " vertices and " + std::to_string(faces) +
                " faces the counts on line " + std::to_string(counts_line) +
                " declare: only comments and blank lines may follow");
  }
  return mesh;
}

}  // namespace

Mesh ParseOff(std::istream& in, const std::string& name) {
  return OffFromText(ReadAll(in, name), name);
}

// ---------------------------------------------------------------- OBJ

namespace {

// Resolves one face reference ("a", "a/t", "a//n", "a/t/n") against the
// vertices defined so far.
std::uint32_t ObjIndex(const LineReader& reader, std::string_view reference,
                       std::size_t defined) {
  const std::string_view digits = reference.substr(0, reference.find('/'));
  if (digits.empty()) {
    reader.Fail("face reference " + Quote(reference) + " has no vertex index");
  }
  const std::int64_t index = reader.Signed(digits, "vertex index");
  if (index == 0) {
    reader.Fail("vertex index 0 is invalid: OBJ indices start at 1");
  }
  if (index > 0) {
    if (static_cast<std::uint64_t>(index) > defined) {
      reader.Fail("vertex index " + std::to_string(index) +
                  " is out of range: " + std::to_string(defined) +
                  " vertices are defined above this face");
    }
    return static_cast<std::uint32_t>(index - 1);
  }
  // -(index + 1) + 1 is |index| without overflowing at INT64_MIN.
  const std::uint64_t back = static_cast<std::uint64_t>(-(index + 1)) + 1;
  if (back > defined) {
    reader.Fail("relative vertex index " + std::to_string(index) +
                " is out of range: " + std::to_string(defined) +
                " vertices are defined above this face");
  }
  return static_cast<std::uint32_t>(defined - back);
}

Mesh ObjFromText(std::string text, const std::string& name) {
  LineReader reader(std::move(text), name, /*hash_comments=*/true);
  Mesh mesh;
  LoadMemory memory(reader.text().size(), mesh.positions, &mesh.triangles);
  std::vector<std::uint32_t> polygon;  // at most a line's tokens
  bool any_statement = false;
  while (reader.Next()) {
    any_statement = true;
    const std::span<const std::string_view> tokens = reader.tokens();
    if (tokens[0] == "v") {
      reader.NeedFields(4, "'v x y z'");
      if (mesh.particles() == kMaxCount) {
        reader.Fail("more than " + std::to_string(kMaxCount) +
                    " vertices: 32-bit indices cannot address them");
      }
      PushXyz(reader, tokens.subspan(1), memory);
    } else if (tokens[0] == "f") {
      CheckPolygonSize(reader, tokens.size() - 1);
      polygon.clear();
      for (const std::string_view reference : tokens.subspan(1)) {
        polygon.push_back(ObjIndex(reader, reference, mesh.particles()));
      }
      PushFan(polygon, memory, reader);
    }
    // Everything else (vt, vn, g, o, s, usemtl, mtllib, l, p, ...) carries
    // nothing a triangle mesh of positions needs.
  }
  // OBJ declares no counts, so nothing can follow "the last record"; an
  // empty mesh is refused as in every format.
  if (mesh.particles() == 0) {
    reader.Fail(
        std::string(any_statement ? "no 'v' statement: " : "empty file: ") +
        std::string(kEmptyMesh));
  }
  return mesh;
}

}  // namespace

Mesh ParseObj(std::istream& in, const std::string& name) {
  return ObjFromText(ReadAll(in, name), name);
}

// ---------------------------------------------------------------- XYZ

namespace {

Points XyzFromText(std::string text, const std::string& name) {
  LineReader reader(std::move(text), name, /*hash_comments=*/true);
  Points points;
  LoadMemory memory(reader.text().size(), points);
  while (reader.Next()) {
    reader.NeedFields(3, "'x y z'");
    PushXyz(reader, reader.tokens(), memory);
  }
  // XYZ declares no counts: a file of comments alone is as empty as one of
  // no bytes, and refused alike.
  if (points.empty()) {
    reader.Fail(
        "empty file (no points, at most comments): an empty point set is "
        "refused: it needs at least one point");
  }
  return points;
}

}  // namespace

Points ParseXyz(std::istream& in, const std::string& name) {
  return XyzFromText(ReadAll(in, name), name);
}

// ---------------------------------------------------------------- files

std::string LowerExtension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (char& c : extension) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return extension;
}

namespace {

// Only regular files are read: a FIFO or a character device (/dev/zero,
// /dev/urandom) may never end and a directory has no bytes to parse. Each
// is refused by name, before its first byte is read.
void RefuseUnlessRegular(const struct stat& status, const std::string& name) {
  const mode_t mode = status.st_mode;
  if (S_ISREG(mode)) return;
  if (S_ISDIR(mode)) {
    throw ParseError(name, 0, "cannot open file: it is a directory");
  }
  const char* kind = S_ISFIFO(mode)   ? "a FIFO (named pipe)"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "not a plain file";
  throw ParseError(name, 0,
                   std::string("cannot open file: it is ") + kind +
                       ", not a regular file (a stream may never end)");
}

[[noreturn]] void FailErrno(const std::string& name, std::string_view doing,
                            int error) {
  throw ParseError(
      name, 0,
      std::string(doing) + ": " + std::generic_category().message(error));
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() { ::close(fd_); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads up to `bytes` into `out` from `fd`, retrying interrupted reads;
// returns how many were read (fewer at the end of the file).
std::size_t ReadUpTo(int fd, char* out, std::size_t bytes,
                     const std::string& name) {
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t n = ::read(fd, out + got, bytes - got);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      FailErrno(name, "read error", errno);
    }
    got += static_cast<std::size_t>(n);
  }
  return got;
}

// The whole text of a regular file, refused with ResourceError when its size
// is over the memory budget (the parsers hold it all at once, and the mesh
// beside it).
std::string ReadRegularFile(const std::filesystem::path& path,
                            const std::string& name) {
  // stat before opening: opening a FIFO waits for a writer, and opening a
  // device may act on it (a tape rewinds, a serial line hangs up).
  struct stat status;
  if (::stat(path.c_str(), &status) != 0) {
    FailErrno(name, "cannot open file", errno);
  }
  RefuseUnlessRegular(status, name);
  // O_NONBLOCK: should the path have become a FIFO since stat, open returns
  // at once instead of waiting, and fstat below refuses it. It changes
  // nothing for a regular file.
  const int fd =
      ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) FailErrno(name, "cannot open file", errno);
  const FileDescriptor file(fd);
  if (::fstat(fd, &status) != 0) FailErrno(name, "cannot open file", errno);
  RefuseUnlessRegular(status, name);

  const auto size = static_cast<std::uint64_t>(status.st_size);
  memory::Require(size, name + ":0: reading the file of " +
                            std::to_string(size) + " bytes");
  std::string text(static_cast<std::size_t>(size), '\0');
  text.resize(ReadUpTo(fd, text.data(), text.size(), name));
  if (text.size() < size) return text;  // it shrank since fstat
  // A file may grow after fstat (one being written) or report size 0 and
  // hold bytes (/proc): read on, within the budget.
  const std::uint64_t budget = memory::Budget();
  char buffer[1 << 16];
  while (const std::size_t got = ReadUpTo(fd, buffer, sizeof(buffer), name)) {
    if (text.size() + got > budget) {
      memory::Require(text.size() + got,
                      name + ": byte " + std::to_string(text.size()) +
                          ": reading the file, which grew past " +
                          std::to_string(text.size()) + " bytes,");
    }
    text.append(buffer, got);
  }
  return text;
}

}  // namespace

Mesh LoadMesh(const std::filesystem::path& path) {
  const std::string extension = LowerExtension(path);
  const std::string name = path.string();
  Mesh (*parse)(std::string, const std::string&) = nullptr;
  if (extension == ".off") parse = &OffFromText;
  if (extension == ".obj") parse = &ObjFromText;
  if (extension == ".ply") parse = &detail::PlyFromText;
  if (extension == ".stl") parse = &detail::StlFromText;
  if (parse == nullptr) {
    throw ParseError(name, 0,
                     "unknown mesh extension " + Quote(extension) +
                         " (expected .off, .obj, .ply or .stl)");
  }
  return parse(ReadRegularFile(path, name), name);
}

Points LoadPoints(const std::filesystem::path& path) {
  const std::string extension = LowerExtension(path);
  if (extension == ".xyz" || extension == ".pwn") {
    const std::string name = path.string();
    return XyzFromText(ReadRegularFile(path, name), name);
  }
  if (extension == ".off" || extension == ".obj" || extension == ".ply" ||
      extension == ".stl") {
    return std::move(LoadMesh(path).positions);
  }
  throw ParseError(path.string(), 0,
                   "unknown point set extension " + Quote(extension) +
                       " (expected .xyz, .pwn, .off, .obj, .ply or .stl)");
}

}  // namespace adj::scenes
