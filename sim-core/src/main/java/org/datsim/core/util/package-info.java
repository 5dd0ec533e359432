/**
 * Small primitive-keyed data structures shared by the models and the writers (no boxing on hot paths), and
 * {@link org.datsim.core.util.Text}, the one way input quoted in a message is made safe to print.
 */
package org.datsim.core.util;
