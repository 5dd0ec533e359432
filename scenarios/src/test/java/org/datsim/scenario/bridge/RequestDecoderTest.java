package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.scenario.load.PostCall;
import org.junit.jupiter.api.Test;

/**
 * The bridge's one decoder: every {@link Request} decodes from a sample frame ({@link RequestSamples}) into a record
 * of that request, reading exactly the frame; a frame cut short anywhere is refused (BufferUnderflowException, the
 * program's connection ends) and a count larger than the frame allocates nothing.
 */
class RequestDecoderTest {

    @Test
    void everyRequestHasASampleAndDecodesItExactly() {
        Map<Request, ByteBuffer> samples = RequestSamples.all();
        for (Request r : Request.values()) {
            ByteBuffer b = samples.get(r);
            assertTrue(b != null, r + " has no sample frame in RequestSamples: add one (and its recording)");
            BridgeCall c = RequestDecoder.decode(r, b.duplicate().order(ByteOrder.LITTLE_ENDIAN));
            assertEquals(r, c.request(), r + " decodes into a record of another request");
            ByteBuffer read = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            RequestDecoder.decode(r, read);
            assertEquals(0, read.remaining(), r + " leaves bytes of its frame unread");
        }
    }

    @Test
    void everyShortFrameIsRefused() {
        for (Map.Entry<Request, ByteBuffer> e : RequestSamples.everything()) {
            ByteBuffer b = e.getValue();
            for (int n = 0; n < b.remaining(); n++) {
                ByteBuffer cut = b.duplicate().order(ByteOrder.LITTLE_ENDIAN).limit(n);
                assertThrows(BufferUnderflowException.class, () -> RequestDecoder.decode(e.getKey(), cut),
                        e.getKey() + " cut to " + cut.limit() + " bytes");
            }
        }
    }

    @Test
    void aCountLargerThanTheFrameIsRefusedBeforeAnyAllocation() {
        ByteBuffer b = RequestSamples.frame(8, Integer.MAX_VALUE, 1L);
        assertThrows(BufferUnderflowException.class, () -> RequestDecoder.decode(Request.POST_SEND, b));
        ByteBuffer s = RequestSamples.frame(-1);
        assertThrows(BufferUnderflowException.class, () -> RequestDecoder.decode(Request.UNSUPPORTED, s));
    }

    @Test
    void fieldsLandWhereTheWireHasThem() {
        Map<Request, ByteBuffer> samples = RequestSamples.all();
        BridgeCall.Post atomic = (BridgeCall.Post) RequestDecoder.decode(Request.POST_ATOMIC,
                samples.get(Request.POST_ATOMIC));
        assertEquals(PostCall.Kind.CMP_AND_SWAP, atomic.kind());
        assertEquals("dat_ib_post_cmp_and_swap", atomic.call());
        assertEquals(40L, atomic.first());
        assertEquals(41L, atomic.second());
        assertEquals(16L, atomic.cookie());
        assertEquals(31, atomic.remote().rmrContext());
        BridgeCall.Post immed = (BridgeCall.Post) RequestDecoder.decode(Request.POST_WRITE_IMMED,
                samples.get(Request.POST_WRITE_IMMED));
        assertEquals(0xfeedbeef, immed.immediate());
        assertEquals(2, immed.iov().length);
        assertEquals(0x20000L, immed.iov()[1].address());
        BridgeCall.EpCreate ep = (BridgeCall.EpCreate) RequestDecoder.decode(Request.EP_CREATE,
                samples.get(Request.EP_CREATE));
        EpAttributes d = EpAttributes.defaults();
        assertEquals(d.maxMessageSize(), ep.attr().maxMessageSize(), "at least datsim's default message size");
        assertEquals(1L << 40, ep.attr().maxRdmaSize());
        assertEquals(5, ep.attr().maxRdmaReadOut());
        assertEquals("dat_evd_enable", new BridgeCall.Toggle(Request.EVD_ENABLE, 4, true).call());
        assertEquals("dat_evd_clear_unwaitable", new BridgeCall.Toggle(Request.EVD_UNWAITABLE, 4, false).call());
        assertEquals("dat_lmr_sync_rdma_write", RequestDecoder.decode(Request.LMR_SYNC,
                samples.get(Request.LMR_SYNC)).call());
    }
}
