package org.datsim.scenario.bridge;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.memory.HostMemory;

/**
 * Real bytes: the host's memory is an attached program's for the ranges it registered (its LMRs), read and written
 * over the wire at the simulated times of the DMA ({@link HostMemory.External}). A read fetches ahead to the end of
 * the LMR, kept until the program runs again ({@link #programRan}); writes go with the program's next reply, or on
 * its side channel while it runs outside calls ({@link BridgeProcess#memoryWire}).
 */
final class ProgramMemory implements HostMemory.External {

    /** The most bytes one memory read fetches from the program ahead of the DMA that asked. */
    private static final int READ_AHEAD = 1 << 20;

    private final BridgeProcess program;
    private final BridgeServer server;
    private final List<Lmr> lmrs = new ArrayList<>();
    /** Bytes of the program's memory read ahead, valid until the program runs again. */
    private byte[] cache = new byte[0];
    private long cacheAddress;
    private int cacheLength;

    /**
     * @param program the connection of the program's first thread, which owns its memory
     * @param server the server
     */
    ProgramMemory(BridgeProcess program, BridgeServer server) {
        this.program = program;
        this.server = server;
    }

    /** The program's LMRs, in the order they were created. */
    List<Lmr> lmrs() {
        return lmrs;
    }

    /** The program registered an LMR: its range is the program's memory. */
    void registered(Lmr l) {
        lmrs.add(l);
    }

    /** The program freed an LMR. */
    void freed(Lmr l) {
        lmrs.remove(l);
    }

    /** The program ran: its memory may have changed, the bytes read ahead are stale. */
    void programRan() {
        cacheLength = 0;
    }

    @Override
    public boolean claims(long address, long length) {
        for (int i = 0; i < lmrs.size(); i++) {
            Lmr l = lmrs.get(i);
            if (address >= l.address() && address + length <= l.address() + l.length()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void read(long address, byte[] dst, int off, int length) {
        if (program.closed()) {
            return;
        }
        if (address >= cacheAddress && address + length <= cacheAddress + cacheLength) {
            System.arraycopy(cache, (int) (address - cacheAddress), dst, off, length);
            return;
        }
        Wire mw = program.memoryWire();
        if (mw == program.wire() && !program.reachable()) {
            return;
        }
        // Read ahead to the end of the LMR (at most READ_AHEAD bytes): a posted buffer does not change until its
        // completion (the DAT rule), and the cache is dropped whenever the program runs again.
        long end = address + length;
        for (int i = 0; i < lmrs.size(); i++) {
            Lmr l = lmrs.get(i);
            if (address >= l.address() && end <= l.address() + l.length()) {
                end = Math.max(end, Math.min(l.address() + l.length(), address + READ_AHEAD));
                break;
            }
        }
        int n = (int) (end - address);
        try {
            ByteBuffer b = mw.begin(Protocol.S_MEMREAD);
            b.putLong(address).putInt(n);
            mw.send();
            if (!mw.next(server.memoryTimeoutNs()) || mw.code() != Protocol.P_MEMDATA
                    || mw.frame().remaining() != n) {
                throw new IOException("no answer to a memory read of " + n + " bytes at 0x"
                        + Long.toHexString(address));
            }
            if (cache.length < n) {
                cache = new byte[n];
            }
            mw.frame().get(cache, 0, n);
            cacheAddress = address;
            cacheLength = n;
            System.arraycopy(cache, 0, dst, off, length);
        } catch (IOException e) {
            program.lost(e);
        }
    }

    @Override
    public void write(long address, byte[] src, int off, int length) {
        if (program.closed()) {
            return;
        }
        if (address < cacheAddress + cacheLength && address + length > cacheAddress) {
            cacheLength = 0; // the bytes read ahead are no longer those of the program
        }
        try {
            Wire mw = program.memoryWire();
            ByteBuffer b = mw.begin(Protocol.S_MEMWRITE);
            b.putLong(address).putInt(length);
            mw.room(length).put(src, off, length);
            mw.end(); // sent with the next reply: the program sees its memory only when its call returns
        } catch (IOException e) {
            program.lost(e);
        }
    }
}
