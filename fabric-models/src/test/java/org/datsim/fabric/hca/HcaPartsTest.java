package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.util.List;
import org.datsim.fabric.link.PayloadSource;
import org.junit.jupiter.api.Test;

/** The HCA is a composition of final parts, not an inheritance chain (architecture issue, item 1). */
class HcaPartsTest {

    private static final List<Class<?>> PARTS = List.of(Hca.class, HcaContext.class, OnChipCaches.class,
            PayloadReader.class, DmaWriter.class, SendEngine.class, Responder.class, ResponseEngine.class,
            ReliableTransport.class, Completions.class, ReceivePipeline.class);

    @Test
    void everyPartIsFinalAndExtendsNothing() {
        for (Class<?> part : PARTS) {
            assertTrue(Modifier.isFinal(part.getModifiers()), part.getSimpleName() + " is final");
            assertEquals(Object.class, part.getSuperclass(), part.getSimpleName() + " extends nothing");
        }
    }

    @Test
    void partsCallBackOnlyThroughTheirNarrowInterfaces() {
        assertEquals(List.of(SendScheduler.class), List.of(SendEngine.class.getInterfaces()));
        assertEquals(List.of(AckTimer.class), List.of(ReliableTransport.class.getInterfaces()));
        assertEquals(List.of(CompletionSink.class), List.of(Completions.class.getInterfaces()));
        // the packet pool tells it of a packet released while it holds the packet's payload by reference
        assertEquals(List.of(PayloadSource.class), List.of(PayloadReader.class.getInterfaces()));
        for (Class<?> part : List.of(OnChipCaches.class, DmaWriter.class, Responder.class,
                ResponseEngine.class, ReceivePipeline.class)) {
            assertEquals(0, part.getInterfaces().length, part.getSimpleName() + " implements nothing");
        }
    }
}
