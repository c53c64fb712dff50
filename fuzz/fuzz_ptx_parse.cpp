// libFuzzer target: the PTX front end (core/ptx). Any text is parsed into a Module or refused with a
// PtxError naming the line; for each kernel that loads, what the app asks of it next (the functions
// it reaches, the constructs that stop it) must work too. Any other exception, a crash or a sanitizer
// report is a bug.
#include "ptx/ptx_error.h"
#include "ptx/ptx_parser.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace warpscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ptx::Module module;
    try {
        module = ptx::parseModule(text);
    } catch (const InputError&) {
        return 0; // refused with a message: the expected answer to bad PTX
    }
    for (const std::string& name : module.entryNames()) {
        const ptx::Function* entry = module.findFunction(name);
        if (!entry)
            __builtin_trap(); // entryNames() named a function findFunction() does not know
        (void)module.reachableFrom(*entry);
        for (const ptx::UnsupportedConstruct* construct : module.unsupportedFor(*entry))
            (void)ptx::describeUnsupported(module, *construct, name);
        try {
            ptx::requireSupported(module, *entry, "fuzz.ptx: ");
        } catch (const ptx::UnsupportedPtx&) {
        }
    }
    for (const ptx::UnsupportedConstruct* construct : module.allUnsupported())
        (void)ptx::describeUnsupported(module, *construct);
    return 0;
}
