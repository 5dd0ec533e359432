package org.datsim.scenario.bridge;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.memory.Coherence;

/**
 * Answers, on the simulator's thread, the handshakes the {@link Acceptor} read and checked (docs/bridge.md,
 * Security): attaches a program to the host its hello names (or refuses it with one message), gives it a random
 * 128-bit token, attaches its further threads and its side channel by that token (compared in constant time),
 * answers datsim exec, and offers each connection that asks rings of the server's own {@link RingsDir}. A
 * connection that fails in its handshake (a program gone right after its hello) ends alone with one message.
 */
final class Attacher {

    private final BridgeServer server;
    /** The server's own directory of shared-memory rings, or null (every connection on its socket). */
    private final RingsDir rings;
    /** The programs attached (their first connections) and their tokens, index for index. */
    private final List<BridgeProcess> programs = new ArrayList<>();
    private final List<byte[]> tokens = new ArrayList<>();

    Attacher(BridgeServer server, RingsDir rings) {
        this.server = server;
        this.rings = rings;
    }

    /** Deletes the rings files still offered and the rings directory (the server's end). */
    void close() {
        if (rings != null) {
            rings.close();
        }
    }

    /** Serves the handshakes the acceptor read and checked, in the order they came. */
    void take(Acceptor acceptor) {
        Acceptor.Accepted a;
        while ((a = acceptor.poll()) != null) {
            Wire w;
            try {
                w = new Wire(a.channel(), a.after());
            } catch (IOException e) {
                server.message("connection " + a.number() + " failed (" + e.getMessage() + "); closed");
                closeQuietly(a.channel());
                continue;
            }
            w.writeTimeoutNs(server.writeTimeoutNs());
            Handshake h = a.handshake();
            try {
                switch (h.code()) {
                    case Protocol.C_SIDE -> side(w, a.number(), h);
                    case Protocol.C_THREAD -> thread(w, a.number(), h);
                    case Protocol.C_INFO -> {
                        info(w);
                        w.close();
                    }
                    default -> hello(w, a.number(), h);
                }
            } catch (IOException e) {
                server.message("connection " + a.number() + " failed in its handshake (" + e.getMessage()
                        + "); closed");
                w.close();
            }
        }
    }

    /** The attached program whose token this is (compared in constant time), or null. */
    private BridgeProcess program(byte[] token) {
        BridgeProcess found = null;
        for (int i = 0; i < programs.size(); i++) {
            if (Handshake.sameToken(tokens.get(i), token)) {
                found = programs.get(i);
            }
        }
        return found == null || found.closed() ? null : found;
    }

    /** Attaches a program's side channel (Protocol.C_SIDE: the program's token). */
    private void side(Wire w, int number, Handshake h) {
        BridgeProcess program = program(h.token());
        if (program == null) {
            server.message("connection " + number + " named no attached program's token for a side channel; closed");
            w.close();
            return;
        }
        program.side(w);
    }

    /** Attaches a further thread of an attached program (Protocol.C_THREAD: the program's token). */
    private void thread(Wire w, int number, Handshake h) throws IOException {
        BridgeProcess program = program(h.token());
        if (program == null) {
            ByteBuffer r = w.begin(Protocol.S_REPLY);
            r.putLong(server.sim().now());
            server.message("refused a thread connection (connection " + number
                    + "): its token is no attached program's");
            r.putInt(DatReturn.PROVIDER_NOT_FOUND);
            w.send();
            w.close();
            return;
        }
        SharedRings offer = h.wantsRings() ? newRings(w, "a thread of pid " + program.pid()) : null;
        ByteBuffer r = w.begin(Protocol.S_REPLY);
        r.putLong(server.sim().now());
        r.putInt(DatReturn.SUCCESS).putInt(server.spinUs());
        putRings(w, offer);
        sendOrRelease(w, offer);
        BridgeProcess p = new BridgeProcess(program, w);
        server.attachedNow(p, false);
        server.message("pid " + p.pid() + ": another thread attached (" + p.name() + ") at "
                + SimTime.format(server.sim().now()) + transport(offer));
        p.start(server.sim().now());
    }

    /** Attaches a program to the host its hello names (Protocol.C_HELLO), or refuses it with one message. */
    private void hello(Wire w, int number, Handshake h) throws IOException {
        String hostName = h.host();
        int pid = h.pid();
        DatHost host = server.dat().host(hostName);
        String refusal = null;
        if (host == null) {
            refusal = "host \"" + org.datsim.core.util.Text.clean(hostName) + "\" is not in the fabric (hosts: "
                    + String.join(", ", server.scenario().topology().hosts()) + ")";
        } else if (host.memory().coherence() != Coherence.COHERENT) {
            refusal = "host " + hostName + " is not CPU/IO coherent; real programs attach to coherent hosts only";
        } else {
            for (BridgeProcess p : server.processes()) {
                if (!p.closed() && p.host() == host) {
                    refusal = "host " + hostName + " already has a program attached (pid " + p.pid()
                            + "); one per host";
                }
            }
        }
        if (refusal != null) {
            ByteBuffer r = w.begin(Protocol.S_REPLY);
            r.putLong(server.sim().now());
            server.message("refused pid " + pid + " (connection " + number + "): " + refusal);
            r.putInt(DatReturn.PROVIDER_NOT_FOUND);
            w.send();
            w.close();
            return;
        }
        SharedRings offer = h.wantsRings() ? newRings(w, "pid " + pid) : null;
        byte[] token = Handshake.newToken();
        ByteBuffer r = w.begin(Protocol.S_REPLY);
        r.putLong(server.sim().now());
        r.putInt(DatReturn.SUCCESS).putInt(Protocol.ipOf(host.id()));
        w.room(Handshake.TOKEN_BYTES + 12).put(token).putLong(server.cpuScalePpm()).putInt(server.spinUs());
        putRings(w, offer);
        sendOrRelease(w, offer);
        BridgeProcess p = new BridgeProcess(server, w, host, pid,
                server.scenario().hostParams().getOrDefault(hostName, server.scenario().params()));
        programs.add(p);
        tokens.add(token);
        server.attachedNow(p, true);
        server.message("pid " + pid + " attached to host " + hostName + " (" + Protocol.dotted(host.id()) + ") at "
                + SimTime.format(server.sim().now()) + transport(offer));
        p.start(server.sim().now());
    }

    /** Creates the rings offered to a connection, or says in one message why it stays on the socket (null). */
    private SharedRings newRings(Wire w, String who) {
        if (rings == null) {
            return null;
        }
        try {
            return rings.create(w.waker());
        } catch (IOException | RuntimeException e) {
            server.message("cannot make shared memory for " + who + " (" + e.getMessage() + "): it uses the socket");
            return null;
        }
    }

    /** Ends a handshake's reply with the rings' path (u32 length, UTF-8; 0: none, the socket). */
    private static void putRings(Wire w, SharedRings offer) {
        byte[] b = offer == null ? new byte[0] : offer.path().toString().getBytes(StandardCharsets.UTF_8);
        w.room(4 + b.length).putInt(b.length).put(b);
    }

    /** Sends a handshake's reply and offers its rings; deletes their file if the reply cannot be sent. */
    private void sendOrRelease(Wire w, SharedRings offer) throws IOException {
        try {
            w.send();
        } catch (IOException e) {
            if (offer != null) {
                rings.release(offer.path());
            }
            throw e;
        }
        if (offer != null) {
            w.offerShared(offer, server.spinUs(), taken -> rings.release(taken.path()));
        }
    }

    /** Answers datsim exec: the dat.conf, the provider library and the hosts (Protocol.C_INFO). */
    private void info(Wire w) throws IOException {
        ByteBuffer r = w.begin(Protocol.S_REPLY);
        r.putLong(server.sim().now()).putInt(DatReturn.SUCCESS);
        List<String> names = new ArrayList<>();
        names.add(server.datConf() == null ? "" : server.datConf().toString());
        names.add(server.library() == null ? "" : server.library().toString());
        for (String s : names) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            w.room(4 + b.length).putInt(b.length).put(b);
        }
        List<String> hosts = server.scenario().topology().hosts();
        w.room(4).putInt(hosts.size());
        for (String h : hosts) {
            byte[] b = h.getBytes(StandardCharsets.UTF_8);
            w.room(4 + b.length).putInt(b.length).put(b);
        }
        w.send();
    }

    private static String transport(SharedRings offer) {
        return offer != null ? ", through shared memory" : ", through the socket";
    }

    private static void closeQuietly(java.nio.channels.SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
