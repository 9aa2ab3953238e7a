/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Benchmark: the host side of GSN endpoints. For each host adapter profile and each transfer
 * size (1 byte to 16 MiB by default, doubling), one transfer alone between two hosts, for
 * the link alone (a raw Message), ST (a single-use write through one switch) and TCP (a
 * message on a warmed-up connection); it prints the latency (from the call to the
 * destination having all the data) and the throughput it implies (size over latency), as
 * CSV. With --figures=1 it prints instead the sustained figures of the validation (gsn.rst,
 * "Host adapter"): the link's sustained rate, ST one-way PUT latency, ST one way and both
 * ways, TCP, and the processors' load. It measures; it asserts nothing.
 *
 * Usage: gsn-host-bench [--profiles=Ideal,Origin2000] [--kinds=link,st,tcp] [--minSize=1]
 *                       [--maxSize=16777216] [--linkMode=Run] [--figures=1]
 * bench/plot-host-bench.py turns the CSV into throughput and latency plots (PNG).
 */
#include "gsn-host-scenarios.h"

#include "ns3/core-module.h"
#include "ns3/gsn-module.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::gsnhost;

namespace
{

/// \param text a comma-separated list \return its items
std::vector<std::string>
SplitList(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

/// Print the sustained figures of \p profile.
void
PrintFigures(const std::string& profile, const std::string& linkMode)
{
    const Figure link = LinkAlone(profile, 1 << 20, 16, linkMode);
    const Figure put = StPutLatency(profile, 64, 20, linkMode);
    const Figure uni = StBulk(profile, 4 << 20, 4, false, linkMode);
    const Figure bidi = StBulk(profile, 4 << 20, 4, true, linkMode);
    const Figure tcp = TcpStream(profile, MilliSeconds(5), MilliSeconds(20), linkMode);
    std::printf("%s: link sustained %.4f Gbit/s (1 MiB Messages); ST PUT one way %.3f us "
                "(64 bytes, one switch); ST one way %.4f Gbit/s, both ways %.4f Gbit/s "
                "(4 MiB writes); TCP %.4f Gbit/s, processor load sender %.1f %% receiver "
                "%.1f %%; ST one way processor load sender %.1f %% receiver %.1f %%\n",
                profile.c_str(),
                link.gbps,
                put.latency.GetSeconds() * 1e6,
                uni.gbps,
                bidi.gbps,
                tcp.gbps,
                100 * tcp.cpuLoad[0],
                100 * tcp.cpuLoad[1],
                100 * uni.cpuLoad[0],
                100 * uni.cpuLoad[1]);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string profilesText = "Ideal,Origin2000";
    std::string kindsText = "link,st,tcp";
    std::string minSizeText = "1";
    std::string maxSizeText = "16777216";
    std::string linkModeText = "Run";
    std::string figuresText = "0";
    CommandLine cmd(__FILE__);
    GsnCommandLineChecks check("gsn-host-bench");
    check.AddValue(cmd, "profiles", "Host adapter profiles, comma-separated", profilesText);
    check.AddValue(cmd, "kinds", "What to measure: link, st, tcp (comma-separated)", kindsText);
    check.AddValue(cmd, "minSize", "Smallest transfer (bytes, 1 to 2^30)", minSizeText);
    check.AddValue(cmd, "maxSize", "Largest transfer (bytes, 1 to 2^30)", maxSizeText);
    check.AddValue(cmd, "linkMode", "Link mode of every port: Micropacket or Run", linkModeText);
    check.AddValue(cmd, "figures", "Print the sustained figures instead of the sweep", figuresText);
    check.Parse(cmd, argc, argv);
    const auto minSize = uint64_t(check.Integer("minSize", minSizeText, 1, int64_t(1) << 30));
    const auto maxSize = uint64_t(check.Integer("maxSize", maxSizeText, 1, int64_t(1) << 30));
    const std::string linkMode = check.Choice("linkMode", linkModeText, {"Micropacket", "Run"});
    const bool figures = check.Boolean("figures", figuresText);
    const std::vector<std::string> profiles = SplitList(profilesText);
    const std::vector<std::string> kinds = SplitList(kindsText);
    for (const std::string& p : profiles)
    {
        check.Choice("profiles", p, GsnHostAdapterHelper::GetProfileNames());
    }
    for (const std::string& k : kinds)
    {
        check.Choice("kinds", k, {"link", "st", "tcp"});
    }

    if (figures)
    {
        for (const std::string& profile : profiles)
        {
            PrintFigures(profile, linkMode);
        }
        return 0;
    }
    std::printf("profile,kind,bytes,latency_us,gbps,events,wall_s\n");
    for (const std::string& profile : profiles)
    {
        for (const std::string& kind : kinds)
        {
            for (uint64_t size = minSize; size <= maxSize; size *= 2)
            {
                const auto t0 = std::chrono::steady_clock::now();
                Figure f;
                if (kind == "link")
                {
                    f = LinkAlone(profile, size, 1, linkMode);
                }
                else if (kind == "st")
                {
                    f = StWriteAlone(profile, size, linkMode);
                }
                else
                {
                    f = TcpMessageAlone(profile, size, linkMode);
                }
                const double wall =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                std::printf("%s,%s,%llu,%.3f,%.6f,%llu,%.3f\n",
                            profile.c_str(),
                            kind.c_str(),
                            (unsigned long long)size,
                            f.latency.GetSeconds() * 1e6,
                            f.gbps,
                            (unsigned long long)f.events,
                            wall);
                std::fflush(stdout);
            }
        }
    }
    return 0;
}
