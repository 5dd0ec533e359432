package org.datsim.fabric.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The three coherence modes of {@link HostMemory} and what the dat_lmr_sync_* calls do to them (rules 30 to 33):
 * the stale bytes a consumer really gets without the sync, and the fresh ones after it.
 */
class CoherenceTest {

    private static final long A = HostMemory.BASE_ADDRESS;

    private static byte[] bytes(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static byte[] dmaRead(HostMemory m, long address, int n) {
        byte[] b = new byte[n];
        m.dmaRead(address, b, 0, n);
        return b;
    }

    @Test
    void coherentMemoryHasOneViewAndSyncIsANoOp() {
        HostMemory m = new HostMemory(1 << 20, Coherence.COHERENT);
        m.cpuRead(A, 64);
        m.dmaWrite(A, bytes(64, 7), 0, 64);
        assertArrayEquals(bytes(64, 7), m.cpuRead(A, 64));
        assertFalse(m.cpuViewIsStale(A, 64));
        m.cpuWrite(A, bytes(64, 9));
        assertArrayEquals(bytes(64, 9), dmaRead(m, A, 64));
        m.syncForRdmaRead(A, 64);
        m.syncForRdmaWrite(A, 64);
        assertEquals(0, m.cachedLines());
    }

    @Test
    void rule32_cpuNonCoherentReadsStaleLinesUntilSyncRdmaWrite() {
        HostMemory m = new HostMemory(1 << 20, Coherence.CPU_NONCOHERENT);
        assertArrayEquals(bytes(128, 0), m.cpuRead(A, 128)); // caches two lines
        m.dmaWrite(A, bytes(128, 0xab), 0, 128); // an RDMA Write lands in memory
        assertArrayEquals(bytes(128, 0), m.cpuRead(A, 128), "the CPU still sees its cached lines");
        assertTrue(m.cpuViewIsStale(A, 128));
        assertTrue(m.cpuViewIsStale(A + 100, 1), "every byte of a stale line is stale");
        m.syncForRdmaWrite(A, 64); // only the first line
        assertArrayEquals(bytes(64, 0xab), m.cpuRead(A, 64));
        assertFalse(m.cpuViewIsStale(A, 64));
        assertTrue(m.cpuViewIsStale(A + 64, 64), "the second line was outside the synced range");
        m.syncForRdmaWrite(A, 128);
        assertArrayEquals(bytes(128, 0xab), m.cpuRead(A, 128));
    }

    @Test
    void rule31_cpuNonCoherentWritesReachTheHcaOnlyAfterSyncRdmaRead() {
        HostMemory m = new HostMemory(1 << 20, Coherence.CPU_NONCOHERENT);
        m.cpuWrite(A + 10, bytes(20, 5));
        assertArrayEquals(bytes(20, 0), dmaRead(m, A + 10, 20), "an RDMA Read would fetch the old bytes");
        assertArrayEquals(bytes(20, 5), m.cpuRead(A + 10, 20), "the CPU sees its own writes");
        assertFalse(m.cpuViewIsStale(A, 64), "the CPU's own newer bytes are not stale");
        m.syncForRdmaRead(A + 10, 20);
        assertArrayEquals(bytes(20, 5), dmaRead(m, A + 10, 20));
        assertArrayEquals(bytes(10, 0), dmaRead(m, A, 10), "bytes the CPU did not write are untouched");
    }

    @Test
    void rule32_ioNonCoherentKeepsIncomingDataInTheIoCacheUntilSyncRdmaWrite() {
        HostMemory m = new HostMemory(1 << 20, Coherence.IO_NONCOHERENT);
        m.dmaWrite(A, bytes(64, 0x3c), 0, 64);
        assertArrayEquals(bytes(64, 0), m.cpuRead(A, 64), "the data is still in the I/O cache");
        assertTrue(m.cpuViewIsStale(A, 64));
        m.syncForRdmaWrite(A, 64);
        assertArrayEquals(bytes(64, 0x3c), m.cpuRead(A, 64));
        assertFalse(m.cpuViewIsStale(A, 64));
    }

    @Test
    void rule31_ioNonCoherentSendsCachedBytesUntilSyncRdmaRead() {
        HostMemory m = new HostMemory(1 << 20, Coherence.IO_NONCOHERENT);
        assertArrayEquals(bytes(64, 0), dmaRead(m, A, 64)); // the HCA caches the line
        m.cpuWrite(A, bytes(64, 0x5a));
        assertArrayEquals(bytes(64, 0), dmaRead(m, A, 64), "the HCA reads its stale I/O cache line");
        m.syncForRdmaRead(A, 64);
        assertArrayEquals(bytes(64, 0x5a), dmaRead(m, A, 64));
    }

    @Test
    void cacheLinesCountTowardsTheResidentBound() {
        HostMemory m = new HostMemory(4096 + 64, Coherence.CPU_NONCOHERENT);
        m.cpuRead(A, 64);
        assertEquals(64, m.residentBytes());
        org.junit.jupiter.api.Assertions.assertThrows(MemoryLimitException.class, () -> m.cpuRead(A, 4096 + 128));
    }
}
