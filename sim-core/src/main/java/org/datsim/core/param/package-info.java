/**
 * Model parameters declared once, with a unit, a default and a description ({@link org.datsim.core.param.ParamSpec}),
 * and resolved from user text at the edge of the program into typed values ({@link org.datsim.core.param.Params}).
 * Unknown keys and ill-typed values are errors, never silent defaults.
 */
package org.datsim.core.param;
