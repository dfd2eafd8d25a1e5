// Every family's variant table is data that tests, benchmarks, the command
// line and the docs read: its names must be unique and its twins real.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "algorithms/common/variant.h"
#include "registry/families.h"
// The generated registry: every family's header and its variant tables.
#include "registry/family_headers.inc"

namespace adj {
namespace {

// Names unique; a twin names a row of the same table that runs on one thread
// (serial or simd) and has no twin itself; an openmp row has a twin or says
// in its row why it has none (`untwinned`), and only such a row does. The
// first row, which reports compare the others with, is a serial published
// or textbook algorithm. A row names a peer library exactly when its origin
// is peer.
template <typename Fn, typename Traits>
void CheckTable(std::string_view family,
                std::span<const Variant<Fn, Traits>> table) {
  SCOPED_TRACE(std::string(family));
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(table.front().backend, Backend::kSerial)
      << table.front().name << " is the table's baseline (its first row)";
  EXPECT_NE(table.front().origin, Origin::kOurs)
      << table.front().name << " is the table's baseline (its first row)";
  EXPECT_NE(table.front().origin, Origin::kPeer)
      << table.front().name << " is the table's baseline (its first row)";
  std::set<std::string_view> names;
  for (const Variant<Fn, Traits>& variant : table) {
    EXPECT_TRUE(names.insert(variant.name).second) << variant.name << " twice";
    EXPECT_FALSE(variant.description.empty()) << variant.name;
    EXPECT_NE(variant.run, nullptr) << variant.name;
    // A row on oneTBB's threads says how many (ThreadsOf cannot know).
    if (variant.backend == Backend::kTbb) {
      EXPECT_NE(variant.threads, nullptr) << variant.name;
    }
    // A peer row, and only a peer row, names its library.
    EXPECT_EQ(variant.peer != nullptr, variant.origin == Origin::kPeer)
        << variant.name;
    if (!variant.untwinned.empty()) {
      EXPECT_TRUE(variant.backend == Backend::kOpenMp && variant.twin.empty())
          << variant.name << " says why it has no twin, but it "
          << (variant.twin.empty() ? "runs on one thread" : "has one");
    }
    // What its backend needs of a family's Traits: a CUDA row its device
    // entry (a device function, or a kernel its resident runner launches),
    // and no other row one.
    if constexpr (requires { variant.traits.device; }) {
      EXPECT_EQ(variant.traits.device != nullptr,
                variant.backend == Backend::kCuda)
          << variant.name << "'s device entry";
    }
    if constexpr (requires { variant.traits.kernel; }) {
      EXPECT_EQ(variant.traits.kernel != decltype(variant.traits.kernel){},
                variant.backend == Backend::kCuda)
          << variant.name << "'s device kernel";
    }
    if (!variant.twin.empty()) {
      const Variant<Fn, Traits>* twin = FindVariant(table, variant.twin);
      ASSERT_NE(twin, nullptr) << variant.name << "'s twin " << variant.twin;
      EXPECT_TRUE(twin->backend == Backend::kSerial ||
                  twin->backend == Backend::kSimd)
          << variant.name << "'s twin " << twin->name;
      EXPECT_TRUE(twin->twin.empty()) << twin->name;
    } else if (variant.backend == Backend::kOpenMp) {
      EXPECT_FALSE(variant.untwinned.empty())
          << variant.name
          << " runs on OpenMP threads without a twin or a reason";
    }
  }
}

TEST(VariantTables, NamesUniqueTwinsReal) {
#define ADJ_VARIANT_TABLE(family, table) CheckTable(#family, family::table());
#include "registry/variant_tables.inc"
#undef ADJ_VARIANT_TABLE
}

// The registry lists every folder of algorithms/ that makes a family (its
// CMakeLists.txt calls adj_add_family), and nothing else.
TEST(VariantTables, TheRegistryListsEveryFamilyFolder) {
  std::set<std::string> folders;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(ADJ_SOURCE_DIR) / "algorithms")) {
    std::ifstream in(entry.path() / "CMakeLists.txt");
    const std::string text((std::istreambuf_iterator<char>(in)),
                           std::istreambuf_iterator<char>());
    if (text.find("adj_add_family(") != std::string::npos) {
      folders.insert(entry.path().filename().string());
    }
  }
  std::set<std::string> registered;
  for (const std::string_view name : registry::FamilyNames()) {
    registered.insert(std::string(name));
  }
  EXPECT_EQ(registered, folders);
  EXPECT_FALSE(registered.empty());
}

// The benchmark JSON, the docs' tables and the reports select rows by these
// names, so each value needs its own.
TEST(VariantTables, OriginAndBackendNamesAreDistinct) {
  std::set<std::string_view> origins;
  for (const Origin origin : {Origin::kFaithful, Origin::kFixed, Origin::kOurs,
                              Origin::kBaseline, Origin::kPeer}) {
    EXPECT_TRUE(origins.insert(OriginName(origin)).second)
        << OriginName(origin);
  }
  EXPECT_EQ(origins, (std::set<std::string_view>{"faithful", "fixed", "ours",
                                                 "baseline", "peer"}));
  std::set<std::string_view> backends;
  for (const Backend backend :
       {Backend::kSerial, Backend::kSimd, Backend::kOpenMp, Backend::kCuda,
        Backend::kTbb}) {
    EXPECT_TRUE(backends.insert(BackendName(backend)).second)
        << BackendName(backend);
  }
  EXPECT_EQ(backends, (std::set<std::string_view>{"serial", "simd", "openmp",
                                                  "cuda", "tbb"}));
}

}  // namespace
}  // namespace adj
