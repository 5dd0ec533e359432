package org.datsim.fabric.memory;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.randomBytes;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.Lmr;
import org.junit.jupiter.api.Test;

/**
 * Sparse host memory: pages exist only once something non-zero is written, so a registered terabyte costs one page
 * when a few bytes at its end are written (by the CPU or by an RDMA Write); zeros allocate nothing; unwritten bytes
 * read as zero; and growing past {@code memory.max_resident} throws {@link MemoryLimitException} naming the
 * parameter.
 */
class SparseMemoryTest {

    private static final long TIB = 1L << 40;

    @Test
    void aTerabyteLmrWrittenAtItsEndHoldsOnePage() {
        TestFabric tf = TestFabric.backToBack();
        TestFabric.Node a = tf.open("A");
        Lmr huge = tf.lmr(a, TIB, Dat.MEM_PRIV_ALL);
        assertEquals(TIB, huge.length());
        HostMemory mem = a.host.memory();
        assertEquals(0, mem.residentBytes());
        byte[] tail = {1, 2, 3, 4, 5};
        mem.cpuWrite(huge.address() + TIB - tail.length, tail);
        assertEquals(SparseMemory.PAGE_SIZE, mem.residentBytes());
        assertArrayEquals(tail, mem.cpuRead(huge.address() + TIB - tail.length, tail.length));
        assertArrayEquals(new byte[64], mem.cpuRead(huge.address() + TIB / 2, 64), "unwritten bytes read as zero");
        assertEquals(SparseMemory.PAGE_SIZE, mem.residentBytes(), "reading allocates nothing");
    }

    @Test
    void anRdmaWriteToTheEndOfARemoteTerabyteTouchesOnePage() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 4096, Dat.MEM_PRIV_ALL);
        Lmr huge = tf.lmr(p.b, TIB, Dat.MEM_PRIV_ALL);
        byte[] data = randomBytes(8, 99);
        TestFabric.cpuWrite(p.a, src, 0, data);
        tf.at(100_000_000L, () -> tf.write(p.epA, iov(src, 0, 8), 1, remote(huge, TIB - 8, 8), 0));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);
        HostMemory mem = p.b.host.memory();
        assertEquals(SparseMemory.PAGE_SIZE, mem.residentBytes());
        assertArrayEquals(data, mem.cpuRead(huge.address() + TIB - 8, 8));
    }

    @Test
    void writingZerosAllocatesNothing() {
        SparseMemory m = new SparseMemory(1 << 20);
        m.write(0x1000_0000L, new byte[10_000], 0, 10_000);
        m.fill(0x2000_0000L, 1 << 16, (byte) 0);
        assertEquals(0, m.residentBytes());
        // A page straddled by a write holding a non-zero byte only in its second page.
        byte[] b = new byte[200];
        b[150] = 7;
        m.write(SparseMemory.PAGE_SIZE - 100, b, 0, b.length);
        assertEquals(SparseMemory.PAGE_SIZE, m.residentBytes());
        byte[] back = new byte[200];
        m.read(SparseMemory.PAGE_SIZE - 100, back, 0, 200);
        assertArrayEquals(b, back);
        // Zeros written over an existing page are stored.
        m.write(SparseMemory.PAGE_SIZE + 50, new byte[1], 0, 1);
        byte[] one = new byte[1];
        m.read(SparseMemory.PAGE_SIZE + 50, one, 0, 1);
        assertEquals(0, one[0]);
    }

    @Test
    void anRdmaWriteOfZerosAllocatesNothingAtTheTarget() {
        TestFabric.Pair p = TestFabric.pair();
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 1 << 16, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 1 << 16, Dat.MEM_PRIV_ALL);
        tf.at(100_000_000L, () -> tf.write(p.epA, iov(src, 0, 1 << 16), 1, remote(dst, 0, 1 << 16), 0));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);
        assertEquals(0, p.a.host.memory().residentBytes());
        assertEquals(0, p.b.host.memory().residentBytes());
    }

    @Test
    void fillAndWriteAcrossPages() {
        SparseMemory m = new SparseMemory(1 << 20);
        m.fill(100, 3 * SparseMemory.PAGE_SIZE, (byte) 0x5a);
        assertEquals(4L * SparseMemory.PAGE_SIZE, m.residentBytes(), "100..12388 touches pages 0 to 3");
        byte[] edge = new byte[3];
        m.read(99, edge, 0, 3);
        assertArrayEquals(new byte[] {0, 0x5a, 0x5a}, edge);
        m.read(100 + 3 * SparseMemory.PAGE_SIZE - 1, edge, 0, 3);
        assertArrayEquals(new byte[] {0x5a, 0, 0}, edge);
    }

    @Test
    void exceedingTheResidentLimitThrowsNamingTheParameter() {
        SparseMemory m = new SparseMemory(2 * SparseMemory.PAGE_SIZE);
        byte[] page = randomBytes(SparseMemory.PAGE_SIZE, 1);
        m.write(0, page, 0, page.length);
        m.write(SparseMemory.PAGE_SIZE, page, 0, page.length);
        MemoryLimitException e = assertThrows(MemoryLimitException.class,
                () -> m.write(2 * SparseMemory.PAGE_SIZE, page, 0, 1));
        assertTrue(e.getMessage().contains("memory.max_resident"), e.getMessage());
        assertTrue(e.getMessage().contains(Long.toString(2 * SparseMemory.PAGE_SIZE)), e.getMessage());
        assertEquals(2L * SparseMemory.PAGE_SIZE, m.residentBytes(), "the failed write allocated nothing");
        assertThrows(MemoryLimitException.class, () -> m.fill(1L << 30, 1, (byte) 1));
    }

    @Test
    void theFabricAppliesMemoryMaxResidentToEachHost() {
        TestFabric.Pair p = TestFabric.pair("memory.max_resident", "8KiB");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 3 * 4096, Dat.MEM_PRIV_ALL);
        TestFabric.cpuWrite(p.a, src, 0, randomBytes(8192, 2));
        MemoryLimitException cpu = assertThrows(MemoryLimitException.class,
                () -> TestFabric.cpuWrite(p.a, src, 8192, new byte[] {1}));
        assertTrue(cpu.getMessage().contains("memory.max_resident"), cpu.getMessage());
        // An RDMA Write of 8 KiB into B fits; a third page at B does not, and the run stops with the exception.
        TestFabric.cpuWrite(p.b, dst, 0, new byte[] {1});
        tf.at(100_000_000L, () -> tf.write(p.epA, iov(src, 0, 8192), 1, remote(dst, 4096, 8192), 0));
        MemoryLimitException dma = assertThrows(MemoryLimitException.class, () -> tf.sim.run());
        assertTrue(dma.getMessage().contains("memory.max_resident"), dma.getMessage());
        assertEquals(8192, p.b.host.memory().residentBytes());
    }

    @Test
    void aSharedPageNeverChangesAndAWriteGoesToItsCopy() {
        SparseMemory m = new SparseMemory(1L << 20);
        assertEquals(null, m.sharePageOf(8192), "a page never written: null (zeros)");
        byte[] ones = new byte[SparseMemory.PAGE_SIZE];
        java.util.Arrays.fill(ones, (byte) 1);
        m.write(8192, ones, 0, ones.length);
        byte[] shared = m.sharePageOf(8192 + 100);
        assertArrayEquals(ones, shared);
        m.write(8192 + 10, new byte[] {7, 7}, 0, 2); // a write to the shared page: to a copy
        m.fill(8192 + 20, 3, (byte) 9); // and the copy is not shared: written in place
        assertArrayEquals(ones, shared, "the shared array kept its bytes");
        byte[] now = new byte[SparseMemory.PAGE_SIZE];
        m.read(8192, now, 0, now.length);
        byte[] want = ones.clone();
        want[10] = 7;
        want[11] = 7;
        want[20] = 9;
        want[21] = 9;
        want[22] = 9;
        assertArrayEquals(want, now, "the memory has the new bytes");
        assertEquals(SparseMemory.PAGE_SIZE, m.residentBytes(), "a copy replaces its page: still one page");
        byte[] again = m.sharePageOf(8192);
        assertTrue(again != shared && java.util.Arrays.equals(again, want), "sharing again gives the copy");
        m.fill(8192, 1, (byte) 5);
        assertEquals(7, again[10], "shared again, written again: a second copy");
        assertEquals(1, again[0]);
    }
}
