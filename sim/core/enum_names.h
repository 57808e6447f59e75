#pragma once
// One name of an enum value, as a scene file writes it; tables of them are the only place the names are spelled.

namespace frac {

template <class E>
struct EnumName {
  const char* name;
  E value;
};

}  // namespace frac
