/**
 * The assembled fabric ({@link org.datsim.fabric.Fabric}) and its parameter catalogue
 * ({@link org.datsim.fabric.FabricParams}). Sub-packages hold the models: {@code hca}, {@code link}, {@code sw},
 * {@code memory}, {@code topology}, and the DAT provider in {@code dat}.
 */
package org.datsim.fabric;
