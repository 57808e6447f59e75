#pragma once
// A seeded JSON mutator for the fuzz tests (scene files, --set, replay files): one mutation at a random place of a
// document: a key deleted or added, a value replaced by garbage (null, booleans, "nan" and "inf" as text, huge, tiny,
// zero and negative numbers, empty and nested containers, a 1000-entry array, non-UTF-8 text), a number scaled by
// -1e6, an array entry removed.
#include <nlohmann/json.hpp>

#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace frac::test {

// A value of the kind a careless or hostile edit puts in.
inline nlohmann::json garbage(std::mt19937& rng) {
  switch (rng() % 16) {
    case 0: return nullptr;
    case 1: return true;
    case 2: return "nan";
    case 3: return "inf";
    case 4: return "-inf";
    case 5: return 1e308;
    case 6: return -1e308;
    case 7: return 1e-308;
    case 8: return 0;
    case 9: return -1;
    case 10: return nlohmann::json::object();
    case 11: return nlohmann::json::array();
    case 12: return nlohmann::json::array({nlohmann::json::array({1, 2}), "x", nlohmann::json::object({{"a", 1}})});
    case 13: return nlohmann::json(std::vector<double>(1000, 1.0));
    case 14: return 1e12;
    default: return "\x01\xff garbage";
  }
}

// One mutation somewhere in the document: walks down from the root to a random depth.
inline void mutate(nlohmann::json& doc, std::mt19937& rng) {
  nlohmann::json* node = &doc;
  for (int depth = 0; depth < 6; ++depth) {
    nlohmann::json* child = nullptr;
    if (node->is_object() && !node->empty()) {
      auto it = node->begin();
      std::advance(it, long(rng() % node->size()));
      child = &it.value();
      if (rng() % 3 == 0 || !(child->is_object() || child->is_array())) {
        switch (rng() % 4) {
          case 0: node->erase(it); return;                   // a key deleted
          case 1: it.value() = garbage(rng); return;         // a wrong value
          case 2: (*node)["unknown_key_" + std::to_string(rng() % 9)] = garbage(rng); return;
          default: if (it.value().is_number()) it.value() = it.value().get<double>() * -1e6; else it.value() = garbage(rng);
                   return;
        }
      }
    } else if (node->is_array() && !node->empty()) {
      child = &(*node)[rng() % node->size()];
      if (rng() % 3 == 0 || !(child->is_object() || child->is_array())) {
        if (rng() % 2) *child = garbage(rng);
        else node->erase(node->begin() + long(rng() % node->size()));
        return;
      }
    } else {
      *node = garbage(rng);
      return;
    }
    node = child;
  }
  *node = garbage(rng);
}

}  // namespace frac::test
