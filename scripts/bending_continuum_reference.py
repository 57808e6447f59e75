#!/usr/bin/env python3
"""What the lab's three-point-bending probe reads on an elastic continuum.

The lab's beam (sim/calibration/lab_test.cpp, bendingScene: 84 r long, pins on the neutral axis 72 r apart, the load
a grip one radius below the top at mid-span) is solved as a linear elastic continuum by CalculiX (Debian's
`calculix-ccx`: `apt-get install calculix-ccx`; not needed to build or test the sandbox), a quarter of it in
20-node hexahedra, and its displacements are read the way the probe reads a method's elements
(sim/solvers/simulation.cpp, sim/analysis/three_point_bending.cpp): the mean deflection of the nodes in vertical
cylinders of radius h_nominal / 2 at mid-span, over each pin and half-way between, the mid-span's net of the pins'.
It prints E_macro (eq. 29), E_timoshenko and E_shear_free as the probe computes them (and the last two as they were
computed before lab version 8, from point deflections), against the E the continuum was given: what a method's
reading is to be compared with. Lengths in element radii (the result does not depend on the scale).

  scripts/bending_continuum_reference.py --load disk                                     # fem-debris' rig
  scripts/bending_continuum_reference.py --depth 11.43 --width 12.0 --load rows --rows 0.5   # an HCP lattice's
  scripts/bending_continuum_reference.py --load disk --hold position                     # lab version 7's grip
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile


def grid(breaks, size):
    """Coordinates from the sorted break points, each interval cut into pieces of about `size`."""
    out = [breaks[0]]
    for a, b in zip(breaks, breaks[1:]):
        n = max(1, round((b - a) / size))
        out += [a + (b - a) * i / n for i in range(1, n + 1)]
    return out


def with_midpoints(v):
    out = []
    for a, b in zip(v, v[1:]):
        out += [a, 0.5 * (a + b)]
    return out + [v[-1]]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--depth", type=float, default=13.6, help="the beam's depth h in the probe's formulas (r)")
    p.add_argument("--width", type=float, default=13.6, help="its width b (r)")
    p.add_argument("--nominal", type=float, default=13.6, help="the probe's cylinders have radius nominal / 2 (r)")
    p.add_argument("--span", type=float, default=72.0)
    p.add_argument("--length", type=float, default=84.0)
    p.add_argument("--load", choices=["disk", "rows"], default="disk",
                   help="disk: every node within 1.2 r of the grip's axis (fem-debris' grip takes the nodes inside "
                        "its cylinder); rows: lines of nodes across the beam at --rows x offsets (a lattice's rows)")
    p.add_argument("--rows", default="0", help="x offsets (r) of the held rows, one radius below the top")
    p.add_argument("--hold", choices=["position", "axial_y"], default="axial_y",
                   help="what the load grip prescribes (scene key kinematics[].hold; the lab's since version 8: "
                        "axial_y)")
    p.add_argument("--nu", type=float, default=0.22)
    p.add_argument("--per-depth", type=int, default=20, help="hexahedra through the depth")
    p.add_argument("--keep", help="write the CalculiX input and results to this folder")
    a = p.parse_args()

    E = 70000.0  # N/mm^2 (any value: the readings are printed relative to it)
    h, b, R, half_span = a.depth, a.width, 0.5 * a.nominal, 0.5 * a.span
    size = h / a.per_depth
    rows = [float(x) for x in a.rows.split(",")]
    grip_y = 0.5 * h - 1.0
    X = grid(sorted({0.0, half_span, 0.5 * a.length, *([x for x in rows if x > 0] if a.load == "rows" else [])}), size)
    Y = grid(sorted({-0.5 * h, 0.0, 0.5 * h, *([grip_y] if a.load == "rows" else [])}), size)
    Z = grid([0.0, 0.5 * b], size)
    QX, QY, QZ = with_midpoints(X), with_midpoints(Y), with_midpoints(Z)

    ids, coords, lines = {}, {}, ["*NODE"]

    def node(i, j, k):
        if (i, j, k) not in ids:
            n = ids[(i, j, k)] = len(ids) + 1
            coords[n] = (QX[i], QY[j], QZ[k])
            lines.append("%d,%.10g,%.10g,%.10g" % (n, *coords[n]))
        return ids[(i, j, k)]

    elements = []
    for u in range(len(X) - 1):
        for v in range(len(Y) - 1):
            for w in range(len(Z) - 1):
                i, j, k = 2 * u, 2 * v, 2 * w
                corners = [(i, j, k), (i + 2, j, k), (i + 2, j + 2, k), (i, j + 2, k),
                           (i, j, k + 2), (i + 2, j, k + 2), (i + 2, j + 2, k + 2), (i, j + 2, k + 2)]
                middles = [(i + 1, j, k), (i + 2, j + 1, k), (i + 1, j + 2, k), (i, j + 1, k),
                           (i + 1, j, k + 2), (i + 2, j + 1, k + 2), (i + 1, j + 2, k + 2), (i, j + 1, k + 2),
                           (i, j, k + 1), (i + 2, j, k + 1), (i + 2, j + 2, k + 1), (i, j + 2, k + 1)]
                elements.append([node(*c) for c in corners + middles])
    corner_nodes = {ids[(2 * u, 2 * v, 2 * w)] for u in range(len(X)) for v in range(len(Y)) for w in range(len(Z))}
    lines.append("*ELEMENT,TYPE=C3D20,ELSET=EALL")
    for e, ns in enumerate(elements):
        fields = [str(e + 1)] + [str(n) for n in ns]
        lines += [",".join(fields[:16]) + ",", ",".join(fields[16:])]

    near = lambda x, y: abs(x - y) < 1e-9
    sets = {
        "SYMX": [n for n, c in coords.items() if near(c[0], 0.0)],
        "SYMZ": [n for n, c in coords.items() if near(c[2], 0.0)],
        "PIN": [n for n, c in coords.items() if near(c[0], half_span) and near(c[1], 0.0)],
    }
    if a.load == "disk":
        sets["LOAD"] = [n for n, c in coords.items() if c[0] ** 2 + (c[1] - grip_y) ** 2 <= 1.44 + 1e-9]
    else:
        sets["LOAD"] = [n for n, c in coords.items() if near(c[1], grip_y) and any(near(c[0], x) for x in rows)]
    for name, ns in sets.items():
        lines.append("*NSET,NSET=" + name)
        lines += [",".join(str(n) for n in ns[i:i + 16]) for i in range(0, len(ns), 16)]
    held = ["LOAD,1,1", "LOAD,3,3"] if a.hold == "position" else []
    lines += ["*MATERIAL,NAME=M", "*ELASTIC", "%g,%g" % (E, a.nu), "*SOLID SECTION,ELSET=EALL,MATERIAL=M",
              "*STEP", "*STATIC", "*BOUNDARY", "SYMX,1,1", "SYMZ,3,3", "PIN,2,3", *held, "LOAD,2,2,-0.01",
              "*NODE FILE", "U", "*NODE PRINT,NSET=LOAD,TOTALS=ONLY", "RF", "*END STEP"]

    folder = a.keep or tempfile.mkdtemp(prefix="bending_reference_")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "beam.inp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    run = subprocess.run(["ccx", "-i", "beam"], cwd=folder, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(os.path.join(folder, "beam.frd")):
        sys.exit("ccx failed in %s:\n%s" % (folder, run.stdout[-2000:] + run.stderr[-2000:]))

    U, reading = {}, False
    with open(os.path.join(folder, "beam.frd")) as f:
        for line in f:
            if "DISP" in line:
                reading = True
            elif reading and line.startswith(" -3"):
                break
            elif reading and line.startswith(" -1"):
                U[int(line[3:13])] = [float(line[13 + 12 * i:25 + 12 * i]) for i in range(3)]
    with open(os.path.join(folder, "beam.dat")) as f:
        force = -4.0 * float(f.read().split()[-2])  # the load on the whole beam (four quarters)

    def mean_deflection(cx):
        # the probe's cylinder about (cx, z = 0), the quarter's symmetry planes weighted by half
        s = w = 0.0
        for n in corner_nodes:
            x, _, z = coords[n]
            if (x - cx) ** 2 + z * z <= R * R + 1e-9:
                weight = (0.5 if near(x, 0.0) else 1.0) * (0.5 if near(z, 0.0) else 1.0)
                s += weight * -U[n][1]
                w += weight
        return s / w

    support = mean_deflection(half_span)
    slope = force / (mean_deflection(0.0) - support)
    slope_quarter = force / (mean_deflection(0.5 * half_span) - support)
    l, inertia, area = a.span, b * h ** 3 / 12.0, b * h
    kappa = 10.0 * (1.0 + a.nu) / (12.0 + 11.0 * a.nu)
    e_macro = l ** 3 / (4.0 * b * h ** 3) * slope

    # The probe's formulas (sim/analysis/three_point_bending.cpp): Timoshenko's beam read as the probe reads it, the
    # mean over each cylinder (bending part per unit E, shear part per unit kappa G A).
    def bending(x):
        u = 0.5 * l - abs(x)
        return 3.0 * l * l * u / (48.0 * inertia) if u < 0 else u * (3.0 * l * l - 4.0 * u * u) / (48.0 * inertia)

    def shear(x):
        return 0.5 * max(0.0, 0.5 * l - abs(x))

    def section_mean(centre, w, strips=4000):
        total = weight = 0.0
        for k in range(strips):
            s = R * (2.0 * (k + 0.5) / strips - 1.0)
            if abs(centre + s) > 0.5 * a.length:
                continue
            chord = min(math.sqrt(max(0.0, R * R - s * s)), 0.5 * b)
            total += chord * w(centre + s)
            weight += chord
        return total / weight

    def parts(centre):
        return [section_mean(centre, bending) - section_mean(half_span, bending),
                section_mean(centre, shear) - section_mean(half_span, shear)]

    (bm, sm), (bq, sq) = parts(0.0), parts(0.5 * half_span)
    e_timoshenko = slope * (bm + sm * 2.0 * (1.0 + a.nu) / (kappa * area))
    e_shear_free = (bm * sq - bq * sm) / (sq / slope - sm / slope_quarter)
    point_timoshenko = slope * (l ** 3 / (48.0 * inertia) + l * (1.0 + a.nu) / (2.0 * kappa * area))
    point_shear_free = l ** 3 / (4.0 * b * h ** 3) / (8.0 / 3.0 * (2.0 / slope_quarter - 1.0 / slope))
    print("%d hexahedra (%d through the depth), %d load nodes (%s, %s), nu %.3f" %
          (len(elements), a.per_depth, len(sets["LOAD"]), a.load, a.hold, a.nu))
    for name, value in (("E_macro", e_macro), ("E_timoshenko", e_timoshenko), ("E_shear_free", e_shear_free),
                        ("  at points: E_timoshenko", point_timoshenko), ("  at points: E_shear_free", point_shear_free)):
        print("%-27s %.5f of the continuum's E (%+.2f%%)" % (name, value / E, 100.0 * (value / E - 1.0)))


if __name__ == "__main__":
    main()
