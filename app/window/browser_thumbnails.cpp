#include "window/browser_thumbnails.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "recorder/png_file.h"

namespace frac {

namespace {

// The shipped scenes but the benchmarks' blocks (bench_*.json: sizes for measurements, not demos).
std::vector<ui::BrowserEntry> browserEntries(const std::vector<std::string>& presets) {
  std::vector<ui::BrowserEntry> entries;
  for (const std::string& path : presets) {
    const std::filesystem::path p(path);
    if (p.filename().string().rfind("bench_", 0) == 0) continue;
    ui::BrowserEntry e;
    e.path = path;
    e.name = p.stem().string();
    try {
      const nlohmann::json doc = nlohmann::json::parse(std::ifstream(p));
      if (doc.contains("name") && doc["name"].is_string()) e.name = doc["name"].get<std::string>();
      if (doc.contains("description") && doc["description"].is_string())
        e.description = doc["description"].get<std::string>();
    } catch (const std::exception&) {  // a broken preset still shows by its file name; opening it says what is wrong
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace

void BrowserThumbnails::update(ui::UiState& ui, render::GuiLayer& gui) {
  if (!maker_) {
    if (!ui.showBrowser) return;
    ui.browser = browserEntries(ui.presets);
    std::vector<std::string> missing;
    for (const ui::BrowserEntry& e : ui.browser)
      if (!std::filesystem::exists(thumbnailPath(e.path))) missing.push_back(e.path);
    ui.thumbnailsPending = int(missing.size());
    maker_ = std::make_unique<ThumbnailMaker>(std::move(missing));
    showCached(ui, gui);
    return;
  }
  const std::vector<std::string> finished = maker_->finished();
  if (finished.empty() && !(maker_->done() && ui.thumbnailsPending > 0)) return;
  ui.thumbnailsPending = 0;
  for (const ui::BrowserEntry& e : ui.browser)
    ui.thumbnailsPending += maker_->done() ? 0 : !std::filesystem::exists(thumbnailPath(e.path));
  showCached(ui, gui);
}

void BrowserThumbnails::showCached(ui::UiState& ui, render::GuiLayer& gui) {
  std::vector<render::GuiImage> images;
  std::vector<size_t> owner;
  for (size_t k = 0; k < ui.browser.size(); ++k) {
    render::GuiImage image;
    std::string error;
    if (!readPngFile(thumbnailPath(ui.browser[k].path), image.width, image.height, image.rgba, error)) continue;
    if (image.width != kThumbnailWidth || image.height != kThumbnailHeight) continue;
    images.push_back(std::move(image));
    owner.push_back(k);
  }
  const std::vector<render::GuiImageUv> uvs = gui.setImages(images);
  for (ui::BrowserEntry& e : ui.browser) e.hasThumbnail = false;
  for (size_t i = 0; i < uvs.size(); ++i) {
    ui::BrowserEntry& e = ui.browser[owner[i]];
    e.hasThumbnail = true;
    e.u0 = uvs[i].u0;
    e.v0 = uvs[i].v0;
    e.u1 = uvs[i].u1;
    e.v1 = uvs[i].v1;
  }
}

}  // namespace frac
