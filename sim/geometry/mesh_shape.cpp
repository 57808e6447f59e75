#include "geometry/mesh_shape.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace frac {
namespace {

constexpr int kCellsAlongLongestAxis = 128;

// Signed solid angle of triangle abc seen from the origin (Van Oosterom & Strackee 1983).
double solidAngle(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
  const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
  const double det = glm::dot(a, glm::cross(b, c));
  const double denom = la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb;
  return 2.0 * std::atan2(det, denom);
}

}  // namespace

MeshShape::MeshShape(TriangleMesh mesh) : mesh_(std::move(mesh)) {
  bounds_ = {mesh_.vertices.front(), mesh_.vertices.front()};
  for (const vec3& v : mesh_.vertices) {
    bounds_.lo = glm::min(bounds_.lo, v);
    bounds_.hi = glm::max(bounds_.hi, v);
  }
  orientation_ = signedVolume() < 0.0 ? -1.0f : 1.0f;
  buildGrid();
  buildBuckets();
}

namespace {

// The point of triangle abc nearest to p (Ericson, Real-Time Collision Detection, 5.1.5: Voronoi regions).
vec3 nearestOnTriangle(const vec3& p, const vec3& a, const vec3& b, const vec3& c) {
  const vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) return a;
  const vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) return b;
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return a + (d1 / (d1 - d3)) * ab;
  const vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return a + (d2 / (d2 - d6)) * ac;
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const float denom = 1.0f / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

}  // namespace

// The triangle nearest to p: the first in index order among the nearest (a direct search would give the same), with
// the distance it reaches, or best = -1 when p lies outside the bucket grid.
MeshShape::Nearest MeshShape::nearestInBuckets(const vec3& p) const {
  Nearest n;
  const vec3 local = (p - bucketOrigin_) / bucketSize_;
  if (glm::any(glm::lessThan(local, vec3(0.0f))) || glm::any(glm::greaterThanEqual(local, vec3(bucketDims_))))
    return n;
  const glm::ivec3 c0 = glm::clamp(glm::ivec3(glm::floor(local)), glm::ivec3(0), bucketDims_ - 1);
  const int rings = std::max({bucketDims_.x, bucketDims_.y, bucketDims_.z});
  for (int k = 0; k < rings; ++k) {
    const glm::ivec3 lo = glm::max(c0 - k, glm::ivec3(0)), hi = glm::min(c0 + k, bucketDims_ - 1);
    for (int z = lo.z; z <= hi.z; ++z)
      for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) {
          if (std::max({std::abs(x - c0.x), std::abs(y - c0.y), std::abs(z - c0.z)}) != k) continue;  // the ring only
          const size_t cell = (size_t(z) * bucketDims_.y + y) * bucketDims_.x + x;
          for (uint32_t e = bucketStart_[cell]; e < bucketStart_[cell + 1]; ++e) consider(p, bucketTriangle_[e], n);
        }
    // A triangle not seen yet touches no explored cell: it lies beyond the explored box's inner faces.
    float reach = std::numeric_limits<float>::infinity();
    for (int a = 0; a < 3; ++a) {
      if (lo[a] > 0) reach = std::min(reach, p[a] - (bucketOrigin_[a] + float(lo[a]) * bucketSize_));
      if (hi[a] < bucketDims_[a] - 1) reach = std::min(reach, bucketOrigin_[a] + float(hi[a] + 1) * bucketSize_ - p[a]);
    }
    if (n.triangle >= 0 && (reach == std::numeric_limits<float>::infinity() || n.distance2 < reach * reach)) break;
    if (reach == std::numeric_limits<float>::infinity()) break;
  }
  return n;
}

void MeshShape::consider(const vec3& p, uint32_t index, Nearest& n) const {
  const glm::uvec3& t = mesh_.triangles[index];
  const vec3 &a = mesh_.vertices[t[0]], &b = mesh_.vertices[t[1]], &c = mesh_.vertices[t[2]];
  const vec3 q = nearestOnTriangle(p, a, b, c);
  const float d2 = length2(p - q);
  if (d2 > n.distance2 || (d2 == n.distance2 && int(index) > n.triangle)) return;
  if (length2(glm::cross(b - a, c - a)) <= 0.0f) return;
  n = {int(index), d2, q};
}

SurfaceSample MeshShape::nearestSurface(const vec3& p) const {
  Nearest n = nearestInBuckets(p);
  if (n.triangle < 0)  // outside the grid: every triangle
    for (uint32_t t = 0; t < uint32_t(mesh_.triangles.size()); ++t) consider(p, t, n);
  if (n.triangle < 0) return {};
  const glm::uvec3& t = mesh_.triangles[size_t(n.triangle)];
  const vec3 &a = mesh_.vertices[t[0]], &b = mesh_.vertices[t[1]], &c = mesh_.vertices[t[2]];
  return {n.point, orientation_ * glm::normalize(glm::cross(b - a, c - a))};
}

// Triangles listed in every bucket their bounding box overlaps (buckets of about 16 along the longest axis).
void MeshShape::buildBuckets() {
  const vec3 extent = bounds_.hi - bounds_.lo;
  bucketSize_ = std::max({extent.x, extent.y, extent.z, 1e-9f}) / 16.0f;
  bucketDims_ = glm::max(glm::ivec3(glm::ceil(extent / bucketSize_)), glm::ivec3(1));
  bucketOrigin_ = bounds_.lo;
  auto range = [&](const glm::uvec3& t, glm::ivec3& first, glm::ivec3& last) {
    const vec3 a = mesh_.vertices[t[0]], b = mesh_.vertices[t[1]], c = mesh_.vertices[t[2]];
    const auto cellOfPoint = [&](const vec3& q) {
      return glm::clamp(glm::ivec3(glm::floor((q - bucketOrigin_) / bucketSize_)), glm::ivec3(0), bucketDims_ - 1);
    };
    first = cellOfPoint(glm::min(a, glm::min(b, c)));
    last = cellOfPoint(glm::max(a, glm::max(b, c)));
  };
  const size_t cells = size_t(bucketDims_.x) * bucketDims_.y * bucketDims_.z;
  bucketStart_.assign(cells + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<uint32_t> fill(bucketStart_.begin(), bucketStart_.end() - 1);
    for (uint32_t i = 0; i < uint32_t(mesh_.triangles.size()); ++i) {
      glm::ivec3 first, last;
      range(mesh_.triangles[i], first, last);
      for (int z = first.z; z <= last.z; ++z)
        for (int y = first.y; y <= last.y; ++y)
          for (int x = first.x; x <= last.x; ++x) {
            const size_t cell = (size_t(z) * bucketDims_.y + y) * bucketDims_.x + x;
            if (pass == 0) ++bucketStart_[cell + 1];
            else bucketTriangle_[fill[cell]++] = i;
          }
    }
    if (pass == 0) {
      for (size_t c = 0; c < cells; ++c) bucketStart_[c + 1] += bucketStart_[c];
      bucketTriangle_.resize(bucketStart_[cells]);
    }
  }
}

double MeshShape::windingNumber(const vec3& p) const {
  const glm::dvec3 q(p);
  double sum = 0.0;
  for (const glm::uvec3& t : mesh_.triangles)
    sum += solidAngle(glm::dvec3(mesh_.vertices[t[0]]) - q, glm::dvec3(mesh_.vertices[t[1]]) - q,
                      glm::dvec3(mesh_.vertices[t[2]]) - q);
  return sum / (4.0 * double(kPi));
}

double MeshShape::signedVolume() const {
  double sixTimes = 0.0;
  for (const glm::uvec3& t : mesh_.triangles)
    sixTimes += glm::dot(glm::dvec3(mesh_.vertices[t[0]]),
                         glm::cross(glm::dvec3(mesh_.vertices[t[1]]), glm::dvec3(mesh_.vertices[t[2]])));
  return sixTimes / 6.0;
}

bool MeshShape::inside(const vec3& p) const {
  const bool inBounds = p.x >= bounds_.lo.x && p.y >= bounds_.lo.y && p.z >= bounds_.lo.z &&
                        p.x <= bounds_.hi.x && p.y <= bounds_.hi.y && p.z <= bounds_.hi.z;
  if (!inBounds) return false;  // also rejects NaN
  switch (cells_[cellIndex(cellOf(p))]) {
    case Cell::Inside: return true;
    case Cell::Outside: return false;
    default: return std::abs(windingNumber(p)) > 0.5;
  }
}

// Grid over the bounds plus one free layer of cells on every side, so that the outside is one connected region.
void MeshShape::buildGrid() {
  const vec3 extent = bounds_.hi - bounds_.lo;
  const float longest = std::max({extent.x, extent.y, extent.z, 1e-9f});
  cellSize_ = longest / kCellsAlongLongestAxis;
  dims_ = glm::ivec3(glm::ceil(extent / cellSize_)) + 3;
  gridOrigin_ = bounds_.lo - cellSize_;
  cells_.assign(size_t(dims_.x) * dims_.y * dims_.z, Cell::Unknown);
  markCellsNearTriangles();
  classifyFreeRegions();
}

// Conservative: a cell is marked when it lies in the triangle's bounding box and its bounding sphere meets the
// triangle's plane. Unmarked cells therefore never touch the surface.
void MeshShape::markCellsNearTriangles() {
  const float margin = 1e-3f * cellSize_;
  const float halfDiagonal = 0.5f * std::sqrt(3.0f) * cellSize_ + margin;
  for (const glm::uvec3& t : mesh_.triangles) {
    const vec3 a = mesh_.vertices[t[0]], b = mesh_.vertices[t[1]], c = mesh_.vertices[t[2]];
    const vec3 lo = glm::min(a, glm::min(b, c)) - margin, hi = glm::max(a, glm::max(b, c)) + margin;
    const glm::ivec3 first = cellOf(lo), last = cellOf(hi);
    const vec3 normal = glm::cross(b - a, c - a);
    const float normalLength = glm::length(normal);
    for (int z = first.z; z <= last.z; ++z)
      for (int y = first.y; y <= last.y; ++y)
        for (int x = first.x; x <= last.x; ++x) {
          const glm::ivec3 cell(x, y, z);
          const float planeDistance = std::abs(glm::dot(cellCentre(cell) - a, normal));
          if (normalLength == 0.0f || planeDistance <= halfDiagonal * normalLength)
            cells_[cellIndex(cell)] = Cell::NearSurface;
        }
  }
}

// Free cells joined by faces form regions that the surface does not cross, so one winding number per region
// (at a cell centre, at least half a cell from the surface) classifies all of them.
void MeshShape::classifyFreeRegions() {
  const glm::ivec3 steps[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  std::vector<glm::ivec3> frontier;
  for (int z = 0; z < dims_.z; ++z)
    for (int y = 0; y < dims_.y; ++y)
      for (int x = 0; x < dims_.x; ++x) {
        const glm::ivec3 seed(x, y, z);
        if (cells_[cellIndex(seed)] != Cell::Unknown) continue;
        const Cell label = std::abs(windingNumber(cellCentre(seed))) > 0.5 ? Cell::Inside : Cell::Outside;
        cells_[cellIndex(seed)] = label;
        frontier.assign(1, seed);
        while (!frontier.empty()) {
          const glm::ivec3 cell = frontier.back();
          frontier.pop_back();
          for (const glm::ivec3& step : steps) {
            const glm::ivec3 next = cell + step;
            if (glm::any(glm::lessThan(next, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(next, dims_))) continue;
            Cell& state = cells_[cellIndex(next)];
            if (state != Cell::Unknown) continue;
            state = label;
            frontier.push_back(next);
          }
        }
      }
}

}  // namespace frac
