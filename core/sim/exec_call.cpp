// Device-function calls (PTX ISA, "call", "ret"), and the functions the simulator provides itself:
// vprintf (printf) and __assertfail (assert).
//
// A call is a jump into the callee's copy in the kernel (ptx::FunctionRegion) with a new frame:
// - the calling lanes' entry on the reconvergence stack waits after the call (lanes whose guard was
//   false wait there too); the callee runs in a new entry above it that never reconverges by pc and
//   ends when every calling lane has returned;
// - each lane's local memory is a stack: the callee's frame (its .local variables and frame .params)
//   starts after the caller's; arguments are copied into the callee's parameters at the call and
//   return values back into the caller's .params when the last lane returns;
// - a recursive call saves the callee's registers of the outer activation and restores them on
//   return (ptxas spills them to the stack; the values are the same).
#include "sim/block_runner.h"

#include "ptx/ptx_error.h"
#include "sim/device_printf.h"
#include "sim/global_memory.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

namespace warpscope::sim {

std::uint64_t BlockRunner::callArgument(const WarpState& warp, const ptx::CallSite& call, std::size_t index,
                                        std::uint32_t lane) const
{
    if (index >= call.arguments.size())
        return 0;
    const ptx::Operand& argument = call.arguments[index];
    if (argument.kind == ptx::Operand::Kind::Symbol) {
        // A .param of the caller's frame: its bytes in the lane's local memory (up to 8 of them).
        const ptx::Symbol& symbol = m_function.symbols[static_cast<std::size_t>(argument.symbol)];
        const std::uint64_t address = warp.frameBase + static_cast<std::uint64_t>(argument.offset);
        std::uint64_t value = 0;
        const std::uint64_t bytes = std::min<std::uint64_t>(symbol.size, 8);
        if (address + bytes <= m_localBytes)
            std::memcpy(&value, warp.local + lane * m_localBytes + address, bytes);
        return value;
    }
    LaneValues values;
    read(warp, argument, values);
    return values[lane];
}

void BlockRunner::executeCall(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask)
{
    if (mask == 0) {
        advance(warp);
        return;
    }
    const ptx::CallSite& call = m_function.calls[static_cast<std::size_t>(instruction.call)];
    if (call.builtin == ptx::Builtin::Vprintf) {
        executePrintf(warp, call, mask);
        advance(warp);
        return;
    }
    if (call.builtin == ptx::Builtin::AssertFail) {
        executeAssertFail(warp, call, mask);
        return;
    }
    if (call.region < 0)
        throw ptx::PtxError("call to '" + call.callee + "', which the simulator cannot run", instruction.ptxLine);
    const ptx::FunctionRegion& callee = m_function.regions[static_cast<std::size_t>(call.region)];
    const ptx::FunctionRegion& caller = m_function.regions[static_cast<std::size_t>(warp.region)];
    const std::uint64_t base = warp.frameBase + caller.frameBytes;
    if (base + callee.frameBytes > m_localBytes) {
        const int lane = std::countr_zero(mask);
        reportHazard(HazardKind::OutOfBoundsLocal, warp, lane, base, "stack",
                     "stack overflow: the call to " + callee.name + " needs " + std::to_string(base + callee.frameBytes) +
                         " bytes of stack per thread, past the " + std::to_string(m_localBytes) +
                         " the simulator gives this kernel (a recursion too deep? A GPU thread's stack is 1 KB unless "
                         "cudaDeviceSetLimit(cudaLimitStackSize) raises it); the calling threads stop, as on a GPU");
        executeExit(warp, mask);
        unwindFinishedCalls(warp);
        return;
    }
    // Arguments into the callee's parameters.
    for (std::size_t i = 0; i < call.arguments.size() && i < callee.params.size(); ++i) {
        const ptx::Symbol& param = m_function.symbols[static_cast<std::size_t>(callee.params[i])];
        const std::uint64_t destination = base + param.offset;
        const ptx::Operand& argument = call.arguments[i];
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
            if (!((mask >> lane) & 1u))
                continue;
            std::uint8_t* to = warp.local + lane * m_localBytes + destination;
            if (argument.kind == ptx::Operand::Kind::Symbol) {
                const ptx::Symbol& source = m_function.symbols[static_cast<std::size_t>(argument.symbol)];
                const std::uint64_t from = warp.frameBase + static_cast<std::uint64_t>(argument.offset);
                const std::uint64_t bytes = std::min(source.size, param.size);
                if (from + bytes <= m_localBytes)
                    std::memcpy(to, warp.local + lane * m_localBytes + from, bytes);
            } else {
                const std::uint64_t value = callArgument(warp, call, i, lane);
                std::memcpy(to, &value, std::min<std::uint64_t>(param.size, 8));
            }
        }
    }
    CallFrame frame;
    frame.region = call.region;
    frame.callerRegion = warp.region;
    frame.call = instruction.call;
    frame.frameBase = base;
    frame.callerFrameBase = warp.frameBase;
    frame.lanes = mask;
    const bool active = warp.region == call.region ||
                        std::any_of(warp.frames.begin(), warp.frames.end(),
                                    [&](const CallFrame& outer) { return outer.region == call.region; });
    if (active) {
        const auto first = static_cast<std::size_t>(callee.firstRegister) * 32;
        frame.savedRegisters.assign(warp.regs + first, warp.regs + first + static_cast<std::size_t>(callee.registerCount) * 32);
    }
    StackEntry& top = warp.stack.back();
    top.pc += 1; // where the calling lanes return, and the others wait
    frame.stackIndex = warp.stack.size();
    warp.stack.push_back({callee.first, kReturnsFromCall, mask});
    warp.frames.push_back(std::move(frame));
    warp.frameBase = base;
    warp.region = call.region;
}

// ret in a device function: the lanes leave the callee's entries; the call ends when none is left.
void BlockRunner::executeReturn(WarpState& warp, std::uint32_t returning)
{
    const std::size_t base = warp.frames.back().stackIndex;
    for (std::size_t e = base; e < warp.stack.size(); ++e)
        warp.stack[e].mask &= ~returning;
    if (warp.stack.back().mask != 0)
        warp.stack.back().pc += 1; // lanes whose guard was false go on
    while (warp.stack.size() > base &&
           (warp.stack.back().mask == 0 || warp.stack.back().pc == warp.stack.back().reconvergePc))
        warp.stack.pop_back();
    if (warp.stack.size() > base)
        return;
    finishCall(warp);
    popReconverged(warp);
}

// The innermost call has no lanes left in the callee: return values to the caller's .params, the
// caller's frame and registers back.
void BlockRunner::finishCall(WarpState& warp)
{
    CallFrame frame = std::move(warp.frames.back());
    warp.frames.pop_back();
    const ptx::CallSite& call = m_function.calls[static_cast<std::size_t>(frame.call)];
    const ptx::FunctionRegion& callee = m_function.regions[static_cast<std::size_t>(frame.region)];
    const std::uint32_t lanes = frame.lanes & ~warp.exitedMask;
    for (std::size_t i = 0; i < call.results.size() && i < callee.returnParams.size(); ++i) {
        const ptx::Symbol& value = m_function.symbols[static_cast<std::size_t>(callee.returnParams[i])];
        const ptx::Symbol& target = m_function.symbols[static_cast<std::size_t>(call.results[i].symbol)];
        const std::uint64_t from = frame.frameBase + value.offset;
        const std::uint64_t to = frame.callerFrameBase + static_cast<std::uint64_t>(call.results[i].offset);
        const std::uint64_t bytes = std::min(value.size, target.size);
        if (from + bytes > m_localBytes || to + bytes > m_localBytes)
            continue;
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            if ((lanes >> lane) & 1u)
                std::memmove(warp.local + lane * m_localBytes + to, warp.local + lane * m_localBytes + from, bytes);
    }
    if (!frame.savedRegisters.empty())
        std::copy(frame.savedRegisters.begin(), frame.savedRegisters.end(),
                  warp.regs + static_cast<std::size_t>(callee.firstRegister) * 32);
    warp.frameBase = frame.callerFrameBase;
    warp.region = frame.callerRegion;
}

// After an exit inside a callee: calls whose lanes have all gone end.
void BlockRunner::unwindFinishedCalls(WarpState& warp)
{
    while (!warp.frames.empty() && warp.stack.size() <= warp.frames.back().stackIndex)
        finishCall(warp);
}

bool BlockRunner::readDeviceMemory(const WarpState& warp, std::uint32_t lane, std::uint64_t address, void* out,
                                   std::size_t bytes) const
{
    if (address >= kSharedWindow && address < kSharedWindow + kWindowSize) {
        const std::uint64_t offset = address - kSharedWindow;
        if (offset + bytes > m_shared.size())
            return false;
        std::memcpy(out, m_shared.data() + offset, bytes);
        return true;
    }
    if (address >= kLocalWindow && address < kLocalWindow + kWindowSize) {
        const std::uint64_t offset = address - kLocalWindow;
        if (offset + bytes > m_localBytes)
            return false;
        std::memcpy(out, warp.local + lane * m_localBytes + offset, bytes);
        return true;
    }
    const DeviceBuffer* buffer = m_context.memory->find(address, bytes);
    if (!buffer)
        return false;
    std::memcpy(out, buffer->bytes.data() + (address - buffer->base), bytes);
    return true;
}

std::string BlockRunner::readDeviceString(const WarpState& warp, std::uint32_t lane, std::uint64_t address) const
{
    std::string text;
    for (std::size_t i = 0; i < 4096; ++i) {
        char c = 0;
        if (!readDeviceMemory(warp, lane, address + i, &c, 1))
            return text + "<unreadable address>";
        if (c == '\0')
            return text;
        text += c;
    }
    return text;
}

void BlockRunner::addPrintfLine(const WarpState& warp, std::uint32_t lane, std::string text)
{
    if (m_printfBytes + text.size() > m_context.printfBytes) {
        ++m_printfDropped; // past the device's printf buffer (cudaLimitPrintfFifoSize, 1 MB by default)
        return;
    }
    m_printfBytes += text.size();
    PrintfLine line;
    line.linearBlock = m_linearBlock;
    line.block = m_blockIdx;
    line.thread = {static_cast<std::int64_t>(warp.tid[0][lane]), static_cast<std::int64_t>(warp.tid[1][lane]),
                   static_cast<std::int64_t>(warp.tid[2][lane])};
    line.text = std::move(text);
    if (m_recordingActive) { // the stepper shows it from the step that printed it
        m_recording->printfs.push_back({m_recording->steps.size(), static_cast<std::uint32_t>(warp.index), lane, line.thread,
                                        line.text});
        m_recording->printfTextBytes += line.text.size();
    }
    m_printf.push_back(std::move(line));
}

// vprintf(format, args): CUDA's printf (device_printf.h). Returns the number of arguments to the
// caller's return value, -1 for a null format.
void BlockRunner::executePrintf(WarpState& warp, const ptx::CallSite& call, std::uint32_t mask)
{
    LaneValues returned{};
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        const std::uint64_t format = callArgument(warp, call, 0, lane);
        const std::uint64_t arguments = callArgument(warp, call, 1, lane);
        if (format == 0) {
            returned[lane] = static_cast<std::uint32_t>(-1);
            continue;
        }
        const DevicePrintfResult printed = formatDevicePrintf(
            readDeviceString(warp, lane, format),
            [&](std::size_t offset, std::size_t bytes) -> std::optional<std::uint64_t> {
                std::uint64_t value = 0;
                if (arguments == 0 || !readDeviceMemory(warp, lane, arguments + offset, &value, bytes))
                    return std::nullopt;
                return value;
            },
            [&](std::uint64_t address) { return readDeviceString(warp, lane, address); });
        returned[lane] = static_cast<std::uint32_t>(printed.arguments);
        addPrintfLine(warp, lane, printed.text);
    }
    if (!call.results.empty()) {
        const std::uint64_t to = warp.frameBase + static_cast<std::uint64_t>(call.results[0].offset);
        for (std::uint32_t lane = 0; lane < 32; ++lane)
            if (((mask >> lane) & 1u) && to + 4 <= m_localBytes) {
                const auto value = static_cast<std::uint32_t>(returned[lane]);
                std::memcpy(warp.local + lane * m_localBytes + to, &value, 4);
            }
    }
}

// __assertfail(message, file, line, function, charSize): a failed assert(). The GPU prints the
// message below and stops the kernel with cudaErrorAssert; here the line goes to the printf output
// and the failing threads stop.
void BlockRunner::executeAssertFail(WarpState& warp, const ptx::CallSite& call, std::uint32_t mask)
{
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
        if (!((mask >> lane) & 1u))
            continue;
        const std::string message = readDeviceString(warp, lane, callArgument(warp, call, 0, lane));
        const std::string file = readDeviceString(warp, lane, callArgument(warp, call, 1, lane));
        const auto line = static_cast<std::uint32_t>(callArgument(warp, call, 2, lane));
        const std::string function = readDeviceString(warp, lane, callArgument(warp, call, 3, lane));
        addPrintfLine(warp, lane,
                      file + ":" + std::to_string(line) + ": " + function + ": block: [" + std::to_string(m_blockIdx.x) + "," +
                          std::to_string(m_blockIdx.y) + "," + std::to_string(m_blockIdx.z) + "], thread: [" +
                          std::to_string(warp.tid[0][lane]) + "," + std::to_string(warp.tid[1][lane]) + "," +
                          std::to_string(warp.tid[2][lane]) + "] Assertion `" + message + "` failed.\n");
    }
    m_assertFailures += static_cast<std::uint64_t>(std::popcount(mask));
    executeExit(warp, mask);
    unwindFinishedCalls(warp);
}

// trap (__trap()): on a GPU the launch aborts and the host sees an error. Here the trapping threads
// stop, as for a failed assert(), and the launch reports them (SimResult::trapThreads).
void BlockRunner::executeTrap(WarpState& warp, const ptx::Instruction& instruction, std::uint32_t mask)
{
    if (mask == 0) {
        advance(warp);
        return;
    }
    if (m_trapThreads == 0 || m_linearBlock < m_firstTrapBlock) {
        const int lane = std::countr_zero(mask);
        m_firstTrapBlock = m_linearBlock;
        m_firstTrap = "block [" + std::to_string(m_blockIdx.x) + "," + std::to_string(m_blockIdx.y) + "," +
                      std::to_string(m_blockIdx.z) + "], thread [" + std::to_string(warp.tid[0][lane]) + "," +
                      std::to_string(warp.tid[1][lane]) + "," + std::to_string(warp.tid[2][lane]) + "], PTX line " +
                      std::to_string(instruction.ptxLine) +
                      (instruction.source.file >= 0 ? " (source line " + std::to_string(instruction.source.line) + ")" : "");
    }
    m_trapThreads += static_cast<std::uint64_t>(std::popcount(mask));
    executeExit(warp, mask);
    unwindFinishedCalls(warp);
}

} // namespace warpscope::sim
