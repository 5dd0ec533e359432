package org.datsim.fabric.sw;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.fabric.link.NetworkNode;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.Port;

/**
 * A store-and-forward switch: a packet that has fully arrived joins the output queue of the port its route names
 * after a fixed forwarding latency. Routes are a table from destination host id to output port, filled from the
 * topology before the run.
 */
public final class Switch implements NetworkNode {

    private final String name;
    private final Simulator sim;
    private final long latencyPs;
    private final List<Port> ports = new ArrayList<>();
    private final ArrayDeque<Packet> forwarding = new ArrayDeque<>();
    private final EventHandler forward = this::forward;
    private int[] routes = new int[0];
    private long packetsForwarded;

    /**
     * Creates a switch.
     *
     * @param name its unique name
     * @param sim the simulator
     * @param latencyPs the forwarding latency in picoseconds
     */
    public Switch(String name, Simulator sim, long latencyPs) {
        this.name = name;
        this.sim = sim;
        this.latencyPs = latencyPs;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Adds a port and returns its index.
     *
     * @param port the sending side of the port's link
     * @return the index of the port
     */
    public int addPort(Port port) {
        ports.add(port);
        return ports.size() - 1;
    }

    /**
     * Sets the route table.
     *
     * @param routes for each destination host id, the output port index (-1 if unreachable)
     */
    public void setRoutes(int[] routes) {
        this.routes = routes.clone();
    }

    @Override
    public void receive(Packet packet, int inPort) {
        forwarding.addLast(packet);
        sim.schedule(latencyPs, forward, 0);
    }

    private void forward(long unused) {
        // Every packet waits the same latency, so they leave the forwarding stage in arrival order.
        Packet p = forwarding.pollFirst();
        int out = p.dstHost < routes.length ? routes[p.dstHost] : -1;
        if (out < 0) {
            throw new IllegalStateException("switch " + name + " has no route to host " + p.dstHost);
        }
        packetsForwarded++;
        ports.get(out).send(p);
    }

    /** Returns the packets forwarded so far. */
    public long packetsForwarded() {
        return packetsForwarded;
    }

    /** Returns the switch's ports in index order. */
    public List<Port> ports() {
        return List.copyOf(ports);
    }
}
