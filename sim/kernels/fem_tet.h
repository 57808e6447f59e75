#pragma once
// The linear tetrahedron of the explicit FEM in Zhang et al., "hybrid FEM / meshfree debris"
// (../shared/papers/hybrid-zhang-fem-meshfree-debris.md): constant shape-function gradients in the current
// configuration (eq. 2-3), the velocity gradient, the deviatoric stress advanced with the Jaumann (objective) rate of
// the hypo-elastic law (eq. 7-8), the volumetric strain, and the element's nodal forces f_a = -V sigma grad N_a
// (eq. 4); the material's return map and pressure are kernels/fem_material.h's. Plain values in, plain values out:
// the same code on the CPU and CUDA.
#include "core/math.h"

namespace frac::fem {

// A symmetric 3x3 tensor (stresses, rates of deformation).
struct Sym3 {
  float xx = 0.0f, yy = 0.0f, zz = 0.0f, xy = 0.0f, yz = 0.0f, zx = 0.0f;
};

FRAC_HD inline float trace(const Sym3& s) { return s.xx + s.yy + s.zz; }
// s : s (the double contraction)
FRAC_HD inline float contract(const Sym3& s) {
  return s.xx * s.xx + s.yy * s.yy + s.zz * s.zz + 2.0f * (s.xy * s.xy + s.yz * s.yz + s.zx * s.zx);
}
FRAC_HD inline vec3 times(const Sym3& s, const vec3& v) {
  return vec3(s.xx * v.x + s.xy * v.y + s.zx * v.z, s.xy * v.x + s.yy * v.y + s.yz * v.z,
              s.zx * v.x + s.yz * v.y + s.zz * v.z);
}
// sqrt(3/2 s : s): the von Mises equivalent of a deviatoric stress.
FRAC_HD inline float vonMises(const Sym3& deviatoric) { return sqrtf(1.5f * contract(deviatoric)); }

// Corner m (0..2) of the face opposite corner k, counter-clockwise seen from outside a positively oriented
// tetrahedron (a function: a namespace-scope table would be host-only in device code).
FRAC_HD inline int tetFaceCorner(int k, int m) {
  constexpr int8_t kTable[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  return kTable[k][m];
}

// Gradients of the four linear shape functions (constant over the tetrahedron) and its signed volume.
struct TetGeometry {
  vec3 gradient[4];
  float volume = 0.0f;  // > 0 for a positively oriented tetrahedron (dot(cross(b - a, c - a), d - a) > 0)
};

// For corners a, b, c, d: with e1 = b - a, e2 = c - a, e3 = d - a and det = e1 . (e2 x e3) = 6 V, the gradients of N_b,
// N_c, N_d are the rows of [e1 e2 e3]^-1: (e2 x e3) / det, (e3 x e1) / det, (e1 x e2) / det; N_a's is minus their sum
// (the functions add up to 1).
FRAC_HD inline TetGeometry tetGeometry(const vec3& a, const vec3& b, const vec3& c, const vec3& d) {
  const vec3 e1 = b - a, e2 = c - a, e3 = d - a;
  const vec3 c23 = glm::cross(e2, e3), c31 = glm::cross(e3, e1), c12 = glm::cross(e1, e2);
  const float det = glm::dot(e1, c23);
  const float inverse = 1.0f / det;
  TetGeometry g;
  g.gradient[1] = inverse * c23;
  g.gradient[2] = inverse * c31;
  g.gradient[3] = inverse * c12;
  g.gradient[0] = -(g.gradient[1] + g.gradient[2] + g.gradient[3]);
  g.volume = det / 6.0f;
  return g;
}

// The smallest altitude, 3 V / (largest face area): the length a dilatational wave crosses in the stable step.
FRAC_HD inline float tetSmallestAltitude(const vec3& a, const vec3& b, const vec3& c, const vec3& d) {
  const float volume = fabsf(glm::dot(b - a, glm::cross(c - a, d - a))) / 6.0f;
  const float areas[4] = {glm::length(glm::cross(c - b, d - b)), glm::length(glm::cross(c - a, d - a)),
                          glm::length(glm::cross(b - a, d - a)), glm::length(glm::cross(b - a, c - a))};
  float largest = 0.0f;
  for (float area : areas) largest = fmaxf(largest, 0.5f * area);
  return largest > 0.0f ? 3.0f * volume / largest : 0.0f;
}

// Velocity gradient L = sum_a v_a (x) grad N_a, split into the rate of deformation D = sym L and the spin W = skew L
// (W as its axial vector w: W x = w x x, with W_zy = w_x, W_xz = w_y, W_yx = w_z).
struct Deformation {
  Sym3 rate;
  vec3 spin{0.0f};
};
FRAC_HD inline Deformation deformationRate(const TetGeometry& g, const vec3 (&v)[4]) {
  // grad N_a = -(grad N_b + grad N_c + grad N_d): L = sum over b, c, d of (v_k - v_a) (x) grad N_k.
  const vec3 dv1 = v[1] - v[0], dv2 = v[2] - v[0], dv3 = v[3] - v[0];
  const vec3 &g1 = g.gradient[1], &g2 = g.gradient[2], &g3 = g.gradient[3];
  const auto entry = [&](int i, int j) { return dv1[i] * g1[j] + dv2[i] * g2[j] + dv3[i] * g3[j]; };
  const float L[3][3] = {{entry(0, 0), entry(0, 1), entry(0, 2)},
                         {entry(1, 0), entry(1, 1), entry(1, 2)},
                         {entry(2, 0), entry(2, 1), entry(2, 2)}};
  Deformation d;
  d.rate = {L[0][0], L[1][1], L[2][2], 0.5f * (L[0][1] + L[1][0]), 0.5f * (L[1][2] + L[2][1]),
            0.5f * (L[2][0] + L[0][2])};
  d.spin = vec3(0.5f * (L[2][1] - L[1][2]), 0.5f * (L[0][2] - L[2][0]), 0.5f * (L[1][0] - L[0][1]));
  return d;
}

// The hypo-elastic deviatoric update of eq. 7-8 over dt with the Jaumann rate: s' = Q s Q^T + 2 G D' dt, D' the
// deviatoric part of D, where Q rotates s with the material's spin over the step. Q is the Hughes-Winget increment
// (the Cayley transform of dt W: (I - dt W / 2)^-1 (I + dt W / 2), an exact rotation), which integrates the Jaumann
// terms W s - s W to second order and keeps |s| under any rotation: a stressed body turned rigidly carries its
// stress along (tested). Departure: the paper writes the rate form; this is its standard objective integration.
FRAC_HD inline Sym3 jaumannUpdate(const Sym3& s, const Deformation& d, float shearModulus, float dt) {
  // Cayley: with b = dt w / 2, Q = I + c ([b]x + [b]x^2), c = 2 / (1 + b.b), and [b]x^2 = b b^T - (b.b) I:
  // Q_ij = (1 - c b.b) delta_ij + c b_i b_j + c [b]x_ij, [b]x = ((0, -b_z, b_y), (b_z, 0, -b_x), (-b_y, b_x, 0)).
  const vec3 b = (0.5f * dt) * d.spin;
  const float bb = glm::dot(b, b), c = 2.0f / (1.0f + bb), diagonal = 1.0f - c * bb;
  const vec3 cb = c * b;
  const float Q[3][3] = {{diagonal + cb.x * b.x, cb.x * b.y - cb.z, cb.x * b.z + cb.y},
                         {cb.y * b.x + cb.z, diagonal + cb.y * b.y, cb.y * b.z - cb.x},
                         {cb.z * b.x - cb.y, cb.z * b.y + cb.x, diagonal + cb.z * b.z}};
  const float S[3][3] = {{s.xx, s.xy, s.zx}, {s.xy, s.yy, s.yz}, {s.zx, s.yz, s.zz}};
  float QS[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) QS[i][j] = Q[i][0] * S[0][j] + Q[i][1] * S[1][j] + Q[i][2] * S[2][j];
  // (Q S Q^T)_ij = QS_i . Q_j: the six entries of the symmetric result.
  const auto turned = [&](int i, int j) { return QS[i][0] * Q[j][0] + QS[i][1] * Q[j][1] + QS[i][2] * Q[j][2]; };
  const float third = trace(d.rate) / 3.0f, twoGdt = 2.0f * shearModulus * dt;
  Sym3 next;
  next.xx = turned(0, 0) + twoGdt * (d.rate.xx - third);
  next.yy = turned(1, 1) + twoGdt * (d.rate.yy - third);
  next.zz = turned(2, 2) + twoGdt * (d.rate.zz - third);
  next.xy = turned(0, 1) + twoGdt * d.rate.xy;
  next.yz = turned(1, 2) + twoGdt * d.rate.yz;
  next.zx = turned(2, 0) + twoGdt * d.rate.zx;
  return next;
}

// The volumetric strain J - 1 (J = V / V0) advanced over dt: J' = J tr(D). Integrated from the rate rather than taken
// as V / V0 - 1 from the current volume, whose float rounding would swamp a strain of 1e-4.
FRAC_HD inline float volumetricStrainUpdate(float strain, const Deformation& d, float dt) {
  return strain + (1.0f + strain) * (dt * trace(d.rate));
}

// V grad N_b, V grad N_c, V grad N_d at the current corners (N_a's is minus their sum) and the signed volume, from the
// edges e1, e2, e3 from corner a: V = det / 6 and grad N_b = (e2 x e3) / det, so V grad N_b = (e2 x e3) / 6: the
// corner forces of eq. 4 need no division.
struct TetForceGeometry {
  vec3 weighted[3];
  float volume = 0.0f;
};
FRAC_HD inline TetForceGeometry tetForceGeometry(const vec3 (&edge)[3]) {
  constexpr float kSixth = 1.0f / 6.0f;
  TetForceGeometry g;
  g.weighted[0] = kSixth * glm::cross(edge[1], edge[2]);
  g.weighted[1] = kSixth * glm::cross(edge[2], edge[0]);
  g.weighted[2] = kSixth * glm::cross(edge[0], edge[1]);
  g.volume = glm::dot(edge[0], g.weighted[0]);
  return g;
}

// The corner forces f_a = -V sigma grad N_a with sigma = s - p I (eq. 4, one-point exact for linear tetrahedra); the
// first corner's is minus the sum of the other three (grad N_a = -(grad N_b + grad N_c + grad N_d)).
FRAC_HD inline void cornerForces(const TetForceGeometry& g, const Sym3& deviatoric, float pressure, vec3 (&force)[4]) {
  const Sym3 sigma{deviatoric.xx - pressure, deviatoric.yy - pressure, deviatoric.zz - pressure, deviatoric.xy,
                   deviatoric.yz, deviatoric.zx};
  force[0] = vec3(0.0f);
  for (int k = 0; k < 3; ++k) {
    force[k + 1] = -times(sigma, g.weighted[k]);
    force[0] -= force[k + 1];
  }
}

// Elastic energy of the element: V (s : s / (4 G) + p^2 / (2 K)).
FRAC_HD inline float elasticEnergy(const Sym3& deviatoric, float pressure, float volume, float bulkModulus,
                                   float shearModulus) {
  return volume * (contract(deviatoric) / (4.0f * shearModulus) + pressure * pressure / (2.0f * bulkModulus));
}

}  // namespace frac::fem
