// The baseline of `datsim bench stream`: ns-3's bare point-to-point device moving the same packets, with no RDMA
// model at all. Two nodes, one 100 Gb/s link of 1 us, no Internet stack. Host 0 sends 100,000 "writes" of 4 KiB as
// four 1 KiB packets each (26 B of InfiniBand headers, 16 B more on a write's first packet); host 1 answers every
// write's last packet with a 30 B ACK, and each ACK lets host 0 send one more write, 128 writes outstanding, as the
// datsim benchmark's window does. Packets are sized so that the PPP header (2 B) makes up the same bytes on the wire.
//
// Built and timed against datsim by scripts/ns3/compare.sh; not part of the build or of CI.
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdio>

using namespace ns3;

namespace
{
const uint32_t kWrites = 100000;
const uint32_t kWindow = 128;
const uint32_t kPacketsPerWrite = 4;
const uint32_t kMtu = 1024;
const uint32_t kHeader = 26;
const uint32_t kReth = 16;
const uint32_t kAeth = 4;
const uint32_t kPpp = 2;
const uint16_t kIpv4 = 0x0800; // a protocol number the PPP device knows

Ptr<NetDevice> g_sender;
Ptr<NetDevice> g_receiver;
uint32_t g_posted = 0;
uint32_t g_acked = 0;
uint64_t g_received = 0;
uint64_t g_packets = 0;
Time g_lastArrival;

void
SendWrite()
{
    for (uint32_t k = 0; k < kPacketsPerWrite; k++)
    {
        uint32_t size = kHeader + kMtu + (k == 0 ? kReth : 0) - kPpp;
        g_sender->Send(Create<Packet>(size), g_receiver->GetAddress(), kIpv4);
        g_packets++;
    }
    g_posted++;
}

bool
ReceiverRx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
{
    g_received++;
    g_lastArrival = Simulator::Now();
    if (g_received % kPacketsPerWrite == 0)
    {
        g_receiver->Send(Create<Packet>(kHeader + kAeth - kPpp), g_sender->GetAddress(), kIpv4);
        g_packets++;
    }
    return true;
}

bool
SenderRx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
{
    g_acked++;
    if (g_posted < kWrites)
    {
        SendWrite();
    }
    return true;
}

void
Start()
{
    for (uint32_t i = 0; i < kWindow && g_posted < kWrites; i++)
    {
        SendWrite();
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(kHeader + kMtu + kReth));
    p2p.SetChannelAttribute("Delay", StringValue("1us"));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
                 StringValue(std::to_string(kWindow * kPacketsPerWrite + 16) + "p"));
    NetDeviceContainer devices = p2p.Install(nodes);
    g_sender = devices.Get(0);
    g_receiver = devices.Get(1);
    g_sender->SetReceiveCallback(MakeCallback(&SenderRx));
    g_receiver->SetReceiveCallback(MakeCallback(&ReceiverRx));
    Simulator::Schedule(Seconds(0), &Start);
    Simulator::Run();
    std::printf("writes=%u acked=%u packets=%llu received=%llu last_arrival_ps=%lld\n", g_posted, g_acked,
                (unsigned long long)g_packets, (unsigned long long)g_received,
                (long long)g_lastArrival.GetPicoSeconds());
    Simulator::Destroy();
    return g_acked == kWrites ? 0 : 1;
}
