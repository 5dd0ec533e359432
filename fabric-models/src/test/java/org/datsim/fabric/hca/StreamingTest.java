package org.datsim.fabric.hca;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.Lmr;
import org.junit.jupiter.api.Test;

/**
 * Cut-through streaming of payload inside the HCA (issue 14): the requester DMA-reads a payload in read requests of
 * pcie.max_read_request bytes and a packet leaves once the request holding its first byte is in (its last bit no
 * earlier than its last byte is read); the responder DMA-writes what arrives in pcie.max_payload pieces. So the MTU
 * changes a message's latency only by the headers its packets carry, and a read request smaller than a packet lets
 * the packet start before all of it is read.
 */
class StreamingTest {

    private static final long T0 = 100_000_000L;

    /** Posts one RDMA Write of {@code len} bytes at T0 and returns the trace events {start, tx_end, place}. */
    private static TraceEvent[] write(int len, String... overrides) {
        TestFabric.Pair p = TestFabric.pair(overrides);
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, len, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, len, Dat.MEM_PRIV_ALL);
        byte[] data = TestFabric.randomBytes(len, 11);
        TestFabric.cpuWrite(p.a, src, 0, data);
        long[] op = new long[1];
        tf.at(T0, () -> op[0] = tf.write(p.epA, iov(src, 0, len), 1, remote(dst, 0, len), 0));
        tf.run();
        assertArrayEquals(data, TestFabric.cpuRead(p.b, dst, 0, len), "the bytes arrive whole");
        return new TraceEvent[] {tf.event(TraceEvent.START, "A", op[0]), tf.event(TraceEvent.TX_END, "A", op[0]),
            tf.event(TraceEvent.PLACE, "B", op[0])};
    }

    private static String[] cat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** When the payload's DMA read starts returning data: doorbell, WQE processing and fetch, the read's round trip. */
    private static long readStart(Params p) {
        long pcie = p.get(FabricParams.PCIE_LATENCY);
        long delay = p.get(FabricParams.PCIE_DMA_READ_DELAY);
        return T0 + pcie + p.get(FabricParams.HCA_WQE_PROCESS) + 2 * pcie + delay
                + p.rate(FabricParams.PCIE_BANDWIDTH).transmitTimePs(p.get(FabricParams.HCA_WQE_BYTES))
                + 2 * pcie + delay;
    }

    @Test
    void theMtuChangesAMessagesLatencyOnlyByItsHeaders() {
        String[] common = {"pcie.dma_read_delay", "75ns"};
        long big = write(4096, cat(common, "hca.mtu", "4KiB"))[2].tPs();
        long small = write(4096, cat(common, "hca.mtu", "1KiB"))[2].tPs();
        Params p = TestFabric.params();
        DataRate link = p.rate(FabricParams.LINK_BANDWIDTH);
        long h = p.get(FabricParams.LINK_HEADER_BYTES);
        long reth = p.get(FabricParams.LINK_RETH_BYTES);
        // The 4 KiB read request holds the whole message either way; four packets carry three more headers.
        long fourPackets = link.transmitTimePs(1024 + h + reth) + 3 * link.transmitTimePs(1024 + h);
        assertEquals(fourPackets - link.transmitTimePs(4096 + h + reth), small - big);
    }

    @Test
    void aReadRequestSmallerThanThePacketLetsThePacketStartEarly() {
        TraceEvent[] whole = write(4096, "pcie.max_read_request", "4KiB");
        TraceEvent[] split = write(4096, "pcie.max_read_request", "512B");
        DataRate pcie = TestFabric.params().rate(FabricParams.PCIE_BANDWIDTH);
        // The packet leaves once its first 512 B are in; PCIe (128 Gb/s) outruns the link, so the rest keeps up.
        assertEquals(pcie.transmitTimePs(4096) - pcie.transmitTimePs(512), whole[2].tPs() - split[2].tPs());
    }

    @Test
    void aPacketsLastBitWaitsForItsLastReadRequest() {
        // PCIe slower than the link: the wire would outrun the DMA read, so the last bit leaves when the last 512 B
        // have been read and sent.
        String[] o = {"pcie.max_read_request", "512B", "pcie.bandwidth", "50Gbps"};
        TraceEvent[] e = write(4096, o);
        Params p = TestFabric.params(o);
        DataRate pcie = p.rate(FabricParams.PCIE_BANDWIDTH);
        DataRate link = p.rate(FabricParams.LINK_BANDWIDTH);
        assertEquals(readStart(p) + 8 * pcie.transmitTimePs(512) + link.transmitTimePs(512), e[1].tPs());
    }
}
