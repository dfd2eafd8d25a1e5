#include "registry/families.h"

// The generated lists (X-macros: each line expands the macro defined here).
#include "registry/family_headers.inc"

namespace adj::registry {
namespace {

template <typename Fn, typename Traits>
void AppendTable(std::string_view family,
                 std::span<const adj::Variant<Fn, Traits>> table,
                 std::vector<VariantRow>& rows) {
  for (const auto& variant : table) {
    rows.push_back({std::string(family), std::string(variant.name),
                    variant.backend, variant.origin, std::string(variant.twin),
                    std::string(variant.description),
                    std::string(variant.untwinned), TraitsText(variant.traits),
                    LibraryOf(variant), CanRun(variant)});
  }
}

constexpr std::string_view kFamilyNames[] = {
#define ADJ_FAMILY(name, CamelName) #name,
#include "registry/families.inc"
#undef ADJ_FAMILY
};

}  // namespace

std::span<const std::string_view> FamilyNames() { return kFamilyNames; }

std::vector<VariantRow> AllVariants() {
  std::vector<VariantRow> rows;
#define ADJ_VARIANT_TABLE(family, table) \
  AppendTable(#family, family::table(), rows);
#include "registry/variant_tables.inc"
#undef ADJ_VARIANT_TABLE
  return rows;
}

}  // namespace adj::registry
