package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.datsim.scenario.consumer.CallCost;
import org.datsim.scenario.load.CallCatalog;
import org.datsim.scenario.load.Step;
import org.junit.jupiter.api.Test;

/**
 * The interpreter's table of each step: every call of the catalogue is executed by exactly one family of calls, and
 * each call is charged the CPU cost its declaration gives (CallCost): post overhead and a doorbell for every request
 * on the send queue (the endpoint posts, the IB extensions' posts, dat_rmr_bind), post overhead and no doorbell for
 * the receives (dat_ep_post_recv, dat_srq_post_recv), none for waits, dequeues, memory access and sleeps, call
 * overhead for the rest.
 */
class ProgramTest {

    private static final Map<Program.Family, Set<String>> FAMILIES = Map.of(
            Program.Family.OBJECTS, ObjectCalls.CALLS, Program.Family.QUERIES, QueryCalls.CALLS,
            Program.Family.CONNECTIONS, ConnectionCalls.CALLS, Program.Family.DTO, DtoCalls.CALLS,
            Program.Family.EVENTS, EventCalls.CALLS, Program.Family.CPU, CpuCalls.CALLS);

    @Test
    void everyCatalogueCallHasExactlyOneFamily() {
        Set<String> listed = new TreeSet<>();
        for (Map.Entry<Program.Family, Set<String>> f : FAMILIES.entrySet()) {
            for (String call : f.getValue()) {
                assertEquals(f.getKey(), Program.familyOf(call), call);
                assertTrue(listed.add(call), call + " is in two families");
            }
        }
        assertEquals(new TreeSet<>(CallCatalog.all().keySet()), listed);
        assertNull(Program.familyOf("dat_ep_post_rdma_write_immed"));
    }

    @Test
    void costClassesAreThoseTheCallsDeclare() {
        List<Step> steps = new ArrayList<>();
        for (String call : CallCatalog.all().keySet()) {
            steps.add(new Step(steps.size(), "$", CallCatalog.get(call), JsonNodeFactory.instance.objectNode()));
        }
        steps.add(new Step(steps.size(), "$", CallCatalog.REPEAT, JsonNodeFactory.instance.objectNode(),
                Step.REPEAT_BEGIN, null, steps.size() + 1));
        Program program = new Program(steps);
        Set<String> request = Set.of("dat_ep_post_send", "dat_ep_post_rdma_write", "dat_ep_post_rdma_read",
                "dat_ib_post_rdma_write_immed", "dat_ib_post_fetch_and_add", "dat_ib_post_cmp_and_swap",
                "dat_rmr_bind");
        Set<String> receive = Set.of("dat_ep_post_recv", "dat_srq_post_recv");
        Set<String> none = Set.of("dat_evd_wait", "dat_cno_wait", "dat_evd_dequeue", "mem_write", "mem_read",
                "sleep");
        for (Step s : steps.subList(0, steps.size() - 1)) {
            String call = s.spec().name();
            CallCost want = request.contains(call) ? CallCost.POST_REQUEST
                    : receive.contains(call) ? CallCost.POST_RECEIVE : none.contains(call) ? CallCost.NONE : CallCost.CALL;
            assertEquals(want, program.cost(s.index()), call);
            assertNotNull(program.family(s.index()), call);
        }
        assertNull(program.family(steps.size() - 1), "a repeat step has no family");
    }
}
