package io.heliograph.webui.rest;

import java.util.Locale;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.protocol.OFPortDesc;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchListener;
import io.heliograph.webui.api.LiveEvents;

/**
 * Publishes {@code switch} live events ({@link SwitchChange}) as switches connect, disconnect and change
 * ports. Called on the switch's I/O thread; publishing only queues the event.
 */
@Component(service = SwitchListener.class)
public final class SwitchEvents implements SwitchListener {

    static final String TYPE = "switch";

    private final LiveEvents events;

    @Activate
    public SwitchEvents(@Reference LiveEvents events) {
        this.events = events;
    }

    @Override
    public void switchAdded(OFSwitch sw) {
        events.publish(TYPE, () -> new SwitchChange("connected", sw.getId().toString(), SwitchViews.summary(sw), null, null));
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        events.publish(TYPE, () -> new SwitchChange("disconnected", sw.getId().toString(), SwitchViews.summary(sw), null,
                null));
    }

    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        events.publish(TYPE, () -> new SwitchChange("changed", sw.getId().toString(), SwitchViews.summary(sw),
                change.name().toLowerCase(Locale.ROOT), SwitchViews.port(port)));
    }
}
