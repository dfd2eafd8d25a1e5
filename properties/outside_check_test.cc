// The outside checks (registry/outside_check.h) against the suite's own
// verdicts: every variant's output, handed over as an outside user would
// hand it (pairs or CSR, full or half, rows shuffled; labels renumbered),
// agrees exactly when checks/ says the variant agrees, and a planted defect
// (a dropped pair, two components merged) is named. And the arrays and the
// files they come from: every malformed one refused, naming it.
#include "registry/outside_check.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/common/memory_budget.h"
#include "algorithms/common/variant.h"
#include "algorithms/compaction/compaction.h"
#include "algorithms/connected_components/connected_components.h"
#include "algorithms/fracture/fracture.h"
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_set/hash_set.h"
#include "algorithms/prefix_sum/prefix_sum.h"
#include "algorithms/sph/sph.h"
#include "algorithms/triangle_adjacency/triangle_adjacency.h"
#include "algorithms/triplet_collide/triplet_collide.h"
#include "algorithms/triplet_schedule/triplet_schedule.h"
#include "checks/compaction.h"
#include "checks/connected_components.h"
#include "checks/fracture.h"
#include "checks/hash_grid.h"
#include "checks/hash_set.h"
#include "checks/prefix_sum.h"
#include "checks/sph.h"
#include "checks/triangle_adjacency.h"
#include "checks/triplet_collide.h"
#include "checks/triplet_schedule.h"
#include "properties/cloud_generators.h"
#include "registry/array_views.h"
#include "registry/corpus.h"
#include "registry/verify.h"
#include "scenes/fluids.h"
#include "scenes/graphs.h"
#include "scenes/meshes.h"
#include "scenes/solids.h"
#include "tools/array_files.h"
#include "tools/check_command.h"

namespace adj::registry {
namespace {

// The registry's verdict on an output (what adjacent.check calls), after
// making sure that `adjacent check` on the same arrays written as .npz
// files (the parameters as 0-d input arrays) says the same: exit 0 exactly
// when it agrees, 1 when it differs, 2 when the input is refused (the
// refusal is rethrown). Throws std::logic_error when the routes disagree,
// failing a TEST and a property alike.
OutsideVerdict Judge(const OutsideCheck& check, const Arrays& inputs,
                     const Arrays& outputs, const Parameters& parameters) {
  Arrays with_parameters = inputs;
  for (const auto& [name, value] : parameters) {
    Array scalar;
    scalar.shape = {};
    scalar.reals = {value};
    with_parameters[name] = scalar;
  }
  // ctest runs tests in parallel processes: each writes files of its own.
  const std::string stem =
      ::testing::TempDir() + "/judged_" + std::to_string(::getpid()) + "_";
  const std::string input_path = stem + "input.npz";
  const std::string output_path = stem + "output.npz";
  cli::WriteNpz(input_path, with_parameters);
  cli::WriteNpz(output_path, outputs);
  // The command's own exit status for what escapes it, as `adjacent`'s
  // main gives it (docs/verification.md's table).
  std::ostringstream quiet;
  int status = 0;
  {
    struct Redirect {
      std::ostream& stream;
      std::streambuf* saved;
      ~Redirect() { stream.rdbuf(saved); }
    } out{std::cout, std::cout.rdbuf(quiet.rdbuf())},
        err{std::cerr, std::cerr.rdbuf(quiet.rdbuf())};
    try {
      status = cli::CheckCommand(
          {std::string(check.family), input_path, output_path});
    } catch (const ResourceError& error) {
      quiet << error.what();
      status = 3;
    } catch (const std::exception& error) {
      quiet << error.what();
      status = 2;
    }
  }
  std::remove(input_path.c_str());
  std::remove(output_path.c_str());
  const auto disagree = [&](const std::string& verdict) {
    return std::logic_error(std::string(check.family) +
                            ": adjacent check exits " + std::to_string(status) +
                            " where the registry " + verdict + ": " +
                            quiet.str());
  };
  OutsideVerdict verdict;
  try {
    RequireKnownNames(check, inputs, outputs, parameters);
    verdict = check.check(inputs, outputs, parameters);
  } catch (const ResourceError&) {
    if (status != 3) throw disagree("refuses it for resources");
    throw;
  } catch (const CheckInputError&) {
    if (status != 2) throw disagree("refuses the input");
    throw;
  }
  if (status != (verdict.difference.empty() ? 0 : 1)) {
    throw disagree(verdict.difference.empty()
                       ? "agrees"
                       : "differs: " + verdict.difference);
  }
  return verdict;
}

Array PointsArray(const Points& points) {
  Array array;
  array.shape = {points.size(), 3};
  for (std::size_t i = 0; i < points.size(); ++i) {
    array.reals.insert(array.reals.end(),
                       {points.x[i], points.y[i], points.z[i]});
  }
  return array;
}

// A variant's lists as an outside user hands them over: its entries as
// (M, 2) pairs in a shuffled order.
Array PairsArray(const hash_grid::Neighbors& got, std::uint64_t seed) {
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  for (std::size_t i = 0; i < got.csr.rows(); ++i) {
    for (const std::uint32_t j : got.csr.Row(i)) pairs.emplace_back(i, j);
  }
  std::shuffle(pairs.begin(), pairs.end(), std::mt19937_64(seed));
  Array array = IntegerArray({pairs.size(), 2}, {});
  for (const auto& [i, j] : pairs)
    array.integers.insert(array.integers.end(), {i, j});
  return array;
}

OutsideVerdict CheckHashGrid(const Points& points, float radius,
                             Arrays outputs) {
  const OutsideCheck& check = *FindOutsideCheck("hash_grid");
  Arrays inputs;
  inputs["points"] = PointsArray(points);
  const Parameters parameters = {{"radius", radius}};
  return Judge(check, inputs, outputs, parameters);
}

RC_GTEST_PROP(OutsideCheck, HashGridAgreesWithTheSuiteOnEveryExactVariant, ()) {
  const testing::CloudSpec spec = *testing::AnyCloud(60);
  const Points points = testing::BuildCloud(spec);
  const hash_grid::Params params{spec.spacing, spec.max_dist, spec.table_size};
  const auto expected = checks::hash_grid::ExpectedOf(points, spec.max_dist);
  for (const hash_grid::Variant& variant : hash_grid::Variants()) {
    if (!CanRun(variant).available) continue;
    hash_grid::Neighbors got;
    variant.run(points, params, got);
    // Müller's rows keep his window and repeats (his page's convention);
    // the outside check holds the exact contract, so only exact rows are
    // compared with the suite's verdict.
    if (got.order == hash_grid::RowOrder::kMuller) continue;
    const bool suite_agrees =
        checks::hash_grid::FirstDifference(points, params, expected, got)
            .empty();
    const OutsideVerdict as_pairs =
        CheckHashGrid(points, spec.max_dist, {{"pairs", PairsArray(got, 7)}});
    RC_ASSERT(as_pairs.difference.empty() == suite_agrees);
    Arrays csr;
    csr["offsets"] =
        IntegerArray({got.csr.offsets.size()},
                     {got.csr.offsets.begin(), got.csr.offsets.end()});
    csr["indices"] =
        IntegerArray({got.csr.indices.size()},
                     {got.csr.indices.begin(), got.csr.indices.end()});
    RC_ASSERT(CheckHashGrid(points, spec.max_dist, csr).difference.empty() ==
              suite_agrees);
    if (got.csr.entries() == 0) continue;
    // One pair dropped (both its entries from a full list: one direction
    // alone dropped from a list of one pair leaves a valid half list, the
    // convention the check infers): named as missing.
    Array dropped = PairsArray(got, 11);
    const std::int64_t i = dropped.integers[0];
    const std::int64_t j = dropped.integers[1];
    std::vector<std::int64_t> kept;
    for (std::size_t k = 0; k < dropped.integers.size(); k += 2) {
      const std::int64_t a = dropped.integers[k];
      const std::int64_t b = dropped.integers[k + 1];
      if ((a == i && b == j) || (a == j && b == i)) continue;
      kept.insert(kept.end(), {a, b});
    }
    dropped.integers = kept;
    dropped.shape[0] = kept.size() / 2;
    const std::string said =
        CheckHashGrid(points, spec.max_dist, {{"pairs", dropped}}).difference;
    RC_ASSERT(said.find("missing") != std::string::npos);
    RC_TAG(i == j ? "self" : "pair");
  }
}

TEST(OutsideCheck, HashGridNamesTheMissingPairAndItsDistance) {
  Points points;
  for (const float x : {0.0f, 0.25f, 1.0f}) {
    points.x.push_back(x);
    points.y.push_back(0);
    points.z.push_back(0);
  }
  // A half list without (1, 0), which is exactly at the radius.
  const OutsideVerdict verdict =
      CheckHashGrid(points, 0.25f, {{"pairs", IntegerArray({0, 2}, {})}});
  EXPECT_EQ(verdict.difference.rfind(
                "particle 1: missing 0 (distance 0.25 <= 0.25)", 0),
            0u)
      << verdict.difference;
  const OutsideVerdict right =
      CheckHashGrid(points, 0.25f, {{"pairs", IntegerArray({1, 2}, {0, 1})}});
  EXPECT_EQ(right.difference, "");
  EXPECT_NE(right.scope.find("half list"), std::string::npos);
  // A full list that lost (0, 1) but kept (1, 0) reads as a valid half
  // list unless it says it is full.
  const OutsideCheck& check = *FindOutsideCheck("hash_grid");
  const Arrays inputs = {{"points", PointsArray(points)}};
  const Arrays lost = {{"pairs", IntegerArray({1, 2}, {1, 0})}};
  EXPECT_EQ(Judge(check, inputs, lost, {{"radius", 0.25}}).difference, "");
  EXPECT_EQ(Judge(check, inputs, lost, {{"radius", 0.25}, {"full", 1}})
                .difference.rfind("particle 0: missing 1", 0),
            0u);
  EXPECT_THROW(check.check(inputs, lost, {{"radius", 0.25}, {"full", 2}}),
               CheckInputError);
}

RC_GTEST_PROP(OutsideCheck, ComponentsAgreeWithTheSuiteUnderAnyNumbering, ()) {
  const auto components = *rc::gen::inRange<std::size_t>(0, 12);
  const auto max_size = *rc::gen::inRange<std::size_t>(1, 8);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const Csr graph = scenes::TinyComponents(components, max_size, seed);
  const auto expected = checks::connected_components::ExpectedOf(graph);
  Arrays inputs;
  inputs["offsets"] = IntegerArray(
      {graph.offsets.size()}, {graph.offsets.begin(), graph.offsets.end()});
  inputs["indices"] = IntegerArray(
      {graph.indices.size()}, {graph.indices.begin(), graph.indices.end()});
  const OutsideCheck& check = *FindOutsideCheck("connected_components");
  for (const connected_components::Variant& variant :
       connected_components::Variants()) {
    if (!CanRun(variant).available) continue;
    connected_components::Components got;
    variant.run(graph, got);
    const bool suite_agrees =
        checks::connected_components::FirstDifference(expected, got).empty();
    // Renumbered: label l becomes 1000 - 3 l.
    Array labels = IntegerArray({got.labels.size()}, {});
    for (const std::uint32_t label : got.labels) {
      labels.integers.push_back(1000 - 3 * std::int64_t{label});
    }
    RC_ASSERT(
        Judge(check, inputs, {{"labels", labels}}, {}).difference.empty() ==
        suite_agrees);
    if (expected.count < 2) continue;
    // Two components merged: vertex v's label given to another
    // component's vertices.
    std::vector<std::int64_t>& values = labels.integers;
    const std::int64_t first = values[0];
    const auto other = std::find_if(values.begin(), values.end(),
                                    [&](std::int64_t l) { return l != first; });
    std::replace(values.begin(), values.end(), *other, first);
    const std::string said =
        Judge(check, inputs, {{"labels", labels}}, {}).difference;
    RC_ASSERT(said.find("your labels put it with vertex") != std::string::npos);
  }
}

TEST(OutsideCheck, AVertexCountPastTheBudgetIsRefusedBeforeAllocating) {
  const OutsideCheck& check = *FindOutsideCheck("connected_components");
  memory::SetBudget(std::uint64_t{1} << 30);  // 16 GiB of offsets past it
  EXPECT_THROW(check.check({{"edges", IntegerArray({0, 2}, {})}},
                           {{"labels", IntegerArray({0}, {})}},
                           {{"vertices", 4294967295.0}}),
               ResourceError);
  memory::SetBudget(0);  // the default again
}

TEST(OutsideCheck, ComponentsReadEdgesEitherWay) {
  const OutsideCheck& check = *FindOutsideCheck("connected_components");
  const Arrays inputs = {{"edges", IntegerArray({2, 2}, {1, 0, 2, 3})}};
  EXPECT_EQ(
      check
          .check(inputs, {{"labels", IntegerArray({5}, {9, 9, 4, 4, -1})}},
                 {{"vertices", 5}})
          .difference,
      "");
  EXPECT_NE(
      check
          .check(inputs, {{"labels", IntegerArray({5}, {9, 9, 9, 4, -1})}},
                 {{"vertices", 5}})
          .difference,
      "");
}

TEST(OutsideCheck, MalformedArraysAreRefusedByName) {
  const OutsideCheck& grid = *FindOutsideCheck("hash_grid");
  const OutsideCheck& components = *FindOutsideCheck("connected_components");
  const Arrays points = {{"points", IntegerArray({2, 3}, {0, 0, 0, 1, 1, 1})}};
  const Parameters radius = {{"radius", 1}};
  const auto refusal = [](auto&& run) -> std::string {
    try {
      run();
    } catch (const CheckInputError& error) {
      return error.what();
    }
    return "(accepted)";
  };
  const auto grid_says = [&](Arrays inputs, Arrays outputs,
                             Parameters parameters) {
    return refusal([&] { grid.check(inputs, outputs, parameters); });
  };
  EXPECT_EQ(
      grid_says(points, {{"pairs", IntegerArray({1, 2}, {0, 2})}}, radius),
      "pairs: entry 1 is 2, outside [0, 2)");
  EXPECT_EQ(grid_says(points, {{"pairs", IntegerArray({2}, {0, 1})}}, radius),
            "pairs: shape (2,), expected (M, 2)");
  EXPECT_EQ(
      grid_says(points, {}, radius),
      "hash_grid: give either pairs or offsets and indices as the output");
  EXPECT_EQ(grid_says(points,
                      {{"offsets", IntegerArray({3}, {0, 2, 1})},
                       {"indices", IntegerArray({1}, {1})}},
                      radius),
            "neighbor offsets: decreases at row 1");
  EXPECT_EQ(grid_says(points, {{"pairs", IntegerArray({0, 2}, {})}}, {}),
            "the parameter radius is required");
  Arrays nan_points = points;
  nan_points["points"].integral = false;
  nan_points["points"].reals = {0, 0, 0, std::nan(""), 1, 1};
  EXPECT_EQ(grid_says(nan_points, {{"pairs", IntegerArray({0, 2}, {})}}, radius)
                .rfind("points: point 1 has coordinate", 0),
            0u);
  EXPECT_EQ(refusal([&] {
              RequireKnownNames(grid, points,
                                {{"pairz", IntegerArray({0}, {})}}, radius);
            }),
            "hash_grid reads no output pairz (its outputs: pairs, offsets, "
            "indices)");
  EXPECT_EQ(refusal([&] {
              components.check({{"edges", IntegerArray({1, 2}, {0, 1})}},
                               {{"labels", IntegerArray({2}, {0, 0})}},
                               {{"vertices", 1.5}});
            }),
            "the parameter vertices is 1.500000, not a whole number in [0, "
            "4294967295]");
  EXPECT_EQ(refusal([&] {
              components.check({{"edges", IntegerArray({1, 2}, {0, 1})}},
                               {{"labels", IntegerArray({3}, {0, 0, 1})}},
                               {{"vertices", 2}});
            }),
            "labels: 3 entries of shape rank 1, expected one per vertex (2,)");
}

// A .npy file as NumPy writes it: magic, version 1.0, a header padded with
// spaces to a multiple of 64 bytes, then the data.
std::string Npy(const std::string& descr, const std::string& shape,
                const std::string& data, const std::string& fortran = "False") {
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': " + fortran +
                       ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string bytes = "\x93NUMPY\x01";
  bytes += '\0';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + data;
}

TEST(ArrayFiles, NpyAndTextAreReadAndMalformedOnesRefusedByName) {
  const std::string four_int32("\x01\0\0\0\xfe\xff\xff\xff\x03\0\0\0\x04\0\0\0",
                               16);
  const Arrays read =
      cli::ParseArrayBytes(Npy("<i4", "(2, 2)", four_int32), "a.npy", "pairs");
  ASSERT_EQ(read.count("pairs"), 1u);
  EXPECT_EQ(read.at("pairs").shape, (std::vector<std::size_t>{2, 2}));
  EXPECT_EQ(read.at("pairs").integers,
            (std::vector<std::int64_t>{1, -2, 3, 4}));
  const Arrays text =
      cli::ParseArrayBytes("# i j\n0, 1\n2\t3 # end\n\n", "p.txt", "pairs");
  EXPECT_EQ(text.at("pairs").shape, (std::vector<std::size_t>{2, 2}));
  EXPECT_EQ(text.at("pairs").integers, (std::vector<std::int64_t>{0, 1, 2, 3}));
  const Arrays reals = cli::ParseArrayBytes("0.5 1e-3 -2\n", "x.txt", "points");
  EXPECT_FALSE(reals.at("points").integral);
  const auto refusal = [](const std::string& bytes, const std::string& name) {
    try {
      cli::ParseArrayBytes(bytes, name, "pairs");
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refusal(Npy("<i4", "(2, 2)", four_int32.substr(0, 12)), "a.npy"),
            "a.npy: 12 bytes of data, the shape needs 16");
  EXPECT_EQ(refusal(Npy(">f8", "(2,)", std::string(16, '\0')), "a.npy"),
            "a.npy: dtype '>f8': little-endian ints, uints or floats only");
  EXPECT_EQ(
      refusal(Npy("<f4", "(1, 1)", std::string(4, '\0'), "True"), "a.npy"),
      "a.npy: Fortran order: save np.ascontiguousarray(a) instead");
  EXPECT_EQ(refusal("NUMPY", "a.npy"),
            "a.npy: not a .npy file (no \\x93NUMPY magic)");
  EXPECT_EQ(refusal("0 1\n2\n", "p.txt"),
            "p.txt: line 2 has 1 numbers, the first row 2");
  EXPECT_EQ(refusal("0 x1\n", "p.txt"),
            "p.txt: entry 1 \"x1\" is not a number");
  EXPECT_EQ(refusal("PK", "a.npz"),
            "a.npz: not a zip archive (no end of central directory)");
}

// Every exported case (registry/corpus.h) has an outside check, and the
// oracle output it carries agrees through it (the planted-bug tests show
// the check failing on the same cases).
TEST(OutsideCheck, EveryExportedCaseAgreesWithItsOwnExpectedOutput) {
  for (const FamilyCorpus& corpus : Corpora()) {
    const OutsideCheck* check = FindOutsideCheck(corpus.family);
    ASSERT_NE(check, nullptr) << corpus.family;
    for (const CorpusCase& entry : corpus.cases()) {
      Arrays inputs = entry.inputs;
      Parameters parameters;
      for (const std::string_view name : check->parameters) {
        const auto found = inputs.find(name);
        if (found == inputs.end()) continue;
        parameters[std::string(name)] =
            found->second.integral
                ? static_cast<double>(found->second.integers[0])
                : found->second.reals[0];
        inputs.erase(found);
      }
      EXPECT_EQ(check->check(inputs, entry.expected, parameters).difference, "")
          << corpus.family << "/" << entry.name;
    }
  }
}

// prefix_sum, compaction and triangle_adjacency: every row's output, handed
// over as an outside user would, agrees exactly when checks/ says so, and
// one changed entry is named.
RC_GTEST_PROP(OutsideCheck, StreamsAgreeWithTheSuiteOnEveryRow, ()) {
  const auto values = *rc::gen::container<std::vector<std::uint32_t>>(
      rc::gen::oneOf(rc::gen::inRange<std::uint32_t>(0, 4),
                     rc::gen::arbitrary<std::uint32_t>()));
  const bool inclusive = *rc::gen::arbitrary<bool>();
  Array values_array =
      IntegerArray({values.size()}, {values.begin(), values.end()});
  const OutsideCheck& scan_check = *FindOutsideCheck("prefix_sum");
  const auto kind =
      inclusive ? prefix_sum::Kind::kInclusive : prefix_sum::Kind::kExclusive;
  const auto expected = checks::prefix_sum::ExpectedOf(kind, values);
  for (const prefix_sum::Variant& variant : prefix_sum::Variants()) {
    if (!CanRun(variant).available) continue;
    std::vector<std::uint32_t> out(values.size());
    const std::uint32_t total = variant.run(kind, values, out);
    const bool suite_agrees =
        checks::prefix_sum::FirstDifference(expected, out, total).empty();
    Arrays outputs = {
        {"scan", IntegerArray({out.size()}, {out.begin(), out.end()})},
        {"total", IntegerArray({}, {total})}};
    const Arrays inputs = {{"values", values_array}};
    const Parameters parameters = {{"inclusive", inclusive ? 1.0 : 0.0}};
    RC_ASSERT(
        Judge(scan_check, inputs, outputs, parameters).difference.empty() ==
        suite_agrees);
    if (out.empty()) continue;
    outputs["scan"].integers.back() ^= 1;
    RC_ASSERT(
        !Judge(scan_check, inputs, outputs, parameters).difference.empty());
  }
  const auto flags = *rc::gen::container<std::vector<std::uint8_t>>(
      values.size(), rc::gen::inRange<std::uint8_t>(0, 3));
  const OutsideCheck& compact_check = *FindOutsideCheck("compaction");
  const auto kept_expected = checks::compaction::Expected(values, flags);
  for (const compaction::Variant& variant : compaction::Variants()) {
    if (!CanRun(variant).available) continue;
    std::vector<std::uint32_t> out(values.size());
    const std::size_t kept = variant.run(values, flags, out);
    const bool suite_agrees =
        checks::compaction::FirstDifference(kept_expected, kept, out).empty();
    const Arrays inputs = {
        {"values", values_array},
        {"flags", IntegerArray({flags.size()}, {flags.begin(), flags.end()})}};
    Arrays outputs = {
        {"kept", IntegerArray({kept}, {out.begin(), out.begin() + kept})}};
    RC_ASSERT(Judge(compact_check, inputs, outputs, {}).difference.empty() ==
              suite_agrees);
    if (kept == 0) continue;
    outputs["kept"].integers.pop_back();
    outputs["kept"].shape[0] -= 1;
    RC_ASSERT(!Judge(compact_check, inputs, outputs, {}).difference.empty());
  }
}

TEST(OutsideCheck, TriangleAdjacencyAgreesWithTheSuiteOnEveryRow) {
  // A soup with a degenerate and a repeated triangle, a non-manifold edge
  // and two particles in no triangle; a manifold-only peer, which refuses
  // such a soup (triangle_adjacency.h), is judged on a shuffled grid.
  const std::vector<Triangle> soup = {{0, 1, 2}, {2, 1, 3}, {1, 2, 4},
                                      {1, 2, 5}, {3, 3, 4}, {0, 1, 2}};
  const Mesh grid = scenes::Shuffled(
      scenes::ClothGrid(4, 3, scenes::Diagonals::kAlternating), 5);
  const OutsideCheck& check = *FindOutsideCheck("triangle_adjacency");
  for (const triangle_adjacency::Variant& variant :
       triangle_adjacency::Variants()) {
    if (!CanRun(variant).available) continue;
    const bool on_grid = variant.traits.manifold_only;
    const std::span<const Triangle> triangles =
        on_grid ? std::span<const Triangle>(grid.triangles) : soup;
    const std::size_t particles = on_grid ? grid.particles() : 8;
    Array triangles_array = IntegerArray({triangles.size(), 3}, {});
    for (const Triangle& t : triangles) {
      triangles_array.integers.insert(triangles_array.integers.end(),
                                      {t[0], t[1], t[2]});
    }
    const Arrays inputs = {{"triangles", triangles_array}};
    const Parameters parameters = {{"particles", particles}};
    triangle_adjacency::Adjacency got;
    variant.run(triangles, particles, got);
    const bool suite_agrees =
        checks::triangle_adjacency::FirstDifference(
            checks::triangle_adjacency::ExpectedOf(triangles, particles),
            triangles.size(), got)
            .empty();
    Array memberships = IntegerArray({got.csr.entries(), 2}, {});
    for (std::size_t p = 0; p < particles; ++p) {
      for (const std::uint32_t t : got.csr.Row(p)) {
        memberships.integers.insert(memberships.integers.end(),
                                    {std::int64_t(p), t});
      }
    }
    EXPECT_EQ(Judge(check, inputs, {{"memberships", memberships}}, parameters)
                  .difference.empty(),
              suite_agrees)
        << variant.name;
    memberships.integers.resize(memberships.integers.size() - 2);
    memberships.shape[0] -= 1;
    EXPECT_NE(Judge(check, inputs, {{"memberships", memberships}}, parameters)
                  .difference,
              "")
        << variant.name;
  }
}

// Every scheduler's schedule, handed over as an order and set sizes, is
// judged as the suite judges it; two sets merged into one is refused.
TEST(OutsideCheck, TripletScheduleJudgesEverySchedulerAsTheSuiteDoes) {
  const Mesh mesh = scenes::Shuffled(
      scenes::ClothGrid(12, 9, scenes::Diagonals::kAlternating), 3);
  const std::vector<Triplet> input = scenes::VirtualParticles(mesh);
  Array input_array = IntegerArray({input.size(), 4}, {});
  for (const Triplet& t : input) {
    input_array.integers.insert(input_array.integers.end(),
                                {t[0], t[1], t[2], t[3]});
  }
  const OutsideCheck& check = *FindOutsideCheck("triplet_schedule");
  const Arrays inputs = {{"triplets", input_array}};
  ForEachScheduler(
      4, 32,
      [&](const triplet_schedule::Variant& variant, bool simd, unsigned width) {
        if (!CanRun(variant).available) return;
        triplet_schedule::Schedule got;
        variant.run(input, mesh.particles(), width, got);
        const bool suite_agrees =
            checks::triplet_schedule::FirstProblem(
                input, mesh.particles(),
                simd ? checks::triplet_schedule::Layout::kSimd
                     : checks::triplet_schedule::Layout::kWarp,
                width, got)
                .empty();
        Arrays outputs;
        outputs["order"] = IntegerArray({got.triplets.size(), 4}, {});
        for (const Triplet& t : got.triplets) {
          outputs["order"].integers.insert(outputs["order"].integers.end(),
                                           {t[0], t[1], t[2], t[3]});
        }
        outputs["set_sizes"] =
            IntegerArray({got.set_sizes.size()},
                         {got.set_sizes.begin(), got.set_sizes.end()});
        const Parameters parameters = {
            {"particles", static_cast<double>(mesh.particles())},
            {"width", width},
            {"simd", simd ? 1 : 0}};
        const OutsideVerdict verdict =
            Judge(check, inputs, outputs, parameters);
        EXPECT_EQ(verdict.difference.empty(), suite_agrees)
            << variant.name << ": " << verdict.difference;
        if (!suite_agrees || simd || got.set_sizes.size() < 2) return;
        // The first two sets of a warp schedule merged: on a cloth, some
        // triplet of the second shares a particle with one of the first.
        std::vector<std::int64_t>& sizes = outputs["set_sizes"].integers;
        sizes[0] += sizes[1];
        sizes.erase(sizes.begin() + 1);
        outputs["set_sizes"].shape[0] -= 1;
        EXPECT_NE(Judge(check, inputs, outputs, parameters).difference, "")
            << variant.name;
      });
}

// Every hash_set row's keys and answers, handed over in a shuffled order,
// agree exactly when checks/ says so; a key dropped or an answer flipped
// is named.
RC_GTEST_PROP(OutsideCheck, HashSetAgreesWithTheSuiteOnEveryRow, ()) {
  const auto inserted = *rc::gen::container<std::vector<std::uint32_t>>(
      rc::gen::inRange<std::uint32_t>(0, 200));
  const auto queries = *rc::gen::container<std::vector<std::uint32_t>>(
      rc::gen::inRange<std::uint32_t>(0, 250));
  const auto expected = checks::hash_set::ExpectedOf(inserted);
  const OutsideCheck& check = *FindOutsideCheck("hash_set");
  const Arrays inputs = {
      {"inserted",
       IntegerArray({inserted.size()}, {inserted.begin(), inserted.end()})},
      {"queries",
       IntegerArray({queries.size()}, {queries.begin(), queries.end()})}};
  for (const hash_set::Variant& variant : hash_set::Variants()) {
    if (!CanRun(variant).available) continue;
    const std::unique_ptr<hash_set::Set> set = variant.run(256);
    set->InsertAll(inserted);
    std::vector<std::uint32_t> keys = set->Keys();
    std::vector<std::uint8_t> found(queries.size());
    set->ContainsAll(queries, found);
    const bool suite_agrees =
        checks::hash_set::FirstDifferenceInKeys(expected, *set).empty() &&
        checks::hash_set::FirstDifferenceInAnswers(
            checks::hash_set::AnswersOf(expected, queries), queries, found)
            .empty();
    std::reverse(keys.begin(), keys.end());
    Arrays outputs = {
        {"keys", IntegerArray({keys.size()}, {keys.begin(), keys.end()})},
        {"answers",
         IntegerArray({found.size()}, {found.begin(), found.end()})}};
    RC_ASSERT(Judge(check, inputs, outputs, {}).difference.empty() ==
              suite_agrees);
    if (!queries.empty()) {
      Arrays flipped = outputs;
      flipped["answers"].integers[0] ^= 1;
      RC_ASSERT(!Judge(check, inputs, flipped, {}).difference.empty());
    }
    if (!keys.empty()) {
      outputs["keys"].integers.pop_back();
      outputs["keys"].shape[0] -= 1;
      RC_ASSERT(!Judge(check, inputs, outputs, {}).difference.empty());
    }
  }
}

Array PointsOf(const Points& points) { return PointsArray(points); }

// Every sph row's step of a small glass, handed over as arrays, is judged
// as checks/ judges it; a particle moved by h / 10 is named.
TEST(OutsideCheck, SphJudgesEveryRowsStepAsTheSuiteDoes) {
  const scenes::FluidScene scene = scenes::GlassAtRest(500, 0.01f);
  const sph::Fluid fluid =
      sph::LatticeFluid(scene.positions, scene.spacing, scene.height,
                        sph::ContainerOf(scene.glass, scene.lo, scene.hi));
  const sph::Params& params = fluid.params;
  const auto column = [](const std::vector<float>& values) {
    return RealArray({values.size()}, {values.begin(), values.end()});
  };
  const Arrays inputs = {
      {"x", PointsOf(fluid.state.x)},
      {"v", PointsOf(fluid.state.v)},
      {"density", column(fluid.state.density)},
      {"mass", column(fluid.state.mass)},
      {"lo", RealArray({3}, {params.container.lo[0], params.container.lo[1],
                             params.container.lo[2]})},
      {"hi", RealArray({3}, {params.container.hi[0], params.container.hi[1],
                             params.container.hi[2]})},
      {"gravity", RealArray({3}, {params.gravity[0], params.gravity[1],
                                  params.gravity[2]})}};
  const OutsideCheck& check = *FindOutsideCheck("sph");
  for (const sph::Variant& variant : sph::Variants()) {
    if (!CanRun(variant).available) continue;
    sph::State after = fluid.state;
    sph::Workspace workspace;
    sph::StepReport report;
    variant.run(after, params, workspace, report);
    const checks::sph::Definition definition =
        checks::sph::DefinitionOf(variant);
    const bool suite_agrees =
        checks::sph::FirstDifference(fluid.state, params, definition, after)
            .empty();
    const Parameters parameters = {
        {"h", params.h},
        {"rest_density", params.rest_density},
        {"stiffness", params.stiffness},
        {"viscosity", params.viscosity},
        {"dt", params.dt},
        {"glass", params.container.kind == sph::Container::Kind::kGlass},
        {"restitution", params.container.restitution},
        {"update", definition == checks::sph::Definition::kThreePass   ? 0
                   : definition == checks::sph::Definition::kCollapsed ? 1
                                                                       : 2}};
    Arrays outputs = {{"x", PointsOf(after.x)},
                      {"v", PointsOf(after.v)},
                      {"density", column(after.density)}};
    EXPECT_EQ(Judge(check, inputs, outputs, parameters).difference.empty(),
              suite_agrees)
        << variant.name;
    outputs["x"].reals[0] += params.h / 10;
    EXPECT_NE(Judge(check, inputs, outputs, parameters).difference, "")
        << variant.name;
  }
}

template <std::size_t N>
Array FloatRowsArray(std::span<const std::array<float, N>> rows) {
  std::vector<double> values;
  for (const auto& row : rows)
    values.insert(values.end(), row.begin(), row.end());
  return RealArray({rows.size(), N}, std::move(values));
}

// Every triplet_collide row's pass over a schedule it consumes, handed over
// as that order and the particles before and after, is judged as checks/
// judges it (bit for bit, or within the interleaving bound where the row's
// adds interleave); a moving particle one ulp off, and a static one
// written, are named.
TEST(OutsideCheck, TripletCollideJudgesEveryRowsPassAsTheSuiteDoes) {
  namespace collide = adj::triplet_collide;
  const Mesh mesh =
      scenes::ClothGrid(24, 24, scenes::Diagonals::kAlternating, 0.05f);
  const std::vector<Triplet> triplets = scenes::VirtualParticles(mesh);
  collide::Shapes shapes;
  shapes.spheres.push_back({{0.6f, 0.6f, -0.1f}, 0.35f});
  shapes.capsules.push_back({{0, 0.3f, 0.02f}, {1.2f, 0.5f, 0.02f}, 0.08f});
  std::vector<collide::Particle> before = collide::ToParticles(mesh.positions);
  for (std::size_t i = 0; i <= 24; ++i) before[i][3] = 0;  // row y = 0 pinned
  collide::AppendDummies(before, shapes);
  const std::vector<collide::Weight> weights = {collide::kCentroidWeight};
  const OutsideCheck& check = *FindOutsideCheck("triplet_collide");
  std::vector<std::array<float, 4>> spheres;
  for (const auto& sphere : shapes.spheres) {
    spheres.push_back(
        {sphere.centre[0], sphere.centre[1], sphere.centre[2], sphere.radius});
  }
  std::vector<std::array<float, 7>> capsules;
  for (const auto& c : shapes.capsules) {
    capsules.push_back(
        {c.a[0], c.a[1], c.a[2], c.b[0], c.b[1], c.b[2], c.radius});
  }
  int judged = 0;
  for (const collide::Variant& variant : collide::Variants()) {
    if (!CanRun(variant).available) continue;
    const collide::Consumes consumes = collide::ConsumesOf(variant);
    triplet_schedule::Schedule schedule;
    if (consumes.order == collide::Order::kSimdBatches) {
      FindVariant(triplet_schedule::SimdSchedulers(), "stamped_simd")
          ->run(
              triplets, mesh.particles(),
              consumes.width != 0 ? consumes.width : collide::NativeSimdWidth(),
              schedule);
    } else if (consumes.order == collide::Order::kWarpSets) {
      FindVariant(triplet_schedule::WarpSchedulers(), "bank_matched_warp")
          ->run(triplets, mesh.particles(), 32, schedule);
    } else {
      schedule = collide::InputOrder(triplets);
    }
    std::vector<collide::Particle> got = before;
    variant.run(schedule, weights, shapes, got);
    const auto exactness =
        checks::triplet_collide::ExactnessOf(variant, triplets.size());
    const auto expected = checks::triplet_collide::ExpectedOf(
        schedule.triplets, weights, shapes, before);
    const bool suite_agrees = checks::triplet_collide::FirstDifference(
                                  schedule.triplets, weights, shapes, before,
                                  expected, got, exactness)
                                  .empty();
    const bool interleaved =
        exactness ==
        checks::triplet_collide::Exactness::kWithinInterleavingBound;
    const Arrays inputs = {
        {"particles",
         FloatRowsArray<4>(std::span<const collide::Particle>(before))},
        {"triplets", RowsArray<4>(std::span<const Triplet>(schedule.triplets))},
        {"spheres",
         FloatRowsArray<4>(std::span<const std::array<float, 4>>(spheres))},
        {"capsules",
         FloatRowsArray<7>(std::span<const std::array<float, 7>>(capsules))}};
    const Parameters parameters = {{"interleaved", interleaved ? 1 : 0}};
    const auto judge = [&](const std::vector<collide::Particle>& after) {
      return Judge(
          check, inputs,
          {{"particles",
            FloatRowsArray<4>(std::span<const collide::Particle>(after))}},
          parameters);
    };
    const OutsideVerdict verdict = judge(got);
    EXPECT_EQ(verdict.difference.empty(), suite_agrees) << variant.name;
    EXPECT_GT(verdict.statistics.at(1).second, 0) << "nothing collided";
    ++judged;
    std::vector<collide::Particle> static_written = got;
    static_written[3][1] += 0.5f;
    EXPECT_EQ(judge(static_written).difference, "static particle 3 changed")
        << variant.name;
    if (!interleaved) {
      std::vector<collide::Particle> one_ulp = got;
      one_ulp[300][2] = std::nextafter(one_ulp[300][2], 1.0f);
      EXPECT_EQ(judge(one_ulp).difference.rfind("particle 300 coordinate 2", 0),
                0u)
          << variant.name;
    }
  }
  EXPECT_GE(judged, 3);
}

// The live clusters (members and slots) and intact flags of a fracture
// state as an outside user hands them over.
Arrays FractureStateArrays(const fracture::State& state) {
  std::vector<std::int64_t> intact;
  for (const fracture::Coord& c : state.particle_coord) {
    intact.push_back(
        state.node_is_particle[fracture::NodeIndex(state.grid, c)]);
  }
  std::vector<std::int64_t> offsets = {0};
  std::vector<std::int64_t> members;
  std::vector<std::int64_t> slots;
  for (std::size_t s = 0; s < state.clusters.slots.size(); ++s) {
    if (!state.clusters.valid[s]) continue;
    const auto& particles = state.clusters.slots[s].particles;
    members.insert(members.end(), particles.begin(), particles.end());
    offsets.push_back(static_cast<std::int64_t>(members.size()));
    slots.push_back(static_cast<std::int64_t>(s));
  }
  return {{"intact", IntegerArray({intact.size()}, intact)},
          {"cluster_offsets", IntegerArray({offsets.size()}, offsets)},
          {"cluster_members", IntegerArray({members.size()}, members)},
          {"cluster_slots", IntegerArray({slots.size()}, slots)}};
}

Array CsrArray(std::span<const std::uint32_t> values) {
  return IntegerArray({values.size()}, {values.begin(), values.end()});
}

// Every fracture row's second frame of a blade cut (deleted slots,
// removed particles and the frame counter in the state it starts from),
// handed over as arrays with its merges and belong lists, is judged as
// checks/ judges it; two members swapped and a removed particle kept are
// named.
TEST(OutsideCheck, FractureJudgesEveryRowsFrameAsTheSuiteDoes) {
  const scenes::Voxels voxels = scenes::Block(12, 8, 6);
  std::vector<fracture::Coord> coords;
  for (const auto& c : voxels.cells) coords.push_back({c[0], c[1], c[2]});
  const fracture::State initial = fracture::MakeState(
      {12, 8, 6}, coords, scenes::CubeClusters(voxels, 4, 3));
  scenes::Blade blade;
  blade.plane_x = 5.5f;
  blade.width = 2;
  blade.z_end = 6;
  fracture::Params params;
  params.max_cluster_size = 128;
  const OutsideCheck& check = *FindOutsideCheck("fracture");
  const Points positions = scenes::BladePositions(voxels, blade, 4);
  int judged = 0;
  for (const fracture::Variant& variant : fracture::Variants()) {
    if (!CanRun(variant).available) continue;
    const auto simulation = variant.run(initial, params);
    fracture::FrameReport report;
    simulation->Step(scenes::BladePositions(voxels, blade, 2), report);
    const fracture::State before = simulation->Snapshot();
    simulation->Step(positions, report);
    const fracture::State after = simulation->Snapshot();
    const Csr belong = simulation->BelongLists();
    const auto choice = checks::fracture::MergeChoiceOf(variant);
    const bool suite_agrees =
        checks::fracture::FirstDifference(before, positions, params, choice,
                                          after, belong, report)
            .empty();
    Arrays inputs = FractureStateArrays(before);
    inputs["grid"] = IntegerArray({3}, {12, 8, 6});
    inputs["coords"] = RowsArray<3>(
        std::span<const std::array<std::uint32_t, 3>>(voxels.cells));
    inputs["positions"] = PointsArray(positions);
    const Parameters parameters = {
        {"damage_distance", params.damage_distance},
        {"max_cluster_size", params.max_cluster_size},
        {"min_cluster_size", params.min_cluster_size},
        {"expansion", 0},
        {"seed", params.seed},
        {"frame", before.frame},
        {"merge", choice == checks::fracture::MergeChoice::kFirstFit   ? 0
                  : choice == checks::fracture::MergeChoice::kPrinted  ? 1
                  : choice == checks::fracture::MergeChoice::kAnyValid ? 2
                                                                       : 3}};
    Arrays outputs = FractureStateArrays(after);
    outputs["merge_offsets"] = CsrArray(report.merges.offsets);
    outputs["merge_slots"] = CsrArray(report.merges.indices);
    outputs["belong_offsets"] = CsrArray(belong.offsets);
    outputs["belong_indices"] = CsrArray(belong.indices);
    const OutsideVerdict verdict = Judge(check, inputs, outputs, parameters);
    EXPECT_EQ(verdict.difference.empty(), suite_agrees) << variant.name;
    EXPECT_GT(verdict.statistics.at(0).second, 0) << "nothing removed";
    ++judged;
    Arrays swapped = outputs;
    std::swap(swapped["cluster_members"].integers[0],
              swapped["cluster_members"].integers[1]);
    EXPECT_EQ(Judge(check, inputs, swapped, parameters)
                  .difference.rfind(
                      "cluster " +
                          std::to_string(outputs["cluster_slots"].integers[0]) +
                          " holds",
                      0),
              0u)
        << variant.name;
    Arrays kept = outputs;
    auto& intact = kept["intact"].integers;
    const auto removed = std::find(intact.begin(), intact.end(), 0);
    ASSERT_NE(removed, intact.end());
    *removed = 1;
    EXPECT_EQ(Judge(check, inputs, kept, parameters).difference,
              "particle " + std::to_string(removed - intact.begin()) +
                  " is intact, expected removed")
        << variant.name;
  }
  EXPECT_GE(judged, 4);
}

// The two newest checks' bad input: a triplet naming a particle that does
// not exist, a weight row of the wrong width, a fracture grid past the
// memory budget (refused before its node flags are allocated), a cluster
// slot given twice, and a merge target that is no slot.
TEST(OutsideCheck, CollideAndFractureInputIsRefusedByName) {
  const OutsideCheck& collide = *FindOutsideCheck("triplet_collide");
  const Arrays particles = {
      {"particles", RealArray({3, 4}, {0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1})}};
  Arrays inputs = particles;
  inputs["triplets"] = IntegerArray({1, 4}, {0, 1, 3, 0});
  try {
    collide.check(inputs, particles, {});
    FAIL() << "accepted";
  } catch (const CheckInputError& error) {
    EXPECT_STREQ(error.what(),
                 "triplets: triplet 0 names particle 3, outside [0, 3)");
  }
  inputs["triplets"] = IntegerArray({1, 4}, {0, 1, 2, 0});
  inputs["weights"] = RealArray({1, 2}, {0.5, 0.5});
  EXPECT_THROW(collide.check(inputs, particles, {}), CheckInputError);

  const OutsideCheck& fracture = *FindOutsideCheck("fracture");
  const Parameters parameters = {{"damage_distance", 1.5},
                                 {"max_cluster_size", 8},
                                 {"min_cluster_size", 2}};
  Arrays frame = {{"grid", IntegerArray({3}, {2, 1, 1})},
                  {"coords", IntegerArray({2, 3}, {0, 0, 0, 1, 0, 0})},
                  {"cluster_offsets", IntegerArray({2}, {0, 2})},
                  {"cluster_members", IntegerArray({2}, {0, 1})},
                  {"positions", RealArray({2, 3}, {0, 0, 0, 1, 0, 0})}};
  Arrays after = {{"intact", IntegerArray({2}, {1, 1})},
                  {"cluster_offsets", IntegerArray({2}, {0, 2})},
                  {"cluster_members", IntegerArray({2}, {0, 1})}};
  EXPECT_EQ(fracture.check(frame, after, parameters).difference, "");
  Arrays huge = frame;
  huge["grid"] = IntegerArray({3}, {65535, 65535, 65535});
  EXPECT_THROW(fracture.check(huge, after, parameters), CheckInputError);
  huge["grid"] = IntegerArray({3}, {1600, 1600, 1600});  // under 2^32 nodes
  const std::uint64_t budget = memory::Budget();
  memory::SetBudget(std::uint64_t{1} << 30);
  EXPECT_THROW(fracture.check(huge, after, parameters), ResourceError);
  memory::SetBudget(budget);
  Arrays twice = frame;
  twice["cluster_offsets"] = IntegerArray({3}, {0, 1, 2});
  twice["cluster_slots"] = IntegerArray({2}, {0, 0});
  try {
    fracture.check(twice, after, parameters);
    FAIL() << "accepted";
  } catch (const CheckInputError& error) {
    EXPECT_STREQ(error.what(), "cluster_slots: slot 0 is given twice");
  }
  Arrays no_slot = after;
  no_slot["merges"] = IntegerArray({1}, {5});
  EXPECT_THROW(fracture.check(frame, no_slot, parameters), CheckInputError);
}

// A deflated member claiming gigabytes from a few hundred bytes (the fuzz
// target's find) is refused before its claimed size is allocated.
TEST(ArrayFiles, ADeflatedMemberClaimingMoreThanDeflateGivesIsRefused) {
  std::ifstream in(std::string(ADJ_SOURCE_DIR) +
                       "/fuzz/regressions/array_files/"
                       "oom_claimed_inflated_size.bin",
                   std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  const std::string file = bytes.str().substr(1);  // the fuzz choice byte
  ASSERT_GT(file.size(), 100u);
  try {
    cli::ParseArrayBytes(file, "claims.npz", "pairs");
    FAIL() << "accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("deflated ones: corrupt"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace adj::registry
