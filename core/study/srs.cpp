#include "study/srs.h"

#include <algorithm>
#include <cmath>

namespace warpscope::study {

int sm2Quality(Grade grade)
{
    switch (grade) {
    case Grade::Again: return 1;
    case Grade::Hard: return 3;
    case Grade::Good: return 4;
    case Grade::Easy: return 5;
    }
    return 0;
}

std::string_view gradeName(Grade grade)
{
    switch (grade) {
    case Grade::Again: return "Again";
    case Grade::Hard: return "Hard";
    case Grade::Good: return "Good";
    case Grade::Easy: return "Easy";
    }
    return "?";
}

ReviewOutcome review(const CardSchedule& schedule, Grade grade, std::int64_t today)
{
    const int q = sm2Quality(grade);
    ReviewOutcome outcome;
    CardSchedule& next = outcome.next;
    next = schedule;
    ++next.reviews;
    if (q < 3) {
        next.repetitions = 0;
        next.intervalDays = 1;
        ++next.lapses;
    } else {
        ++next.repetitions;
        if (next.repetitions == 1)
            next.intervalDays = 1;
        else if (next.repetitions == 2)
            next.intervalDays = 6;
        else
            next.intervalDays = static_cast<int>(std::lround(schedule.intervalDays * schedule.easiness));
        const int miss = 5 - q;
        next.easiness = std::max(1.3, schedule.easiness + (0.1 - miss * (0.08 + miss * 0.02)));
    }
    next.dueDay = today + next.intervalDays;
    outcome.againThisSession = q < 4;
    return outcome;
}

} // namespace warpscope::study
