package io.heliograph.topology;

import java.util.List;

/**
 * Told about topology changes. Register as an OSGi service (whiteboard). Called on the
 * topology's own thread, in order, with the events of one change together; must not block.
 */
public interface TopologyListener {

    void topologyChanged(List<TopologyEvent> events);
}
