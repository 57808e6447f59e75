#pragma once
// A scene key that lists names in one string ("a, b,c"): the names, each without its surrounding spaces.
#include <sstream>
#include <string>
#include <vector>

namespace frac {

inline std::vector<std::string> commaSeparated(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream list(text);
  std::string name;
  while (std::getline(list, name, ',')) {
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    names.push_back(name);
  }
  return names;
}

}  // namespace frac
