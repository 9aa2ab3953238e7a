/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gsn-topology.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <istream>
#include <limits>
#include <locale>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Names appear in the text form between blanks and before ':'.
bool
IsValidName(const std::string& name)
{
    if (name.empty())
    {
        return false;
    }
    for (char c : name)
    {
        if (c == ':' || c == '#' || std::isspace(static_cast<unsigned char>(c)) ||
            !std::isprint(static_cast<unsigned char>(c)))
        {
            return false;
        }
    }
    return true;
}

/// Parse a whole token as an integer of type T.
template <typename T>
std::optional<T>
ParseInteger(const std::string& token)
{
    T value{};
    const char* end = token.data() + token.size();
    auto [ptr, ec] = std::from_chars(token.data(), end, value);
    if (ec != std::errc() || ptr != end)
    {
        return std::nullopt;
    }
    return value;
}

/// Parse a whole token as a finite double (locale-independent).
std::optional<double>
ParseDouble(const std::string& token)
{
    double value = 0;
    const char* end = token.data() + token.size();
    auto [ptr, ec] = std::from_chars(token.data(), end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
    {
        return std::nullopt;
    }
    return value;
}

/// Shortest text that reads back as the same double.
std::string
FormatDouble(double value)
{
    char buffer[64];
    auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, ptr);
}

} // namespace

uint32_t
GsnTopology::AddElement(ElementKind kind,
                        uint32_t numPorts,
                        const std::string& name,
                        const char* prefix,
                        std::vector<int32_t> coords)
{
    const auto id = static_cast<uint32_t>(m_elements.size());
    std::string chosen = name;
    if (chosen.empty())
    {
        chosen = prefix + std::to_string(id);
        for (uint32_t n = 1; m_byName.count(chosen) != 0; ++n)
        {
            chosen = prefix + std::to_string(id) + "_" + std::to_string(n);
        }
    }
    else if (!IsValidName(chosen))
    {
        throw std::invalid_argument("invalid element name '" + chosen +
                                    "': use printable characters without blanks, ':' or '#'");
    }
    else if (m_byName.count(chosen) != 0)
    {
        throw std::invalid_argument("duplicate element name '" + chosen + "'");
    }
    m_elements.push_back(Element{kind, numPorts, chosen, std::move(coords)});
    m_cableAt.emplace_back(numPorts, NO_CABLE);
    m_byName.emplace(chosen, id);
    m_shape = Shape::IRREGULAR; // no longer what a builder made
    return id;
}

uint32_t
GsnTopology::AddEndpoint(const std::string& name)
{
    return AddElement(ElementKind::ENDPOINT, 1, name, "ep", {});
}

uint32_t
GsnTopology::AddSwitch(uint32_t numPorts, const std::string& name, std::vector<int32_t> coords)
{
    // A switch forwards from one port to another: with fewer than two it joins nothing.
    if (numPorts < MIN_SWITCH_PORTS || numPorts > MAX_PORTS)
    {
        throw std::invalid_argument(
            "switch '" + name + "': port count " + std::to_string(numPorts) + " is not in " +
            std::to_string(MIN_SWITCH_PORTS) + ".." + std::to_string(MAX_PORTS) +
            " (a switch has at least two ports)");
    }
    return AddElement(ElementKind::SWITCH, numPorts, name, "sw", std::move(coords));
}

std::string
GsnTopology::Describe(uint32_t id) const
{
    if (id < m_elements.size())
    {
        return "'" + m_elements[id].name + "'";
    }
    return std::to_string(id);
}

void
GsnTopology::Connect(uint32_t a,
                     uint32_t aPort,
                     uint32_t b,
                     uint32_t bPort,
                     std::optional<double> length)
{
    const double lengthMeters = length.value_or(DEFAULT_CABLE_LENGTH);
    for (auto [e, p] : {std::make_pair(a, aPort), std::make_pair(b, bPort)})
    {
        if (e >= m_elements.size())
        {
            throw std::invalid_argument("cannot cable unknown element " + std::to_string(e));
        }
        if (p >= m_elements[e].numPorts)
        {
            throw std::invalid_argument("port " + std::to_string(p) + " of " + Describe(e) +
                                        " is out of range (it has " +
                                        std::to_string(m_elements[e].numPorts) + " ports)");
        }
    }
    if (a == b)
    {
        throw std::invalid_argument("cannot cable " + Describe(a) + " to itself");
    }
    for (auto [e, p] : {std::make_pair(a, aPort), std::make_pair(b, bPort)})
    {
        if (m_cableAt[e][p] != NO_CABLE)
        {
            throw std::invalid_argument("port " + std::to_string(p) + " of " + Describe(e) +
                                        " is already cabled");
        }
    }
    if (!(lengthMeters > 0) || !std::isfinite(lengthMeters))
    {
        throw std::invalid_argument("cable length between " + Describe(a) + " and " + Describe(b) +
                                    " must be > 0 m, not " + FormatDouble(lengthMeters));
    }
    const auto index = static_cast<uint32_t>(m_cables.size());
    m_cables.push_back(Cable{a, aPort, b, bPort, lengthMeters, length.has_value()});
    m_cableAt[a][aPort] = index;
    m_cableAt[b][bPort] = index;
    m_shape = Shape::IRREGULAR; // no longer what a builder made
}

void
GsnTopology::SetShape(Shape shape)
{
    m_shape = shape;
}

GsnTopology::Shape
GsnTopology::GetShape() const
{
    return m_shape;
}

uint32_t
GsnTopology::GetNElements() const
{
    return static_cast<uint32_t>(m_elements.size());
}

const GsnTopology::Element&
GsnTopology::GetElement(uint32_t id) const
{
    if (id >= m_elements.size())
    {
        throw std::out_of_range("unknown element " + std::to_string(id));
    }
    return m_elements[id];
}

const std::vector<GsnTopology::Cable>&
GsnTopology::GetCables() const
{
    return m_cables;
}

std::vector<uint32_t>
GsnTopology::GetEndpoints() const
{
    std::vector<uint32_t> ids;
    for (uint32_t id = 0; id < m_elements.size(); ++id)
    {
        if (m_elements[id].kind == ElementKind::ENDPOINT)
        {
            ids.push_back(id);
        }
    }
    return ids;
}

std::vector<uint32_t>
GsnTopology::GetSwitches() const
{
    std::vector<uint32_t> ids;
    for (uint32_t id = 0; id < m_elements.size(); ++id)
    {
        if (m_elements[id].kind == ElementKind::SWITCH)
        {
            ids.push_back(id);
        }
    }
    return ids;
}

bool
GsnTopology::IsEndpoint(uint32_t id) const
{
    return id < m_elements.size() && m_elements[id].kind == ElementKind::ENDPOINT;
}

bool
GsnTopology::IsSwitch(uint32_t id) const
{
    return id < m_elements.size() && m_elements[id].kind == ElementKind::SWITCH;
}

std::optional<uint32_t>
GsnTopology::GetCableAt(uint32_t element, uint32_t port) const
{
    if (element >= m_cableAt.size() || port >= m_cableAt[element].size() ||
        m_cableAt[element][port] == NO_CABLE)
    {
        return std::nullopt;
    }
    return m_cableAt[element][port];
}

std::optional<std::pair<uint32_t, uint32_t>>
GsnTopology::GetPeer(uint32_t element, uint32_t port) const
{
    const auto cable = GetCableAt(element, port);
    if (!cable)
    {
        return std::nullopt;
    }
    const Cable& c = m_cables[*cable];
    if (c.a == element && c.aPort == port)
    {
        return std::make_pair(c.b, c.bPort);
    }
    return std::make_pair(c.a, c.aPort);
}

std::optional<uint32_t>
GsnTopology::FindElement(const std::string& name) const
{
    auto it = m_byName.find(name);
    if (it == m_byName.end())
    {
        return std::nullopt;
    }
    return it->second;
}

std::string
GsnTopology::Validate() const
{
    const std::vector<uint32_t> endpoints = GetEndpoints();
    if (endpoints.empty())
    {
        return "the fabric has no endpoint";
    }
    for (uint32_t id = 0; id < m_elements.size(); ++id)
    {
        if (IsSwitch(id) && m_elements[id].numPorts < MIN_SWITCH_PORTS)
        {
            return "switch " + Describe(id) + " has " + std::to_string(m_elements[id].numPorts) +
                   (m_elements[id].numPorts == 1 ? " port" : " ports") +
                   ": a switch has at least two ports";
        }
    }
    for (uint32_t e : endpoints)
    {
        const auto peer = GetPeer(e, 0);
        if (!peer)
        {
            return "endpoint " + Describe(e) + " is not cabled";
        }
        // An endpoint forwards nothing, so an endpoint-to-endpoint cable is a dead end for
        // everyone else; only the pair itself (back to back) is a usable fabric.
        if (IsEndpoint(peer->first) && m_elements.size() != 2)
        {
            return "endpoint " + Describe(e) + " is cabled to endpoint " + Describe(peer->first) +
                   ": endpoints may be cabled to each other only when they are the whole "
                   "fabric (back to back)";
        }
    }
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    Graph g(m_elements.size());
    for (const Cable& c : m_cables)
    {
        boost::add_edge(c.a, c.b, g);
    }
    std::vector<uint32_t> component(m_elements.size());
    const auto n = boost::connected_components(g, component.data());
    if (n > 1)
    {
        for (uint32_t id = 1; id < m_elements.size(); ++id)
        {
            if (component[id] != component[0])
            {
                return "the fabric is not connected: " + Describe(id) + " cannot reach " +
                       Describe(0);
            }
        }
    }
    return "";
}

GsnTopology
GsnTopology::Parse(std::istream& in)
{
    GsnTopology t;
    std::string line;
    uint32_t lineNumber = 0;
    while (std::getline(in, line))
    {
        ++lineNumber;
        std::istringstream text(line.substr(0, line.find('#')));
        std::vector<std::string> words;
        for (std::string word; text >> word;)
        {
            words.push_back(word);
        }
        try
        {
            t.ParseStatement(words);
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument("line " + std::to_string(lineNumber) + ": " + e.what());
        }
    }
    return t;
}

std::pair<uint32_t, uint32_t>
GsnTopology::ParsePortReference(const std::string& ref) const
{
    const auto colon = ref.rfind(':');
    if (colon == std::string::npos)
    {
        throw std::invalid_argument("'" + ref + "' is not NAME:PORT");
    }
    const auto id = FindElement(ref.substr(0, colon));
    if (!id)
    {
        throw std::invalid_argument("unknown element '" + ref.substr(0, colon) + "'");
    }
    const auto port = ParseInteger<uint32_t>(ref.substr(colon + 1));
    if (!port)
    {
        throw std::invalid_argument("bad port number in '" + ref + "'");
    }
    return {*id, *port};
}

void
GsnTopology::ParseStatement(const std::vector<std::string>& w)
{
    if (w.empty())
    {
        return;
    }
    if (w[0] == "endpoint")
    {
        if (w.size() != 2)
        {
            throw std::invalid_argument("expected 'endpoint NAME'");
        }
        AddEndpoint(w[1]);
    }
    else if (w[0] == "switch")
    {
        if (w.size() < 3)
        {
            throw std::invalid_argument("expected 'switch NAME PORTS [COORD ...]'");
        }
        const auto ports = ParseInteger<uint32_t>(w[2]);
        if (!ports)
        {
            throw std::invalid_argument("bad port count '" + w[2] + "'");
        }
        std::vector<int32_t> coords;
        for (std::size_t i = 3; i < w.size(); ++i)
        {
            const auto c = ParseInteger<int32_t>(w[i]);
            if (!c)
            {
                throw std::invalid_argument("bad coordinate '" + w[i] + "'");
            }
            coords.push_back(*c);
        }
        AddSwitch(*ports, w[1], std::move(coords));
    }
    else if (w[0] == "link")
    {
        if (w.size() != 3 && w.size() != 4)
        {
            throw std::invalid_argument("expected 'link NAME:PORT NAME:PORT [LENGTH_M]'");
        }
        const auto [a, aPort] = ParsePortReference(w[1]);
        const auto [b, bPort] = ParsePortReference(w[2]);
        std::optional<double> length; // none given: the channel's Length attribute
        if (w.size() == 4)
        {
            const auto l = ParseDouble(w[3]);
            if (!l)
            {
                throw std::invalid_argument("bad cable length '" + w[3] + "'");
            }
            length = *l;
        }
        Connect(a, aPort, b, bPort, length);
    }
    else
    {
        throw std::invalid_argument("unknown statement '" + w[0] +
                                    "' (expected endpoint, switch or link)");
    }
}

GsnTopology
GsnTopology::ReadFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw std::invalid_argument(path + ": cannot open");
    }
    try
    {
        return Parse(in);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

std::string
GsnTopology::ToText() const
{
    std::ostringstream out;
    out.imbue(std::locale::classic()); // no digit grouping, whatever the global locale
    out << "# GSN topology: " << m_elements.size() << " elements, " << m_cables.size()
        << " cables\n";
    for (const Element& e : m_elements)
    {
        if (e.kind == ElementKind::ENDPOINT)
        {
            out << "endpoint " << e.name << "\n";
            continue;
        }
        out << "switch " << e.name << " " << e.numPorts;
        for (int32_t c : e.coords)
        {
            out << " " << c;
        }
        out << "\n";
    }
    for (const Cable& c : m_cables)
    {
        out << "link " << m_elements[c.a].name << ":" << c.aPort << " " << m_elements[c.b].name
            << ":" << c.bPort;
        if (c.lengthGiven)
        {
            out << " " << FormatDouble(c.lengthMeters);
        }
        out << "\n";
    }
    return out.str();
}

} // namespace ns3
