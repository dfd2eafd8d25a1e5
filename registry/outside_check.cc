#include "registry/outside_check.h"

#include <algorithm>
#include <string>

#include "registry/outside_families.h"

namespace adj::registry {
namespace {

const std::vector<OutsideCheck>& Table() {
  static const std::vector<OutsideCheck> table = {
      {"compaction",
       "values (N,) of uint32 and flags (N,): a flag other than 0 removes "
       "its value",
       "kept (K,): the values whose flag is 0, in their order",
       {"values", "flags"},
       {"kept"},
       {},
       "values",
       "kept",
       &CheckCompactionOutput},
      {"connected_components",
       "the graph: edges (M, 2) with the parameter vertices, or a CSR "
       "offsets (V + 1,) and indices; read as undirected",
       "labels (V,): any integers, one per vertex, equal within a "
       "component (compared as partitions)",
       {"edges", "offsets", "indices"},
       {"labels"},
       {"vertices"},
       "edges",
       "labels",
       &CheckConnectedComponentsOutput},
      {"hash_grid",
       "points (N, 3), the parameter radius (pairs within it, inclusive) "
       "and optionally full (1: the output is a full list, 0: a half "
       "list; absent: inferred)",
       "pairs (M, 2), or a CSR offsets (N + 1,) and indices: a full list "
       "(each pair both ways) or a half list (each pair once, either way), "
       "rows in any order",
       {"points"},
       {"pairs", "offsets", "indices"},
       {"radius", "full"},
       "points",
       "pairs",
       &CheckHashGridOutput},
      {"hash_set",
       "inserted (N,): the uint32 keys inserted, in any order, repeats "
       "allowed (0xFFFFFFFF marks a free slot and cannot be a key), and "
       "optionally queries (Q,)",
       "keys (K,): the keys the set holds, each once, in any order, and "
       "with queries answers (Q,) of 1 (present) or 0",
       {"inserted", "queries"},
       {"keys", "answers"},
       {},
       "inserted",
       "keys",
       &CheckHashSetOutput},
      {"prefix_sum",
       "values (N,) of uint32 and the parameter inclusive (1: out[i] = "
       "in[0] + ... + in[i]; 0: exclusive, out[0] = 0)",
       "scan (N,), modulo 2^32, and optionally total (the sum of all "
       "values, modulo 2^32)",
       {"values"},
       {"scan", "total"},
       {"inclusive"},
       "values",
       "scan",
       &CheckPrefixSumOutput},
      {"triangle_adjacency",
       "triangles (T, 3) of particle indices and the parameter particles "
       "(P: particles past the last index have empty rows)",
       "memberships (M, 2) of (particle, triangle), or a CSR offsets (P + "
       "1,) and indices: each particle's triangles, rows in any order",
       {"triangles"},
       {"memberships", "offsets", "indices"},
       {"particles"},
       "triangles",
       "memberships",
       &CheckTriangleAdjacencyOutput},
      {"triplet_schedule",
       "triplets (T, 4) of (p0, p1, p2, weight) or (T, 3), and the "
       "parameters particles (P), width (lanes or warp width) and simd (1: "
       "each set padded to a multiple of width, dummies included in the "
       "order; 0: sets back to back)",
       "order (S, 4) or (S, 3): the triplets set by set, and set_sizes "
       "(K,): triplets per set, padding excluded; judged valid, not "
       "compared with one expected order",
       {"triplets"},
       {"order", "set_sizes"},
       {"particles", "width", "simd"},
       "triplets",
       "order",
       &CheckTripletScheduleOutput},
  };
  return table;
}

bool Listed(std::string_view name, const std::vector<std::string_view>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string Joined(const std::vector<std::string_view>& names) {
  std::string text;
  for (const std::string_view name : names) {
    text += (text.empty() ? "" : ", ") + std::string(name);
  }
  return text.empty() ? "none" : text;
}

}  // namespace

std::span<const OutsideCheck> OutsideChecks() { return Table(); }

const OutsideCheck* FindOutsideCheck(std::string_view family) {
  for (const OutsideCheck& check : Table()) {
    if (check.family == family) return &check;
  }
  return nullptr;
}

void RequireKnownNames(const OutsideCheck& check, const Arrays& inputs,
                       const Arrays& outputs, const Parameters& parameters) {
  const std::string family(check.family);
  for (const auto& entry : inputs) {
    if (!Listed(entry.first, check.input_names)) {
      throw CheckInputError(family + " reads no input " + entry.first +
                            " (its inputs: " + Joined(check.input_names) + ")");
    }
  }
  for (const auto& entry : outputs) {
    if (!Listed(entry.first, check.output_names)) {
      throw CheckInputError(family + " reads no output " + entry.first +
                            " (its outputs: " + Joined(check.output_names) +
                            ")");
    }
  }
  for (const auto& entry : parameters) {
    if (!Listed(entry.first, check.parameters)) {
      throw CheckInputError(family + " takes no parameter " + entry.first +
                            " (its parameters: " + Joined(check.parameters) +
                            ")");
    }
  }
}

}  // namespace adj::registry
