#include "cupti_check.h"

#include <cupti_result.h>

namespace warpscope::probe {

void checkCupti(CUptiResult result, const char* call)
{
    if (result == CUPTI_SUCCESS)
        return;
    const char* text = nullptr;
    cuptiGetResultString(result, &text);
    std::string function(call);
    function = function.substr(0, function.find('('));
    throw CuptiError(result, function + ": " + (text ? text : "CUPTI error " + std::to_string(static_cast<int>(result))));
}

} // namespace warpscope::probe
