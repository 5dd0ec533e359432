package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.junit.jupiter.api.Test;

/** The route table alone: datsim's salted ECMP and HPCC's hashing. */
class RouteTableTest {

    @Test
    void ecmpKeepsAFlowOnOnePortSpreadsFlowsAndSaltsPerSwitch() {
        RouteTable t = RouteTable.ecmp(0);
        // host 0 on port 3 only; host 1 on ports 0, 1, 2; host 2 unreachable
        t.setRoutes(new int[] {0, 1, 2}, new int[][] {{3}, {0, 1, 2}, {}});
        assertEquals(3, t.route(0, 12345));
        assertEquals(-1, t.route(2, 1));
        assertEquals(-1, t.route(7, 1), "no such host");
        assertArrayEquals(new int[] {0, 1, 2}, t.routeChoices(1));
        int[] used = new int[3];
        for (int flow = 0; flow < 3000; flow++) {
            int p = t.route(1, flow);
            assertEquals(p, t.route(1, flow), "a flow stays on its port");
            used[p]++;
        }
        for (int u : used) {
            assertTrue(u > 800, "flows spread over the ports: " + java.util.Arrays.toString(used));
        }
        RouteTable other = RouteTable.ecmp(1);
        other.setRoutes(new int[] {0, 1, 2}, new int[][] {{3}, {0, 1, 2}, {}});
        int same = 0;
        for (int flow = 0; flow < 3000; flow++) {
            same += t.route(1, flow) == other.route(1, flow) ? 1 : 0;
        }
        assertTrue(same < 1300, "another switch chooses independently: " + same);
        assertFalse(t.isHpcc());
        assertNull(t.hpccRouteChoices(1));
    }

    @Test
    void aTableWiderThanAByteReadsTheIntTable() {
        RouteTable t = RouteTable.ecmp(0);
        int[] setOf = new int[3];
        setOf[2] = 1;
        t.setRoutes(setOf, new int[][] {{200}, {5}});
        assertEquals(200, t.route(0, 9));
        assertEquals(5, t.route(2, 9));
    }

    @Test
    void hpccHashesAddressesAndPortsWithAResponseTakingTheSwappedPorts() {
        RouteTable t = RouteTable.hpcc(0);
        assertTrue(t.isHpcc());
        int[] ip = {0x0b000001, 0x0b000101};
        t.setHpccRoutes(320, ip, new int[][] {{4, 5}, {6, 7}});
        PacketPool pool = new PacketPool();
        int flow = 10000 | 100 << 16;
        Packet data = pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, flow);
        int h = RouteTable.hpccHash(ip[0], ip[1], flow, 320);
        assertEquals(new int[] {6, 7}[Integer.remainderUnsigned(h, 2)], t.route(data));
        Packet ack = pool.acquire().set(Packet.ACK, 1, 0, 60, null, 0, 1, 0, 0, flow);
        int ha = RouteTable.hpccHash(ip[1], ip[0], 100 | 10000 << 16, 320);
        assertEquals(new int[] {4, 5}[Integer.remainderUnsigned(ha, 2)], t.route(ack));
        assertArrayEquals(new int[] {6, 7}, t.hpccRouteChoices(1));
        assertThrows(IllegalStateException.class, () -> RouteTable.ecmp(0).setHpccRoutes(1, ip, new int[2][]));
    }
}
