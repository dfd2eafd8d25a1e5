#include "algorithms/connected_components/connected_components.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "algorithms/common/cuda.h"
#include "algorithms/common/simd.h"
#if ADJ_HAVE_CUDA
#include "algorithms/connected_components/device_labeller.h"
#endif
#include "checks/connected_components.h"
#include "properties/variant_cases.h"
#include "reference/connected_components.h"
#include "reference/hash_grid.h"
#include "scenes/graphs.h"
#include "scenes/meshes.h"

namespace adj::connected_components {
namespace {

using Words = std::vector<std::uint32_t>;

// The Csr of `rows` as given (any order, repeats, ids out of range kept).
Csr GraphOfRows(const std::vector<Words>& rows) {
  Csr graph;
  for (const Words& row : rows) {
    graph.indices.insert(graph.indices.end(), row.begin(), row.end());
    graph.offsets.push_back(static_cast<std::uint32_t>(graph.indices.size()));
  }
  return graph;
}

// A symmetric Csr straight from an edge list, keeping everything: each edge
// (a, b) appended to row a and to row b in list order (a self loop once, to
// row a), so rows are unsorted and repeats stay.
Csr RawGraph(std::size_t n, const std::vector<scenes::Edge>& edges) {
  std::vector<Words> rows(n);
  for (const auto& [a, b] : edges) {
    rows[a].push_back(b);
    if (a != b) rows[b].push_back(a);
  }
  return GraphOfRows(rows);
}

// Every kind of graph the scenes make, small, plus raw edge lists with self
// loops and repeats; optionally with repeats added and ids shuffled.
enum class Kind {
  kEdgeList,
  kLattice,
  kMesh,
  kKronecker,
  kUniform,
  kTiny,
  kPath,
  kClusters
};

struct GraphSpec {
  Kind kind = Kind::kEdgeList;
  std::size_t n = 0;
  std::vector<scenes::Edge> edges;  // kEdgeList
  std::size_t a = 0, b = 0, c = 0;  // sizes, per kind
  double removal = 0;
  std::uint64_t seed = 0;
  std::size_t repeats = 0;
  bool relabel = false;
};

std::ostream& operator<<(std::ostream& os, const GraphSpec& spec) {
  os << "kind " << static_cast<int>(spec.kind) << " n " << spec.n << " a "
     << spec.a << " b " << spec.b << " c " << spec.c << " removal "
     << spec.removal << " seed " << spec.seed << " repeats " << spec.repeats
     << " relabel " << spec.relabel << " edges [";
  for (const auto& [u, v] : spec.edges) os << " (" << u << "," << v << ")";
  return os << " ]";
}

Csr BuildGraph(const GraphSpec& spec) {
  Csr graph;
  switch (spec.kind) {
    case Kind::kEdgeList:
      return RawGraph(spec.n, spec.edges);
    case Kind::kLattice:
      graph = scenes::LatticeWithRemovals(spec.a, spec.b, spec.c, spec.removal,
                                          spec.seed);
      break;
    case Kind::kMesh:
      graph = spec.c % 2 == 0
                  ? scenes::MeshVertexGraph(scenes::Shuffled(
                        scenes::ClothGrid(spec.a, spec.b,
                                          scenes::Diagonals::kAlternating),
                        spec.seed))
                  : scenes::MeshVertexGraph(
                        scenes::TriangleSoup(spec.a, spec.b + 1, spec.seed));
      break;
    case Kind::kKronecker:
      graph = scenes::Kronecker(static_cast<int>(spec.a), spec.b, spec.seed);
      break;
    case Kind::kUniform:
      graph = scenes::UniformRandomGraph(spec.a, spec.b, spec.seed);
      break;
    case Kind::kTiny:
      graph = scenes::TinyComponents(spec.a, spec.b + 1, spec.seed);
      break;
    case Kind::kPath:
      graph = scenes::Path(spec.a);
      break;
    case Kind::kClusters:
      graph = scenes::OverlappingClusters(spec.a, spec.b + 1, spec.c + 1,
                                          spec.removal, spec.seed);
      break;
  }
  if (spec.relabel) graph = scenes::Relabelled(graph, spec.seed + 1);
  if (spec.repeats > 0 && graph.rows() > 0) {
    graph = scenes::WithRepeats(graph, spec.repeats, spec.seed + 2);
  }
  return graph;
}

rc::Gen<GraphSpec> AnyGraphSpec() {
  return rc::gen::exec([] {
    GraphSpec spec;
    spec.kind = *rc::gen::element(Kind::kEdgeList, Kind::kLattice, Kind::kMesh,
                                  Kind::kKronecker, Kind::kUniform, Kind::kTiny,
                                  Kind::kPath, Kind::kClusters);
    spec.seed = *rc::gen::inRange<std::uint64_t>(0, 1000);
    spec.removal = *rc::gen::element(0.0, 0.3, 0.5, 0.6, 0.69, 0.8, 1.0);
    switch (spec.kind) {
      case Kind::kEdgeList: {
        spec.n = *rc::gen::inRange<std::size_t>(0, 60);
        if (spec.n > 0) {
          const auto id = rc::gen::inRange<std::uint32_t>(
              0, static_cast<std::uint32_t>(spec.n));
          spec.edges = *rc::gen::container<std::vector<scenes::Edge>>(
              rc::gen::map(rc::gen::pair(id, id), [](auto pair) {
                return scenes::Edge{pair.first, pair.second};
              }));
        }
        break;
      }
      case Kind::kLattice:
      case Kind::kClusters:
        spec.a = *rc::gen::inRange<std::size_t>(1, 9);
        spec.b = *rc::gen::inRange<std::size_t>(1, 9);
        spec.c = *rc::gen::inRange<std::size_t>(0, 9);
        break;
      case Kind::kMesh:
        spec.a = *rc::gen::inRange<std::size_t>(0, 9);
        spec.b = *rc::gen::inRange<std::size_t>(0, 9);
        spec.c = *rc::gen::inRange<std::size_t>(0, 2);
        break;
      case Kind::kKronecker:
        spec.a = *rc::gen::inRange<std::size_t>(0, 12);
        spec.b = *rc::gen::inRange<std::size_t>(0, 17);
        break;
      case Kind::kUniform:
        spec.a = *rc::gen::inRange<std::size_t>(0, 2000);
        spec.b = *rc::gen::inRange<std::size_t>(0, 4);
        break;
      case Kind::kTiny:
        spec.a = *rc::gen::inRange<std::size_t>(0, 50);
        spec.b = *rc::gen::inRange<std::size_t>(0, 6);
        break;
      case Kind::kPath:
        spec.a = *rc::gen::inRange<std::size_t>(0, 100);
        break;
    }
    spec.repeats = *rc::gen::element<std::size_t>(0, 0, 3, 20);
    spec.relabel = *rc::gen::arbitrary<bool>();
    return spec;
  });
}

// `got` against the BFS oracle's labels, which GAP's verifier accepted
// (checks/connected_components.h).
std::string Disagreement(const Csr& graph, const Components& got) {
  return checks::connected_components::FirstDifference(
      checks::connected_components::ExpectedOf(graph), got);
}

class ConnectedComponents
    : public testing::VariantTest<&connected_components::Variants> {
 protected:
  Components Run(const Csr& graph) const {
    Components out;
    variant().run(graph, out);
    return out;
  }
  bool threaded() const { return variant().backend == Backend::kOpenMp; }
  // Inside a RapidCheck property.
  void CheckAgainstOracle(const Csr& graph) const {
    const Components got = Run(graph);
    RC_ASSERT(Disagreement(graph, got) == "");
  }
};

// Worked by hand: components {0, 6}, {1, 3, 5}, {2} (a self loop), {4}.
TEST_P(ConnectedComponents, HandWorkedSmallGraph) {
  const Csr graph = RawGraph(7, {{3, 5}, {5, 1}, {0, 6}, {2, 2}, {5, 3}});
  const Components got = Run(graph);
  EXPECT_EQ(got.labels, (Words{0, 1, 2, 1, 4, 1, 0}));
  EXPECT_EQ(got.count, 4u);
}

// The smallest id of the component is reached only through larger ones:
// 5 - 9 - 7 - 2 - 8 - 0, and 4 - 6 alone; 1, 3 isolated. Every root must end
// at the minimum whatever the order edges are met in.
TEST_P(ConnectedComponents, HandWorkedMinimumReachedThroughLargerIds) {
  const Csr graph =
      RawGraph(10, {{5, 9}, {9, 7}, {7, 2}, {2, 8}, {8, 0}, {6, 4}});
  const Components got = Run(graph);
  EXPECT_EQ(got.labels, (Words{0, 1, 0, 3, 4, 0, 4, 0, 0, 0}));
  EXPECT_EQ(got.count, 4u);
}

TEST_P(ConnectedComponents, NoVerticesAndOneVertex) {
  Components out;
  out.labels = {7, 7, 7};  // stale buffers must not show
  out.count = 9;
  variant().run(Csr{}, out);
  EXPECT_TRUE(out.labels.empty());
  EXPECT_EQ(out.count, 0u);
  for (const Csr& one : {RawGraph(1, {}), RawGraph(1, {{0, 0}, {0, 0}})}) {
    variant().run(one, out);
    EXPECT_EQ(out.labels, Words{0});
    EXPECT_EQ(out.count, 1u);
  }
}

TEST_P(ConnectedComponents, IsolatedVerticesAreTheirOwnComponents) {
  const Components got = Run(RawGraph(5, {}));
  EXPECT_EQ(got.labels, (Words{0, 1, 2, 3, 4}));
  EXPECT_EQ(got.count, 5u);
}

TEST_P(ConnectedComponents, SelfLoopsAndRepeatedEdgesChangeNothing) {
  const Csr lattice = scenes::LatticeWithRemovals(8, 7, 6, 0.6, 3);
  const Components plain = Run(lattice);
  const Components repeated = Run(scenes::WithRepeats(lattice, 500, 4));
  EXPECT_EQ(repeated.labels, plain.labels);
  EXPECT_EQ(repeated.count, plain.count);
  EXPECT_EQ(Disagreement(lattice, plain), "");
}

TEST_P(ConnectedComponents, OutputBuffersAreReused) {
  Components out;
  variant().run(scenes::Path(1000), out);
  const Csr small = RawGraph(4, {{3, 2}});
  variant().run(small, out);
  EXPECT_EQ(out.labels, (Words{0, 1, 2, 2}));
  EXPECT_EQ(out.count, 3u);
}

TEST_P(ConnectedComponents, GeneratedGraphsMatchOracle) {
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check("every kind of graph, small", [this] {
    const GraphSpec spec = *AnyGraphSpec();
    if (threaded()) omp_set_num_threads(*rc::gen::inRange(1, 7));
    const Csr graph = BuildGraph(spec);
    RC_CLASSIFY(graph.rows() == 0, "no vertices");
    RC_CLASSIFY(graph.rows() == 1, "one vertex");
    RC_CLASSIFY(graph.rows() > 500, "> 500 vertices");
    CheckAgainstOracle(graph);
  }));
  omp_set_num_threads(default_threads);
}

// The table's run_trusted is the same kernel without the input check: on
// checked input it labels as the oracle does, and it is what `run` runs
// after Check.
TEST_P(ConnectedComponents, TrustedKernelMatchesOracleOnCheckedInput) {
  ASSERT_NE(variant().run_trusted, nullptr);
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check("every kind of graph, checked first", [this] {
    const GraphSpec spec = *AnyGraphSpec();
    if (threaded()) omp_set_num_threads(*rc::gen::inRange(1, 7));
    const Csr graph = BuildGraph(spec);
    Check(graph);
    Components got;
    variant().run_trusted(graph, got);
    RC_ASSERT(Disagreement(graph, got) == "");
  }));
  omp_set_num_threads(default_threads);
}

// Bad input: a clear error before any label is written.
TEST_P(ConnectedComponents, RejectsMalformedCsr) {
  struct Bad {
    const char* what;
    Csr graph;
  };
  const std::vector<Bad> bad = {
      {"no offsets", Csr{{}, {}}},
      {"offsets not starting at 0", Csr{{1, 2}, {0, 0}}},
      {"decreasing offsets", Csr{{0, 2, 1, 2}, {1, 0}}},
      {"offsets ending early", Csr{{0, 1, 1}, {1, 0}}},
      {"id out of range", Csr{{0, 1, 2}, {1, 2}}},
      {"id far out of range", Csr{{0, 0, 1}, {0xFFFFFFFFu}}},
      {"one direction missing", Csr{{0, 1, 1}, {1}}},
      {"multiplicity differs", Csr{{0, 2, 3}, {1, 1, 0}}},
      {"directed triangle", Csr{{0, 1, 2, 3}, {1, 2, 0}}},
  };
  for (const Bad& input : bad) {
    Components out;
    out.labels = {42, 42};
    EXPECT_THROW(variant().run(input.graph, out), Error) << input.what;
    EXPECT_EQ(out.labels, (Words{42, 42})) << input.what;
  }
}

TEST_P(ConnectedComponents, OutOfRangeErrorNamesRowAndEntry) {
  const Csr graph{{0, 1, 3, 4}, {1, 0, 7, 1}};
  try {
    Run(graph);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("row 1 (entry 2)"), std::string::npos) << message;
    EXPECT_NE(message.find("vertex 7"), std::string::npos) << message;
  }
}

// One entry dropped from, or one directed entry added to, a symmetric
// graph: every variant refuses it.
TEST_P(ConnectedComponents, RejectsGraphsMadeAsymmetric) {
  const int default_threads = omp_get_max_threads();
  EXPECT_TRUE(rc::check("one entry away from symmetric", [this] {
    const Csr graph = BuildGraph(*AnyGraphSpec());
    RC_PRE(graph.rows() > 1);
    if (threaded()) omp_set_num_threads(*rc::gen::inRange(1, 7));
    Csr broken = graph;
    const auto row = *rc::gen::inRange<std::size_t>(0, graph.rows());
    const bool drop = *rc::gen::arbitrary<bool>() && graph.RowSize(row) > 0;
    if (drop) {
      const std::size_t k = graph.offsets[row] + *rc::gen::inRange<std::size_t>(
                                                     0, graph.RowSize(row));
      // A self loop is its own mirror: dropping one keeps the symmetry.
      RC_PRE(graph.indices[k] != row);
      broken.indices.erase(broken.indices.begin() +
                           static_cast<std::ptrdiff_t>(k));
      for (std::size_t r = row + 1; r < broken.offsets.size(); ++r) {
        --broken.offsets[r];
      }
    } else {
      const auto to = *rc::gen::inRange<std::uint32_t>(
          0, static_cast<std::uint32_t>(graph.rows()));
      RC_PRE(to != row);
      broken.indices.insert(broken.indices.begin() + graph.offsets[row + 1],
                            to);
      for (std::size_t r = row + 1; r < broken.offsets.size(); ++r) {
        ++broken.offsets[r];
      }
    }
    RC_ASSERT(!reference::IsSymmetric(broken));
    Components out;
    RC_ASSERT_THROWS_AS(variant().run(broken, out), Error);
  }));
  omp_set_num_threads(default_threads);
}

// The OpenMP variants only (a serial one has no thread count to vary).
class ThreadedConnectedComponents : public ConnectedComponents {};

// Large enough that every thread of 1..6 has work: identical labels.
TEST_P(ThreadedConnectedComponents, SameLabelsOnEveryThreadCount) {
  const std::vector<Csr> graphs = {
      scenes::Kronecker(14, 16, 5),
      scenes::LatticeWithRemovals(30, 30, 30, 0.69, 6),
      scenes::Relabelled(scenes::Path(100000), 7),
      scenes::WithRepeats(scenes::TinyComponents(20000, 5, 8), 5000, 9),
  };
  for (const Csr& graph : graphs) {
    const checks::connected_components::Expected expected =
        checks::connected_components::ExpectedOf(graph);
    testing::OnEveryThreadCount(6, [&](int threads) {
      const Components got = Run(graph);
      EXPECT_EQ(got.threads, threads);
      EXPECT_EQ(checks::connected_components::FirstDifference(expected, got),
                "");
    });
  }
}

// 10M vertices in one chain: no recursion, no quadratic find.
TEST_P(ConnectedComponents, TenMillionVertexPath) {
  const Csr path = scenes::Path(10'000'000);
  const Components got = Run(path);
  EXPECT_EQ(got.count, 1u);
  EXPECT_TRUE(std::all_of(got.labels.begin(), got.labels.end(),
                          [](std::uint32_t label) { return label == 0; }));
  EXPECT_EQ(got.labels.size(), path.rows());
}

// A million-vertex path in shuffled order: the long-diameter, bad-locality
// case.
TEST_P(ConnectedComponents, ShuffledMillionVertexPath) {
  const Csr path = scenes::Relabelled(scenes::Path(1'000'000), 11);
  const Components got = Run(path);
  EXPECT_EQ(Disagreement(path, got), "");
  EXPECT_EQ(got.count, 1u);
}

INSTANTIATE_TEST_SUITE_P(Variants, ConnectedComponents,
                         ::testing::ValuesIn(testing::CasesOf(Variants())),
                         testing::CaseName);
INSTANTIATE_TEST_SUITE_P(
    Variants, ThreadedConnectedComponents,
    ::testing::ValuesIn(testing::CasesOfBackend(Variants(), Backend::kOpenMp)),
    testing::CaseName);

// The rows with a twin: its labels and count on every thread count.
class TwinConnectedComponents : public ConnectedComponents {};

TEST_P(TwinConnectedComponents, GivesItsTwinsOutputOnEveryThreadCount) {
  const Variant& twin = testing::TwinOf(Variants(), variant());
  for (const Csr& graph :
       {scenes::Kronecker(14, 16, 5),
        scenes::LatticeWithRemovals(30, 30, 30, 0.69, 6),
        scenes::WithRepeats(scenes::TinyComponents(20000, 5, 8), 5000, 9)}) {
    Components expected;
    twin.run(graph, expected);
    testing::OnEveryThreadCount(6, [&](int threads) {
      const Components got = Run(graph);
      EXPECT_EQ(got.threads, threads);
      EXPECT_EQ(got.count, expected.count);
      EXPECT_TRUE(got.labels == expected.labels);
    });
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, TwinConnectedComponents,
    ::testing::ValuesIn(testing::CasesWithTwin(Variants())), testing::CaseName);

// GAP's kron20: 2^20 vertices, ~15.7M undirected edges, hundreds of
// thousands of components. One graph, every variant.
TEST(ConnectedComponentsLarge, Kronecker2To20MatchesOracle) {
  const Csr graph = scenes::Kronecker(20, 16, 27491095);
  const checks::connected_components::Expected expected =
      checks::connected_components::ExpectedOf(graph);
  for (const Variant& variant : Variants()) {
    if (!CanRun(variant).available) continue;  // CUDA without a GPU
    Components got;
    variant.run(graph, got);
    EXPECT_EQ(checks::connected_components::FirstDifference(expected, got), "")
        << variant.name;
  }
}

// The check: exact on everything the tests generate, and its fingerprint
// agrees with the exact test on random directed graphs.
TEST(ConnectedComponentsCheck, AgreesWithExactSymmetryOnRandomDigraphs) {
  EXPECT_TRUE(rc::check("random entries", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 12);
    const auto id =
        rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(n));
    std::vector<Words> rows(n);
    for (Words& row : rows) row = *rc::gen::container<Words>(id);
    // Mirror some entries, so that symmetric inputs come up too.
    if (*rc::gen::arbitrary<bool>()) {
      for (std::uint32_t u = 0; u < n; ++u) {
        const Words row = rows[u];
        for (const std::uint32_t v : row) {
          if (v > u) rows[v].push_back(u);
        }
        rows[u].erase(std::remove_if(rows[u].begin(), rows[u].end(),
                                     [u](std::uint32_t v) { return v < u; }),
                      rows[u].end());
      }
    }
    const Csr graph = GraphOfRows(rows);
    const bool symmetric = reference::IsSymmetric(graph);
    RC_CLASSIFY(symmetric);
    RC_ASSERT(IsSymmetricExact(graph) == symmetric);
    bool accepted = true;
    try {
      Check(graph, *rc::gen::inRange(1, 4));
    } catch (const Error&) {
      accepted = false;
    }
    RC_ASSERT(accepted == symmetric);
  }));
}

// Dispatch goes back to the best target however a property ends.
struct BestTargetAfterwards {
  ~BestTargetAfterwards() { simd::ForceTarget(0); }
};

// n rows of ids below n, every row shorter than one bound drawn per graph:
// 2 (mostly empty rows), 4 (short rows), 12 (rows around the gather
// limit) or 40 (long rows), so that every path of the fingerprint runs.
std::vector<Words> RowsBelowOneLengthBound(std::size_t n) {
  const auto id =
      rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(n));
  const auto longest = *rc::gen::element<std::size_t>(2, 4, 12, 40);
  RC_TAG(longest);
  std::vector<Words> rows(n);
  for (Words& row : rows) {
    const auto length = *rc::gen::inRange<std::size_t>(0, longest);
    row = *rc::gen::container<Words>(length, id);
  }
  return rows;
}

// The fingerprint runs on Highway lanes: groups of rows whose entries fill
// a vector or two (windows), groups of short rows (gathers) with long rows
// among them, long rows alone with a vector tail that reaches into the next
// row or stops at the array's end. On every target, with rows mostly empty,
// short or long, and an out-of-range id anywhere, Check accepts exactly the
// symmetric in-range graphs, and every target and every split of the rows
// sums the same fingerprint.
TEST(ConnectedComponentsCheck,
     EveryHighwayTargetAgreesWithExactSymmetryOnRowsOfEveryLength) {
  BestTargetAfterwards best_target_afterwards;
  EXPECT_TRUE(rc::check("rows of every length on every target", [] {
    const auto n = *rc::gen::inRange<std::size_t>(1, 80);
    const auto id =
        rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(n));
    std::vector<Words> rows = RowsBelowOneLengthBound(n);
    if (*rc::gen::arbitrary<bool>()) {
      // Mirror every entry, then perhaps break one mirror.
      std::vector<Words> mirrored = rows;
      for (std::uint32_t u = 0; u < n; ++u) {
        for (const std::uint32_t v : rows[u]) {
          if (v != u) mirrored[v].push_back(u);
        }
      }
      rows = mirrored;
      if (*rc::gen::arbitrary<bool>()) {
        const auto u = *rc::gen::inRange<std::size_t>(0, n);
        rows[u].push_back(*id);
      }
    }
    const bool out_of_range = *rc::gen::arbitrary<bool>();
    if (out_of_range) {
      const auto u = *rc::gen::inRange<std::size_t>(0, n);
      const auto at = *rc::gen::inRange<std::size_t>(0, rows[u].size() + 1);
      rows[u].insert(rows[u].begin() + static_cast<std::ptrdiff_t>(at),
                     static_cast<std::uint32_t>(n) +
                         *rc::gen::inRange<std::uint32_t>(0, 1000));
    }
    const Csr graph = GraphOfRows(rows);
    const bool symmetric = !out_of_range && reference::IsSymmetric(graph);
    RC_CLASSIFY(symmetric);
    const int threads = *rc::gen::inRange(1, 3);
    // One graph through every target: each has its own vector width, so
    // rows fall on the vector path, its tail or the scalar path differently,
    // yet the fingerprint (a sum modulo 2^64) must come out the same.
    std::vector<std::uint64_t> fingerprints;
    for (const std::int64_t target : simd::RunnableTargets()) {
      simd::ForceTarget(target);
      bool accepted = true;
      std::string error;
      try {
        Check(graph, threads);
      } catch (const Error& e) {
        accepted = false;
        error = e.what();
      }
      bool whole_bad = false;
      const std::uint64_t whole =
          detail::SymmetryFingerprint(graph, 0, n, &whole_bad);
      std::uint64_t by_row = 0;
      bool any_bad = false;
      for (std::size_t u = 0; u < n; ++u) {
        bool bad = false;
        by_row += detail::SymmetryFingerprint(graph, u, u + 1, &bad);
        any_bad = any_bad || bad;
      }
      RC_ASSERT(accepted == symmetric);
      RC_ASSERT(whole_bad == out_of_range);
      RC_ASSERT(any_bad == out_of_range);
      if (out_of_range) {
        RC_ASSERT(error.find("names vertex") != std::string::npos);
      } else {
        RC_ASSERT((whole == 0) == symmetric);
      }
      RC_ASSERT(by_row == whole);
      fingerprints.push_back(whole);
    }
    RC_ASSERT(std::all_of(
        fingerprints.begin(), fingerprints.end(),
        [&](std::uint64_t f) { return f == fingerprints.front(); }));
  }));
}

// An offset moved anywhere, in a graph long enough for every path of the
// fingerprint (windows, gathers, rows alone): where it breaks the order of
// the offsets, every target reports malformed offsets and Check throws,
// without reading outside the arrays (the sanitizer presets watch that).
TEST(ConnectedComponentsCheck, EveryHighwayTargetCatchesOneMovedOffset) {
  BestTargetAfterwards best_target_afterwards;
  EXPECT_TRUE(rc::check("one offset moved, every target", [] {
    const auto n = *rc::gen::inRange<std::size_t>(2, 100);
    Csr graph = GraphOfRows(RowsBelowOneLengthBound(n));
    const auto at = *rc::gen::inRange<std::size_t>(1, n);
    const auto entries = static_cast<std::uint32_t>(graph.entries());
    graph.offsets[at] = *rc::gen::oneOf(
        rc::gen::inRange<std::uint32_t>(0, entries + 1),
        rc::gen::inRange<std::uint32_t>(entries + 1, entries + 40));
    const bool ordered =
        std::is_sorted(graph.offsets.begin(), graph.offsets.end());
    RC_CLASSIFY(ordered);
    for (const std::int64_t target : simd::RunnableTargets()) {
      simd::ForceTarget(target);
      bool out_of_range = false;
      bool malformed = false;
      detail::SymmetryFingerprint(graph, 0, n, &out_of_range, &malformed);
      RC_ASSERT(malformed == !ordered);
      if (!ordered) {
        RC_ASSERT_THROWS_AS(Check(graph, *rc::gen::inRange(1, 3)), Error);
      }
    }
  }));
}

// One directed entry (u, v), u != v, is the smallest asymmetry and must
// never pass. An earlier mix, linear under v -> 2v + 1 half the time, let
// 48 -> 97 through in a 386-vertex graph (RapidCheck found it once in a
// few hundred CI runs); here every ordered pair below kIds is tried: row u
// of the graph shifted by s names (u + s) mod kIds, and each row's own
// fingerprint is that one entry's term.
TEST(ConnectedComponentsCheck, CatchesEverySingleDirectedEntryBetweenSmallIds) {
  constexpr std::uint32_t kIds = 1024;
  // One entry per row; each shift below rewrites the entries in place.
  Csr graph = GraphOfRows(std::vector<Words>(kIds, Words{0}));
  std::size_t passed = 0;
  for (std::uint32_t shift = 1; shift < kIds; ++shift) {
    for (std::uint32_t u = 0; u < kIds; ++u) {
      graph.indices[u] = (u + shift) % kIds;
    }
    for (std::uint32_t u = 0; u < kIds; ++u) {
      bool bad = false;
      if (detail::SymmetryFingerprint(graph, u, u + 1, &bad) == 0 || bad) {
        ++passed;
        ADD_FAILURE() << u << " -> " << graph.indices[u] << " passes";
        if (passed > 5) return;
      }
    }
  }
  // The case RapidCheck found: 386 vertices, no edges, and 48 -> 97.
  std::vector<Words> rows(386);
  rows[48] = {97};
  const Csr one_entry = GraphOfRows(rows);
  EXPECT_THROW(Check(one_entry), Error);
  for (const Variant& variant : Variants()) {
    if (!CanRun(variant).available) continue;  // CUDA without a GPU
    Components out;
    EXPECT_THROW(variant.run(one_entry, out), Error) << variant.name;
  }
}

// The verifier must catch every way a labelling can be wrong.
class VerifyLabels : public ::testing::Test {
 protected:
  // Components {0, 2, 4}, {1, 3}, {5}.
  const Csr graph = RawGraph(6, {{4, 2}, {2, 0}, {3, 1}});
  const Words good = {0, 1, 0, 1, 0, 5};
};

TEST_F(VerifyLabels, AcceptsTheCanonicalLabels) {
  EXPECT_EQ(reference::VerifyLabels(graph, good, 3), "");
  EXPECT_EQ(reference::ComponentLabels(graph), good);
}

TEST_F(VerifyLabels, RejectsBrokenLabellings) {
  struct Broken {
    const char* what;
    Words labels;
    std::uint64_t count;
  };
  const std::vector<Broken> broken = {
      {"wrong count", good, 2},
      {"too few labels", {0, 1, 0, 1, 0}, 3},
      {"label not a vertex", {0, 1, 0, 1, 0, 6}, 3},
      {"largest id as label", {4, 3, 4, 3, 4, 5}, 3},
      {"edge across labels", {0, 1, 0, 1, 4, 5}, 4},
      {"two components, one label", {0, 0, 0, 0, 0, 5}, 2},
      {"isolated vertex merged", {0, 1, 0, 1, 0, 0}, 2},
      {"label's vertex labelled otherwise", {0, 1, 0, 1, 0, 3}, 2},
      {"component split", {0, 1, 2, 1, 2, 5}, 4},
  };
  for (const Broken& labels : broken) {
    EXPECT_NE(reference::VerifyLabels(graph, labels.labels, labels.count), "")
        << labels.what;
  }
}

TEST(VerifyLabelsProperty, AcceptsOracleRejectsAnyChangedLabel) {
  EXPECT_TRUE(rc::check("oracle labels with one label changed", [] {
    const Csr graph = BuildGraph(*AnyGraphSpec());
    Words labels = reference::ComponentLabels(graph);
    const std::uint64_t count = reference::CountRoots(labels);
    RC_ASSERT(reference::VerifyLabels(graph, labels, count) == std::string());
    RC_PRE(graph.rows() > 1);
    const auto v = *rc::gen::inRange<std::size_t>(0, graph.rows());
    const auto to = *rc::gen::inRange<std::uint32_t>(
        0, static_cast<std::uint32_t>(graph.rows()));
    RC_PRE(to != labels[v]);
    labels[v] = to;
    // Whatever count is claimed.
    RC_ASSERT(reference::VerifyLabels(graph, labels, count) != std::string());
    RC_ASSERT(reference::VerifyLabels(graph, labels, count + 1) !=
              std::string());
  }));
}

// The scenes: symmetric, rows ascending without repeats or self loops,
// deterministic, with the components they promise.
bool Canonical(const Csr& graph) {
  for (std::size_t v = 0; v < graph.rows(); ++v) {
    const auto row = graph.Row(v);
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (row[k] == v || (k > 0 && row[k - 1] >= row[k])) return false;
    }
  }
  return reference::IsSymmetric(graph);
}

std::uint32_t ComponentCount(const Csr& graph) {
  return reference::CountRoots(reference::ComponentLabels(graph));
}

TEST(Graphs, GeneratorsGiveCanonicalSymmetricGraphs) {
  EXPECT_TRUE(rc::check("every generator", [] {
    GraphSpec spec = *AnyGraphSpec();
    RC_PRE(spec.kind != Kind::kEdgeList);
    spec.repeats = 0;
    const Csr graph = BuildGraph(spec);
    RC_ASSERT(Canonical(graph));
    RC_ASSERT(BuildGraph(spec) == graph);
  }));
}

TEST(Graphs, ComponentsAreThosePromised) {
  EXPECT_EQ(ComponentCount(scenes::Path(50)), 1u);
  EXPECT_EQ(scenes::Path(50).entries(), 98u);
  EXPECT_EQ(ComponentCount(scenes::Relabelled(scenes::Path(50), 3)), 1u);
  EXPECT_EQ(ComponentCount(scenes::TinyComponents(300, 4, 1)), 300u);
  const Csr full = scenes::LatticeWithRemovals(5, 6, 7, 0.0, 1);
  EXPECT_EQ(full.rows(), 210u);
  // Bonds: 4*6*7 + 5*5*7 + 5*6*6 = 168 + 175 + 180.
  EXPECT_EQ(full.entries(), 2u * 523u);
  EXPECT_EQ(ComponentCount(full), 1u);
  EXPECT_EQ(scenes::LatticeWithRemovals(5, 6, 7, 1.0, 1).rows(), 0u);
  // 8^3 lattice, clusters of 4^3 every 3 sites: origins 0, 3, 6 per axis,
  // extents 4, 4, 2: 27 clusters of (4 + 4 + 2)^3 = 1000 vertices.
  const Csr clusters = scenes::OverlappingClusters(8, 4, 3, 0.0, 1);
  EXPECT_EQ(scenes::OverlappingClusterCount(8, 3), 27u);
  EXPECT_EQ(clusters.rows(), 1000u);
  EXPECT_EQ(ComponentCount(clusters), 27u);
  const Csr kron = scenes::Kronecker(10, 16, 2);
  EXPECT_EQ(kron.rows(), 1024u);
  EXPECT_GT(ComponentCount(kron), 1u);  // isolated vertices
  // A closed cloth grid is connected; its vertex graph has 3 edges per quad
  // plus the border.
  const Csr cloth = scenes::MeshVertexGraph(
      scenes::ClothGrid(3, 2, scenes::Diagonals::kUniform));
  EXPECT_EQ(cloth.rows(), 12u);
  EXPECT_EQ(cloth.entries(), 2u * (3 * 6 + 3 + 2));
  EXPECT_EQ(ComponentCount(cloth), 1u);
}

TEST(Graphs, UndirectedGraphRejectsOutOfRangeIds) {
  const std::vector<scenes::Edge> edges = {{0, 3}};
  EXPECT_THROW(scenes::UndirectedGraph(3, edges), std::invalid_argument);
}

}  // namespace
// The device-resident entry (what the device:1 benchmark rows time, and
// what a family labelling on the GPU calls) labels as the oracle does: no
// vertices, isolated vertices, a lattice near the percolation threshold, a
// Kronecker graph and a path, twice each (the labels buffer reused).
TEST(ConnectedComponentsCuda, DeviceLabellerMatchesTheOracle) {
#if !ADJ_HAVE_CUDA
  GTEST_SKIP() << "built without CUDA";
#else
  if (!cuda::Available().available) GTEST_SKIP() << cuda::Available().reason;
  const std::vector<Csr> graphs = {
      GraphOfRows({}),
      GraphOfRows(std::vector<Words>(5)),
      scenes::LatticeWithRemovals(12, 12, 12, 0.69, 7),
      scenes::Kronecker(10, 16, 11),
      scenes::Path(100000),
  };
  for (const Csr& graph : graphs) {
    Check(graph);
    const auto expected = checks::connected_components::ExpectedOf(graph);
    DeviceLabeller labeller(graph);
    for (int call = 0; call < 2; ++call) {
      EXPECT_GE(labeller.TimeLabels(), 0.0);
      EXPECT_EQ(checks::connected_components::FirstDifference(
                    expected, labeller.Labels()),
                "")
          << graph.rows() << " vertices, call " << call;
    }
  }
#endif
}

}  // namespace adj::connected_components
