package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loader types the data transfer calls ({@link DtoCall}, the posts as {@link PostCall}) and the calls that take
 * events ({@link EventCall}) once: each kind is a catalogue call, its arguments are read by field with their JSON
 * paths, and a typed call that names an argument the catalogue does not declare fails at load instead of reading a
 * silent default.
 */
class PostCallTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyPostKindIsACatalogueCallAndEveryCataloguePostHasAKind() {
        for (PostCall.Kind k : PostCall.Kind.values()) {
            assertNotNull(CallCatalog.get(k.call()), k.call());
            assertEquals(k, PostCall.Kind.of(k.call()));
        }
        for (String call : CallCatalog.all().keySet()) {
            boolean post = call.startsWith("dat_ep_post_") || call.startsWith("dat_ib_post_");
            assertEquals(post, PostCall.Kind.of(call) != null, call);
        }
    }

    @Test
    void aPostStepCarriesItsTypedCallWithPaths() throws Exception {
        ObjectNode n = (ObjectNode) JSON.readTree("{\"call\": \"dat_ib_post_cmp_and_swap\", \"ep\": \"$ep\","
                + " \"cmp_value\": 1, \"swap_value\": \"$i\", \"local_iov\": [{\"lmr\": \"$l\", \"length\": 8}],"
                + " \"remote_iov\": {\"rmr_context\": 1, \"address\": 0, \"length\": 8}}");
        Step s = new Step(0, "$.processes[0].calls[3]", CallCatalog.get("dat_ib_post_cmp_and_swap"), n);
        PostCall c = (PostCall) s.dto();
        assertEquals(PostCall.Kind.CMP_AND_SWAP, c.kind());
        assertEquals("$.processes[0].calls[3].swap_value", c.swapValue().path());
        assertEquals("$i", c.swapValue().node().asText());
        assertFalse(c.userCookie().present(), "left out: the default applies");
        assertFalse(c.immediateData().present(), "not an argument of this post");
        assertTrue(c.remoteIov().present());
        ObjectNode other = (ObjectNode) JSON.readTree("{\"call\": \"dat_pz_create\", \"ia\": \"$ia\"}");
        assertNull(new Step(1, "$", CallCatalog.get("dat_pz_create"), other).dto(),
                "a pz_create is typed, but not as a data transfer call");
    }

    @Test
    void everyDataTransferCallIsTypedAndNoOtherCall() throws Exception {
        for (String call : CallCatalog.all().keySet()) {
            ObjectNode n = JSON.createObjectNode().put("call", call);
            DtoCall c = new Step(0, "$.c", CallCatalog.get(call), n).dto();
            boolean dto = call.startsWith("dat_ep_post_") || call.startsWith("dat_ib_post_")
                    || call.equals("dat_srq_post_recv") || call.equals("dat_rmr_bind")
                    || call.startsWith("dat_lmr_sync_rdma_");
            assertEquals(dto, c != null, call);
        }
        ObjectNode bind = (ObjectNode) JSON.readTree("{\"call\": \"dat_rmr_bind\", \"rmr\": \"$r\", \"lmr\": \"$l\","
                + " \"length\": 64, \"mem_priv\": \"DAT_MEM_PRIV_REMOTE_WRITE_FLAG\", \"ep\": \"$ep\"}");
        RmrBindCall b = (RmrBindCall) new Step(0, "$.b", CallCatalog.get("dat_rmr_bind"), bind).dto();
        assertEquals(DtoCall.Form.RMR_BIND, b.form());
        assertEquals("$.b.mem_priv", b.memPriv().path());
        assertFalse(b.offset().present());
        ObjectNode sync = (ObjectNode) JSON.readTree("{\"call\": \"dat_lmr_sync_rdma_write\", \"ia\": \"$ia\","
                + " \"local_segments\": []}");
        assertTrue(((LmrSyncCall) new Step(0, "$", CallCatalog.get("dat_lmr_sync_rdma_write"), sync).dto()).write());
    }

    @Test
    void theCallsThatTakeEventsAreTyped() throws Exception {
        ObjectNode wait = (ObjectNode) JSON.readTree("{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\","
                + " \"timeout\": \"10us\"}");
        Step s = new Step(0, "$.w", CallCatalog.get("dat_evd_wait"), wait);
        EvdWaitCall w = (EvdWaitCall) s.event();
        assertEquals(EventCall.Form.EVD_WAIT, w.form());
        assertEquals("$.w.timeout", w.timeout().path());
        assertFalse(w.threshold().present(), "the default threshold, 1, applies");
        assertNull(s.dto());
        assertEquals(EventCall.Form.CNO_WAIT, new Step(0, "$", CallCatalog.get("dat_cno_wait"),
                JSON.createObjectNode()).event().form());
        assertEquals(EventCall.Form.DEQUEUE, new Step(0, "$", CallCatalog.get("dat_evd_dequeue"),
                JSON.createObjectNode()).event().form());
        assertNull(new Step(0, "$", CallCatalog.get("dat_ep_post_send"), JSON.createObjectNode()).event());
    }

    @Test
    void aTypedArgumentTheCallDoesNotDeclareFailsAtLoad() {
        CallSpec renamed = new CallSpec("dat_ep_post_send", null, "op", List.of(), "a send whose cookie was renamed",
                new CallSpec.Arg("ep", ArgType.HANDLE, true, null, null),
                new CallSpec.Arg("local_iov", ArgType.IOV, true, null, null),
                new CallSpec.Arg("cookie", ArgType.INT, false, null, null),
                new CallSpec.Arg("completion_flags", ArgType.FLAGS, false, null, null));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PostCall.of(renamed, JSON.createObjectNode(), "$"));
        assertTrue(e.getMessage().contains("user_cookie"), e.getMessage());
    }
}
