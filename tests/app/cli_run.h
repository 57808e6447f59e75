#pragma once
// Running fracture-sandbox from the app tests: a fresh folder, the run's exit code and its stderr, the files it wrote.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace frac::test {

namespace fs = std::filesystem;

// The repository's root: scenes, meshes and test data are read from there.
inline const std::string kSource = FRACTURE_SOURCE_DIR;
// The default scene with coarse elements (6 mm): a few frames in seconds.
inline const std::string kCoarseDefault = kSource +
                                          "/assets/scenes/default.json --set bodies.0.element_radius=0.006 "
                                          "bodies.1.element_radius=0.006 bodies.2.element_radius=0.006";

// A fresh, empty folder frac_NAME in the temporary directory.
inline fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("frac_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Runs the sandbox with `arguments` (stdout and stderr into `dir`); the exit code, stderr in `errors`.
inline int runSandbox(const std::string& arguments, const fs::path& dir, std::string& errors) {
  const fs::path err = dir / "stderr.txt";
  const std::string command =
      std::string(FRACTURE_SANDBOX_EXE) + " " + arguments + " 2> " + err.string() + " > " + (dir / "stdout.txt").string();
  const int status = std::system(command.c_str());
  std::ifstream in(err);
  std::stringstream text;
  text << in.rdbuf();
  errors = text.str();
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The names of the files in `dir` ending in `extension`, sorted.
inline std::vector<std::string> namesIn(const fs::path& dir, const std::string& extension) {
  std::vector<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == extension) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace frac::test
