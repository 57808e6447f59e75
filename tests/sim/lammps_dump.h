#pragma once
// Reading the LAMMPS text dumps of tests/data (written by scripts/make_lammps_pmb_reference).
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace frac::test {

struct DumpAtom {
  double x, y, z, fx = 0, fy = 0, fz = 0;
};

// id -> atom ("ITEM: ATOMS id x y z [fx fy fz]"); a dump's own row order changes when atoms migrate.
inline std::map<int, DumpAtom> readLammpsDump(const std::string& path, bool withForces) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "cannot open " << path << " (made by scripts/make_lammps_pmb_reference)");
  std::string line;
  while (std::getline(in, line) && line.rfind("ITEM: ATOMS", 0) != 0) {
  }
  std::map<int, DumpAtom> atoms;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    int id;
    DumpAtom a;
    row >> id >> a.x >> a.y >> a.z;
    if (withForces) row >> a.fx >> a.fy >> a.fz;
    atoms[id] = a;
  }
  return atoms;
}

}  // namespace frac::test
