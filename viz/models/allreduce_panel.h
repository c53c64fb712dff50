// The ring all-reduce, step by step: N GPUs around a ring, each GPU's buffer cut into N chunks, each
// chunk showing how many GPUs' contributions it holds (training::ringContributions, a replay of
// training::ringSchedule), the step's transfers as arrows (reduce-scatter, then all-gather), and the
// cost from training::ringAllReduce over the chosen link and every published link figure.
#pragma once

#include "training/collectives.h"

#include <QWidget>

#include <string>
#include <vector>

class QComboBox;
class QEvent;
class QLabel;
class QPushButton;
class QSlider;
class QTableWidget;
class QTimer;

namespace warpscope::viz {

class ValidatedField;
class RingView;

struct AllReduceSettings {
    int gpus = 4;                      // 2..16
    double bufferBytes = 1073741824.0; // a whole number of bytes, 1..2^40
    std::string link = "nvlink4";      // a key of training::linkFigures()
    int step = 0;                      // 0..2(gpus-1): the state after that many steps
};

class AllReducePanel : public QWidget {
    Q_OBJECT
public:
    explicit AllReducePanel(QWidget* parent = nullptr);

    // Checks every setting (ranges as the allreduce link's keys) and redraws; throws InputError naming
    // the key and its allowed range, and changes nothing then. Stops playing.
    void setSettings(const AllReduceSettings& settings);
    AllReduceSettings settings() const { return m_settings; } // what the figure shows
    static void validate(const AllReduceSettings& settings);  // the checks of setSettings alone

    // "1G", "512M", "48K" or plain bytes; the buffer field and the link read the same way. Throws
    // InputError naming `what` and the range 1..2^40 bytes (1T).
    static double parseBufferBytes(const QString& text, const char* what = "bytes");
    static QString bufferBytesText(double bytes); // "1G" for whole GiB, "3M", "48K", else the bytes

    void play();          // one step every playIntervalMs(); from step 0 when at the end; stops at the end
    void stop();
    bool playing() const;
    void stepForward();   // no-op at the end
    void stepBack();      // no-op at 0
    void setPlayIntervalMs(int milliseconds);
    int playIntervalMs() const;
    int lastStep() const { return 2 * (m_settings.gpus - 1); }

    const training::RingAllReduce& cost() const { return m_cost; } // over the chosen link: chunk, bytes sent, time
    // Drawn values, for tests: contributions()[g][c] is the number in GPU g's chunk c.
    const std::vector<std::vector<int>>& contributions() const { return m_contributions; }
    QString numbersText() const;                 // chunk bytes, bytes each GPU sends, time on the link
    QTableWidget* linkTable() const { return m_table; }
    QString arrowLabel(int gpu) const;           // the label of GPU gpu's arrow at this step ("" at step 0)
    bool stale() const { return m_stale; }

signals:
    void stepChanged(int step);

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildControls();
    void apply(const AllReduceSettings& settings); // assumes validated
    void setStep(int step);
    void syncControls();
    void controlsEdited();
    void updateNumbers();
    void updatePlayButton();

    AllReduceSettings m_settings;
    std::vector<std::vector<int>> m_contributions;
    training::RingAllReduce m_cost;
    bool m_stale = false;
    bool m_syncing = false;
    int m_emittedStep = -1; // the step stepChanged last announced

    ValidatedField* m_gpusField = nullptr;
    ValidatedField* m_bytesField = nullptr;
    QComboBox* m_linkCombo = nullptr;
    QPushButton* m_backButton = nullptr;
    QPushButton* m_playButton = nullptr;
    QPushButton* m_forwardButton = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_stepLabel = nullptr;
    QLabel* m_staleLabel = nullptr;
    RingView* m_ringView = nullptr;
    QLabel* m_numbersLabel = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_captionLabel = nullptr;
    QTimer* m_timer = nullptr;
};

} // namespace warpscope::viz
