/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Validation of the host adapter profiles against published measurements (gsn-host-adapter.rst,
 * "Host adapter", "Validation"). Every modelled figure is measured here from a simulation of the
 * profile (bench/gsn-host-scenarios.h, the scenarios gsn-host-bench prints); only the
 * published figures are constants. A figure more than 10% from its measurement fails.
 *
 *   Table 1-1  seed 000: GSN's sustained user payload rate, 6.365 Gbit/s (Adapter profile)
 *   PI'99      Tolmie et al., PI'99, doi:10.1109/PI.1999.806412: ST between two Origin 2000s
 *              through a HiPPI-6400 switch, 7 us one way, 3.6 Gbit/s one way, 6.4 Gbit/s both
 *              ways (taken as the sum of the two directions); TCP one way 2.2 Gbit/s
 *              (Origin2000 profile)
 */
#include "../bench/gsn-host-scenarios.h"

#include "ns3/test.h"

#include <cmath>
#include <functional>

using namespace ns3;

namespace
{

/// One published figure and how to recompute it from the model.
class GsnHostFigureTestCase : public TestCase
{
  public:
    /**
     * \param name what the figure is
     * \param published its published value
     * \param model recomputes it from a simulation
     */
    GsnHostFigureTestCase(const std::string& name, double published, std::function<double()> model)
        : TestCase(name),
          m_published(published),
          m_model(model)
    {
    }

  private:
    void DoRun() override
    {
        const double modelled = m_model();
        NS_TEST_EXPECT_MSG_GT(modelled, 0, "the scenario measured nothing");
        NS_TEST_EXPECT_MSG_EQ_TOL(modelled,
                                  m_published,
                                  0.1 * m_published,
                                  GetName() << ": modelled " << modelled << ", published "
                                            << m_published);
    }

    double m_published;              ///< the published figure
    std::function<double()> m_model; ///< the model's figure
};

} // namespace

/// The validation suite.
class GsnHostValidationTestSuite : public TestSuite
{
  public:
    GsnHostValidationTestSuite()
        : TestSuite("gsn-host-validation", SYSTEM)
    {
        using namespace gsnhost;
        AddTestCase(new GsnHostFigureTestCase(
                        "Adapter: sustained user payload rate of the link, Gbps (Table 1-1)",
                        6.365,
                        []() { return LinkAlone("Adapter", 1 << 20, 16).gbps; }),
                    TestCase::QUICK);
        AddTestCase(
            new GsnHostFigureTestCase(
                "Origin2000: ST one-way latency through one switch, us (PI99)",
                7.0,
                []() { return StPutLatency("Origin2000", 64, 20).latency.GetSeconds() * 1e6; }),
            TestCase::QUICK);
        AddTestCase(new GsnHostFigureTestCase(
                        "Origin2000: ST one way, Gbps (PI99)",
                        3.6,
                        []() { return StBulk("Origin2000", 4 << 20, 4, false).gbps; }),
                    TestCase::QUICK);
        AddTestCase(new GsnHostFigureTestCase(
                        "Origin2000: ST both ways at once, sum of the two, Gbps (PI99)",
                        6.4,
                        []() { return StBulk("Origin2000", 4 << 20, 4, true).gbps; }),
                    TestCase::QUICK);
        AddTestCase(
            new GsnHostFigureTestCase(
                "Origin2000: TCP one way, Gbps (PI99)",
                2.2,
                []() { return TcpStream("Origin2000", MilliSeconds(5), MilliSeconds(20)).gbps; }),
            TestCase::QUICK);
    }
};

/// Static instance.
static GsnHostValidationTestSuite g_gsnHostValidationTestSuite;
