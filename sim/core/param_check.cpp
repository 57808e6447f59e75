// Checking one value against a ParamSpec, and the wording of what was expected and what was found.
// Shared by scene validation, `--set` overrides and UI edits.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/params.h"

namespace frac {
namespace {

using json = nlohmann::json;

std::string formatWithPrecision(double value, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, value);
  std::string s = buf;
  // Exponents: "1e+13" -> "1e13", "1e-05" -> "1e-5".
  const size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string mantissa = s.substr(0, e);
  std::string exponent = s.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return mantissa + "e" + (negative ? "-" : "") + exponent;
}

std::string unitSuffix(const ParamSpec& spec) {
  return spec.unit.empty() || spec.unit == "1" ? "" : " " + spec.unit;
}

std::string rangeText(const ParamSpec& spec) {
  std::string text(spec.minExclusive ? "(" : "[");  // appended piecewise: GCC 12 warns (-Wrestrict) on "(" + string
  text += formatNumber(spec.min);
  text += ", ";
  text += formatNumber(spec.max);
  text += "]";
  return text;
}

std::string keywordOf(const ParamSpec& spec) {
  if (spec.type == ParamType::NumberOrAuto) return "auto";
  if (spec.type == ParamType::NumberOrInf) return "inf";
  return "";
}

bool inRange(const ParamSpec& spec, double v) {
  const bool aboveMin = spec.minExclusive ? v > spec.min : v >= spec.min;
  return aboveMin && v <= spec.max;  // false for NaN
}

// Short form for type mismatches: `a number (Pa)`.
std::string describeKind(const ParamSpec& spec) {
  const std::string unit = spec.unit.empty() || spec.unit == "1" ? "" : " (" + spec.unit + ")";
  switch (spec.type) {
    case ParamType::Number: return "a number" + unit;
    case ParamType::Integer: return "an integer" + unit;
    case ParamType::NumberOrAuto:
    case ParamType::NumberOrInf: return "a number" + unit + " or \"" + keywordOf(spec) + "\"";
    case ParamType::Vec3: return "an array of 3 numbers" + unit;
    case ParamType::Profile: return "an array of at least 3 [r, y] points" + unit;
    default: return describeExpected(spec);
  }
}

std::string typeError(const ParamSpec& spec, const json& v) {
  return "expected " + describeKind(spec) + ", got " + describeValue(v);
}

std::string rangeError(const ParamSpec& spec, const json& v) {
  return "expected " + describeExpected(spec) + ", got " + describeValue(v);
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours ("hpc").
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      const bool swapped = i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1];
      if (swapped) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string checkVec3(const ParamSpec& spec, const json& v) {
  if (!v.is_array() || v.size() != 3) return typeError(spec, v);
  for (const json& c : v)
    if (!c.is_number()) return typeError(spec, v);
  for (const json& c : v)
    if (!inRange(spec, c.get<double>())) return rangeError(spec, v);
  if (spec.unitVector && v[0].get<double>() == 0 && v[1].get<double>() == 0 && v[2].get<double>() == 0)
    return "expected a non-zero direction vector, got " + describeValue(v);
  return "";
}

std::string checkProfile(const ParamSpec& spec, const json& v) {
  if (!v.is_array()) return typeError(spec, v);
  if (v.size() < 3)
    return "expected at least 3 [r, y] points, got " + std::to_string(v.size()) + " (" + describeValue(v) + ")";
  for (size_t i = 0; i < v.size(); ++i) {
    const json& p = v[i];
    const std::string where = "point " + std::to_string(i) + ": ";
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
      return where + "expected [r, y] (two numbers" + unitSuffix(spec) + "), got " + describeValue(p);
    const double r = p[0].get<double>(), y = p[1].get<double>();
    if (!(r >= 0 && r <= spec.max))
      return where + "expected r in [0, " + formatNumber(spec.max) + "]" + unitSuffix(spec) + ", got " +
             describeValue(p[0]);
    if (!(std::abs(y) <= spec.max))
      return where + "expected y in [" + formatNumber(-spec.max) + ", " + formatNumber(spec.max) + "]" +
             unitSuffix(spec) + ", got " + describeValue(p[1]);
  }
  return "";
}

}  // namespace

bool isNumericType(ParamType type) {
  switch (type) {
    case ParamType::Number:
    case ParamType::Integer:
    case ParamType::Vec3:
    case ParamType::NumberOrAuto:
    case ParamType::NumberOrInf:
    case ParamType::Profile: return true;
    default: return false;
  }
}

const char* paramTypeName(ParamType type) {
  switch (type) {
    case ParamType::Number: return "number";
    case ParamType::Integer: return "integer";
    case ParamType::Bool: return "bool";
    case ParamType::String: return "string";
    case ParamType::Enum: return "enum";
    case ParamType::Vec3: return "vec3";
    case ParamType::NumberOrAuto: return "number or \"auto\"";
    case ParamType::NumberOrInf: return "number or \"inf\"";
    case ParamType::Profile: return "profile";
    case ParamType::Object: return "object";
    case ParamType::Map: return "map";
    case ParamType::List: return "list";
  }
  return "?";
}

std::string formatNumber(double value) { return formatWithPrecision(value, 6); }

std::string describeExpected(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::Number: return "a number in " + rangeText(spec) + unitSuffix(spec);
    case ParamType::Integer: return "an integer in " + rangeText(spec) + unitSuffix(spec);
    case ParamType::NumberOrAuto:
    case ParamType::NumberOrInf:
      return "a number in " + rangeText(spec) + unitSuffix(spec) + " or \"" + keywordOf(spec) + "\"";
    case ParamType::Vec3:
      return spec.unitVector ? "a non-zero direction [x, y, z]"
                             : "an array of 3 numbers in " + rangeText(spec) + unitSuffix(spec);
    case ParamType::Profile:
      return "an array of at least 3 [r, y] points with r in [0, " + formatNumber(spec.max) + "]" + unitSuffix(spec);
    case ParamType::Bool: return "true or false";
    case ParamType::String: return "a string";
    case ParamType::Enum: {
      std::string s = "one of";
      for (size_t i = 0; i < spec.choices.size(); ++i) s += (i ? ", \"" : " \"") + spec.choices[i] + "\"";
      return s;
    }
    case ParamType::Object: return "an object";
    case ParamType::Map: return "an object of named entries";
    case ParamType::List: return "an array of objects";
  }
  return "?";
}

std::string describeValue(const json& v) {
  auto shortened = [](std::string s) { return s.size() > 60 ? s.substr(0, 57) + "..." : s; };
  // Text that is not UTF-8 (a hand-edited file's stray bytes) is shown with U+FFFD instead of failing the message.
  auto text = [](const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); };
  switch (v.type()) {
    case json::value_t::string: return "a string " + shortened(text(v));
    case json::value_t::number_float: return formatWithPrecision(v.get<double>(), 9);
    case json::value_t::array: return v.empty() ? "an empty array" : "an array " + shortened(text(v));
    case json::value_t::object: return v.empty() ? "an empty object" : "an object " + shortened(text(v));
    default: return text(v);  // integers, booleans, null
  }
}

std::string checkParamValue(const ParamSpec& spec, const json& v) {
  switch (spec.type) {
    case ParamType::Number:
      if (!v.is_number()) return typeError(spec, v);
      return inRange(spec, v.get<double>()) ? "" : rangeError(spec, v);
    case ParamType::Integer: {
      if (!v.is_number()) return typeError(spec, v);
      const double d = v.get<double>();
      if (v.is_number_float() && !(std::isfinite(d) && std::floor(d) == d)) return rangeError(spec, v);
      return inRange(spec, d) ? "" : rangeError(spec, v);
    }
    case ParamType::NumberOrAuto:
    case ParamType::NumberOrInf:
      if (v.is_string()) return v.get<std::string>() == keywordOf(spec) ? "" : typeError(spec, v);
      if (!v.is_number()) return typeError(spec, v);
      return inRange(spec, v.get<double>()) ? "" : rangeError(spec, v);
    case ParamType::Bool: return v.is_boolean() ? "" : typeError(spec, v);
    case ParamType::String: return v.is_string() ? "" : typeError(spec, v);
    case ParamType::Enum: {
      if (!v.is_string()) return typeError(spec, v);
      const std::string s = v.get<std::string>();
      if (std::find(spec.choices.begin(), spec.choices.end(), s) != spec.choices.end()) return "";
      const std::string guess = closestMatch(s, spec.choices);
      return rangeError(spec, v) + (guess.empty() ? "" : " (did you mean \"" + guess + "\"?)");
    }
    case ParamType::Vec3: return checkVec3(spec, v);
    case ParamType::Profile: return checkProfile(spec, v);
    case ParamType::Object:
    case ParamType::Map: return v.is_object() ? "" : typeError(spec, v);
    case ParamType::List: return v.is_array() ? "" : typeError(spec, v);
  }
  return "";
}

std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string w = lowercase(word);
  if (w.empty()) return "";
  const size_t allowed = w.size() <= 3 ? 1 : std::max<size_t>(2, w.size() / 4);
  std::string best;
  size_t bestDistance = allowed + 1;
  for (const std::string& c : candidates) {
    const std::string lc = lowercase(c);
    size_t d = editDistance(w, lc);
    // "tensile" for "tensile_strength": a clear prefix counts as close.
    const bool wordIsPrefix = w.size() >= 4 && lc.rfind(w, 0) == 0;
    const bool candidateIsPrefix = lc.size() >= 3 && w.rfind(lc, 0) == 0;
    if (wordIsPrefix || candidateIsPrefix) d = std::min(d, allowed);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace frac
