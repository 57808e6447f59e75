#pragma once
// Small scenes built in code for the solver tests.
#include "io/scene_params.h"

namespace frac::test {

inline MaterialDesc testMaterial(const char* name = "test") {
  MaterialDesc m = defaultsOf<MaterialDesc>();
  m.name = name;
  m.density = 2500.0f;
  m.young = 1e7f;
  m.shear = 4e6f;
  m.tensileStrength = 1e6f;
  m.shearStrength = 1e6f;
  m.friction = 0.5f;
  m.damping = 0.0f;
  m.restitution = 0.5f;
  return m;
}

// A box of hexagonally packed elements, no gravity, no ground.
inline SceneDesc blockScene(vec3 size, float radius, MaterialDesc material) {
  SceneDesc s = defaultsOf<SceneDesc>();
  s.name = "block";
  s.solver.gravity = vec3(0.0f);
  s.materials.push_back(material);
  BodyDesc body = defaultsOf<BodyDesc>();
  body.name = "block";
  body.shape = defaultsOf<ShapeDesc>();
  body.shape.type = ShapeType::Box;
  body.shape.size = size;
  body.elementRadius = radius;
  body.material = material.name;
  s.bodies.push_back(body);
  return s;
}

// A thin glass plate (Weibull strengths) on the ground with gravity, a ball dropping on it at 20 m/s from `ballHeight`:
// the thread-determinism cases of the bonded methods.
inline SceneDesc plateImpactScene(int threads, float ballHeight, float bondDamping) {
  MaterialDesc glass = testMaterial("glass");
  glass.weibullM = 6.0f;
  glass.damping = bondDamping;
  SceneDesc s = blockScene(vec3(0.12f, 0.012f, 0.12f), 0.003f, glass);
  s.solver.gravity = vec3(0, -9.81f, 0);
  s.solver.threads = threads;
  s.bodies[0].transform.position = vec3(0, 0.02f, 0);
  ProjectileDesc p = defaultsOf<ProjectileDesc>();
  p.radius = 0.012f;
  p.material = "glass";
  p.position = vec3(0.0f, ballHeight, 0.0f);
  p.velocity = vec3(0.0f, -20.0f, 0.0f);
  s.projectiles.push_back(p);
  PlaneDesc ground = defaultsOf<PlaneDesc>();
  ground.material = "glass";
  s.planes.push_back(ground);
  return s;
}

}  // namespace frac::test
