#pragma once

// FlatSimulation's steps 5 and 6: the aggregated graph's components as new
// clusters, and the influenced slots deleted. flat_simulation.h declares them
// and includes this file after the class: include flat_simulation.h, not this.

namespace adj::fracture::flat {

// 5: the aggregated graph (membership by the sorted (cluster, particle)
// keys), its components, and the new clusters: fresh_offsets_ /
// fresh_members_ (rows in order of their smallest vertex, members in
// vertex order) and fresh_parent_. Returns the new cluster count.
template <typename B>
std::uint32_t FlatSimulation<B>::SplitComponents(std::uint32_t influenced_count,
                                                 std::uint32_t vertices) {
  fresh_offsets_.Resize(vertices + 1);
  if (vertices == 0) {
    const std::uint32_t zero = 0;
    backend_.Upload(fresh_offsets_.data(), &zero, 1);
    return 0;
  }
  const GridView grid = Grid();
  const std::uint32_t* vertex_particle = vertex_particle_.data();
  const std::uint32_t* vertex_cluster = vertex_cluster_.data();
  const std::uint32_t* vertex_base = vertex_base_.data();
  keys_.Resize(vertices);
  values_.Resize(vertices);
  std::uint64_t* keys = keys_.data();
  std::uint32_t* values = values_.data();
  backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
    keys[v] = PairKey(vertex_cluster[v], vertex_particle[v]);
    values[v] = v;
  });
  backend_.SortPairs(keys, values, vertices, 32 + Bits(influenced_count));
  counts_.Resize(vertices);
  std::uint32_t* degree = counts_.data();
  backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
    const std::uint32_t i = vertex_cluster[v];
    degree[v] = Edges(grid, i, vertex_particle[v], keys, values, vertex_base[i],
                      vertex_base[i + 1], nullptr);
  });
  graph_offsets_.Resize(vertices + 1);
  const std::uint32_t edges =
      backend_.Scan(degree, vertices, graph_offsets_.data());
  graph_indices_.Resize(edges);
  const std::uint32_t* graph_offsets = graph_offsets_.data();
  std::uint32_t* graph_indices = graph_indices_.data();
  backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
    const std::uint32_t i = vertex_cluster[v];
    Edges(grid, i, vertex_particle[v], keys, values, vertex_base[i],
          vertex_base[i + 1], graph_indices + graph_offsets[v]);
  });
  labels_.Resize(vertices);
  std::uint32_t* labels = labels_.data();
  backend_.Labels(graph_offsets, graph_indices, vertices, labels);

  std::uint32_t* is_root = counts_.data();
  backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
    is_root[v] = labels[v] == v ? 1 : 0;
  });
  row_of_root_.Resize(vertices + 1);
  std::uint32_t* row_of_root = row_of_root_.data();
  const std::uint32_t fresh = backend_.Scan(is_root, vertices, row_of_root);
  fresh_parent_.Resize(fresh);
  std::uint32_t* fresh_parent = fresh_parent_.data();
  const std::uint32_t* influenced = influenced_.data();
  backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t v) {
    keys[v] = row_of_root[labels[v]];
    values[v] = vertex_particle[v];
    if (labels[v] == v) {
      fresh_parent[row_of_root[v]] = influenced[vertex_cluster[v]];
    }
  });
  backend_.SortPairs(keys, values, vertices, Bits(fresh));
  fresh_members_.Resize(vertices);
  backend_.Copy(fresh_members_.data(), values, vertices);
  std::uint32_t* fresh_offsets = fresh_offsets_.data();
  backend_.ForEach(vertices, [=] ADJ_FRACTURE_HD(std::uint32_t e) {
    if (e == 0 || keys[e] != keys[e - 1]) {
      fresh_offsets[keys[e]] = e;
    }
    if (e + 1 == vertices) fresh_offsets[keys[e] + 1] = vertices;
  });
  return fresh;
}

// 6: the new clusters' inherited attributes are read, then the
// influenced slots turn invalid.
template <typename B>
void FlatSimulation<B>::DeleteInfluenced(std::uint32_t influenced_count,
                                         std::uint32_t fresh) {
  fresh_stiffness_.Resize(fresh);
  fresh_rotation_.Resize(fresh);
  fresh_translation_.Resize(fresh);
  float* fresh_stiffness = fresh_stiffness_.data();
  Quat* fresh_rotation = fresh_rotation_.data();
  Vec3* fresh_translation = fresh_translation_.data();
  const std::uint32_t* fresh_parent = fresh_parent_.data();
  const float* stiffness = stiffness_.data();
  const Quat* rotation = rotation_.data();
  const Vec3* translation = translation_.data();
  backend_.ForEach(fresh, [=] ADJ_FRACTURE_HD(std::uint32_t c) {
    fresh_stiffness[c] = stiffness[fresh_parent[c]];
    fresh_rotation[c] = rotation[fresh_parent[c]];
    fresh_translation[c] = translation[fresh_parent[c]];
  });
  const std::uint32_t* influenced = influenced_.data();
  std::uint8_t* valid = valid_.data();
  backend_.ForEach(influenced_count, [=] ADJ_FRACTURE_HD(std::uint32_t i) {
    valid[influenced[i]] = 0;
  });
}

}  // namespace adj::fracture::flat
