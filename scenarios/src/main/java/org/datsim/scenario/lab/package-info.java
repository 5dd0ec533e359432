/**
 * The fencing lab ({@code datsim lab}): lessons, each a pair of scenarios (the hazard and its fix) with a title, the
 * DAT rules it teaches and a trace sign of the hazard; running a lesson runs both scenarios, checks the sign, and
 * tells what happened from the traces.
 */
package org.datsim.scenario.lab;
