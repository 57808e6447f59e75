#pragma once
// The calibration cache: assets/calibration/METHOD.json beside the library's materials folder (or
// $FRACTURE_CALIBRATION_DIR), one entry per material, element radius and packing, with the method's calibration
// version and a digest of what the method reads of the library material (materialDigest). An entry whose version or
// digest is not current is stale: it is recomputed, never used. An edit no method's calibration reads (a title, a
// source, a colour, another method's key) leaves the entries as they are.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "calibration/calibrate.h"

namespace frac {

struct LibraryMaterial;

// FNV-1a of what `method` reads of a library material: its macro properties (values, and the test a strength was
// measured with) and the scene keys it stands for (libraryMaterialKeys) that the registry says the method reads,
// colours aside. Entries before 2026-12-06 carry only `library_digest`, the file's bytes, and stay current while the
// file does.
std::string materialDigest(const LibraryMaterial& material, const std::string& method);

// The folder of the tables for a library material file (assets/materials/glass.json -> assets/calibration).
std::string calibrationFolder(const std::string& libraryFile);

// The current entry for the request's method, material, radius (within 1e-4 relative) and packing; empty when there
// is none or it is stale (`why` then says which).
std::optional<nlohmann::json> findCalibration(const CalibrationRequest& request, std::string* why = nullptr);

// Writes (replaces) the request's entry, kill-safe; std::runtime_error naming the file when it cannot.
void storeCalibration(const CalibrationRequest& request, const CalibrationResult& result);

// The request with what earlier calibrations of its method say about where its iteration should start
// (CalibrationRequest::flexuralRatioHint): the beam-to-bar strength ratio of a flexural strength's entry, of the same
// material where the table has one, else of any, whatever its version (a start, not a result: the fit decides).
CalibrationRequest withEarlierHints(CalibrationRequest request);

// The cached result when current, else calibrate() (with the earlier hints) and store it. `fromCache` says which.
CalibrationResult calibrateCached(const CalibrationRequest& request, bool* fromCache = nullptr);

// An entry as a result (what calibrateCached gives from the cache).
CalibrationResult resultFromEntry(const nlohmann::json& entry);

}  // namespace frac
