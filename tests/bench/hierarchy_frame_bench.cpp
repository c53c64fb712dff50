// Frame cost of the hierarchy canvas for an H100-sized launch (528 blocks x 512 threads =
// 270,336 threads) at several zoom levels, and of the software rasterizer that draws frames where
// there is no OpenGL. Measures the CPU work per frame: the scene's level-of-detail drawing plus
// ImGui's tessellation (what the OpenGL renderer then uploads), and separately the CPU raster.
// Run: ./build/tests/bench/warpscope_bench   (see BENCHMARKS.md)
#include "canvas/imgui_canvas.h"
#include "canvas/imgui_context_scope.h"
#include "canvas/software_rasterizer.h"
#include "hierarchy/hierarchy_scene.h"

#include <benchmark/benchmark.h>

#include <QGuiApplication>
#include <QImage>

#include <imgui.h>

using namespace warpscope;
using namespace warpscope::viz;

namespace {

const QSize kViewport(1280, 800);

struct Setup {
    ImGuiCanvas canvas;
    HierarchyScene scene;
    ImDrawData* last = nullptr;

    Setup(const launch::LaunchShape& shape, double lanePixels)
    {
        scene.setLaunch(shape);
        canvas.setScene(&scene);
        canvas.ensureFonts(1.0);
        canvas.buildFrame(kViewport, 1.0); // fits the whole grid
        if (lanePixels > 0) {
            const double factor = lanePixels / (scene.layout().metrics().lane * scene.view().scale());
            scene.zoomAt({kViewport.width() / 2.0, kViewport.height() / 2.0}, factor);
        }
        last = canvas.buildFrame(kViewport, 1.0);
    }
};

void reportCounters(benchmark::State& state, const Setup& setup)
{
    const auto& stats = setup.scene.lastFrameStats();
    state.counters["detail"] = static_cast<double>(stats.detail);
    state.counters["blocks"] = static_cast<double>(stats.blocksDrawn);
    state.counters["warps"] = static_cast<double>(stats.warpsDrawn);
    state.counters["lanes"] = static_cast<double>(stats.lanesDrawn);
    state.counters["vertices"] = setup.last ? setup.last->TotalVtxCount : 0;
}

// Argument: on-screen lane width in px (0 = fit the whole grid).
void BM_HierarchyFrameH100(benchmark::State& state)
{
    Setup setup({{528, 1, 1}, {512, 1, 1}}, static_cast<double>(state.range(0)));
    for (auto _ : state) {
        setup.last = setup.canvas.buildFrame(kViewport, 1.0);
        benchmark::DoNotOptimize(setup.last);
    }
    reportCounters(state, setup);
}
BENCHMARK(BM_HierarchyFrameH100)->Arg(0)->Arg(2)->Arg(3)->Arg(6)->Arg(20)->Unit(benchmark::kMillisecond);

// The largest launch CUDA allows in x and y: 2^31-1 x 65535 blocks.
void BM_HierarchyFrameLargestGrid(benchmark::State& state)
{
    Setup setup({{2147483647, 65535, 1}, {1024, 1, 1}}, 0);
    for (auto _ : state) {
        setup.last = setup.canvas.buildFrame(kViewport, 1.0);
        benchmark::DoNotOptimize(setup.last);
    }
    reportCounters(state, setup);
}
BENCHMARK(BM_HierarchyFrameLargestGrid)->Unit(benchmark::kMillisecond);

// The software path (Qt offscreen platform): rasterising one H100 frame at 1280x800.
void BM_SoftwareRasterH100(benchmark::State& state)
{
    Setup setup({{528, 1, 1}, {512, 1, 1}}, static_cast<double>(state.range(0)));
    FontAtlasView atlas;
    {
        ImGuiContextScope scope(setup.canvas.context());
        unsigned char* pixels = nullptr;
        ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &atlas.width, &atlas.height);
        atlas.rgba = pixels;
    }
    QImage image(kViewport, QImage::Format_RGBA8888);
    for (auto _ : state) {
        image.fill(Qt::black);
        rasterizeDrawData(*setup.last, atlas, image);
        benchmark::DoNotOptimize(image.constBits());
    }
    reportCounters(state, setup);
}
BENCHMARK(BM_SoftwareRasterH100)->Arg(0)->Arg(6)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication application(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
