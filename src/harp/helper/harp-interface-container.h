/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HarpInterfaceContainer: the HARP interfaces a HarpHelper installed, in installation order.
 * It holds pointers; it configures nothing.
 */
#ifndef HARP_INTERFACE_CONTAINER_H
#define HARP_INTERFACE_CONTAINER_H

#include "ns3/harp-interface.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup harp
 * \brief A list of HarpInterface.
 */
class HarpInterfaceContainer
{
  public:
    /// Iterator over the interfaces.
    typedef std::vector<Ptr<HarpInterface>>::const_iterator Iterator;

    /// \param interface an interface to append
    void Add(Ptr<HarpInterface> interface)
    {
        m_interfaces.push_back(interface);
    }

    /// \param other interfaces to append
    void Add(const HarpInterfaceContainer& other)
    {
        m_interfaces.insert(m_interfaces.end(), other.Begin(), other.End());
    }

    /// \return the number of interfaces
    uint32_t GetN() const
    {
        return uint32_t(m_interfaces.size());
    }

    /// \param i an index below GetN() \return the interface
    Ptr<HarpInterface> Get(uint32_t i) const
    {
        return m_interfaces.at(i);
    }

    /// \return an iterator to the first interface
    Iterator Begin() const
    {
        return m_interfaces.begin();
    }

    /// \return an iterator past the last interface
    Iterator End() const
    {
        return m_interfaces.end();
    }

  private:
    std::vector<Ptr<HarpInterface>> m_interfaces; ///< the interfaces
};

} // namespace ns3

#endif /* HARP_INTERFACE_CONTAINER_H */
