/**
 * Host memory as real bytes, stored sparsely: a page exists only once something non-zero was written to it, so a
 * registered terabyte costs nothing until it is touched, and the resident size is bounded.
 */
package org.datsim.fabric.memory;
