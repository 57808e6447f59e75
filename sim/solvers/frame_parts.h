#pragma once
// The parts of a RenderFrame that every solver fills the same way.
#include <vector>

#include "analysis/fragments.h"
#include "core/render_frame.h"
#include "core/sphere_instance.h"
#include "io/scene_desc.h"

namespace frac {

// Material colours, crack-face colours and names (the renderer's material colour mode, surfaces and legend).
void writeMaterials(RenderFrame& frame, const std::vector<MaterialDesc>& materials);

// Ground planes as squares a few times the size of the frame's spheres around their centre (call after the spheres).
void writePlanes(RenderFrame& frame, const std::vector<vec3>& points, const std::vector<vec3>& normals,
                 const std::vector<uint16_t>& planeMaterials, const std::vector<MaterialDesc>& materials);
// The same around the box [lo, hi] of the element centres (none when lo > hi).
void writePlanesAround(RenderFrame& frame, const vec3& lo, const vec3& hi, const std::vector<vec3>& points,
                       const std::vector<vec3>& normals, const std::vector<uint16_t>& planeMaterials,
                       const std::vector<MaterialDesc>& materials);

// Solver::writeFrameWithoutElements: time, materials and planes around the summary's box; no elements, no bond lines.
void writeFrameAround(RenderFrame& frame, double time, const InstanceSummary& summary, const std::vector<vec3>& points,
                      const std::vector<vec3>& normals, const std::vector<uint16_t>& planeMaterials,
                      const std::vector<MaterialDesc>& materials);

// Bond lines between the frame's sphere centres (call after the spheres); cleared when `withBonds` is false.
void writeBondLines(RenderFrame& frame, bool withBonds, const std::vector<int32_t>& first,
                    const std::vector<int32_t>& second, const std::vector<uint8_t>& broken);

// Fragment colour key per element: the smallest element index of its piece, so a piece keeps its colour when others
// split; elements left out of the labelling keep their own index.
std::vector<uint32_t> fragmentKeys(const FragmentLabels& pieces);

}  // namespace frac
