/**
 * The end-to-end demo ({@code ./prio-dp demo}). Nothing else depends on this package.
 */
package org.priodp.aggregator.demo;
