// The placement scene: a launch's blocks assigned to the SMs of a GPU preset, wave by wave, using
// the occupancy result (resident blocks per SM). Shows the number of waves and the tail wave's idle
// slots. Block-to-SM order is a model (launch/wave_placement.h), and the overlay says so.
#pragma once

#include "canvas/canvas_scene.h"
#include "launch/launch_geometry.h"
#include "launch/wave_placement.h"
#include "placement/placement_layout.h"

#include <string>

namespace warpscope::viz {

class PlacementScene : public CanvasScene {
public:
    PlacementScene();

    // `blocksPerSm` comes from occupancy (0: the launch cannot run; the scene says why).
    void setPlacement(const launch::LaunchShape& shape, int smCount, int blocksPerSm, std::string gpuLabel,
                      std::string occupancyNote);
    const launch::WavePlan& plan() const { return m_plan; }

    void setWave(long long wave);  // clamped to the plan
    long long wave() const { return m_wave; }
    void setPlaying(bool playing) { m_playing = playing; } // plays up to the last wave, then stops
    bool playing() const { return m_playing; }

    void draw(const SceneFrame& frame) override;
    // Also one more frame after the overlay changed height, so the SMs are fitted below its new edge.
    bool animating() const override { return m_playing || m_bandMoved; }

    const PlacementLayout& layout() const { return m_layout; }
    const Rect& lastSmArea() const { return m_smArea; }           // where the SMs were fitted, screen px
    double overlayBottom() const { return m_overlayBottom; }      // the summary overlay's lower edge, screen px
    bool overlayClipped() const { return m_overlayClipped; }      // its lines did not all fit (it scrolls)

private:
    void drawSms(const SceneFrame& frame);
    void drawWaveStrip(const SceneFrame& frame, const Rect& strip);
    void drawOverlay(const SceneFrame& frame);

    launch::LaunchShape m_shape;
    launch::WavePlan m_plan;
    PlacementLayout m_layout;
    std::string m_gpuLabel;
    std::string m_occupancyNote;
    long long m_wave = 0;
    bool m_playing = false;
    double m_waveClock = 0.0;
    double m_secondsPerWave = 0.8;
    double m_layoutWidth = 0.0, m_layoutHeight = 0.0; // the area the layout was fitted to, px
    double m_topBand = 150.0; // the overlay's height last frame: the SMs are fitted below it
    double m_overlayBottom = 0.0;
    bool m_overlayClipped = false;
    bool m_bandMoved = false;
    Rect m_smArea;
};

} // namespace warpscope::viz
