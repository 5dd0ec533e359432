package org.datsim.scenario.bridge.archfixture;

import java.nio.ByteBuffer;

/** Breaks a consumer core rule on purpose (for ConsumerCoreTest): a recorder that decodes the frame again. */
public final class Recorder {
    int handle(ByteBuffer request) {
        return request.getInt();
    }
}
