/** perftest-style calibration of the fabric presets: generated scenarios, their curves and published targets. */
package org.datsim.scenario.calibrate;
