/**
 * Links and packets: a full-duplex link is two {@link org.datsim.fabric.link.Port}s, each serialising packets at the
 * link's rate (payload plus per-packet transport headers) and delivering them after the propagation delay.
 */
package org.datsim.fabric.link;
