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
// A file holds exactly what its header declares: data after the declared
// records is refused where it starts (its line, or its byte offset in a
// binary body), so that a header that under-declares never loads in part.
// What each format allows there: OFF '#' comments and white space (its
// grammar allows them anywhere), ASCII PLY white space, binary PLY nothing
// (its body is its elements), ASCII STL white space after the last
// "endsolid", binary STL nothing (its size is 84 + 50 n bytes for its count
// n). OBJ and XYZ declare no counts. CGAL's readers ignore such data; its
// meshes/prim.off, with one face more than it declares, is refused.
//
// Every format refuses a file that holds no vertex: no bytes, only white
// space or comments ("empty file"), or a header that declares 0 vertices
// (OFF, PLY), no "v" statement (OBJ), no facet (STL, whose vertices are its
// facets' corners). Vertices without faces load (a PLY or OFF point set),
// since LoadPoints reads meshes for their vertices.
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
//
// Memory: the whole text is held, then the mesh beside it. Reading stops
// with adj::ResourceError (algorithms/common/memory_budget.h) once a stream
// goes on past the memory budget, and LoadMesh refuses a file larger than
// the budget before reading it. Every allocation of the result (for a
// declared count, or growing as records arrive: an OFF polygon of n indices
// is n - 2 triangles) first asks memory::Require for the bytes the load
// would then hold, the text included; its ResourceError names the file,
// the line or byte offset and the size. PLY headers are checked in time
// linear in their length, whatever the number of elements.

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
// Being over the memory budget is no ParseError but adj::ResourceError,
// whose what() begins alike ("<name>:<line>: " or "<name>: byte <offset>: ").
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

// The parsers read the whole stream (up to the memory budget); `name` only
// labels error messages.

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
// binary body starts right after the "end_header" line's '\n' and ends with
// the last declared element: any byte after it is refused.
Mesh ParsePly(std::istream& in, const std::string& name);

// STL, ASCII or binary. A file is binary when its size is 84 + 50 n bytes
// for the triangle count n stored at byte 80 (whatever its header says, as
// several exporters begin binary headers with "solid"), ASCII when it
// otherwise begins with "solid" and holds no NUL byte (text has none; binary
// headers are often padded with them, and 0.0f is four), and else binary,
// where a file shorter than its count needs is truncated and one longer is
// refused at the first byte after the last declared facet.
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
// .stl. Reads regular files only (a link is followed): a directory, FIFO,
// device or socket is refused by name (ParseError at line 0) before it is
// opened, since a stream may never end and opening a device may act on it.
// A file larger than the memory budget is refused with ResourceError
// naming its size, before its first byte is read.
Mesh LoadMesh(const std::filesystem::path& path);

// .xyz (and .pwn, the same layout with normals) as points; .off, .obj, .ply
// and .stl as their mesh's vertex positions, so a PLY point cloud loads too.
// Files are checked as by LoadMesh.
Points LoadPoints(const std::filesystem::path& path);

}  // namespace adj::scenes
