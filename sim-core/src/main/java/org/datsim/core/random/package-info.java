/**
 * Reproducible random numbers: {@link org.datsim.core.random.RandomStreams} derives an independent,
 * named generator for each consumer from one run seed, so adding a consumer never perturbs the
 * numbers drawn by the others.
 */
package org.datsim.core.random;
