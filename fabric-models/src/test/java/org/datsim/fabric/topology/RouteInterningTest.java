package org.datsim.fabric.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.util.LongTable;
import org.junit.jupiter.api.Test;

/** A switch's distinct choice lists: equal lists share an index, different ones do not, even when hashes collide. */
class RouteInterningTest {

    @Test
    void equalListsShareAnIndexAndDifferentOnesDoNot() {
        List<int[]> lists = new ArrayList<>();
        LongTable<int[]> byHash = new LongTable<>();
        int[] buf = {7, 9, 11, 99};
        assertEquals(0, Topology.intern(lists, byHash, buf, 3)); // only the first three count
        assertEquals(1, Topology.intern(lists, byHash, new int[] {7, 9}, 2));
        assertEquals(0, Topology.intern(lists, byHash, new int[] {7, 9, 11}, 3));
        assertEquals(2, Topology.intern(lists, byHash, new int[0], 0));
        assertEquals(2, Topology.intern(lists, byHash, new int[] {5}, 0));
        assertArrayEquals(new int[] {7, 9, 11}, lists.get(0));
    }

    @Test
    void listsWhoseHashesCollideStayApart() {
        List<int[]> lists = new ArrayList<>();
        LongTable<int[]> byHash = new LongTable<>();
        assertEquals(0, Topology.intern(lists, byHash, new int[] {1}, 1, 42));
        assertEquals(1, Topology.intern(lists, byHash, new int[] {2}, 1, 42));
        assertEquals(2, Topology.intern(lists, byHash, new int[] {3, 4}, 2, 42));
        assertEquals(1, Topology.intern(lists, byHash, new int[] {2}, 1, 42));
        assertEquals(0, Topology.intern(lists, byHash, new int[] {1}, 1, 42));
        assertEquals(3, lists.size());
    }
}
