#include "kernel_arguments.h"

#include <algorithm>
#include <cstddef>

namespace warpscope::probe {

KernelArguments::KernelArguments(const DriverApi& d, const std::vector<sim::ResolvedArg>& args) : m_driver(d), m_args(args)
{
    m_pointers.resize(args.size(), 0);
    m_scalars.resize(args.size(), 0);
    try {
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (args[i].isBuffer) {
                WS_CU(d.cuMemAlloc(&m_pointers[i], std::max<std::size_t>(args[i].bytes.size(), 4)));
                m_params.push_back(&m_pointers[i]);
            } else {
                m_scalars[i] = args[i].scalarBits;
                m_params.push_back(&m_scalars[i]);
            }
        }
        upload();
    } catch (...) {
        // The destructor does not run for a constructor that throws: free what was allocated.
        for (CUdeviceptr pointer : m_pointers)
            if (pointer)
                m_driver.cuMemFree(pointer);
        throw;
    }
}

KernelArguments::~KernelArguments()
{
    for (CUdeviceptr pointer : m_pointers)
        if (pointer)
            m_driver.cuMemFree(pointer);
}

void KernelArguments::upload()
{
    for (std::size_t i = 0; i < m_args.size(); ++i)
        if (m_args[i].isBuffer && !m_args[i].bytes.empty())
            WS_CU(m_driver.cuMemcpyHtoD(m_pointers[i], m_args[i].bytes.data(), m_args[i].bytes.size()));
}

std::vector<sim::ResolvedArg> KernelArguments::download() const
{
    std::vector<sim::ResolvedArg> out = m_args;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].isBuffer && !out[i].bytes.empty())
            WS_CU(m_driver.cuMemcpyDtoH(out[i].bytes.data(), m_pointers[i], out[i].bytes.size()));
    return out;
}

} // namespace warpscope::probe
