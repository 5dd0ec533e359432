/** Small primitive-keyed data structures shared by the models and the writers (no boxing on hot paths). */
package org.datsim.core.util;
