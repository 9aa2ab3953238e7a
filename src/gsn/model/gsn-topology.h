/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GsnTopology: a GSN fabric as a graph of elements (endpoints and switches) and the cables
 * between their ports, plus its text form. It owns the description only: it creates no ns-3
 * object and computes no route (see GsnRouting); builders of standard shapes live in
 * GsnTopologyBuilder.
 */
#ifndef GSN_TOPOLOGY_H
#define GSN_TOPOLOGY_H

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup gsn
 * \brief A fabric: elements with numbered ports and full-duplex cables between ports.
 *
 * Elements are numbered 0, 1, ... in the order they are added; that number is the element id
 * used everywhere else (routing tables, the deadlock checker, the fabric helper). Every element
 * has a unique name, which the text form and error messages use. An endpoint has one port
 * (port 0); a switch has as many as it is given.
 *
 * Text form, one statement per line (blank lines and everything after '#' are ignored):
 * \verbatim
   endpoint NAME
   switch NAME PORTS [COORD ...]
   link NAME:PORT NAME:PORT [LENGTH_M]
   \endverbatim
 * An element must be declared before a link names it. A link without LENGTH_M gets
 * GsnChannel's Length attribute (10 m unless configured otherwise) when the fabric is built.
 *
 * A topology made by GsnTopologyBuilder knows its shape (GetShape()); any element or cable
 * added afterwards, and any topology read from text, makes it IRREGULAR. The text form does
 * not record the shape.
 */
class GsnTopology
{
  public:
    /// What an element is.
    enum class ElementKind
    {
        ENDPOINT, ///< an endpoint adapter (a host's gsn interface): one port
        SWITCH,   ///< a switch
    };

    /// The shape of a topology, as the builder that made it knows it.
    enum class Shape
    {
        IRREGULAR,    ///< not made by a builder, or changed since (read from text, by hand)
        BACK_TO_BACK, ///< GsnTopologyBuilder::BackToBack
        STAR,         ///< GsnTopologyBuilder::Star
        FIGURE_132,   ///< GsnTopologyBuilder::TwoSwitchFigure132
        K_ARY_N_TREE, ///< GsnTopologyBuilder::KaryNTree
        FAT_TREE,     ///< GsnTopologyBuilder::FatTree
        MESH,         ///< GsnTopologyBuilder::Mesh2D
        TORUS,        ///< GsnTopologyBuilder::Torus2D
        RING,         ///< GsnTopologyBuilder::Ring
    };

    /// One element of the fabric.
    struct Element
    {
        ElementKind kind;            ///< endpoint or switch
        uint32_t numPorts;           ///< ports 0 .. numPorts-1
        std::string name;            ///< unique name
        std::vector<int32_t> coords; ///< grid coordinates of a switch (may be empty)
    };

    /// One full-duplex cable between two ports.
    struct Cable
    {
        uint32_t a;          ///< one element
        uint32_t aPort;      ///< its port
        uint32_t b;          ///< the other element
        uint32_t bPort;      ///< its port
        double lengthMeters; ///< cable length (DEFAULT_CABLE_LENGTH when not given)
        /// whether the length was given; a cable without one gets GsnChannel's Length
        /// attribute when the fabric helper builds it
        bool lengthGiven{true};
    };

    /// Cable length recorded when none is given, in metres (GsnChannel's Length default).
    static constexpr double DEFAULT_CABLE_LENGTH = 10.0;
    /// Fewest ports a switch may have: it forwards from one port to another.
    static constexpr uint32_t MIN_SWITCH_PORTS = 2;
    /// Most ports a switch may have (a sanity bound for text input).
    static constexpr uint32_t MAX_PORTS = 65535;

    /**
     * Add an endpoint (one port, port 0).
     * \param name unique name; empty: "ep<id>" (or a variant that is free)
     * \return its element id
     * \throws std::invalid_argument for a malformed or duplicate name
     */
    uint32_t AddEndpoint(const std::string& name = "");

    /**
     * Add a switch.
     * \param numPorts its number of ports, MIN_SWITCH_PORTS (2) .. MAX_PORTS
     * \param name unique name; empty: "sw<id>" (or a variant that is free)
     * \param coords grid coordinates (used by dimension-order routing), may be empty
     * \return its element id
     * \throws std::invalid_argument for a bad port count or a malformed or duplicate name
     */
    uint32_t AddSwitch(uint32_t numPorts,
                       const std::string& name = "",
                       std::vector<int32_t> coords = {});

    /**
     * Cable port \p aPort of element \p a to port \p bPort of element \p b.
     * \param a an element id
     * \param aPort a port of \p a
     * \param b another element id
     * \param bPort a port of \p b
     * \param length cable length in metres, > 0; none: the channel's Length attribute
     *        decides when the fabric is built (lengthMeters records DEFAULT_CABLE_LENGTH)
     * \throws std::invalid_argument naming the problem: unknown element, port out of range,
     *         port already cabled, self-loop, length not > 0. The topology is then unchanged.
     */
    void Connect(uint32_t a,
                 uint32_t aPort,
                 uint32_t b,
                 uint32_t bPort,
                 std::optional<double> length = std::nullopt);

    /// \return the number of elements
    uint32_t GetNElements() const;

    /**
     * \param id an element id (< GetNElements())
     * \return the element
     * \throws std::out_of_range for an unknown id
     */
    const Element& GetElement(uint32_t id) const;

    /// \return the cables, in the order they were connected
    const std::vector<Cable>& GetCables() const;

    /// \return the ids of the endpoints, in increasing order
    std::vector<uint32_t> GetEndpoints() const;

    /// \return the ids of the switches, in increasing order
    std::vector<uint32_t> GetSwitches() const;

    /**
     * \param id an element id
     * \return true if it is an endpoint (false for a switch or an unknown id)
     */
    bool IsEndpoint(uint32_t id) const;

    /**
     * \param id an element id
     * \return true if it is a switch (false for an endpoint or an unknown id)
     */
    bool IsSwitch(uint32_t id) const;

    /**
     * \param element an element id
     * \param port one of its ports
     * \return the element and port at the other end of the cable, if that port is cabled
     *         (nothing for an unknown element or port)
     */
    std::optional<std::pair<uint32_t, uint32_t>> GetPeer(uint32_t element, uint32_t port) const;

    /**
     * \param element an element id
     * \param port one of its ports
     * \return the index in GetCables() of the cable on that port, if any
     */
    std::optional<uint32_t> GetCableAt(uint32_t element, uint32_t port) const;

    /**
     * \param name an element name
     * \return its id, if an element has that name
     */
    std::optional<uint32_t> FindElement(const std::string& name) const;

    /**
     * Record the shape of the topology (GsnTopologyBuilder does, once it has built it).
     * Adding an element or a cable later makes it IRREGULAR again.
     * \param shape the shape
     */
    void SetShape(Shape shape);

    /// \return the shape a builder recorded, or IRREGULAR
    Shape GetShape() const;

    /**
     * Check that the fabric can carry traffic between every pair of endpoints.
     * \return "" if it can, else the first reason found: no endpoint, an endpoint without a
     *         cable, a switch with fewer than two ports, an endpoint cabled to another
     *         endpoint in a fabric of more than those two
     *         elements (only the back-to-back pair may do that), or a disconnected fabric.
     */
    std::string Validate() const;

    /**
     * Read the text form (see the class description). The result is not validated.
     * \param in the text
     * \return the topology
     * \throws std::invalid_argument "line N: ..." for the first bad line
     */
    static GsnTopology Parse(std::istream& in);

    /**
     * Parse() a file.
     * \param path the file
     * \return the topology
     * \throws std::invalid_argument "PATH: line N: ..." for a bad line, or "PATH: cannot
     *         open" when the file cannot be read
     */
    static GsnTopology ReadFile(const std::string& path);

    /**
     * Write the text form: elements in id order, then cables in order, so that
     * Parse(ToText()) gives the same ids, ports, cables and lengths.
     * \return the text
     */
    std::string ToText() const;

  private:
    /// Value of m_cableAt for a port without a cable.
    static constexpr uint32_t NO_CABLE = UINT32_MAX;

    /**
     * Add an element after checking its name.
     * \param kind endpoint or switch
     * \param numPorts its ports
     * \param name the name given ("" for a generated one)
     * \param prefix prefix of a generated name
     * \param coords its coordinates
     * \return its id
     */
    uint32_t AddElement(ElementKind kind,
                        uint32_t numPorts,
                        const std::string& name,
                        const char* prefix,
                        std::vector<int32_t> coords);

    /**
     * Apply one statement of the text form.
     * \param words its words (comment removed); none for a blank line
     * \throws std::invalid_argument naming the problem (without the line number)
     */
    void ParseStatement(const std::vector<std::string>& words);

    /**
     * \param ref "NAME:PORT" of a link statement
     * \return the element and port it names
     * \throws std::invalid_argument when malformed or the name is unknown
     */
    std::pair<uint32_t, uint32_t> ParsePortReference(const std::string& ref) const;

    /**
     * \param id an element id
     * \return its name in quotes, or its number when the id is unknown (for messages)
     */
    std::string Describe(uint32_t id) const;

    std::vector<Element> m_elements;                    ///< by id
    std::vector<Cable> m_cables;                        ///< in connection order
    std::vector<std::vector<uint32_t>> m_cableAt;       ///< [element][port]: cable or NO_CABLE
    std::unordered_map<std::string, uint32_t> m_byName; ///< name -> id
    Shape m_shape{Shape::IRREGULAR};                    ///< as a builder recorded it
};

} // namespace ns3

#endif /* GSN_TOPOLOGY_H */
