// `--set key=value`: walks a dotted key path through the document, guided by the registry, and checks the
// value against its spec right away, so that the error names the `--set` argument.
#include <cctype>

#include "core/params.h"
#include "io/json_validate.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"

namespace frac {
namespace {

using json = nlohmann::json;

std::vector<std::string> splitDots(const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

bool isIndex(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The value as JSON when it parses ("1e-5", "[0,0,0]", "true"), otherwise as a string ("auto", "glass").
// String and enum parameters always take the raw text, so `name=123` gives the name "123".
json parseValue(const std::string& text, ParamType type) {
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return json(text);
  if ((type == ParamType::String || type == ParamType::Enum) && !value.is_string()) return json(text);
  return value;
}

// One override: `where` ("<file>: --set '<arg>'") prefixes every message.
class Override {
 public:
  Override(std::string where, std::vector<std::string> tokens, std::string text)
      : where_(std::move(where)), tokens_(std::move(tokens)), text_(std::move(text)) {}

  void apply(json& doc) {
    const ParamGroup* group = &paramGroup("scene");
    json* node = &doc;  // an object of the document, described by *group
    std::string pointer;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const std::string& key = tokens_[i];
      const ParamSpec& spec = knownKey(*node, *group, key, pointer);
      pointer = childPointer(pointer, key);
      const bool last = i + 1 == tokens_.size();
      if (last) return set((*node)[key], spec, pointer);

      switch (spec.type) {
        case ParamType::Object:
          node = &objectAt(*node, key, pointer);
          group = &paramGroup(spec.group);
          break;
        case ParamType::Map:
        case ParamType::List: {
          json& container = containerAt(*node, spec, pointer);
          const std::string& entry = tokens_[++i];
          const std::string entryPointer = childPointer(pointer, entry);
          group = &paramGroup(spec.group);
          if (i + 1 == tokens_.size()) return setEntry(container, spec, entry, entryPointer);
          node = &entryOf(container, spec, entry, entryPointer);
          pointer = entryPointer;
          break;
        }
        default:
          throwSceneError(where_, childPointer(pointer, tokens_[i + 1]),
                          "'" + key + "' is " + describeExpected(spec) + ", it has no key '" + tokens_[i + 1] +
                              "'");
      }
    }
  }

 private:
  const ParamSpec& knownKey(const json& node, const ParamGroup& group, const std::string& key,
                            const std::string& pointer) const {
    const ParamSpec* spec = group.find(key);
    if (!spec) throwSceneError(where_, childPointer(pointer, key), unknownKeyProblem(group, key));
    const auto variant = group.variantKey.empty() ? node.end() : node.find(group.variantKey);
    if (variant != node.end() && variant->is_string() && !group.appliesTo(*spec, variant->get<std::string>()))
      throwSceneError(where_, childPointer(pointer, key),
                      variantMismatchProblem(group, *spec, variant->get<std::string>()));
    return *spec;
  }

  void set(json& target, const ParamSpec& spec, const std::string& pointer) const {
    const json value = parseValue(text_, spec.type);
    validateParam(value, spec, pointer, where_);
    target = value;
  }

  // The nested object `key` of `node`, created when the file lacks it (e.g. `solver.dt` without "solver").
  json& objectAt(json& node, const std::string& key, const std::string& pointer) const {
    json& child = node[key];
    if (child.is_null()) child = json::object();
    if (!child.is_object())
      throwSceneError(where_, pointer, "expected an object in the scene, got " + describeValue(child));
    return child;
  }

  json& containerAt(json& node, const ParamSpec& spec, const std::string& pointer) const {
    const bool list = spec.type == ParamType::List;
    json& child = node[spec.key];
    if (child.is_null()) child = list ? json::array() : json::object();
    if (list ? !child.is_array() : !child.is_object())
      throwSceneError(where_, pointer,
                      std::string("expected ") + (list ? "an array" : "an object") + " in the scene, got " +
                          describeValue(child));
    return child;
  }

  // An existing list element or map entry.
  json& entryOf(json& container, const ParamSpec& spec, const std::string& entry,
                const std::string& pointer) const {
    json* target = nullptr;
    if (spec.type == ParamType::List) {
      if (!isIndex(entry))
        throwSceneError(where_, pointer, "expected an array index after '" + spec.key + "', got '" + entry + "'");
      const size_t index = std::stoul(entry);
      if (index >= container.size())
        throwSceneError(where_, pointer,
                        "index " + entry + " is out of range ('" + spec.key + "' has " +
                            std::to_string(container.size()) + " entries)");
      target = &container[index];
    } else {
      if (!container.contains(entry)) {
        std::vector<std::string> names;
        for (const auto& item : container.items()) names.push_back(item.key());
        const std::string guess = closestMatch(entry, names);
        throwSceneError(where_, pointer,
                        "no " + paramGroup(spec.group).name + " named \"" + entry + "\" in '" + spec.key + "'" +
                            (guess.empty() ? "" : " (did you mean \"" + guess + "\"?)"));
      }
      target = &container[entry];
    }
    if (!target->is_object())
      throwSceneError(where_, pointer, "expected an object in the scene, got " + describeValue(*target));
    return *target;
  }

  // A whole entry: `bodies.0={...}` replaces one, `materials.rubber={...}` may add one.
  void setEntry(json& container, const ParamSpec& spec, const std::string& entry,
                const std::string& pointer) const {
    const json value = parseValue(text_, ParamType::Object);
    validateObject(value, paramGroup(spec.group), pointer, where_);
    if (spec.type == ParamType::Map) container[entry] = value;
    else entryOf(container, spec, entry, pointer) = value;
  }

  std::string where_;
  std::vector<std::string> tokens_;
  std::string text_;
};

}  // namespace

void applyOverride(json& doc, const std::string& keyEqualsValue, const std::string& path) {
  const std::string where = path + ": --set '" + keyEqualsValue + "'";
  const size_t eq = keyEqualsValue.find('=');
  if (eq == std::string::npos) throw SceneError(where + ": expected key=value, e.g. solver.dt=1e-5");
  const std::string key = keyEqualsValue.substr(0, eq);
  std::vector<std::string> tokens = splitDots(key);
  for (const std::string& t : tokens)
    if (t.empty())
      throw SceneError(where + ": the key '" + key + "' has an empty part (expected e.g. materials.glass.young)");
  if (!doc.is_object()) throw SceneError(where + ": the scene's top level is not an object");
  Override(where, std::move(tokens), keyEqualsValue.substr(eq + 1)).apply(doc);
}

}  // namespace frac
