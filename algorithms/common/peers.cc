// Each peer's version from its own headers, where the build found it.
#include "algorithms/common/peers.h"

#include <string>

#if ADJ_HAVE_PEER_BOOST_GRAPH
#include <boost/version.hpp>
#endif

namespace adj::peers {
const Library& BoostGraph() {
#if ADJ_HAVE_PEER_BOOST_GRAPH
  static_assert(BOOST_VERSION / 100000 == 1);
  static const std::string version =
      "1." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
      std::to_string(BOOST_VERSION % 100);
  static const Library library{"Boost.Graph", "libboost-graph-dev", version};
#else
  static const Library library{"Boost.Graph", "libboost-graph-dev", ""};
#endif
  return library;
}

}  // namespace adj::peers
