package org.datsim.scenario.bridge;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link BridgeServer} serving in a thread of a dapl integration test: its dat.conf written (naming
 * provider/libdatsim.so), started, and returned once its socket exists, so that programs can attach.
 */
final class ServingThread {

    final Thread thread;
    private volatile int rc = -1;

    private ServingThread(BridgeServer server, Path out) {
        thread = new Thread(() -> {
            try {
                rc = server.serve(out);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    static ServingThread start(BridgeServer server, Path out, Path sock) throws Exception {
        server.writeDatConf(out.resolve("dat.conf"), DaplIntegrationTest.PROVIDER.resolve("libdatsim.so"));
        ServingThread s = new ServingThread(server, out);
        s.thread.start();
        while (!Files.exists(sock)) {
            Thread.sleep(10);
        }
        return s;
    }

    /** The exit code serve returned, -1 while it serves. */
    int rc() {
        return rc;
    }
}
