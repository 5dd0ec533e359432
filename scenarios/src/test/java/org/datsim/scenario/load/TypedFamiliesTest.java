package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The object calls ({@link ObjectCall}), queries ({@link QueryCall}), connection calls ({@link ConnectionCall}) and
 * CPU calls ({@link CpuCall}) are typed by the loader like the data transfer calls (see {@link PostCallTest}): every
 * call of a family is typed as that family and no other call is, every kind is a catalogue call, the record carries
 * each argument with its JSON path, and a typed call that reads an argument its call does not declare is a located
 * load problem. Every catalogue call is in exactly one family, and a step's name, after and out are typed on it.
 */
class TypedFamiliesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Step step(String json) throws Exception {
        ObjectNode n = (ObjectNode) JSON.readTree(json);
        return new Step(0, "$.processes[1].calls[4]", CallCatalog.get(n.get("call").asText()), n);
    }

    private static int families(TypedCall c) {
        return (c instanceof DtoCall ? 1 : 0) + (c instanceof EventCall ? 1 : 0) + (c instanceof ObjectCall ? 1 : 0)
                + (c instanceof QueryCall ? 1 : 0) + (c instanceof ConnectionCall ? 1 : 0)
                + (c instanceof CpuCall ? 1 : 0);
    }

    @Test
    void everyCatalogueCallIsTypedInExactlyOneFamily() {
        for (String call : CallCatalog.all().keySet()) {
            TypedCall c = new Step(0, "$", CallCatalog.get(call), JSON.createObjectNode().put("call", call)).typed();
            assertNotNull(c, call + " is not typed");
            assertEquals(1, families(c), call);
        }
    }

    @Test
    void everyKindIsACatalogueCallTypedAsItsKind() {
        for (ObjectCall.Kind k : ObjectCall.Kind.values()) {
            TypedCall c = new Step(0, "$", CallCatalog.get(k.call()), JSON.createObjectNode()).typed();
            assertSame(k, ((ObjectCall) c).kind(), k.call());
        }
        for (QueryCall.Kind k : QueryCall.Kind.values()) {
            TypedCall c = new Step(0, "$", CallCatalog.get(k.call()), JSON.createObjectNode()).typed();
            assertSame(k, ((QueryCall) c).kind(), k.call());
        }
        for (ConnectionCall.Kind k : ConnectionCall.Kind.values()) {
            TypedCall c = new Step(0, "$", CallCatalog.get(k.call()), JSON.createObjectNode()).typed();
            assertSame(k, ((ConnectionCall) c).kind(), k.call());
        }
        for (CpuCall.Kind k : CpuCall.Kind.values()) {
            TypedCall c = new Step(0, "$", CallCatalog.get(k.call()), JSON.createObjectNode()).typed();
            assertSame(k, ((CpuCall) c).kind(), k.call());
        }
        int kinds = ObjectCall.Kind.values().length + QueryCall.Kind.values().length
                + ConnectionCall.Kind.values().length + CpuCall.Kind.values().length;
        int others = 0;
        for (String call : CallCatalog.all().keySet()) {
            TypedCall c = new Step(0, "$", CallCatalog.get(call), JSON.createObjectNode()).typed();
            others += c instanceof DtoCall || c instanceof EventCall ? 1 : 0;
        }
        assertEquals(CallCatalog.all().size(), kinds + others, "every call not a transfer or event call has a kind");
    }

    @Test
    void objectCallsCarryTheirArguments() throws Exception {
        ObjectCall.LmrCreate l = (ObjectCall.LmrCreate) step("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\","
                + " \"pz\": \"$pz\", \"length\": \"4KiB\"}").typed();
        assertEquals("$.processes[1].calls[4].length", l.length().path());
        assertEquals("4KiB", l.length().node().asText());
        assertFalse(l.privileges().present(), "left out: all privileges");
        assertFalse(l.address().present());
        ObjectCall.HandleNumber r = (ObjectCall.HandleNumber) step("{\"call\": \"dat_srq_set_lw\", \"srq\": \"$s\","
                + " \"low_watermark\": 3}").typed();
        assertEquals(ObjectCall.Kind.SRQ_SET_LW, r.kind());
        assertEquals("$s", r.handle().node().asText());
        assertEquals("$.processes[1].calls[4].low_watermark", r.number().path());
        ObjectCall.OneHandle f = (ObjectCall.OneHandle) step("{\"call\": \"dat_rmr_create\", \"pz\": \"$pz\"}").typed();
        assertEquals("$.processes[1].calls[4].pz", f.handle().path());
        ObjectCall.Provider p = (ObjectCall.Provider) step("{\"call\": \"dat_provider_fini\", \"ia_name\": \"x\"}")
                .typed();
        assertEquals(ObjectCall.Kind.PROVIDER_FINI, p.kind());
        assertEquals("x", p.iaName().node().asText());
    }

    @Test
    void queryConnectionAndCpuCallsCarryTheirArguments() throws Exception {
        QueryCall.OneHandle q = (QueryCall.OneHandle) step("{\"call\": \"dat_get_handle_type\", \"handle\": \"$x\"}")
                .typed();
        assertEquals(QueryCall.Kind.GET_HANDLE_TYPE, q.kind());
        assertEquals("$.processes[1].calls[4].handle", q.handle().path());
        assertEquals("$.processes[1].calls[4].ep", ((QueryCall.OneHandle) step("{\"call\": \"dat_ep_query\","
                + " \"ep\": \"$ep\"}").typed()).handle().path());
        assertEquals("DAT_INSUFFICIENT_RESOURCES", ((QueryCall.Strerror) step("{\"call\": \"dat_strerror\","
                + " \"value\": \"DAT_INSUFFICIENT_RESOURCES\"}").typed()).value().node().asText());

        ConnectionCall.EpConnect c = (ConnectionCall.EpConnect) step("{\"call\": \"dat_ep_connect\", \"ep\": \"$ep\","
                + " \"remote_ia_address\": {\"host_index\": 1}, \"remote_conn_qual\": 7, \"timeout\": \"10us\"}")
                .typed();
        assertEquals(1, c.remoteIaAddress().node().get("host_index").asInt());
        assertEquals("$.processes[1].calls[4].timeout", c.timeout().path());
        assertFalse(c.privateData().present());
        ConnectionCall.EpCreate e = (ConnectionCall.EpCreate) step("{\"call\": \"dat_ep_create\", \"ia\": \"$ia\","
                + " \"pz\": \"$pz\", \"recv_evd\": \"$r\", \"request_evd\": \"$q\", \"connect_evd\": \"$c\"}").typed();
        assertEquals(ConnectionCall.Kind.EP_CREATE, e.kind());
        assertSame(Arg.NONE, e.srq(), "dat_ep_create takes no SRQ");
        assertEquals("$q", e.requestEvd().node().asText());
        ConnectionCall.PspCreate any = (ConnectionCall.PspCreate) step("{\"call\": \"dat_psp_create_any\","
                + " \"ia\": \"$ia\", \"evd\": \"$e\"}").typed();
        assertSame(Arg.NONE, any.connQual());
        ConnectionCall.HandleFlags d = (ConnectionCall.HandleFlags) step("{\"call\": \"dat_ep_disconnect\","
                + " \"ep\": \"$ep\", \"flags\": \"DAT_CLOSE_ABRUPT_FLAG\"}").typed();
        assertEquals("DAT_CLOSE_ABRUPT_FLAG", d.flags().node().asText());

        CpuCall.MemWrite w = (CpuCall.MemWrite) step("{\"call\": \"mem_write\", \"lmr\": \"$l\","
                + " \"data\": {\"fill\": 1, \"length\": 64}}").typed();
        assertEquals("$.processes[1].calls[4].data", w.data().path());
        assertFalse(w.offset().present());
        assertEquals("2us", ((CpuCall.Sleep) step("{\"call\": \"sleep\", \"time\": \"2us\"}").typed()).time().node()
                .asText());
    }

    @Test
    void aStepsNameAfterAndOutAreTyped() throws Exception {
        Step s = step("{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz[$i]\", \"name\": \"made\","
                + " \"after\": [\"a/x\", \"b/y\"]}");
        assertEquals("made", s.name());
        assertEquals(List.of("a/x", "b/y"), s.after());
        assertEquals("pz[$i]", s.out());
        Step bare = step("{\"call\": \"sleep\", \"time\": \"1us\", \"after\": \"a/x\"}");
        assertNull(bare.name());
        assertNull(bare.out());
        assertEquals(List.of("a/x"), bare.after());
        assertTrue(step("{\"call\": \"sleep\", \"time\": \"1us\"}").after().isEmpty());
        assertSame(Arg.NONE, s.repeat(), "a call has no repeat count");
        ObjectNode block = (ObjectNode) JSON.readTree("{\"repeat\": \"$n * 2\", \"as\": \"i\", \"calls\": []}");
        Step begin = new Step(3, "$.processes[0].calls[1]", CallCatalog.REPEAT, block, Step.REPEAT_BEGIN, "i", 4);
        assertEquals("$n * 2", begin.repeat().node().asText());
        assertEquals("$.processes[0].calls[1].repeat", begin.repeat().path());
    }

    @Test
    void aTypedArgumentTheCallDoesNotDeclareIsALocatedProblem() {
        CallSpec renamed = new CallSpec("dat_ia_open", null, "ia", List.of(), "an open whose ia_name was renamed",
                new CallSpec.Arg("name", ArgType.STRING, false, null, null),
                new CallSpec.Arg("async_evd_qlen", ArgType.INT, false, null, null));
        Arg.Undeclared e = assertThrows(Arg.Undeclared.class,
                () -> ObjectCall.of(renamed, JSON.createObjectNode(), "$.processes[0].calls[2]"));
        assertEquals("$.processes[0].calls[2].ia_name", e.path);
        assertTrue(e.detail.contains("dat_ia_open") && e.detail.contains("[name, async_evd_qlen]"), e.detail);
    }
}
