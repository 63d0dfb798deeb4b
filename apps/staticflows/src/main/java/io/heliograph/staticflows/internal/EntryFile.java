package io.heliograph.staticflows.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.json.Json;
import io.heliograph.staticflows.StaticEntry;

/**
 * The entry file of a controller from before the cluster ({@code <data-dir>/staticflows/entries.json}):
 * read once, when it is imported into the cluster's store ({@link LegacyImport}), then moved aside.
 * Nothing writes it any more. A file that cannot be read is moved aside under a name that says so,
 * never silently dropped.
 */
final class EntryFile {

    static final String FILE_NAME = "entries.json";

    private final Path directory;
    private final Path file;
    private final Clock clock;

    /** What was read: the entries, the group and meter ids owned per switch, and the problems met. */
    record Contents(List<StaticEntry> entries, Map<DatapathId, OwnedIds> owned, List<String> problems) {
    }

    EntryFile(Path directory, Clock clock) {
        this.directory = directory;
        this.file = directory.resolve(FILE_NAME);
        this.clock = clock;
    }

    Path path() {
        return file;
    }

    boolean exists() {
        return Files.exists(file);
    }

    /**
     * Reads the file. A missing file is an empty store. A file that is not valid JSON of the
     * expected shape is moved aside and reported; single entries that cannot be read are reported by
     * position and name, the rest are kept, and a copy of the file is kept aside for the operator.
     */
    Contents load() {
        List<String> problems = new ArrayList<>();
        String text;
        try {
            byte[] bytes = Files.readAllBytes(file);
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (NoSuchFileException e) {
            return new Contents(List.of(), new LinkedHashMap<>(), problems);
        } catch (CharacterCodingException e) {
            problems.add(file + " is not UTF-8 text; moved it to " + moveAside("corrupt"));
            return new Contents(List.of(), new LinkedHashMap<>(), problems);
        } catch (IOException e) {
            problems.add("cannot read " + file + ": " + e);
            return new Contents(List.of(), new LinkedHashMap<>(), problems);
        }
        Map<String, Object> root;
        try {
            Object parsed = Json.parse(text);
            if (!(parsed instanceof Map)) {
                throw new IllegalArgumentException("the document is not a JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) parsed;
            if (!(map.get("entries") instanceof List)) {
                throw new IllegalArgumentException("it has no \"entries\" list");
            }
            root = map;
        } catch (IllegalArgumentException e) {
            problems.add(file + " is corrupt (" + e.getMessage() + "); moved it to " + moveAside("corrupt")
                    + "; nothing of it is imported");
            return new Contents(List.of(), new LinkedHashMap<>(), problems);
        }
        List<StaticEntry> entries = new ArrayList<>();
        int index = 0;
        for (Object o : (List<?>) root.get("entries")) {
            try {
                if (!(o instanceof Map)) {
                    throw new IllegalArgumentException("not a JSON object");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>) o;
                entries.add(EntryCodec.fromJson(m));
            } catch (RuntimeException e) {
                problems.add("entry " + index + describe(o) + " in " + file + " cannot be read: " + e.getMessage());
            }
            index++;
        }
        Map<DatapathId, OwnedIds> owned = readOwned(root.get("installed"), problems);
        return new Contents(entries, owned, problems);
    }

    private static String describe(Object o) {
        return o instanceof Map<?, ?> m && m.get("name") != null ? " ('" + m.get("name") + "')" : "";
    }

    private Map<DatapathId, OwnedIds> readOwned(Object o, List<String> problems) {
        Map<DatapathId, OwnedIds> owned = new LinkedHashMap<>();
        if (!(o instanceof Map<?, ?> map)) {
            return owned;
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            try {
                DatapathId dpid = DatapathId.of(String.valueOf(e.getKey()));
                OwnedIds ids = new OwnedIds();
                if (e.getValue() instanceof Map<?, ?> m) {
                    ids(m.get("groups"), ids.groups());
                    ids(m.get("meters"), ids.meters());
                }
                owned.put(dpid, ids);
            } catch (RuntimeException ex) {
                problems.add("installed ids of '" + e.getKey() + "' in " + file + " cannot be read: " + ex.getMessage());
            }
        }
        return owned;
    }

    private static void ids(Object list, TreeSet<Long> into) {
        if (list instanceof List<?> l) {
            for (Object id : l) {
                if (!(id instanceof Long n)) {
                    throw new IllegalArgumentException("id " + id + " is not an integer");
                }
                into.add(n);
            }
        }
    }

    /** Moves the file to {@code entries.json.<why>-<time>}; returns where it went, or why it could not. */
    String moveAside(String why) {
        Path aside = asideName(why);
        try {
            Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
            return aside.toString();
        } catch (IOException e) {
            return "nowhere (" + e + "; it is still at " + file + ")";
        }
    }

    private Path asideName(String why) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
                .format(clock.instant().atZone(java.time.ZoneOffset.UTC));
        return directory.resolve(FILE_NAME + "." + why + "-" + stamp);
    }
}
