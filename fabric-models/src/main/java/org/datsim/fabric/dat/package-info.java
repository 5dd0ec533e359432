/**
 * The simulator's DAT provider: DAT objects (IA, PZ, LMR, EVD, EP, PSP, CR), the calls on them with the DAT_RETURN
 * codes of the DAT 2.0 headers and the semantics of the man pages, connection management, and event delivery. Data
 * movement is delegated to the HCA model ({@link org.datsim.fabric.hca}).
 */
package org.datsim.fabric.dat;
