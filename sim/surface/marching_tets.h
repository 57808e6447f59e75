#pragma once
// Polygonising one grid cell of an implicit function: the cube is split into the 6 tetrahedra of the Kuhn
// (Freudenthal) triangulation, all sharing the cube's diagonal from corner 0 to corner 7, and each tetrahedron's
// linear interpolant gives at most two triangles. Neighbouring cubes split their shared faces the same way, so the
// surface has no cracks between cells and is closed wherever it stays inside the evaluated cells (the marching cubes
// of Lu sec. 3.2 without its ambiguous cases). Corners are numbered by their offset bits: corner c = x + 2 y + 4 z.
// A triangle's corners are grid edges given as (lower corner, upper corner) with lower's bits inside upper's, so an
// edge is named by its lower corner's grid vertex and the direction (upper - lower, 1..7): the same in every cell.
// Inside is f < 0; triangles turn their front (counter-clockwise) to the outside.

namespace frac {

struct TetEdge {
  int lower, upper;  // cube corners, lower's bits a subset of upper's
};

// The 6 tetrahedra, each positively oriented (det(v1 - v0, v2 - v0, v3 - v0) > 0): (0, e_a, e_a + e_b, 7) for the axis
// orders (a, b, c), with v1 and v2 swapped for the odd orders.
// (A function-local table: namespace-scope arrays are not visible in device code.)
FRAC_HD inline int kuhnTetCorner(int t, int k) {
  constexpr int kKuhnTets[6][4] = {{0, 1, 3, 7}, {0, 5, 1, 7}, {0, 3, 2, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 6, 4, 7}};
  return kKuhnTets[t][k];
}

FRAC_HD inline TetEdge tetEdge(int a, int b) { return (a & b) == a ? TetEdge{a, b} : TetEdge{b, a}; }

// The triangles of tetrahedron t for the corner values f[8] of the cube: writes up to 2 triangles (3 edges each) and
// returns their number.
FRAC_HD inline int tetTriangles(int t, const float f[8], TetEdge out[2][3]) {
  int v[4];
  for (int k = 0; k < 4; ++k) v[k] = kuhnTetCorner(t, k);
  int mask = 0;
  for (int k = 0; k < 4; ++k) mask |= (f[v[k]] < 0.0f ? 1 : 0) << k;
  const int inside = (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1);
  if (inside == 0 || inside == 4) return 0;
  // Even permutations of the tetrahedron's corners: (i, j, k, l) with a given first corner i.
  constexpr int kEvenFrom[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};
  if (inside == 1 || inside == 3) {
    int lone = 0;  // the corner alone on its side
    for (int k = 0; k < 4; ++k)
      if (((mask >> k) & 1) == (inside == 1 ? 1 : 0)) lone = k;
    const int* e = kEvenFrom[lone];
    // Around an inside corner (e0, e1, e2, e3 even) the triangle (e01, e02, e03) faces away from it.
    out[0][0] = tetEdge(v[e[0]], v[e[1]]);
    out[0][1] = tetEdge(v[e[0]], v[e[inside == 1 ? 2 : 3]]);
    out[0][2] = tetEdge(v[e[0]], v[e[inside == 1 ? 3 : 2]]);
    return 1;
  }
  // Two inside (a, b), two outside (c, d), (a, b, c, d) even: the quad (ac, ad, bd, bc) faces c and d.
  int in[2], outside[2], ni = 0, no = 0;
  for (int k = 0; k < 4; ++k) ((mask >> k) & 1 ? in[ni++] : outside[no++]) = k;
  const int order[4] = {in[0], in[1], outside[0], outside[1]};
  int inversions = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) inversions += order[i] > order[j];
  const int c = inversions % 2 == 0 ? outside[0] : outside[1], d = inversions % 2 == 0 ? outside[1] : outside[0];
  const TetEdge ac = tetEdge(v[in[0]], v[c]), ad = tetEdge(v[in[0]], v[d]);
  const TetEdge bd = tetEdge(v[in[1]], v[d]), bc = tetEdge(v[in[1]], v[c]);
  out[0][0] = ac;
  out[0][1] = ad;
  out[0][2] = bd;
  out[1][0] = ac;
  out[1][1] = bd;
  out[1][2] = bc;
  return 2;
}

}  // namespace frac
