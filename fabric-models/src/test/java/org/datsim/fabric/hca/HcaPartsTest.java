package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.engine.Simulator;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.memory.HostMemory;
import org.junit.jupiter.api.Test;

/**
 * The parts of an {@link Hca} hold copies of its packet pool and of each other ({@link HcaPart#link}): every part
 * sees every other part, and a pool set with {@link Hca#setPacketPool} reaches them all (a part left on the old pool
 * would take packets from one pool and look their ids up in another).
 */
class HcaPartsTest {

    private static List<HcaPart> parts(Hca hca) throws ReflectiveOperationException {
        List<HcaPart> parts = new ArrayList<>();
        for (Field f : Hca.class.getDeclaredFields()) {
            if (HcaPart.class.isAssignableFrom(f.getType())) {
                f.setAccessible(true);
                parts.add((HcaPart) f.get(hca));
            }
        }
        return parts;
    }

    private static void assertLinked(Hca hca, PacketPool pool) throws ReflectiveOperationException {
        List<HcaPart> parts = parts(hca);
        assertEquals(8, parts.size(), "the parts of an Hca");
        for (HcaPart part : parts) {
            assertNotNull(part, "every part exists");
            assertSame(hca, part.hca);
            assertSame(pool, part.pool, part.getClass().getSimpleName() + " uses the Hca's packet pool");
            int fellows = 0;
            for (Field f : HcaPart.class.getDeclaredFields()) {
                if (HcaPart.class.isAssignableFrom(f.getType()) && !Modifier.isStatic(f.getModifiers())) {
                    fellows++;
                    Field own = Hca.class.getDeclaredField(f.getName());
                    assertSame(own.get(hca), f.get(part),
                            part.getClass().getSimpleName() + "." + f.getName() + " is the Hca's part");
                }
            }
            assertEquals(parts.size(), fellows, "a part sees every part");
        }
    }

    @Test
    void everyPartSeesTheOthersAndTheSharedPool() throws Exception {
        Hca hca = new Hca(new Simulator(), "A", 0, new HostMemory(1 << 20), TestFabric.params(),
                new TraceSource<TraceEvent>("t"));
        assertLinked(hca, hca.pool);
        PacketPool shared = new PacketPool();
        hca.setPacketPool(shared);
        assertLinked(hca, shared);
    }
}
