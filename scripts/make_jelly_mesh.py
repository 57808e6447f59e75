#!/usr/bin/env python3
"""Writes assets/meshes/jelly.obj: a fluted jelly pudding, a closed outward-oriented triangle mesh.

The body is a tapered superellipse of revolution (flat bottom, rounded rim, slightly domed top) whose radius
ripples with twisted flutes like a jelly mould. Local frame: axis along +y, bottom at y = 0, 0.15 m tall.
Standard library only:  python3 scripts/make_jelly_mesh.py [output.obj]
"""
import math
import os
import sys

HEIGHT = 0.15           # m
BOTTOM_RADIUS = 0.075   # m, radius of the widest part at the base
TOP_RADIUS = 0.055      # m, radius at the top (the mould tapers)
ROUNDNESS = 4.0         # superellipse exponent of the profile: 2 = ellipse, larger = boxier
DOME = 0.012            # m, extra height at the centre of the top
FLUTES = 8              # ripples around the axis
FLUTE_DEPTH = 0.07      # relative radius change of a ripple
TWIST = 0.6             # rad, how far the ripples turn from bottom to top
SEGMENTS = 48           # vertices around each ring
RINGS = 24              # latitude steps from the bottom pole to the top pole (RINGS - 1 rings of vertices)


def profile(t):
    """(radius, y) of the plain profile for t in [0, 1] from the bottom pole to the top pole."""
    theta = math.pi * (t - 0.5)
    c, s = math.cos(theta), math.sin(theta)
    e = 2.0 / ROUNDNESS
    radial = abs(c) ** e
    axial = math.copysign(abs(s) ** e, s)
    y = 0.5 * (HEIGHT - DOME) * (1.0 + axial)
    if axial > 0.0:
        y += DOME * (1.0 - radial ** 2) * axial  # dome over the top, zero at the rim
    r = radial * (BOTTOM_RADIUS + (TOP_RADIUS - BOTTOM_RADIUS) * y / HEIGHT)
    return r, y


def ring_vertex(t, j):
    r, y = profile(t)
    phi = 2.0 * math.pi * j / SEGMENTS
    flute = 1.0 + FLUTE_DEPTH * math.cos(FLUTES * (phi + TWIST * y / HEIGHT))
    return (r * flute * math.cos(phi), y, r * flute * math.sin(phi))


def build():
    vertices = [(0.0, 0.0, 0.0)]  # bottom pole, index 1 in OBJ numbering
    for k in range(1, RINGS):
        vertices += [ring_vertex(k / RINGS, j) for j in range(SEGMENTS)]
    vertices.append((0.0, profile(1.0)[1], 0.0))  # top pole
    bottom, top = 1, len(vertices)

    def ring(k, j):  # OBJ index of vertex j on ring k (1 .. RINGS - 1)
        return 2 + (k - 1) * SEGMENTS + j % SEGMENTS

    faces = []
    for j in range(SEGMENTS):
        faces.append((bottom, ring(1, j), ring(1, j + 1)))
        for k in range(1, RINGS - 1):
            lower0, lower1, upper0, upper1 = ring(k, j), ring(k, j + 1), ring(k + 1, j), ring(k + 1, j + 1)
            faces.append((lower0, upper0, lower1))
            faces.append((lower1, upper0, upper1))
        faces.append((ring(RINGS - 1, j), top, ring(RINGS - 1, j + 1)))
    return vertices, faces


def check_closed_and_outward(vertices, faces):
    edges = set()
    for f in faces:
        for a, b in zip(f, f[1:] + f[:1]):
            assert (a, b) not in edges, "edge used twice in the same direction"
            edges.add((a, b))
    assert all((b, a) in edges for a, b in edges), "open edge"
    volume = 0.0
    for a, b, c in faces:
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = vertices[a - 1], vertices[b - 1], vertices[c - 1]
        volume += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
    volume /= 6.0
    assert volume > 0.0, "mesh is oriented inward"
    return volume


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.normpath(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "assets", "meshes", "jelly.obj"))
    vertices, faces = build()
    volume = check_closed_and_outward(vertices, faces)
    with open(out, "w") as f:
        f.write("# jelly.obj: fluted jelly pudding, written by scripts/make_jelly_mesh.py\n")
        f.write("# closed, outward-oriented triangles; metres; local frame: axis +y, bottom at y = 0, "
                f"height {profile(1.0)[1]:.3f} m\n")
        f.write(f"# {len(vertices)} vertices, {len(faces)} triangles, volume {volume * 1e6:.1f} cm^3\n")
        f.write("o jelly\n")
        for x, y, z in vertices:
            f.write(f"v {x:.6f} {y:.6f} {z:.6f}\n")
        for a, b, c in faces:
            f.write(f"f {a} {b} {c}\n")
    print(f"wrote {out}: {len(vertices)} vertices, {len(faces)} triangles, volume {volume * 1e6:.1f} cm^3")


if __name__ == "__main__":
    main()
