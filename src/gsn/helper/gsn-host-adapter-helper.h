/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnHostAdapterHelper: puts a host adapter (GsnHostAdapter) under GSN endpoints, configured
 * from a profile (Ideal, Adapter, Origin2000) and the user's own values on top. It owns the
 * choice and the values; the model and the profiles' table are elsewhere.
 */
#ifndef GSN_HOST_ADAPTER_HELPER_H
#define GSN_HOST_ADAPTER_HELPER_H

#include "ns3/attribute.h"
#include "ns3/net-device-container.h"
#include "ns3/ptr.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class GsnHostAdapter;
class GsnNetDevice;

/**
 * \ingroup gsn
 * \brief Configures and installs host adapters on GSN endpoints.
 *
 * \code
 *   GsnHostAdapterHelper host;
 *   host.SetProfile("Origin2000");
 *   host.Set("Cpu/CopyRate", DataRateValue(DataRate("400MBps"))); // another host
 *   host.Install(fabric.endpointDevices);
 * \endcode
 *
 * The Ideal profile (the default) installs nothing, so the device behaves exactly as
 * without a host model, unless a value was Set(): then an adapter with the attributes'
 * defaults (which cost nothing) and those values is installed.
 */
class GsnHostAdapterHelper
{
  public:
    GsnHostAdapterHelper();

    /**
     * \param name Ideal, Adapter or Origin2000 (aborts on another name); values Set()
     *        before stay on top of it
     */
    void SetProfile(const std::string& name);

    /// \return the profile in use
    const std::string& GetProfile() const
    {
        return m_profile;
    }

    /**
     * Set one attribute on top of the profile.
     * \param attribute "Name" of GsnHostAdapter or "Part/Name" of a part: Bus (GsnHostBus),
     *        TxDma and RxDma (GsnDmaEngine), Cpu (GsnHostCpu), Interrupts
     *        (GsnInterruptCoalescer)
     * \param value its value
     */
    void Set(const std::string& attribute, const AttributeValue& value);

    /// \return whether Install() puts an adapter under a device (not Ideal, or values set)
    bool InstallsAdapter() const;

    /// \return a new adapter configured from the profile and the values set
    Ptr<GsnHostAdapter> Create() const;

    /**
     * \param device an endpoint
     * \return the adapter put under it (null when InstallsAdapter() is false)
     */
    Ptr<GsnHostAdapter> Install(Ptr<GsnNetDevice> device) const;

    /// \param devices devices; the GSN endpoints among them get an adapter
    void Install(const NetDeviceContainer& devices) const;

    /// \return the profiles' names
    static std::vector<std::string> GetProfileNames();

    /**
     * Find what Set() would set.
     * \param attribute "Name" or "Part/Name", as Set() takes it
     * \param[out] type the TypeId of the part it names
     * \param[out] name the attribute's name in that part
     * \return false if it names no part
     */
    static bool FindPart(const std::string& attribute, TypeId& type, std::string& name);

  private:
    std::string m_profile; ///< the profile
    /// values set on top of it, in order
    std::vector<std::pair<std::string, Ptr<const AttributeValue>>> m_values;
};

} // namespace ns3

#endif /* GSN_HOST_ADAPTER_HELPER_H */
