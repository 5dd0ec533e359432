/** The {@code datsim} command line (picocli): run, validate, params and bench. */
package org.datsim.scenario.cli;
