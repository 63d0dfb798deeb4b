/**
 * What core offers the OpenFlow layer alone (exported to {@code io.heliograph.openflow} only, as an
 * {@code x-friends} package): apps and the operator API use {@code io.heliograph.core}.
 */
package io.heliograph.core.spi;
