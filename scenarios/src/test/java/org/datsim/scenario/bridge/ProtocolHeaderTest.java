package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.scenario.consumer.CallCost;
import org.junit.jupiter.api.Test;

/**
 * The one definition of the bridge's protocol: {@code provider/datsim_protocol.h} is {@link Request} generated
 * ({@link ProtocolHeader}), the provider includes it and spells no request code of its own, and the frame codes it
 * still spells ({@code S_REPLY}, {@code C_INFO}, ...) are {@link Protocol}'s. Run with
 * {@code -Ddatsim.protocol.write=true} to regenerate the header.
 */
class ProtocolHeaderTest {

    /** The provider's sources, from this module's directory (where Maven runs the tests). */
    static final Path PROVIDER = Path.of("..", "provider");

    @Test
    void theHeaderIsGeneratedFromTheRequestEnum() throws Exception {
        Path header = PROVIDER.resolve("datsim_protocol.h");
        if (Boolean.getBoolean("datsim.protocol.write")) {
            ProtocolHeader.main(new String[] {header.toString()});
        }
        assertEquals(ProtocolHeader.text(), Files.readString(header),
                "provider/datsim_protocol.h is stale: regenerate it from Request (see ProtocolHeader)");
    }

    @Test
    void theProviderIncludesTheHeaderAndSpellsNoRequestCodeOfItsOwn() throws Exception {
        String c = Files.readString(PROVIDER.resolve("datsim_provider.c"));
        assertTrue(c.contains("#include \"datsim_protocol.h\""), "datsim_provider.c includes the generated header");
        for (Request r : Request.values()) {
            assertFalse(Pattern.compile("\\bC_" + r.name() + "\\s*=").matcher(c).find(),
                    "datsim_provider.c defines C_" + r.name() + " itself");
        }
        // every C_ name the provider uses is a request of the enum or one of Protocol's connection codes
        Set<String> known = new HashSet<>();
        for (Request r : Request.values()) {
            known.add("C_" + r.name());
        }
        known.add("C_INFO");
        known.add("C_THREAD");
        Matcher m = Pattern.compile("\\bC_[A-Z][A-Z_]*\\b").matcher(c);
        while (m.find()) {
            assertTrue(known.contains(m.group()), "datsim_provider.c uses " + m.group() + ", which no Java side has");
        }
    }

    @Test
    void theFrameCodesTheProviderSpellsAreProtocols() throws Exception {
        String c = Files.readString(PROVIDER.resolve("datsim_provider.c"));
        Map<String, Integer> java = Map.of("S_REPLY", Protocol.S_REPLY, "S_MEMREAD", Protocol.S_MEMREAD,
                "S_MEMWRITE", Protocol.S_MEMWRITE, "S_SYNC", Protocol.S_SYNC, "P_MEMDATA", Protocol.P_MEMDATA,
                "C_INFO", Protocol.C_INFO, "C_THREAD", Protocol.C_THREAD);
        Map<String, Integer> cCodes = new HashMap<>();
        Matcher m = Pattern.compile("\\b([SP]_[A-Z]+|C_INFO|C_THREAD)\\s*=\\s*(0x[0-9a-fA-F]+|\\d+)").matcher(c);
        while (m.find()) {
            cCodes.put(m.group(1), Integer.decode(m.group(2)));
        }
        for (Map.Entry<String, Integer> e : java.entrySet()) {
            assertEquals(e.getValue(), cCodes.get(e.getKey()), e.getKey() + " in datsim_provider.c");
        }
    }

    @Test
    void theHandshakesConstantCodesAreTheRequests() {
        // Protocol spells these two as constants for the handshake's switch statements
        assertEquals(Request.HELLO.code(), Protocol.C_HELLO);
        assertEquals(Request.SIDE.code(), Protocol.C_SIDE);
    }

    @Test
    void everyRequestHasADistinctCodeAndTheCostOfItsScenarioCall() {
        Set<Integer> codes = new HashSet<>();
        for (Request r : Request.values()) {
            assertTrue(codes.add(r.code()), "code " + r.code() + " twice");
            assertEquals(r, Request.of(r.code()));
            assertNotNull(r.cost());
        }
        assertEquals(null, Request.of(0));
        assertEquals(null, Request.of(1000));
        // the cost is the scenario call's: the posts of every kind, receives included, pay cpu.post_overhead
        assertEquals(CallCost.POST_REQUEST, Request.POST_ATOMIC.cost());
        assertEquals(CallCost.POST_REQUEST, Request.POST_WRITE_IMMED.cost());
        assertEquals(CallCost.POST_REQUEST, Request.RMR_BIND.cost());
        assertEquals(CallCost.POST_RECEIVE, Request.SRQ_POST_RECV.cost());
        assertEquals(CallCost.POST_RECEIVE, Request.POST_RECV.cost());
        assertEquals(CallCost.NONE, Request.EVD_DEQUEUE.cost());
        assertEquals(CallCost.NONE, Request.HELLO.cost());
        assertEquals(CallCost.CALL, Request.QUERY.cost());
        assertEquals("dat_ep_post_rdma_read", Protocol.name(Request.POST_READ.code()));
        assertEquals("request 999", Protocol.name(999));
    }
}
