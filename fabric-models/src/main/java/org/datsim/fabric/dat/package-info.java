/**
 * The simulator's DAT provider: DAT objects (IA, PZ, LMR, RMR, EVD, CNO, EP, SRQ, PSP, RSP, CR), the calls on them with
 * the DAT_RETURN codes of the DAT 2.0 headers and the semantics of the man pages, connection management, the
 * registry, and event delivery. {@link org.datsim.fabric.dat.DatProvider} is the facade; one package-private part per
 * group of calls implements them. Data movement is delegated to the HCA model ({@link org.datsim.fabric.hca}).
 */
package org.datsim.fabric.dat;
