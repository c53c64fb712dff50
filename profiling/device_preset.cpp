#include "device_preset.h"

namespace warpscope::probe {

session::SessionPreset presetFromRecord(const session::DeviceRecord& device, const session::CeilingsRecord* ceilings)
{
    // A session of just these records: the same preset `session validate-timing` builds from the
    // finished session, so the probe's predicted times and the later comparison model one GPU.
    session::Session session;
    session.devices.push_back(device);
    if (ceilings != nullptr)
        session.ceilings = *ceilings;
    return session::sessionPreset(session);
}

} // namespace warpscope::probe
