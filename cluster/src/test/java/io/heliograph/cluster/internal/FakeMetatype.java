package io.heliograph.cluster.internal;

import java.io.InputStream;
import java.util.Arrays;
import java.util.List;

import org.osgi.service.metatype.AttributeDefinition;
import org.osgi.service.metatype.ObjectClassDefinition;

/**
 * Metatype as an app's bundle describes its pid, for the tests: integer settings with a range, booleans,
 * and strings from a list, each checking its value the way the Metatype service does (a message when
 * refused, "" when valid).
 */
final class FakeMetatype {

    private FakeMetatype() {
    }

    static ObjectClassDefinition pid(String pid, AttributeDefinition... attributes) {
        return new ObjectClassDefinition() {
            @Override
            public String getName() {
                return pid;
            }

            @Override
            public String getID() {
                return pid;
            }

            @Override
            public String getDescription() {
                return "the settings of " + pid;
            }

            @Override
            public AttributeDefinition[] getAttributeDefinitions(int filter) {
                return attributes.clone();
            }

            @Override
            public InputStream getIcon(int size) {
                return null;
            }
        };
    }

    static AttributeDefinition integer(String id, int min, int max, int defaultValue, String description) {
        return new Attribute(id, AttributeDefinition.INTEGER, String.valueOf(defaultValue), description, value -> {
            try {
                int v = Integer.parseInt(value);
                return v < min ? "Value is less than " + min : v > max ? "Value is greater than " + max : "";
            } catch (NumberFormatException e) {
                return "Invalid value: " + value;
            }
        });
    }

    static AttributeDefinition bool(String id, boolean defaultValue, String description) {
        return new Attribute(id, AttributeDefinition.BOOLEAN, String.valueOf(defaultValue), description,
                value -> value.equals("true") || value.equals("false") ? "" : "Invalid boolean: " + value);
    }

    static AttributeDefinition choice(String id, String defaultValue, String description, String... options) {
        return new Attribute(id, AttributeDefinition.STRING, defaultValue, description,
                value -> Arrays.asList(options).contains(value) ? "" : "Value not among " + List.of(options));
    }

    private interface Check {
        String problem(String value);
    }

    private record Attribute(String id, int type, String defaultValue, String description, Check check)
            implements AttributeDefinition {
        @Override
        public String getName() {
            return id;
        }

        @Override
        public String getID() {
            return id;
        }

        @Override
        public String getDescription() {
            return description;
        }

        @Override
        public int getCardinality() {
            return 0;
        }

        @Override
        public int getType() {
            return type;
        }

        @Override
        public String[] getOptionValues() {
            return null;
        }

        @Override
        public String[] getOptionLabels() {
            return null;
        }

        @Override
        public String validate(String value) {
            return check.problem(value);
        }

        @Override
        public String[] getDefaultValue() {
            return new String[] {defaultValue};
        }
    }
}
