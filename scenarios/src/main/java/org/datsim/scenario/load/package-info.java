/**
 * Scenario files: the catalogue of calls a scenario may make and their arguments ({@link
 * org.datsim.scenario.load.CallCatalog}), and the loader that validates a file completely before simulated time 0,
 * reporting every problem with the file, the JSON path (or line and column) and what was expected.
 */
package org.datsim.scenario.load;
