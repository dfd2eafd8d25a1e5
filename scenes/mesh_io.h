#pragma once

// Loaders for real meshes and point sets: OFF, OBJ, PLY (ASCII and binary),
// STL (ASCII and binary) and XYZ.
//
// The text parsers are line based: one vertex, face or PLY element per line,
// which is what every exporter we know of writes (the OFF and PLY grammars
// would allow a record to span lines). '#' starts a comment anywhere in OFF,
// OBJ and XYZ; blank lines, tabs and CRLF line endings are accepted.
//
// Polygons with n > 3 vertices are triangulated as a fan around their first
// vertex, in order: (v0, v1, v2), (v0, v2, v3), ..., (v0, v(n-2), v(n-1)).
// Faces with fewer than 3 vertices are rejected. Degenerate triangles (a
// repeated index) are kept: the loaders reproduce the file, and families
// decide what degenerate input means to them.
//
// Lines after the declared records (OFF faces, PLY elements) are ignored, as
// CGAL's readers ignore them: its data set has a file with one face more
// than it declares (meshes/prim.off).
//
// Fields after the ones read (OFF/XYZ colours and normals, OBJ w and texture
// or normal indices, PLY properties other than x y z and the face list) are
// ignored without being checked.
//
// Every malformed input throws ParseError, never a partial mesh: non-numeric
// fields, trailing garbage in a number ("1.5x"), NaN or infinite coordinates,
// coordinates that overflow float (values that underflow become 0),
// indices out of range or negative, bad header counts, and files that end
// before the declared number of records. Counts above 2^32 - 1 are rejected
// (triangle indices are uint32); a huge declared count in a short file
// reserves memory in proportion to the file, not to the count. Binary
// bodies are checked alike (finite coordinates within float, indices in
// range, list lengths that fit the file) and their errors name the byte
// offset of the offending field instead of a line.

#include <cstddef>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>

#include "algorithms/common/errors.h"
#include "algorithms/common/mesh.h"
#include "algorithms/common/points.h"

namespace adj::scenes {

// Where in a binary body an error sits: the offset of the field's first
// byte from the start of the file.
struct ByteOffset {
  std::size_t value = 0;
};

// A malformed or unreadable file. In text, what() is "<name>:<line>:
// <reason>"; line is 1-based, the line after the last one for a truncated
// file, and 0 when the file could not be opened or its extension is unknown.
// In a binary body, what() is "<name>: byte <offset>: <reason>", line() is 0
// and byte_offset() holds the offset (the file's size for a truncated one).
class ParseError : public adj::Error {
 public:
  ParseError(std::string name, std::size_t line, const std::string& reason);
  ParseError(std::string name, ByteOffset offset, const std::string& reason);

  std::size_t line() const { return line_; }
  std::optional<std::size_t> byte_offset() const { return byte_offset_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::size_t line_ = 0;
  std::optional<std::size_t> byte_offset_;
};

// The parsers read the whole stream; `name` only labels error messages.

// OFF with optional ST, C and N prefixes (COFF, NOFF, STCNOFF, ...); 4OFF,
// nOFF and binary OFF are rejected. The counts may follow the keyword on its
// line or sit on the next line; the edge count is ignored.
Mesh ParseOff(std::istream& in, const std::string& name);

// OBJ "v x y z [w]" and "f a b c ..." with a, a/t, a//n or a/t/n references.
// Indices are 1-based; negative ones count back from the last vertex defined
// so far (-1 is the latest). A face may only use vertices defined above it,
// as every exporter writes them. Other statements (vt, vn, g, o, s, usemtl,
// mtllib, l, p, ...) are ignored.
Mesh ParseObj(std::istream& in, const std::string& name);

// PLY 1.0 in ascii, binary_little_endian or binary_big_endian format. Needs
// a "vertex" element with x, y and z properties of any numeric type (double
// coordinates are rounded to float). Faces come from a "face" element's list
// property "vertex_indices" (or "vertex_index"); without a face element the
// result has no triangles (a point cloud). Other elements are skipped. A
// binary body starts right after the "end_header" line's '\n'; bytes after
// the declared elements are ignored.
Mesh ParsePly(std::istream& in, const std::string& name);

// STL, ASCII or binary. A file is binary when its size is 84 + 50 n bytes
// for the triangle count n stored at byte 80 (whatever its header says, as
// several exporters begin binary headers with "solid"), ASCII when it
// otherwise begins with "solid", and else binary, where a file shorter than
// its count needs is truncated and bytes after the last facet are ignored.
// ASCII keywords are read case-insensitively as a stream of tokens
// (solid, facet normal, outer loop, 3 vertex lines, endloop, endfacet, ...,
// endsolid; several solids in a row are one mesh). Normals and the binary
// attribute word are ignored. STL stores each triangle's own three corners:
// corners with equal coordinates (-0 equal to +0, as CGAL's reader compares
// them) become one vertex, numbered in order of first appearance, so that
// adjacency exists; a triangle with two equal corners is kept, degenerate.
Mesh ParseStl(std::istream& in, const std::string& name);

// One point per line, "x y z" followed by any fields (normals, colours).
Points ParseXyz(std::istream& in, const std::string& name);

// The extension in lower case, with its dot (".off"); "" when there is none.
std::string LowerExtension(const std::filesystem::path& path);

// Chooses the parser by extension, case-insensitively: .off, .obj, .ply,
// .stl.
Mesh LoadMesh(const std::filesystem::path& path);

// .xyz (and .pwn, the same layout with normals) as points; .off, .obj, .ply
// and .stl as their mesh's vertex positions, so a PLY point cloud loads too.
Points LoadPoints(const std::filesystem::path& path);

}  // namespace adj::scenes
