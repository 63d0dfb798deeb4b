package io.heliograph.webui;

import java.util.function.Supplier;

import io.heliograph.core.MessageStatistics;
import io.heliograph.core.SwitchService;

/**
 * The parts of the controller the web bundle's own resources read: its version and the core services,
 * each of which may be absent while its bundle is stopped (the supplier then answers null).
 */
record ControllerView(String version, Supplier<SwitchService> switches, Supplier<MessageStatistics> messages) {
}
