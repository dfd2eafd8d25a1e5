// CGAL's k-d tree (Spatial Searching) as a user with the family's contract
// calls it, following CGAL's "point with info" example: each particle as a
// (Point_3, id) tuple in Simple_cartesian<double> (the positions widened
// exactly, so that Fuzzy_sphere's squared distance, summed from x to z, is
// the contract's double expression), a Kd_tree on Search_traits_adapter
// with its default splitter (sliding midpoint, buckets of 10 points), built
// explicitly before the queries as CGAL requires of concurrent searches.
// Each particle's row is a Fuzzy_sphere search of radius max_dist and
// epsilon 0, which keeps squared distances <= max_dist^2 (the contract's
// test); queries threaded with OpenMP, rows sorted.
#include "algorithms/hash_grid/hash_grid.h"
#include "algorithms/hash_grid/peer_lists.h"
#include "algorithms/hash_grid/variants.h"

#if ADJ_HAVE_PEER_CGAL
#include <CGAL/Fuzzy_sphere.h>
#include <CGAL/Kd_tree.h>
#include <CGAL/Search_traits_3.h>
#include <CGAL/Search_traits_adapter.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/property_map.h>

#include <boost/iterator/function_output_iterator.hpp>
#include <tuple>
#endif

#include <memory>
#include <vector>

namespace adj::hash_grid {
namespace {

#if ADJ_HAVE_PEER_CGAL
using PointWithId =
    std::tuple<CGAL::Simple_cartesian<double>::Point_3, std::uint32_t>;

// The search's output: each item found appends its id (an assignable
// functor, as CGAL's searches copy their output iterator).
struct IdAppender {
  std::vector<std::uint32_t>* row;
  void operator()(const PointWithId& item) const {
    row->push_back(std::get<1>(item));
  }
};
#endif

}  // namespace

#if ADJ_HAVE_PEER_CGAL
namespace {

class CgalIndex final : public PeerIndex {
 public:
  CgalIndex(const Points& points, const Params& params)
      : points_(points), radius_(params.max_dist) {
    std::vector<PointWithId> items;
    items.reserve(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      items.emplace_back(Point(points.x[i], points.y[i], points.z[i]),
                         static_cast<std::uint32_t>(i));
    }
    tree_.insert(items.begin(), items.end());
    // Built now, not on the first search: CGAL requires it before
    // concurrent searches. Kd_tree::build's precondition is a point at
    // least (it reads the first one unchecked: the fuzzer's UBSan found
    // it), and an empty tree needs no search.
    if (!points.empty()) tree_.build();
  }

  void QueryAll(Neighbors& out) const override {
    // No points: FullListsFromQueries queries nothing, so the unbuilt
    // empty tree is never searched.
    FullListsFromQueries(
        points_.size(),
        [&](std::size_t i, std::vector<std::uint32_t>& row) {
          const Sphere sphere(Point(points_.x[i], points_.y[i], points_.z[i]),
                              radius_,
                              /*epsilon=*/0.0);
          tree_.search(boost::make_function_output_iterator(IdAppender{&row}),
                       sphere);
        },
        out);
  }

 private:
  using Point = CGAL::Simple_cartesian<double>::Point_3;
  using SearchTraits = CGAL::Search_traits_adapter<
      PointWithId, CGAL::Nth_of_tuple_property_map<0, PointWithId>,
      CGAL::Search_traits_3<CGAL::Simple_cartesian<double>>>;
  using Tree = CGAL::Kd_tree<SearchTraits>;
  using Sphere = CGAL::Fuzzy_sphere<SearchTraits>;
  const Points& points_;
  double radius_;
  Tree tree_;
};

}  // namespace
#endif

std::unique_ptr<PeerIndex> BuildCgalIndex(const Points& points,
                                          const Params& params) {
#if ADJ_HAVE_PEER_CGAL
  return std::make_unique<CgalIndex>(points, params);
#else
  (void)points;
  (void)params;
  throw Unavailable("cgal_kd_tree: CGAL was not found at build time");
#endif
}

void CgalKdTree(const Points& points, const Params& params, Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  CgalKdTreeTrusted(points, params, out);
}

void CgalKdTreeTrusted(const Points& points, const Params& params,
                       Neighbors& out) {
  BuildCgalIndex(points, params)->QueryAll(out);
}

}  // namespace adj::hash_grid
