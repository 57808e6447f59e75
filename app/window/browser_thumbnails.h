#pragma once
// The scene browser's thumbnails in the window: when the browser first opens, the cached thumbnails go into the font
// texture and a ThumbnailMaker renders the missing ones in the background; each that arrives is added (between frames).
#include <memory>

#include "gui_layer.h"
#include "thumbnails.h"
#include "ui/ui_state.h"

namespace frac {

class BrowserThumbnails {
 public:
  // Between frames: fills ui.browser on the first open and brings in what the maker finished.
  void update(ui::UiState& ui, render::GuiLayer& gui);

 private:
  void showCached(ui::UiState& ui, render::GuiLayer& gui);

  std::unique_ptr<ThumbnailMaker> maker_;
};

}  // namespace frac
