// Spaced repetition with SM-2 (P. A. Wozniak, "Optimization of Learning", master's thesis, Poznan
// University of Technology, 1990, section 3.2), as the thesis states it:
//   - a card's E-Factor starts at 2.5 and never falls below 1.3;
//   - after a review graded q (0..5) with q >= 3, the repetition count n grows by one and the next
//     interval is I(1) = 1 day, I(2) = 6 days, and I(n) = I(n-1) x EF for n > 2 (EF as it stood
//     before this review), rounded to whole days; then EF' = EF + (0.1 - (5-q)(0.08 + (5-q) 0.02));
//   - with q < 3 the repetitions start again (n = 0, next interval 1 day) and EF is left unchanged;
//   - cards graded below 4 are shown again before the session ends (step 7 of the thesis).
// The window's four keys map onto q: 1 Again = 1, 2 Hard = 3, 3 Good = 4, 4 Easy = 5.
#pragma once

#include <cstdint>
#include <string_view>

namespace warpscope::study {

enum class Grade { Again = 1, Hard = 2, Good = 3, Easy = 4 };

int sm2Quality(Grade grade);                  // 1, 3, 4, 5
std::string_view gradeName(Grade grade);      // "Again", "Hard", "Good", "Easy"

struct CardSchedule {
    int repetitions = 0;         // n: successful reviews in a row
    double easiness = 2.5;       // EF
    int intervalDays = 0;        // the last interval given (0: never reviewed)
    std::int64_t dueDay = 0;     // day number (days since 1970-01-01) the card is next due; 0: new
    int lapses = 0;              // reviews graded Again
    int reviews = 0;
    bool operator==(const CardSchedule&) const = default;
};

struct ReviewOutcome {
    CardSchedule next;
    bool againThisSession = false; // graded below Good: show it once more before the session ends
};

// The schedule after reviewing on day `today` with `grade`.
ReviewOutcome review(const CardSchedule& schedule, Grade grade, std::int64_t today);

// A card is due when it is new or its due day has come.
inline bool isDue(const CardSchedule& schedule, std::int64_t today) { return schedule.reviews == 0 || schedule.dueDay <= today; }

} // namespace warpscope::study
