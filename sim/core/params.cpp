// Lookups in the registry (the tables are in io/scene_params.cpp).
#include "core/params.h"

#include <stdexcept>

namespace frac {

void ParamBinding::checkOwner(const std::type_info& type) const {
  if (!owner) throw std::logic_error("parameter binding: the spec is not bound to a struct member");
  if (*owner != type)
    throw std::logic_error(std::string("parameter binding: it holds a member of ") + owner->name() + ", not of " +
                           type.name());
}

const ParamSpec* ParamGroup::find(std::string_view key) const {
  for (const ParamSpec& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

std::vector<std::string> ParamGroup::keys() const {
  std::vector<std::string> out;
  for (const ParamSpec& p : params) out.push_back(p.key);
  return out;
}

bool ParamGroup::appliesTo(const ParamSpec& spec, std::string_view variant) const {
  if (spec.variants.empty() || variant.empty()) return true;
  for (const std::string& v : spec.variants)
    if (v == variant) return true;
  return false;
}

const ParamGroup& paramGroup(std::string_view name) {
  for (const ParamGroup& g : allParamGroups())
    if (g.name == name) return g;
  throw std::out_of_range("no parameter group '" + std::string(name) + "'");
}

}  // namespace frac
