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
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.link.Port;
import org.junit.jupiter.api.Test;

/**
 * Exact timing of RDMA Writes through the HCA pipeline documented in {@link Hca}: the doorbell crosses PCIe, the
 * send engine processes the WQE and DMA-reads it, then DMA-reads the payload read request by read request
 * (pcie.max_read_request), each DMA read paying pcie.dma_read_delay besides its round trip; a packet leaves once the
 * request holding it is in, is serialised on the link and propagates; the responder DMA-writes its data in
 * pcie.max_payload pieces as they arrive (PCIe rate, then latency) and ACKs the message when its last write has
 * crossed PCIe's rate; the ACK crosses the link back and the CQE is written one PCIe latency later. Expected times
 * are computed from the parameters, never copied from the model's output.
 */
class HcaTimingTest {

    /** Simulated time at which the write is posted: well after connection setup has settled. */
    private static final long T0 = 100_000_000L;

    /** The parameter-derived times of one RDMA Write. */
    private static final class Pipeline {
        final long pcie;
        final DataRate pcieRate;
        final DataRate linkRate;
        final long linkLatency;
        final long header;
        final long reth;
        final long aeth;
        final long mtu;
        final long wqeProcess;
        final long wqeBytes;
        final long readDelay;
        final long readRequest;
        final long piece;

        Pipeline(Params p) {
            pcie = p.get(FabricParams.PCIE_LATENCY);
            pcieRate = p.rate(FabricParams.PCIE_BANDWIDTH);
            linkRate = p.rate(FabricParams.LINK_BANDWIDTH);
            linkLatency = p.get(FabricParams.LINK_LATENCY);
            header = p.get(FabricParams.LINK_HEADER_BYTES);
            reth = p.get(FabricParams.LINK_RETH_BYTES);
            aeth = p.get(FabricParams.LINK_AETH_BYTES);
            mtu = p.get(FabricParams.HCA_MTU);
            wqeProcess = p.get(FabricParams.HCA_WQE_PROCESS);
            wqeBytes = p.get(FabricParams.HCA_WQE_BYTES);
            readDelay = p.get(FabricParams.PCIE_DMA_READ_DELAY);
            readRequest = p.get(FabricParams.PCIE_MAX_READ_REQUEST);
            piece = p.get(FabricParams.PCIE_MAX_PAYLOAD);
        }

        /** When each packet's payload is in the HCA, read request by read request from {@code dmaStart}. */
        long[] payloadRead(long dmaStart, long bytes) {
            long[] out = new long[(int) ((bytes + mtu - 1) / mtu)];
            long t = dmaStart;
            long read = 0;
            for (int i = 0; i < out.length; i++) {
                long off = (long) i * mtu;
                while (read <= off) {
                    long end = Math.min(bytes, (read / readRequest + 1) * readRequest);
                    t += pcieRate.transmitTimePs(end - read);
                    read = end;
                }
                out[i] = t;
            }
            return out;
        }

        /** Time the last packet of a write of {@code bytes} posted at {@code post} has fully arrived. */
        long lastArrival(long post, long bytes) {
            long[] a = arrivals(post, bytes);
            return a[a.length - 1];
        }

        /** Times each packet of a write of {@code bytes} posted at {@code post} has fully arrived. */
        long[] arrivals(long post, long bytes) {
            long[] out = new long[(int) ((bytes + mtu - 1) / mtu)];
            long[] ready = payloadRead(post + pcie // doorbell
                    + wqeProcess + 2 * pcie + readDelay + pcieRate.transmitTimePs(wqeBytes) // WQE
                    + 2 * pcie + readDelay, bytes); // payload DMA read round trip
            long txEnd = 0;
            long off = 0;
            int index = 0;
            do {
                long len = Math.min(mtu, bytes - off);
                long wire = header + len + (index == 0 ? reth : 0);
                long txStart = Math.max(ready[index], txEnd);
                txEnd = txStart + linkRate.transmitTimePs(wire);
                out[index] = txEnd + linkLatency;
                off += len;
                index++;
            } while (off < bytes);
            return out;
        }

        /**
         * The responder DMA-writes each packet's payload in pieces as they arrive (a piece once its last byte is in,
         * the wire time of the bytes after it before the packet's last bit), one after another at PCIe's rate; the
         * last write lands a latency later.
         */
        long placed(long[] arrivals, long bytes) {
            long free = 0;
            for (int i = 0; i < arrivals.length; i++) {
                long len = Math.min(mtu, bytes - (long) i * mtu);
                if (len <= piece) {
                    free = Math.max(arrivals[i], free) + pcieRate.transmitTimePs(len);
                    continue;
                }
                free = Math.max(arrivals[i] - linkRate.transmitTimePs(len), free);
                for (long done = 0; done < len;) {
                    long n = Math.min(piece, len - done);
                    done += n;
                    free = Math.max(free, arrivals[i] - linkRate.transmitTimePs(len - done))
                            + pcieRate.transmitTimePs(n);
                }
            }
            return free + pcie;
        }

        /** The last packet's payload crosses PCIe at its rate, then its latency (packets arrive slower than that). */
        long place(long post, long bytes) {
            return placed(arrivals(post, bytes), bytes);
        }

        long lastPacket(long bytes) {
            return bytes - (bytes - 1) / mtu * mtu;
        }

        /** The last pcie.max_payload piece of the last packet. */
        long lastPiece(long bytes) {
            long len = lastPacket(bytes);
            return len - (len - 1) / piece * piece;
        }

        /** The ACK leaves when the last DMA write has crossed PCIe's rate; the CQE is written a latency later. */
        long complete(long post, long bytes) {
            return place(post, bytes) - pcie + linkRate.transmitTimePs(header + aeth) + linkLatency + pcie;
        }

        /**
         * Time the last RDMA Read response of {@code bytes} posted at {@code post} has fully arrived at the
         * requester: the request leaves after the doorbell and the WQE; at the responder the response engine
         * DMA-reads the data (a read round trip, then packet by packet) and each response packet (header + AETH +
         * payload) is serialised back.
         */
        long readPlace(long post, long bytes) {
            long requestArrives = post + pcie + wqeProcess + 2 * pcie + readDelay + pcieRate.transmitTimePs(wqeBytes)
                    + linkRate.transmitTimePs(header + reth) + linkLatency;
            long[] ready = payloadRead(requestArrives + 2 * pcie + readDelay, bytes);
            long txEnd = 0;
            long[] out = new long[(int) ((bytes + mtu - 1) / mtu)];
            for (int i = 0; i < out.length; i++) {
                long len = Math.min(mtu, bytes - (long) i * mtu);
                txEnd = Math.max(ready[i], txEnd) + linkRate.transmitTimePs(header + aeth + len);
                out[i] = txEnd + linkLatency;
            }
            return placed(out, bytes);
        }

        long readLastResponseArrival(long post, long bytes) {
            long requestArrives = post + pcie + wqeProcess + 2 * pcie + readDelay + pcieRate.transmitTimePs(wqeBytes)
                    + linkRate.transmitTimePs(header + reth) + linkLatency;
            long[] ready = payloadRead(requestArrives + 2 * pcie + readDelay, bytes);
            long txEnd = 0;
            long off = 0;
            int i = 0;
            do {
                long len = Math.min(mtu, bytes - off);
                txEnd = Math.max(ready[i++], txEnd) + linkRate.transmitTimePs(header + aeth + len);
                off += len;
            } while (off < bytes);
            return txEnd + linkLatency;
        }
    }

    @Test
    void singlePacketWriteCompletesExactlyWhenThePipelineSays() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 4096, Dat.MEM_PRIV_ALL);
        TestFabric.cpuWrite(p.a, src, 0, TestFabric.randomBytes(4096, 1));
        long[] op = new long[1];
        tf.at(T0, () -> op[0] = tf.write(p.epA, iov(src, 0, 4096), 77, remote(dst, 0, 4096), 0));
        tf.run();

        Pipeline pl = new Pipeline(tf.params);
        // Spelled out once for the single-packet case, exactly as the Hca Javadoc describes the pipeline.
        // The responder writes the payload as it arrives: PCIe (128 Gb/s) is faster than the link (100 Gb/s), so
        // the writes keep up and only the last 256-byte piece (pcie.max_payload) crosses PCIe after the last bit.
        long arrival = T0 + pl.pcie
                + pl.wqeProcess + 2 * pl.pcie + pl.readDelay + pl.pcieRate.transmitTimePs(pl.wqeBytes)
                + 2 * pl.pcie + pl.readDelay + pl.pcieRate.transmitTimePs(4096)
                + pl.linkRate.transmitTimePs(4096 + pl.header + pl.reth)
                + pl.linkLatency;
        long expectedPlace = arrival + pl.pcieRate.transmitTimePs(pl.piece) + pl.pcie;
        long expectedComplete = arrival + pl.pcieRate.transmitTimePs(pl.piece)
                + pl.linkRate.transmitTimePs(pl.header + pl.aeth) + pl.linkLatency + pl.pcie;
        assertEquals(expectedPlace, pl.place(T0, 4096));
        assertEquals(expectedComplete, pl.complete(T0, 4096));

        TraceEvent place = tf.event(TraceEvent.PLACE, "B", op[0]);
        TraceEvent complete = tf.event(TraceEvent.COMPLETE, "A", op[0]);
        assertEquals(expectedPlace, place.tPs());
        assertEquals(4096L, place.attrs().get("bytes"));
        assertEquals(expectedComplete, complete.tPs());
        assertEquals("DAT_DTO_SUCCESS", complete.status());
        assertEquals(T0 + pl.pcie, tf.event(TraceEvent.START, "A", op[0]).tPs());

        DatEvent e = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_COMPLETION_EVENT, e.number);
        assertEquals(Dat.DTO_SUCCESS, e.status);
        assertEquals(77, e.cookie);
        assertEquals(4096, e.transferredLength);
        assertEquals(Dat.DTO_RDMA_WRITE, e.operation);
        assertEquals(expectedComplete, e.queuedPs);
    }

    @Test
    void multiPacketWriteIsSplitAtTheMtuAndPlacesExactlyTheSourceBytes() {
        TestFabric.Pair p = TestFabric.pair("hca.mtu", "4096B");
        TestFabric tf = p.tf;
        int len = 10_000;
        Lmr src = tf.lmr(p.a, 16384, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 16384, Dat.MEM_PRIV_ALL);
        byte[] data = TestFabric.randomBytes(len, 2);
        TestFabric.cpuWrite(p.a, src, 0, data);
        Port aToB = p.a.host.hca().port();
        Port bToA = p.b.host.hca().port();
        long packetsBefore = aToB.packetsSent();
        long bytesBefore = aToB.bytesSent();
        long acksBefore = bToA.packetsSent();
        long receivedBefore = p.b.host.hca().packetsReceived();
        long[] op = new long[1];
        tf.at(T0, () -> op[0] = tf.write(p.epA, iov(src, 0, len), 5, remote(dst, 100, len), 0));
        tf.run();

        Pipeline pl = new Pipeline(tf.params);
        assertEquals(3, aToB.packetsSent() - packetsBefore, "10000 B at a 4096 B MTU is 4096 + 4096 + 1808");
        assertEquals(len + 3 * pl.header + pl.reth, aToB.bytesSent() - bytesBefore);
        assertEquals(3, p.b.host.hca().packetsReceived() - receivedBefore);
        assertEquals(1, bToA.packetsSent() - acksBefore, "one ACK for the whole message");
        assertEquals(Integer.valueOf(3), tf.event(TraceEvent.TX_START, "A", op[0]).attrs().get("packets"));

        TraceEvent place = tf.event(TraceEvent.PLACE, "B", op[0]);
        assertEquals(pl.place(T0, len), place.tPs());
        assertEquals((long) len, place.attrs().get("bytes"));
        assertEquals(dst.address() + 100, place.attrs().get("address"));
        assertEquals(pl.complete(T0, len), tf.event(TraceEvent.COMPLETE, "A", op[0]).tPs());

        assertArrayEquals(data, TestFabric.cpuRead(p.b, dst, 100, len));
        assertArrayEquals(new byte[100], TestFabric.cpuRead(p.b, dst, 0, 100), "bytes before the target untouched");
        assertArrayEquals(new byte[16384 - 100 - len], TestFabric.cpuRead(p.b, dst, 100 + len, 16384 - 100 - len),
                "bytes after the target untouched");
        DatEvent e = tf.only(p.a.reqEvd);
        assertEquals(Dat.DTO_SUCCESS, e.status);
        assertEquals(len, e.transferredLength);
    }

    @Test
    void smallerMtuGivesMorePacketsAndTheSameBytes() {
        TestFabric.Pair p = TestFabric.pair("hca.mtu", "1KiB");
        TestFabric tf = p.tf;
        int len = 3000;
        Lmr src = tf.lmr(p.a, len, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, len, Dat.MEM_PRIV_ALL);
        byte[] data = TestFabric.randomBytes(len, 3);
        TestFabric.cpuWrite(p.a, src, 0, data);
        Port aToB = p.a.host.hca().port();
        long before = aToB.packetsSent();
        long[] op = new long[1];
        tf.at(T0, () -> op[0] = tf.write(p.epA, iov(src, 0, len), 5, remote(dst, 0, len), 0));
        tf.run();
        Pipeline pl = new Pipeline(tf.params);
        assertEquals(3, aToB.packetsSent() - before, "3000 B at a 1024 B MTU is 1024 + 1024 + 952");
        assertEquals(pl.complete(T0, len), tf.event(TraceEvent.COMPLETE, "A", op[0]).tPs());
        assertArrayEquals(data, TestFabric.cpuRead(p.b, dst, 0, len));
    }

    @Test
    void rdmaReadPlacesAndCompletesExactlyWhenThePipelineSays() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Pipeline pl = new Pipeline(tf.params);
        for (int len : new int[] {4096, 10_000}) {
            Lmr sink = tf.lmr(p.a, len, Dat.MEM_PRIV_ALL);
            Lmr source = tf.lmr(p.b, len, Dat.MEM_PRIV_ALL);
            byte[] data = TestFabric.randomBytes(len, len);
            TestFabric.cpuWrite(p.b, source, 0, data);
            Port bToA = p.b.host.hca().port();
            long responsesBefore = bToA.packetsSent();
            long bytesBefore = bToA.bytesSent();
            long post = tf.sim.now() + 10_000_000L;
            long[] op = new long[1];
            tf.at(post, () -> op[0] = tf.read(p.epA, iov(sink, 0, len), len, remote(source, 0, len), 0));
            tf.run();
            long arrival = pl.readLastResponseArrival(post, len);
            long placed = pl.readPlace(post, len);
            assertEquals(true, placed >= arrival + pl.pcieRate.transmitTimePs(pl.lastPiece(len)) + pl.pcie);
            assertEquals(placed, tf.event(TraceEvent.PLACE, "A", op[0]).tPs(), "place of " + len);
            assertEquals(placed + pl.pcie, tf.event(TraceEvent.COMPLETE, "A", op[0]).tPs(),
                    "completion of " + len);
            long packets = (len + pl.mtu - 1) / pl.mtu;
            assertEquals(packets, bToA.packetsSent() - responsesBefore);
            assertEquals(len + packets * (pl.header + pl.aeth), bToA.bytesSent() - bytesBefore);
            assertArrayEquals(data, TestFabric.cpuRead(p.a, sink, 0, len));
            DatEvent e = tf.only(p.a.reqEvd);
            assertEquals(Dat.DTO_SUCCESS, e.status);
            assertEquals(len, e.transferredLength);
        }
    }
}
