package org.datsim.scenario.bridge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes {@code provider/datsim_protocol.h}, the C side's request codes, from {@link Request}: the one definition of
 * the codes. {@code ProtocolHeaderTest} fails when the header in the tree differs from {@link #text()}; to
 * regenerate it, run that test with {@code -Ddatsim.protocol.write=true}, or this class's main with the header's path.
 */
final class ProtocolHeader {

    private ProtocolHeader() {
    }

    /** Returns the header's text. */
    static String text() {
        StringBuilder b = new StringBuilder();
        b.append("/*\n * Request codes of the bridge's protocol (docs/bridge.md). GENERATED from\n")
                .append(" * org.datsim.scenario.bridge.Request by ProtocolHeader: do not edit; ProtocolHeaderTest fails"
                        + " when\n * this file is stale (regenerate: mvn -B -q -pl scenarios -am test"
                        + " -Dtest=ProtocolHeaderTest\n * -Dsurefire.failIfNoSpecifiedTests=false"
                        + " -Ddatsim.protocol.write=true).\n */\n")
                .append("#ifndef DATSIM_PROTOCOL_H\n#define DATSIM_PROTOCOL_H\n\nenum {\n");
        Request[] all = Request.values();
        for (int i = 0; i < all.length; i++) {
            Request r = all[i];
            b.append("    C_").append(r.name().toUpperCase(Locale.ROOT)).append(" = ").append(r.code())
                    .append(i + 1 < all.length ? "," : "").append(" /* ").append(r.call()).append(" */\n");
        }
        return b.append("};\n\n#endif\n").toString();
    }

    /**
     * Writes the header.
     *
     * @param args the header's path (default provider/datsim_protocol.h)
     * @throws IOException if it cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path p = Path.of(args.length > 0 ? args[0] : "provider/datsim_protocol.h");
        Files.writeString(p, text(), StandardCharsets.UTF_8);
    }
}
