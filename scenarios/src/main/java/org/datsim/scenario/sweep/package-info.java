/**
 * What-if studies: a study file names a base scenario, axes of parameter values (addressed by JSON Pointer into the
 * scenario), repetitions and metrics ({@link org.datsim.scenario.sweep.StudyLoader}); the sweep runs every point,
 * each into a directory named by the hash of its scenario and seed, resumably and in parallel
 * ({@link org.datsim.scenario.sweep.SweepRunner}), merges the results into tables with confidence intervals and plots
 * ({@link org.datsim.scenario.sweep.SweepMerger}), and writes Slurm job-array scripts
 * ({@link org.datsim.scenario.sweep.SlurmScripts}).
 */
package org.datsim.scenario.sweep;
