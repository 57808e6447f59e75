#pragma once
// A folder that exports write into (meshes, data): created, checked writable, cleared of the partial files a killed
// run left; std::invalid_argument naming the folder and the reason when it cannot be (before anything is simulated).
#include <filesystem>
#include <string>

namespace frac {

// `what`: what goes there, for the message ("meshes", "data").
void prepareExportFolder(const std::filesystem::path& directory, const std::string& what);

}  // namespace frac
