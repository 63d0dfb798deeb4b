/**
 * The cluster as applications see it: instances, switch mastership and the shared store. The
 * implementation (ZooKeeper through Curator) is the io.heliograph.cluster bundle.
 */
package io.heliograph.core.cluster;
