package io.heliograph.webui.rest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.PipelineService;

/**
 * A {@link PipelineService} with listener names instead of listeners: registered names run in the
 * configured order, unmentioned ones last in registration order, as the core's pipelines do.
 */
final class FakePipelines implements PipelineService {

    private final Map<OFType, List<String>> registered = new EnumMap<>(OFType.class);
    private final Map<OFType, List<String>> orders = new EnumMap<>(OFType.class);
    int setOrderCalls;

    FakePipelines register(OFType type, String... names) {
        registered.computeIfAbsent(type, t -> new ArrayList<>()).addAll(List.of(names));
        return this;
    }

    @Override
    public synchronized Map<OFType, List<String>> getPipelines() {
        Map<OFType, List<String>> result = new EnumMap<>(OFType.class);
        registered.forEach((type, names) -> {
            List<String> order = getOrder(type);
            List<String> sorted = new ArrayList<>(names);
            sorted.sort(Comparator.comparingInt(n -> order.contains(n) ? order.indexOf(n) : order.size()));
            result.put(type, List.copyOf(sorted));
        });
        return result;
    }

    @Override
    public synchronized List<String> getOrder(OFType type) {
        return orders.getOrDefault(type, List.of());
    }

    @Override
    public synchronized void setOrder(OFType type, List<String> names) {
        setOrderCalls++;
        orders.put(type, List.copyOf(names));
    }
}
