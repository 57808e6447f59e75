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

// The same from reference corners X and displacements u, each edge formed as (X_k - X_a) + (u_k - u_a): the
// displacement differences keep their precision where absolute positions in float would lose a small strain.
FRAC_HD inline TetGeometry tetGeometry(const vec3 (&X)[4], const vec3 (&u)[4]) {
  const vec3 a(0.0f);
  return tetGeometry(a, (X[1] - X[0]) + (u[1] - u[0]), (X[2] - X[0]) + (u[2] - u[0]), (X[3] - X[0]) + (u[3] - u[0]));
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
  float L[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) L[i][j] += v[a][i] * g.gradient[a][j];
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
  // Cayley: with b = dt w / 2, Q = I + 2 / (1 + b.b) ([b]x + [b]x^2).
  const vec3 b = (0.5f * dt) * d.spin;
  const float c = 2.0f / (1.0f + glm::dot(b, b));
  const glm::mat3 B(vec3(0.0f, b.z, -b.y), vec3(-b.z, 0.0f, b.x), vec3(b.y, -b.x, 0.0f));  // columns of [b]x
  const glm::mat3 Q = glm::mat3(1.0f) + c * (B + B * B);
  const glm::mat3 S(vec3(s.xx, s.xy, s.zx), vec3(s.xy, s.yy, s.yz), vec3(s.zx, s.yz, s.zz));
  const glm::mat3 turned = Q * S * glm::transpose(Q);
  const float third = trace(d.rate) / 3.0f, twoGdt = 2.0f * shearModulus * dt;
  Sym3 next;
  next.xx = turned[0][0] + twoGdt * (d.rate.xx - third);
  next.yy = turned[1][1] + twoGdt * (d.rate.yy - third);
  next.zz = turned[2][2] + twoGdt * (d.rate.zz - third);
  next.xy = 0.5f * (turned[1][0] + turned[0][1]) + twoGdt * d.rate.xy;
  next.yz = 0.5f * (turned[2][1] + turned[1][2]) + twoGdt * d.rate.yz;
  next.zx = 0.5f * (turned[0][2] + turned[2][0]) + twoGdt * d.rate.zx;
  return next;
}

// The volumetric strain J - 1 (J = V / V0) advanced over dt: J' = J tr(D). Integrated from the rate rather than taken
// as V / V0 - 1 from the current volume, whose float rounding would swamp a strain of 1e-4.
FRAC_HD inline float volumetricStrainUpdate(float strain, const Deformation& d, float dt) {
  return strain + (1.0f + strain) * (dt * trace(d.rate));
}

// The force on corner a: -V sigma grad N_a with sigma = s - p I (eq. 4, one-point exact for linear tetrahedra).
FRAC_HD inline vec3 cornerForce(const TetGeometry& g, const Sym3& deviatoric, float pressure, int a) {
  const vec3 grad = g.gradient[a];
  return -g.volume * (times(deviatoric, grad) - pressure * grad);
}

// Elastic energy of the element: V (s : s / (4 G) + p^2 / (2 K)).
FRAC_HD inline float elasticEnergy(const Sym3& deviatoric, float pressure, float volume, float bulkModulus,
                                   float shearModulus) {
  return volume * (contract(deviatoric) / (4.0f * shearModulus) + pressure * pressure / (2.0f * bulkModulus));
}

}  // namespace frac::fem
