// Shared by every shader: the per-frame uniforms (mirrored by FrameUniforms in render/frame_uniforms.h) and the
// lighting. All colours are linear RGB; the target is UNORM, so shading ends with the same gamma 2 encoding as the CPU's
// toSrgb8 (render/color_map.cpp).
layout(set = 0, binding = 0, std140) uniform FrameUniforms {
  mat4 view;
  mat4 proj;
  vec4 lightDirView;      // unit direction towards the key light, view space
  vec4 skyColor;          // hemisphere ambient, from above
  vec4 groundColor;       // hemisphere ambient, from below
  vec4 upView;            // world up, view space
  vec4 params;            // x colour mode, y scalar min, z scalar max, w flags (1 = unlit)
  vec4 viewport;          // width, height, element scale, unused
  vec4 colormap[8];       // scalar colour map: rgb and the stop position in a (kColormapStops used)
  vec4 materialColors[32];
  vec4 kindColors[4];     // body (unused), kinematic, projectile in the scalar modes
  mat4 viewToLight;       // view space -> light clip space of the shadow map
  vec4 shadowParams;      // x 1 = shadows on, y normal offset (view units), z depth bias, w unused
  vec4 clipPlane;         // world: what has dot(xyz, p) > w is cut away (a cross-section); all 0 = no cut
} u;

// Signed distance of a world point beyond the clipping plane: > 0 is cut away.
float beyondClip(vec3 world) { return dot(u.clipPlane.xyz, world) - u.clipPlane.w; }

layout(set = 0, binding = 1) uniform sampler2DShadow shadowMap;

// No `if` in these shaders tests uniforms alone: lavapipe (Mesa 22.3, the CPU driver) then specialises the shader to
// the uniforms' values at every pipeline bind, compiling it anew each time and keeping every copy (a scene redraw
// cost a vertex-shader compile and memory that grew without bound in the soak test, docs/development.md). Uniform
// switches are selects, or share their `if` with a per-element or per-pixel condition.

// Fraction of the key light reaching a point: one hardware-filtered comparison (2x2 percentage-closer filtering).
float keyLightVisibility(vec3 viewPos, vec3 viewNormal) {
  vec4 lc = u.viewToLight * vec4(viewPos + viewNormal * u.shadowParams.y, 1.0);
  return texture(shadowMap, vec3(lc.xy * 0.5 + 0.5, min(lc.z - u.shadowParams.z, 1.0)));
}

const uint kModeMaterial = 0u, kModeStress = 1u, kModeDamage = 2u, kModeFragment = 3u, kModeSpeed = 4u;
const int kColormapStops = 5;

vec3 scalarColor(float value) {
  float t = clamp((value - u.params.y) / max(u.params.z - u.params.y, 1e-20), 0.0, 1.0);
  for (int k = 1; k < kColormapStops; ++k) {
    if (t <= u.colormap[k].a) {
      float s = (t - u.colormap[k - 1].a) / (u.colormap[k].a - u.colormap[k - 1].a);
      return mix(u.colormap[k - 1].rgb, u.colormap[k].rgb, s);
    }
  }
  return u.colormap[kColormapStops - 1].rgb;
}

// Stable colour of a fragment id (the same hash as fragmentColor in render/color_map.cpp).
vec3 fragmentColor(uint id) {
  uint h = id * 2654435761u;
  h ^= h >> 16;
  h *= 2246822519u;
  h ^= h >> 13;
  float hue = float(h & 1023u) / 1024.0;
  float sat = 0.45 + 0.35 * float((h >> 10) & 3u) / 3.0;
  vec3 k = clamp(abs(mod(hue * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
  return 0.85 * mix(vec3(1.0), k, sat);
}

// Gamma 2 (a square root): close to sRGB and far cheaper than pow on CPU rasterisers (lavapipe).
// Colour of a sphere instance in the current mode (kind: 0 body, 1 kinematic, 2 projectile).
// Selects, not branches on the mode (see above).
vec3 instanceColor(float scalar, uint fragment, uint materialKind) {
  uint mode = uint(u.params.x);
  uint material = materialKind & 0xffffu, kind = materialKind >> 16;
  vec3 scalarRgb = scalarColor(scalar);
  vec3 fragmentRgb = fragmentColor(fragment);
  vec3 c = mix(scalarRgb, fragmentRgb, bvec3(mode == kModeFragment));
  c = mix(c, u.kindColors[min(kind, 3u)].rgb, bvec3(kind != 0u));
  return mix(c, u.materialColors[min(material, 31u)].rgb, bvec3(mode == kModeMaterial));
}

vec3 gammaEncode(vec3 linear) { return sqrt(clamp(linear, 0.0, 1.0)); }

// Key light (diffuse + a little specular, in the shadow map's light) and a hemisphere ambient term. The shadow map is
// only looked up where the surface faces the light.
vec3 shade(vec3 albedo, vec3 n, vec3 viewPos, float occlusion) {
  vec3 l = u.lightDirView.xyz;
  float facing = dot(n, l);
  float shadow = facing > 0.0 ? 1.0 : 0.0;
  if (facing > 0.0 && u.shadowParams.x > 0.5) shadow = keyLightVisibility(viewPos, n);
  float diffuse = max(facing, 0.0) * shadow;
  float hemi = 0.5 + 0.5 * dot(n, u.upView.xyz);
  vec3 ambient = mix(u.groundColor.rgb, u.skyColor.rgb, hemi) * occlusion;
  vec3 h = normalize(l - normalize(viewPos));
  float s2 = max(dot(n, h), 0.0);
  s2 *= s2; s2 *= s2; s2 *= s2; s2 *= s2; s2 *= s2;  // ^32: a tight highlight without pow
  float specular = 0.12 * s2 * shadow;
  vec3 lit = albedo * (ambient + 0.85 * diffuse * vec3(1.0, 0.96, 0.9)) + vec3(specular);
  return mix(lit, albedo, bvec3((uint(u.params.w) & 1u) != 0u));  // unlit: the albedo as it is
}
