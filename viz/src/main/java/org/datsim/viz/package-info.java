/**
 * Reading run traces ({@code events.jsonl}, whose schema sim-core owns) and rendering them for people: for now the
 * per-operation lifecycle table; timelines and plots come next. Depends on sim-core only, never on the models.
 */
package org.datsim.viz;
