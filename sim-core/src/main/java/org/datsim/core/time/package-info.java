/**
 * Simulated time, data rates and byte sizes.
 *
 * <p>Simulated time is a plain {@code long} number of picoseconds everywhere in datsim; there is no
 * wrapper type, so time arithmetic costs nothing beyond ordinary integer arithmetic. {@link
 * org.datsim.core.time.SimTime} holds the unit constants and the conversions to and from text,
 * {@link org.datsim.core.time.DataRate} turns a link rate into exact per-packet transmit times, and
 * {@link org.datsim.core.time.ByteSize} parses and formats sizes such as {@code "4KiB"}. All parsers
 * report bad input with a {@link org.datsim.core.time.UnitParseException} whose message names the
 * expected form.
 */
package org.datsim.core.time;
