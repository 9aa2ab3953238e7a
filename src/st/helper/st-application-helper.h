/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * StApplicationHelper: what the helpers of the ST applications share: an ObjectFactory for
 * the application type, its attributes, and Install on nodes. Thin by design.
 */
#ifndef ST_APPLICATION_HELPER_H
#define ST_APPLICATION_HELPER_H

#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{

/**
 * \ingroup st
 * \brief Installs one kind of ST application on nodes.
 */
class StApplicationHelper
{
  public:
    /// \param tid the application type (a subclass of StApplication)
    explicit StApplicationHelper(TypeId tid);

    /**
     * Set an attribute of every application created.
     * \param name attribute name
     * \param value attribute value
     */
    void SetAttribute(std::string name, const AttributeValue& value);

    /// \param c nodes (ST installed) \return one application per node
    ApplicationContainer Install(NodeContainer c) const;
    /// \param node a node (ST installed) \return its application
    ApplicationContainer Install(Ptr<Node> node) const;

  protected:
    ObjectFactory m_factory; ///< makes the applications
};

} // namespace ns3

#endif /* ST_APPLICATION_HELPER_H */
