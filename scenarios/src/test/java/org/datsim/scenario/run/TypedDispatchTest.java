package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import org.datsim.scenario.load.ConnectionCall;
import org.datsim.scenario.load.CpuCall;
import org.datsim.scenario.load.ObjectCall;
import org.datsim.scenario.load.QueryCall;
import org.junit.jupiter.api.Test;

/**
 * Each interpreter family executes exactly the calls its typed family has kinds for: the calls {@link Program}
 * routes to ObjectCalls, QueryCalls, ConnectionCalls and CpuCalls are those of {@link ObjectCall},
 * {@link QueryCall}, {@link ConnectionCall} and {@link CpuCall}, so a dispatch over the kind (every kind a case)
 * covers every call routed to it.
 */
class TypedDispatchTest {

    @Test
    void eachFamilyExecutesTheCallsOfItsKinds() {
        Set<String> objects = new HashSet<>();
        for (ObjectCall.Kind k : ObjectCall.Kind.values()) {
            objects.add(k.call());
        }
        assertEquals(objects, ObjectCalls.CALLS);
        Set<String> queries = new HashSet<>();
        for (QueryCall.Kind k : QueryCall.Kind.values()) {
            queries.add(k.call());
        }
        assertEquals(queries, QueryCalls.CALLS);
        Set<String> connections = new HashSet<>();
        for (ConnectionCall.Kind k : ConnectionCall.Kind.values()) {
            connections.add(k.call());
        }
        assertEquals(connections, ConnectionCalls.CALLS);
        Set<String> cpu = new HashSet<>();
        for (CpuCall.Kind k : CpuCall.Kind.values()) {
            cpu.add(k.call());
        }
        assertEquals(cpu, CpuCalls.CALLS);
    }
}
