package org.datsim.fabric.sw;

import java.util.Arrays;

import org.datsim.fabric.link.Packet;

/**
 * A switch's routes: for each destination host, the output ports on shortest paths (equal-cost multipath). A packet
 * takes the one its flow hash picks, salted per switch so that successive switches choose independently; every packet
 * of a flow takes the same path, so packets of a flow stay in order. Under {@code switch.ecmp hpcc} ({@link #hpcc})
 * the switch chooses as HPCC's simulator does instead (see {@link HpccEcmp}). Which of the two is chosen when the
 * switch is built; the tables are filled once the fabric is wired ({@link #setRoutes}, {@link #setHpccRoutes}).
 */
public final class RouteTable {

    private final int salt;
    private final boolean hpcc;
    private int[] routeSet = new int[0];
    private int[][] sets = new int[0][];
    /**
     * The route table as {@link #route(int, int)} reads it, a byte per destination host (a quarter of the cache lines
     * of an int per host: the tables of every switch of a large fabric stay in cache): the output port when the host
     * has one (0 to 127), {@code -1 - s} for choice list {@code s} when it has several or none (s below 128); null when
     * the ports or lists do not fit a byte ({@link #routeSet} is read instead).
     */
    private byte[] routeByte;
    /**
     * switch.ecmp hpcc: the output ports towards each host in HPCC's order, host after host in one array (host h's from
     * hpccStart[h] to hpccStart[h + 1]), so that a lookup reads two arrays of the switch rather than one array a host.
     */
    private int[] hpccStart;
    private int[] hpccPorts;
    private int[] hpccIp;
    private int hpccSeed;

    private RouteTable(int salt, boolean hpcc) {
        this.salt = mix(salt * 0x9E3779B9 + 0x7F4A7C15);
        this.hpcc = hpcc;
    }

    /**
     * datsim's ECMP: a flow's port chosen by its flow hash, salted per switch.
     *
     * @param salt the switch's salt (for example its index)
     * @return the table, empty until {@link #setRoutes}
     */
    public static RouteTable ecmp(int salt) {
        return new RouteTable(salt, false);
    }

    /**
     * HPCC's ECMP ({@code switch.ecmp hpcc}): Murmur3 of the packet's addresses and ports, seeded with the switch's
     * node number, over the next hops in HPCC's order ({@link #setHpccRoutes}). The flow-hash routes
     * ({@link #setRoutes}) are kept for {@link #routeChoices} only.
     *
     * @param salt the switch's salt (for example its index)
     * @return the table, empty until filled
     */
    public static RouteTable hpcc(int salt) {
        return new RouteTable(salt, true);
    }

    /** Returns true under {@code switch.ecmp hpcc}. */
    public boolean isHpcc() {
        return hpcc;
    }

    /**
     * Sets the routes from distinct choice lists.
     *
     * @param setOf for each destination host id, the index of its choice list in {@code choiceLists}
     * @param choiceLists the distinct lists of output port indexes (an empty list: unreachable)
     */
    public void setRoutes(int[] setOf, int[][] choiceLists) {
        this.routeSet = setOf.clone();
        this.sets = choiceLists.clone();
        byte[] b = new byte[setOf.length];
        for (int d = 0; d < setOf.length && b != null; d++) {
            int[] c = choiceLists[setOf[d]];
            if (c.length == 1 && c[0] < 128) {
                b[d] = (byte) c[0];
            } else if (c.length != 1 && setOf[d] < 128) {
                b[d] = (byte) (-1 - setOf[d]);
            } else {
                b = null;
            }
        }
        this.routeByte = b;
    }

    /**
     * Sets HPCC's next hops (a table built as {@link #hpcc}).
     *
     * @param seed the switch's node number (HPCC's m_ecmpSeed)
     * @param hostIp each host's IP address, by host id
     * @param portsByHost the output ports towards each host, by host id, in HPCC's order
     * @throws IllegalStateException if the table was not built for HPCC's ECMP
     */
    public void setHpccRoutes(int seed, int[] hostIp, int[][] portsByHost) {
        if (!hpcc) {
            throw new IllegalStateException("this switch was built for datsim's ECMP, not HPCC's");
        }
        this.hpccSeed = seed;
        this.hpccIp = hostIp;
        int[] start = new int[portsByHost.length + 1];
        for (int h = 0; h < portsByHost.length; h++) {
            start[h + 1] = start[h] + portsByHost[h].length;
        }
        int[] ports = new int[start[portsByHost.length]];
        for (int h = 0; h < portsByHost.length; h++) {
            System.arraycopy(portsByHost[h], 0, ports, start[h], portsByHost[h].length);
        }
        this.hpccStart = start;
        this.hpccPorts = ports;
    }

    /**
     * Returns the output ports a packet to a host may take (datsim's routes).
     *
     * @param dstHost the destination host id
     * @return the port indexes (a copy)
     */
    public int[] routeChoices(int dstHost) {
        return sets[routeSet[dstHost]].clone();
    }

    /** Under {@code switch.ecmp hpcc}: the output ports towards a host in HPCC's order (a copy), else null. */
    public int[] hpccRouteChoices(int dstHost) {
        return hpccStart == null ? null : Arrays.copyOfRange(hpccPorts, hpccStart[dstHost], hpccStart[dstHost + 1]);
    }

    /**
     * Returns the output port a packet takes.
     *
     * @param packet the packet
     * @return the port index, or -1 if its host is unreachable
     */
    public int route(Packet packet) {
        return hpcc ? routeHpcc(packet) : route(packet.dstHost, packet.flow);
    }

    /**
     * Returns the output port a flow takes (datsim's ECMP).
     *
     * @param dstHost the destination host id
     * @param flow the flow hash
     * @return the port index, or -1 if the host is unreachable
     */
    public int route(int dstHost, int flow) {
        byte[] rb = routeByte;
        int[] c;
        if (rb != null) { // the bound checked on this table: the int table's lines are not touched
            if (dstHost < 0 || dstHost >= rb.length) {
                return -1;
            }
            int r = rb[dstHost];
            if (r >= 0) {
                return r;
            }
            c = sets[-1 - r];
        } else {
            if (dstHost < 0 || dstHost >= routeSet.length) {
                return -1;
            }
            c = sets[routeSet[dstHost]];
        }
        if (c.length == 0) {
            return -1;
        }
        return c.length == 1 ? c[0] : c[(mix(flow ^ salt) >>> 1) % c.length];
    }

    /** The output port of a packet under {@code switch.ecmp hpcc}, or -1 if its host is unreachable. */
    private int routeHpcc(Packet packet) {
        int dst = packet.dstHost;
        int[] start = hpccStart;
        if (start == null || dst < 0 || dst >= start.length - 1) {
            return -1;
        }
        int from = start[dst];
        int n = start[dst + 1] - from;
        if (n <= 1) {
            return n == 0 ? -1 : hpccPorts[from];
        }
        int ports = packet.flow;
        int k = packet.kind;
        if (k == Packet.ACK || k == Packet.NAK || k == Packet.CNP || k == Packet.READ_RESPONSE
                || k == Packet.ATOMIC_ACK) {
            ports = (ports >>> 16) | (ports << 16);
        }
        int h = hpccHash(hpccIp[packet.srcHost], hpccIp[dst], ports, hpccSeed);
        return hpccPorts[from + Integer.remainderUnsigned(h, n)];
    }

    /**
     * HPCC's {@code SwitchNode::EcmpHash} of its 12-byte key (three 32-bit words, read in the machine's order as its
     * union does on x86): Murmur3's 32-bit body and finaliser.
     *
     * @param sip the source IP
     * @param dip the destination IP
     * @param ports sport | dport &lt;&lt; 16
     * @param seed the seed
     * @return the hash, as HPCC's uint32_t
     */
    public static int hpccHash(int sip, int dip, int ports, int seed) {
        int h = seed;
        h = hpccMixIn(h, sip);
        h = hpccMixIn(h, dip);
        h = hpccMixIn(h, ports);
        h ^= 12;
        return mix(h);
    }

    private static int hpccMixIn(int h, int k) {
        k *= 0xcc9e2d51;
        k = Integer.rotateLeft(k, 15);
        k *= 0x1b873593;
        h ^= k;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    /** A 32-bit finaliser (murmur3's fmix32): a fixed, platform-independent hash. */
    public static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h;
    }
}
