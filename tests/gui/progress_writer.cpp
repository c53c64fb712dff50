// A stand-in learner for the killed-process test: loads the progress file, then records answers as
// fast as it can, each saved at once, until it is killed.
#include "study/progress_store.h"

#include <QCoreApplication>

#include <iostream>

int main(int argc, char** argv)
{
    QCoreApplication application(argc, argv);
    if (argc != 2) {
        std::cerr << "usage: warpscope_progress_writer FILE\n";
        return 2;
    }
    warpscope::app::ProgressStore store(QString::fromLocal8Bit(argv[1]));
    if (const auto error = store.load()) {
        std::cerr << error->toStdString() << "\n";
        return 1;
    }
    std::cout << "ready" << std::endl;
    for (std::uint64_t i = 0;; ++i) {
        warpscope::study::QuizAnswer answer{"occupancy.percent", "occupancy", i, i % 3 == 0, 1795392000 + static_cast<std::int64_t>(i)};
        if (const auto error = store.recordAnswer(answer)) {
            std::cerr << error->toStdString() << "\n";
            return 1;
        }
    }
}
