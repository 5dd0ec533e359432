/** Switches: store-and-forward packet forwarding along routes computed on the topology. */
package org.datsim.fabric.sw;
