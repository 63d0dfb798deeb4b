package io.heliograph.webui;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.webui.api.UiPage;

/**
 * The pages apps contribute to the web UI, while their {@link UiPage} services are registered. A page
 * whose id is malformed or already taken is refused and logged; the first keeps its place.
 */
final class UiPages {

    static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    private static final Logger LOG = LoggerFactory.getLogger(UiPages.class);

    private final Map<String, UiPage> byId = new ConcurrentHashMap<>();

    synchronized boolean add(UiPage page) {
        String id = page.id();
        if (id == null || !ID.matcher(id).matches()) {
            LOG.error("UI page {} refused: its id '{}' must be lower case letters, digits and dashes",
                    page.getClass().getName(), id);
            return false;
        }
        UiPage existing = byId.putIfAbsent(id, page);
        if (existing != null && existing != page) {
            LOG.error("UI page {} refused: id '{}' is taken by {}", page.getClass().getName(), id,
                    existing.getClass().getName());
            return false;
        }
        LOG.info("UI page '{}' ({}) added", id, page.title());
        return true;
    }

    synchronized void remove(UiPage page) {
        if (page.id() != null && byId.remove(page.id(), page)) {
            LOG.info("UI page '{}' removed", page.id());
        }
    }

    Optional<UiPage> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The pages in navigation order: by rank, then by title (see {@link UiPage#rank()}). */
    List<UiPage> list() {
        return byId.values().stream().sorted(Comparator.comparingInt(UiPage::rank).thenComparing(UiPage::title)
                .thenComparing(UiPage::id)).toList();
    }
}
