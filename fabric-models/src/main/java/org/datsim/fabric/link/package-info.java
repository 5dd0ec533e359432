/**
 * Links and packets: a full-duplex link is two {@link org.datsim.fabric.link.Port}s, each serialising packets at the
 * link's rate (payload plus per-packet transport headers) and delivering them after the propagation delay, under
 * the link-level {@link org.datsim.fabric.link.FlowControl} of links into switches (InfiniBand credits, or PFC with
its PAUSE and RESUME as {@link org.datsim.fabric.link.PfcFrame}s from one port of a link to the other), with
 * per-port {@link org.datsim.fabric.link.PortCounters}. Packets come from a {@link org.datsim.fabric.link.PacketPool}
 * and are recycled, so the packet path allocates nothing in the steady state.
 */
package org.datsim.fabric.link;
