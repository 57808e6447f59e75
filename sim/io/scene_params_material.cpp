// The material's registry group: every material key, with the methods that read it.
#include "core/param_builders.h"
#include "io/param_bind.h"
#include "io/scene_params.h"
#include "io/scene_params_lists.h"

namespace frac::registry {

ParamGroup materialGroup() {
  using M = MaterialDesc;
  return {"material", "material of bodies, kinematics, projectiles and planes (each key names the methods that read it)", {
      bind(text("library", "",
           "a material of the library (assets/materials/NAME.json: glass, porcelain, aluminium, ...): its handbook "
           "values fill every key this entry does not set (docs/materials.md)"), &M::library),
      bind(boolean("calibrated", true,
                   "with a library material: use its calibrated micro parameters for the scene's method, radius and "
                   "packing where assets/calibration has them (fracture-calibrate); false: the handbook values as they "
                   "are"), &M::calibrated),
      bind(number("density", "kg/m^3", 1, 1e5, 2500, "mass density of the elements"), &M::density),
      bind(forMethods(live(number("young", "Pa", 1e2, 1e13, 1e7, "bond Young's modulus E (Lu eq. 3)")), kBdemFamily),
           &M::young),
      bind(forMethods(live(number("shear", "Pa", 1e2, 1e13, 4e6, "bond shear modulus G (Lu eq. 11)")), kBdemFamily),
           &M::shear),
      bind(forMethods(live(aboveMin(numberOrInf(number("tensile_strength", "Pa", 0, 1e12, 1e6,
           "bond tensile strength sigma_c (Lu eq. 17); \"inf\" = unbreakable")))), kBdemFamily), &M::tensileStrength),
      bind(forMethods(live(aboveMin(numberOrInf(number("shear_strength", "Pa", 0, 1e12, 1e6,
           "bond shear strength tau_c (Lu eq. 18); \"inf\" = unbreakable")))), kBdemFamily), &M::shearStrength),
      bind(forMethods(number("weibull_m", "1", 0, 100, 0,
           "Weibull modulus of the bond strengths (unit scale: bdem's and rbdem's sigma_c and tau_c, the peridynamic "
           "methods' breaking stretch, in place of stretch_scatter); 0 = no scatter"), kWeibullReaders), &M::weibullM),
      bind(forMethods(number("weibull_cell", "m", 0, 1e3, 0,
           "flaw cells: the bonds whose midpoints lie in one cube of this edge share one Weibull draw, so that the "
           "scatter's correlation length is the material's and not the lattice's (correlated flaws, an aggregate's "
           "size; a strength still moves with the resolution below about four elements a cell); 0 = a draw per "
           "bond (Lu)"), kWeibullReaders), &M::weibullCell),
      bind(forMethods(live(number("friction", "1", 0, 10, 0.5, "Coulomb friction coefficient of contacts (Lu eq. 27)")),
           kBdem), &M::friction),
      bind(forMethods(live(number("damping", "1", 0, 1, 0.05, "bond damping ratio")), kBdem), &M::damping),
      bind(forMethods(live(number("restitution", "1", 0, 1, 0.5, "normal coefficient of restitution of contacts")),
           kBdem), &M::restitution),
      bind(forMethods(live(choice("softening", "brittle",
           "bdem: a bond past its strength breaks (brittle, Lu) or softens linearly to zero over Hillerborg's "
           "opening w_c = 2 fracture_energy / sigma_c (linear), so that a body holds the material's fracture energy "
           "(docs/materials.md)")), kBdem), &M::softening,
           {{"brittle", BondSoftening::Brittle}, {"linear", BondSoftening::Linear}}),
      bind(forMethods(number("anisotropy", "1", 0, 1000, 0, "strength anisotropy lambda (Lu eq. 30); 0 = isotropic"),
           kBdemFamily), &M::anisotropy),
      bind(forMethods(direction(vector3("grain_direction", "1", -1e6, 1e6, nlohmann::json::array({0, 1, 0}),
           "grain direction d_g (Lu eq. 30), normalised on load")), kBdemFamily), &M::grainDirection),
      bind(live(vector3("color", "1", 0, 1, nlohmann::json::array({0.72, 0.75, 0.8}),
                        "display colour (linear RGB, 0..1)")),
           &M::color),
      bind(live(vector3("interior_color", "1", 0, 1, nlohmann::json::array({0.82, 0.8, 0.76}),
           "colour of crack faces when fracture surfaces are drawn, like the inside of cut stone or glass (linear RGB, "
           "0..1)")), &M::interiorColor),
      bind(forMethods(live(number("bulk_modulus", "Pa", 1e2, 1e13, 1.4e10,
           "bulk modulus K: pd-bond's micromodulus c = 18 K / (pi delta^4) (Levine eq. 4), pd-state's a (Chen eq. 10), "
           "fem-debris' pressure p = K (rho / rho0 - 1) (Zhang eq. 11, first order)")),
           kBulkReaders), &M::bulkModulus),
      bind(forMethods(live(number("critical_stretch", "1", 1e-7, 10, 0.0005,
           "breaking stretch: pd-bond's s0 (Levine's tau is 3 s0 for the same fracture energy), pd-state's s_w (Chen "
           "eq. 19)")), kPeridynamics), &M::criticalStretch),
      bind(forMethods(live(number("fracture_energy", "J/m^2", 0, 1e9, 0,
           "pd-bond: G0; > 0 replaces critical_stretch by s0 = sqrt(5 G0 / (9 K delta)). bdem with softening "
           "\"linear\": the energy a bond spends per unit of its section past its strength (w_c = 2 G_f / "
           "sigma_c)")), kFractureEnergyReaders), &M::fractureEnergy),
      bind(forMethods(live(number("compression_alpha", "1", 0, 100, 0.25,
           "pd-bond: alpha of eq. 5 (compression strengthening)")), kPdBond), &M::compressionAlpha),
      bind(forMethods(number("stretch_scatter", "1", 0, 0.3, 0.02,
           "standard deviation of each bond's breaking stretch relative to the mean (Levine: 2%); not read where "
           "weibull_m > 0"), kPeridynamics),
           &M::stretchScatter),
      bind(forMethods(live(number("shear_modulus", "Pa", 1e2, 1e13, 1e10,
           "shear modulus G: pd-state's (Chen eq. 10), fem-debris' deviatoric law (Zhang eq. 8)")),
           kShearReaders), &M::shearModulus),
      bind(forMethods(live(aboveMin(numberOrInf(number("yield_psi0", "N^2/m^10", 0, 1e60, "inf",
           "pd-state: yield parameter Psi0 of Chen eq. 13; \"inf\" = elastic")))), kPdState), &M::yieldPsi0),
      bind(forMethods(live(aboveMin(numberOrInf(number("plastic_limit", "1", 0, 1e3, "inf",
           "pd-state: gamma / |xi| of Chen eq. 16, the largest plastic stretch; \"inf\" = none")))), kPdState),
           &M::plasticLimit),
      bind(forMethods(live(number("damage_alpha", "1", 0, 1e3, 0,
           "pd-state: alpha of Chen eq. 19, the rise of the breaking stretch with damage")), kPdState),
           &M::damageAlpha),
      bind(forMethods(vector3("anisotropy_scale", "1", 1e-3, 1e3, nlohmann::json::array({1, 1, 1}),
           "pd-state: diagonal of Chen's anisotropy matrix G (eq. 17) along x, y, z; [1,1,1] = isotropic"), kPdState),
           &M::anisotropyScale),
      bind(forMethods(live(aboveMin(numberOrInf(number("jc_a", "Pa", 0, 1e12, "inf",
           "fem-debris: Johnson-Cook yield stress A (Zhang eq. 8); \"inf\" = elastic")))), kFem), &M::jcA),
      bind(forMethods(live(number("jc_b", "Pa", 0, 1e12, 0, "fem-debris: Johnson-Cook hardening modulus B")), kFem),
           &M::jcB),
      bind(forMethods(live(number("jc_n", "1", 0.01, 2, 0.5, "fem-debris: Johnson-Cook hardening exponent n")), kFem),
           &M::jcN),
      bind(forMethods(live(number("jc_c", "1", 0, 1, 0, "fem-debris: Johnson-Cook strain-rate coefficient C")), kFem),
           &M::jcC),
      bind(forMethods(live(number("jc_m", "1", 0.01, 10, 1, "fem-debris: Johnson-Cook thermal softening exponent m")),
           kFem), &M::jcM),
      bind(forMethods(live(aboveMin(numberOrInf(number("jc_d1", "1", 0, 100, "inf",
           "fem-debris: Johnson-Cook fracture constant D1 (eps_F = (D1 + D2 e^(D3 triaxiality))(1 + D4 ln rate)(1 + D5 "
           "T*)); \"inf\" = no damage")))), kFem), &M::jcD1),
      bind(forMethods(live(number("jc_d2", "1", -100, 100, 0, "fem-debris: Johnson-Cook fracture constant D2")), kFem),
           &M::jcD2),
      bind(forMethods(live(number("jc_d3", "1", -100, 100, 0, "fem-debris: Johnson-Cook fracture constant D3")), kFem),
           &M::jcD3),
      bind(forMethods(live(number("jc_d4", "1", -10, 10, 0, "fem-debris: Johnson-Cook fracture constant D4")), kFem),
           &M::jcD4),
      bind(forMethods(live(number("jc_d5", "1", -10, 10, 0, "fem-debris: Johnson-Cook fracture constant D5")), kFem),
           &M::jcD5),
      bind(forMethods(live(number("damage_strain", "1", 0, 100, 0,
           "fem-debris: eps_D, the plastic strain past which Lemaitre damage grows (to 1 at eps_F: the element fails)")),
           kFem), &M::damageStrain),
      bind(forMethods(live(number("heat_capacity", "J/(kg K)", 1, 1e6, 900,
           "fem-debris: c of Zhang eq. 9 (90% of the plastic work heats the element)")), kFem), &M::heatCapacity),
      bind(forMethods(live(number("room_temperature", "K", 0, 1e4, 293, "fem-debris: T_room of the JC terms")), kFem),
           &M::roomTemperature),
      bind(forMethods(live(aboveMin(numberOrInf(number("melt_temperature", "K", 0, 1e5, "inf",
           "fem-debris: T_melt of the JC terms; \"inf\" = no thermal softening")))), kFem), &M::meltTemperature),
      bind(forMethods(live(number("gruneisen_gamma", "1", 0, 10, 0, "fem-debris: gamma_0 of Zhang eq. 12")), kFem),
           &M::gruneisenGamma),
      bind(forMethods(live(number("hugoniot_b", "Pa", 0, 1e13, 0,
           "fem-debris: b0 of Zhang eq. 13 (a0 is bulk_modulus)")), kFem), &M::hugoniotB),
      bind(forMethods(live(number("hugoniot_c", "Pa", 0, 1e13, 0, "fem-debris: c0 of Zhang eq. 13")), kFem),
           &M::hugoniotC),
      bind(forMethods(live(aboveMin(numberOrInf(number("spall_strength", "Pa", 0, 1e12, "inf",
           "fem-debris: tensile strength of a brittle material: a tetrahedron whose largest principal stress exceeds it "
           "fails (not in Zhang; the spall cut-off of hydrocodes' Johnson-Cook); \"inf\" = none")))), kFem),
           &M::spallStrength),
  }, ""};
}

}  // namespace frac::registry
