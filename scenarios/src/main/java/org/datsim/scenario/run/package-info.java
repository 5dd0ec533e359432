/**
 * Running a validated scenario: one consumer process per scenario process, each a state machine on the engine (no
 * OS thread) that makes its calls on the DAT provider, blocks in simulated time where DAT blocks, checks its
 * expectations, and leaves {@code events.jsonl} and {@code summary.json} behind.
 */
package org.datsim.scenario.run;
