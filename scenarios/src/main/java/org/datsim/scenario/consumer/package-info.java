/**
 * The one DAT consumer core that scenario processes ({@code scenario.run}) and real programs attached through the
 * bridge ({@code scenario.bridge}) both drive: what a call costs the consumer's CPU ({@link
 * org.datsim.scenario.consumer.CallCost}, {@link org.datsim.scenario.consumer.CpuCosts}) and the {@code dequeue}
 * trace line of an event taken ({@link org.datsim.scenario.consumer.DequeueLine}). Whatever differs between a
 * scenario's call and a program's is how the call arrives (a validated step or a decoded request), never what it
 * costs or how it is traced.
 */
package org.datsim.scenario.consumer;
