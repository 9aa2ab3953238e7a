/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnHostProfile: the named sets of host adapter parameters (Ideal, Adapter, Origin2000),
 * each value with its source next to it. It owns the table and nothing else: the helper
 * (GsnHostAdapterHelper) applies a profile, the documentation and the validation test read
 * it.
 */
#ifndef GSN_HOST_PROFILE_H
#define GSN_HOST_PROFILE_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief One parameter of a profile.
 */
struct GsnHostProfileSetting
{
    /// Which attribute: "Name" of the GsnHostAdapter, or "Part/Name" of one of its parts
    /// (Bus, TxDma, RxDma, Cpu, Interrupts).
    std::string attribute;
    std::string value;  ///< its value, as an attribute string ("113ns", "800MBps", "16384")
    std::string source; ///< where the value comes from (a document, a measurement, an
                        ///< assumption said as one, or a calibration)
};

/**
 * \ingroup gsn
 * \brief The host adapter profiles.
 *
 * - Ideal: no adapter at all: the host is infinitely fast and the device behaves exactly as
 *   without this model (no event is added).
 * - Adapter: the SGI GSN adapter's DMA engines and firmware on a host that keeps up with
 *   them (no host bus limit, no processor cost).
 * - Origin2000: the SGI Origin 2000 with the GSN XIO adapter: Adapter, plus the Origin 2000's
 *   memory and the IRIX driver's processor costs.
 */
class GsnHostProfile
{
  public:
    /// \return the names of the profiles
    static std::vector<std::string> GetNames();

    /// \param name a name \return whether it names a profile
    static bool Exists(const std::string& name);

    /// \param name a profile \return whether it is the one without an adapter
    static bool IsIdeal(const std::string& name);

    /**
     * \param name a profile (it must exist)
     * \return its settings, applied in order on top of the attributes' defaults
     */
    static const std::vector<GsnHostProfileSetting>& GetSettings(const std::string& name);
};

} // namespace ns3

#endif /* GSN_HOST_PROFILE_H */
