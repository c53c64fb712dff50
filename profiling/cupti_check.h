// Checking CUPTI results: a failed call throws CuptiError naming the call and CUPTI's message.
#pragma once

#include <cupti_result.h>

#include <stdexcept>
#include <string>

namespace warpscope::probe {

class CuptiError : public std::runtime_error {
public:
    CuptiError(CUptiResult result, const std::string& message) : std::runtime_error(message), result(result) {}
    CUptiResult result;
};

void checkCupti(CUptiResult result, const char* call);

} // namespace warpscope::probe

#define WS_CUPTI(call) ::warpscope::probe::checkCupti(call, #call)
