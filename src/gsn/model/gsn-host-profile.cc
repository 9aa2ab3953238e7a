/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The profiles' values and their sources. Short names of the sources (gsn-host-adapter.rst, "Host
 * adapter", lists them in full):
 *   Table 1-1  seed 000, IRIX GSN 2.1 guide, Table 1-1 and its footnote (6.4 Gbit/s peak,
 *              6.365 Gbit/s sustained user payload rate)
 *   PI'99      Tolmie, Boorman, DuBois, DuBois, Philp, Feng: "From HiPPI-800 to HiPPI-6400: a
 *              changing of the guard and gateway to the future", 6th International
 *              Conference on Parallel Interconnects (PI'99), IEEE, 1999,
 *              doi:10.1109/PI.1999.806412 (ST between two Origin 2000s: 7 us one way,
 *              3.6 Gbit/s one way, 6.4 Gbit/s both ways; TCP 2.2 Gbit/s)
 *   O2000      the Origin 2000 node board as SGI's course material describes it (Texas A&M
 *              supercomputing, "O2000 Node Board": SDRAM 144 bits at 50 MHz = 800 MB/s, read
 *              bandwidth of one processor 460 MB/s sustained, average access latency 315 ns,
 *              I/O 2 x 800 MB/s)
 */
#include "gsn-host-profile.h"

#include "ns3/fatal-error.h"

#include <map>

namespace ns3
{

namespace
{

/// The adapter's own parameters, shared by Adapter and Origin2000.
std::vector<GsnHostProfileSetting>
AdapterSettings()
{
    return {
        {"TxDma/Rate",
         "6.4Gbps",
         "Table 1-1 footnote: the adapter's DMA runs at the link's peak payload rate"},
        {"RxDma/Rate", "6.4Gbps", "as TxDma/Rate"},
        {"TxDma/BurstBytes",
         "16384",
         "assumption: one scatter/gather element per 16 KiB page (IRIX's page size on the "
         "Origin 2000)"},
        {"RxDma/BurstBytes", "16384", "as TxDma/BurstBytes"},
        {"TxDma/BurstGap",
         "113ns",
         "calibrated: 16 KiB bursts at 6.4 Gbit/s with 113 ns between them sustain Table "
         "1-1's 6.365 Gbit/s"},
        {"RxDma/BurstGap", "113ns", "as TxDma/BurstGap"},
        {"FirmwareTxTime",
         "2500ns",
         "calibrated: with FirmwareRxTime, brings the one-way ST latency of Origin2000 to "
         "PI'99's 7 us (an embedded NIC processor of the period: a few us per command)"},
        {"FirmwareRxTime", "2500ns", "as FirmwareTxTime"},
    };
}

/// The Origin 2000 host: memory, processor, driver.
std::vector<GsnHostProfileSetting>
Origin2000Settings()
{
    std::vector<GsnHostProfileSetting> s = AdapterSettings();
    const std::vector<GsnHostProfileSetting> host = {
        {"Bus/MemoryRate",
         "800MBps",
         "O2000: a node's SDRAM, 144 bits at 50 MHz = 800 MB/s, shared by DMA reads and "
         "writes"},
        {"Bus/ReadRate",
         "460MBps",
         "O2000: sustained read bandwidth of one processor; assumption: the adapter's DMA "
         "reads get the same"},
        {"Bus/ReadLatency",
         "315ns",
         "O2000: average memory access latency; assumption: a DMA read sees the same"},
        {"Bus/WriteLatency", "315ns", "assumption: as ReadLatency"},
        {"Bus/PioLatency",
         "500ns",
         "assumption: an uncached store through Hub and Crossbow to an XIO widget"},
        {"Cpu/SystemCallTime", "5us", "assumption: an IRIX system call on a 250 MHz R10000"},
        {"Cpu/KernelTxPacketTime",
         "10us",
         "assumption: IRIX TCP/IP and gsn# driver work per packet sent"},
        {"Cpu/KernelRxPacketTime", "10us", "assumption: as KernelTxPacketTime, received"},
        {"Cpu/CopyRate",
         "310MBps",
         "calibrated: brings TCP to PI'99's 2.2 Gbit/s (a copy reads and writes each byte: "
         "below the 460 MB/s one processor reads)"},
        {"Cpu/ChecksumRate", "0bps", "assumption: the TCP checksum is folded into the copy"},
        {"Cpu/InterruptTime", "5us", "assumption: IRIX interrupt entry and exit"},
        {"Cpu/TxCompletionTime", "1us", "assumption: freeing one sent buffer"},
        {"Cpu/BypassPostTime", "200ns", "assumption: a few uncached stores of a command"},
        {"Cpu/BypassPollTime",
         "315ns",
         "O2000: one memory access (the completion word the adapter wrote)"},
        {"Interrupts/Delay", "10us", "assumption: the driver's interrupt holdoff"},
        {"Interrupts/MaxCompletions", "16", "assumption"},
        {"RxBufferPoolSize", "256", "assumption: receive buffers the driver posts"},
        {"ProcessRegistrationTime",
         "100us",
         "assumption: the driver's registration steps and New_Process (seed 003)"},
    };
    s.insert(s.end(), host.begin(), host.end());
    return s;
}

const std::map<std::string, std::vector<GsnHostProfileSetting>>&
Profiles()
{
    static const std::map<std::string, std::vector<GsnHostProfileSetting>> profiles = {
        {"Ideal", {}},
        {"Adapter", AdapterSettings()},
        {"Origin2000", Origin2000Settings()},
    };
    return profiles;
}

} // namespace

std::vector<std::string>
GsnHostProfile::GetNames()
{
    return {"Ideal", "Adapter", "Origin2000"};
}

bool
GsnHostProfile::Exists(const std::string& name)
{
    return Profiles().count(name) != 0;
}

bool
GsnHostProfile::IsIdeal(const std::string& name)
{
    return name == "Ideal";
}

const std::vector<GsnHostProfileSetting>&
GsnHostProfile::GetSettings(const std::string& name)
{
    auto it = Profiles().find(name);
    if (it == Profiles().end())
    {
        NS_FATAL_ERROR("no host adapter profile \"" << name << "\" (Ideal, Adapter, Origin2000)");
    }
    return it->second;
}

} // namespace ns3
