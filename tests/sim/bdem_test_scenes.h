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

}  // namespace frac::test
