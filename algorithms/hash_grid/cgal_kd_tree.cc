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

void CgalKdTree(const Points& points, const Params& params, Neighbors& out) {
  Check(points, params, /*hashed=*/false);
  CgalKdTreeTrusted(points, params, out);
}

void CgalKdTreeTrusted(const Points& points, const Params& params,
                       Neighbors& out) {
#if ADJ_HAVE_PEER_CGAL
  using Kernel = CGAL::Simple_cartesian<double>;
  using Point = Kernel::Point_3;
  using SearchTraits = CGAL::Search_traits_adapter<
      PointWithId, CGAL::Nth_of_tuple_property_map<0, PointWithId>,
      CGAL::Search_traits_3<Kernel>>;
  using Tree = CGAL::Kd_tree<SearchTraits>;
  using Sphere = CGAL::Fuzzy_sphere<SearchTraits>;
  std::vector<PointWithId> items;
  items.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    items.emplace_back(Point(points.x[i], points.y[i], points.z[i]),
                       static_cast<std::uint32_t>(i));
  }
  Tree tree(items.begin(), items.end());
  tree.build();
  const double radius = params.max_dist;
  FullListsFromQueries(
      points.size(),
      [&](std::size_t i, std::vector<std::uint32_t>& row) {
        const Sphere sphere(Point(points.x[i], points.y[i], points.z[i]),
                            radius, /*epsilon=*/0.0);
        tree.search(boost::make_function_output_iterator(IdAppender{&row}),
                    sphere);
      },
      out);
#else
  (void)points;
  (void)params;
  (void)out;
  throw Unavailable("cgal_kd_tree: CGAL was not found at build time");
#endif
}

}  // namespace adj::hash_grid
