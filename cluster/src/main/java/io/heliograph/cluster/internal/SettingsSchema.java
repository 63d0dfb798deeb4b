package io.heliograph.cluster.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.MetaTypeInformation;
import org.osgi.service.metatype.MetaTypeService;
import org.osgi.service.metatype.ObjectClassDefinition;

import io.heliograph.core.cluster.SharedConfigurationService;
import io.heliograph.core.cluster.SharedConfigurationService.InvalidSettingsException;
import io.heliograph.core.cluster.SharedConfigurationService.Setting;

/**
 * What each shareable pid takes, as the metatype of this instance's bundles describes it (the
 * {@code OSGI-INF/metatype/<pid>.xml} that bnd writes from an app's config interface), and the check of
 * settings against it. Only Heliograph's pids are shareable: the platform's bundles (Declarative Services,
 * FileInstall) describe theirs too, but those are each instance's plumbing. Instance-local pids are never
 * shareable, whatever their bundles describe.
 */
final class SettingsSchema {

    /** The schema while no Metatype service runs: nothing can be checked, so nothing can be shared. */
    static final SettingsSchema NONE = new SettingsSchema(Map.of(), false);

    /** The pids of Heliograph's bundles; only those can be shared. */
    static final String HELIOGRAPH_PIDS = "io.heliograph.";

    private static final String[] TYPE_NAMES = {null, "String", "Long", "Integer", "Short", "Character", "Byte",
        "Double", "Float", "BigInteger", "BigDecimal", "Boolean", "Password"};

    private final Map<String, ObjectClassDefinition> pids;
    private final boolean described;

    SettingsSchema(Map<String, ObjectClassDefinition> described) {
        this(described, true);
    }

    private SettingsSchema(Map<String, ObjectClassDefinition> described, boolean available) {
        Map<String, ObjectClassDefinition> shareable = new TreeMap<>(described);
        shareable.keySet().removeIf(pid -> !pid.startsWith(HELIOGRAPH_PIDS)
                || SharedConfigurationService.LOCAL_PIDS.contains(pid));
        this.pids = Collections.unmodifiableMap(shareable);
        this.described = available;
    }

    /** The pids the bundles installed now describe (not factory pids), read through the Metatype service. */
    static SettingsSchema read(BundleContext context, MetaTypeService metatype) {
        Map<String, ObjectClassDefinition> described = new TreeMap<>();
        for (Bundle bundle : context.getBundles()) {
            MetaTypeInformation information = metatype.getMetaTypeInformation(bundle);
            if (information == null) {
                continue;
            }
            for (String pid : information.getPids()) {
                described.put(pid, information.getObjectClassDefinition(pid, null));
            }
        }
        return new SettingsSchema(described);
    }

    /** Whether a Metatype service described this instance's bundles. */
    boolean described() {
        return described;
    }

    Set<String> pids() {
        return pids.keySet();
    }

    /** The settings a pid takes, in the order its bundle declares them; empty for a pid not described. */
    List<Setting> known(String pid) {
        ObjectClassDefinition definition = pids.get(pid);
        if (definition == null) {
            return List.of();
        }
        List<Setting> known = new ArrayList<>();
        for (AttributeDefinition attribute : attributes(definition)) {
            String[] defaults = attribute.getDefaultValue();
            known.add(new Setting(attribute.getID(), typeName(attribute.getType()),
                    defaults == null ? null : String.join(",", defaults), attribute.getDescription()));
        }
        return known;
    }

    /**
     * Refuses a pid that cannot be shared, and settings its metatype does not take, naming the pid or the
     * setting and saying what would be accepted. Values are the text a cfg file would hold.
     */
    void validate(String pid, Map<String, String> settings) {
        requireShareable(pid);
        if (!described) {
            throw new IllegalStateException("no OSGi Metatype service runs (bundle org.apache.felix.metatype): the "
                    + "settings of " + pid + " cannot be checked, so none are shared");
        }
        ObjectClassDefinition definition = pids.get(pid);
        if (definition == null) {
            throw new InvalidSettingsException(null, "no bundle of this instance describes the settings of pid '" + pid
                    + "' (OSGi metatype), so they cannot be checked or shared; shareable pids: " + shareable());
        }
        Map<String, AttributeDefinition> attributes = new TreeMap<>();
        for (AttributeDefinition attribute : attributes(definition)) {
            attributes.put(attribute.getID(), attribute);
        }
        for (Map.Entry<String, String> setting : new TreeMap<>(settings).entrySet()) {
            String key = setting.getKey();
            AttributeDefinition attribute = attributes.get(key);
            if (attribute == null) {
                throw new InvalidSettingsException(key, pid + " has no setting '" + key + "'; its settings: "
                        + String.join(", ", attributes.keySet()));
            }
            String value = setting.getValue();
            if (value == null) {
                throw new InvalidSettingsException(key, pid + ": " + key + " has no value; give its text as the cfg "
                        + "file would (" + typeName(attribute.getType()) + ")");
            }
            String problem = attribute.validate(value);
            if (problem != null && !problem.isEmpty()) {
                throw new InvalidSettingsException(key, pid + ": " + key + " = '" + value + "' is refused: " + problem
                        + " (" + typeName(attribute.getType()) + (attribute.getDescription() == null ? ""
                                : ": " + attribute.getDescription()) + ")");
            }
        }
    }

    /** Refuses a pid that is not Heliograph's, or is an instance's own. */
    void requireShareable(String pid) {
        if (!pid.startsWith(HELIOGRAPH_PIDS)) {
            throw new InvalidSettingsException(null, "'" + pid + "' is not a Heliograph pid (" + HELIOGRAPH_PIDS
                    + "*): the platform's own settings are each instance's and never shared; shareable pids: "
                    + shareable());
        }
        if (SharedConfigurationService.LOCAL_PIDS.contains(pid)) {
            throw new InvalidSettingsException(null, pid + " is this instance's own configuration (its ports, addresses "
                    + "or identity) and is never shared; shareable pids: " + shareable());
        }
    }

    private String shareable() {
        return pids.isEmpty() ? "none" : String.join(", ", pids.keySet());
    }

    private static List<AttributeDefinition> attributes(ObjectClassDefinition definition) {
        AttributeDefinition[] all = definition.getAttributeDefinitions(ObjectClassDefinition.ALL);
        return all == null ? List.of() : Arrays.asList(all);
    }

    private static String typeName(int type) {
        return type > 0 && type < TYPE_NAMES.length ? TYPE_NAMES[type] : "type " + type;
    }
}
