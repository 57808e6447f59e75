#include "io/json_validate.h"

#include "io/scene_error.h"

namespace frac {
namespace {

using json = nlohmann::json;

// The variant ("type") of an object, or "" when absent or not a string.
std::string variantOf(const json& object, const ParamGroup& group) {
  if (group.variantKey.empty() || !object.is_object()) return "";
  const auto it = object.find(group.variantKey);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
  return s;
}

std::string sceneErrorMessage(const std::string& file, const std::string& pointer, const std::string& problem) {
  return file + ": " + (pointer.empty() ? "(top level)" : pointer) + ": " + problem;
}

void throwSceneError(const std::string& file, const std::string& pointer, const std::string& problem) {
  throw SceneError(sceneErrorMessage(file, pointer, problem));
}

std::string childPointer(const std::string& pointer, std::string_view token) {
  std::string out = pointer + "/";
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string unknownKeyProblem(const ParamGroup& group, const std::string& key) {
  const std::string guess = closestMatch(key, group.keys());
  return "unknown " + group.name + " key '" + key + "'" +
         (guess.empty() ? " (known keys: " + joined(group.keys()) + ")" : " (did you mean '" + guess + "'?)");
}

std::string variantMismatchProblem(const ParamGroup& group, const ParamSpec& spec, const std::string& variant) {
  std::vector<std::string> used;
  for (const ParamSpec& p : group.params)
    if (p.key != group.variantKey && !p.variants.empty() && group.appliesTo(p, variant)) used.push_back(p.key);
  return "key '" + spec.key + "' does not apply to " + group.name + " " + group.variantKey + " \"" + variant +
         "\" (" + (used.empty() ? "it takes no other keys" : "it uses: " + joined(used)) + ")";
}

void validateParam(const json& value, const ParamSpec& spec, const std::string& pointer, const std::string& file) {
  const std::string problem = checkParamValue(spec, value);
  if (!problem.empty()) throwSceneError(file, pointer, problem);
  switch (spec.type) {
    case ParamType::Object: validateObject(value, paramGroup(spec.group), pointer, file); break;
    case ParamType::Map:
      for (const auto& [name, entry] : value.items()) {
        if (name.empty()) throwSceneError(file, pointer, "entry names must not be empty");
        validateObject(entry, paramGroup(spec.group), childPointer(pointer, name), file);
      }
      break;
    case ParamType::List:
      for (size_t i = 0; i < value.size(); ++i)
        validateObject(value[i], paramGroup(spec.group), childPointer(pointer, std::to_string(i)), file);
      break;
    default: break;
  }
}

void validateObject(const json& object, const ParamGroup& group, const std::string& pointer,
                    const std::string& file) {
  if (!object.is_object())
    throwSceneError(file, pointer, "expected an object (" + group.name + "), got " + describeValue(object));

  for (const auto& [key, value] : object.items())
    if (!group.find(key)) throwSceneError(file, childPointer(pointer, key), unknownKeyProblem(group, key));

  // The variant key first: it decides which other keys apply.
  if (!group.variantKey.empty()) {
    const ParamSpec& spec = *group.find(group.variantKey);
    if (!object.contains(spec.key))
      throwSceneError(file, pointer, "missing required key '" + spec.key + "' (" + describeExpected(spec) + ")");
    validateParam(object[spec.key], spec, childPointer(pointer, spec.key), file);
  }
  const std::string variant = variantOf(object, group);

  for (const auto& [key, value] : object.items()) {
    if (key == group.variantKey) continue;
    const ParamSpec& spec = *group.find(key);
    if (!group.appliesTo(spec, variant))
      throwSceneError(file, childPointer(pointer, key), variantMismatchProblem(group, spec, variant));
    validateParam(value, spec, childPointer(pointer, key), file);
  }

  for (const ParamSpec& spec : group.params)
    if (spec.required && group.appliesTo(spec, variant) && !object.contains(spec.key))
      throwSceneError(file, pointer,
                      "missing required key '" + spec.key + "' (" + spec.description + ": " +
                          describeExpected(spec) + ")");
}

json withDefaults(const json& object, const ParamGroup& group) {
  json out = object;
  const std::string variant = variantOf(object, group);
  for (const ParamSpec& spec : group.params) {
    if (!group.appliesTo(spec, variant)) continue;
    if (!out.contains(spec.key)) {
      if (spec.defaultValue.is_null()) continue;
      out[spec.key] = spec.defaultValue;
    }
    json& value = out[spec.key];
    switch (spec.type) {
      case ParamType::Object: value = withDefaults(value, paramGroup(spec.group)); break;
      case ParamType::Map:
        for (auto& [name, entry] : value.items()) entry = withDefaults(entry, paramGroup(spec.group));
        break;
      case ParamType::List:
        for (json& entry : value) entry = withDefaults(entry, paramGroup(spec.group));
        break;
      default: break;
    }
  }
  return out;
}

}  // namespace frac
