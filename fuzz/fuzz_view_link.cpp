// libFuzzer target: the `warpscope:` link scheme (app/links/view_link), which lessons, quiz items and
// the command line's --link use, and which may come from someone else's lesson. Any text is parsed
// into a ViewLink or refused with an InputError naming the link, the key and what is allowed.
#include "links/view_link.h"
#include "util/input_error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace warpscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view url(reinterpret_cast<const char*>(data), size);
    try {
        (void)app::parseViewLink(url);
    } catch (const InputError&) {
    }
    return 0;
}
