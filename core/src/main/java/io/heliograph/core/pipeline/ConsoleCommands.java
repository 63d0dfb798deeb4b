package io.heliograph.core.pipeline;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's own commands, {@code heliograph:help} and {@code heliograph:exit}. A bare {@code help}
 * is this one because the distribution's {@code etc/gosh_profile} has the shell look in the
 * {@code heliograph} scope first (Gogo picks between scopes by that order, not by service ranking).
 *
 * <p>{@code help} lists Heliograph's commands first, one line each: the synopsis and summary every
 * command component declares in its {@value #HELP} service property ({@code "SYNOPSIS|SUMMARY"}, the
 * summary after the last bar, one
 * value per function, e.g. {@code "hosts [MAC|IP|DPID]|tracked hosts: ..."}), read from the service
 * registry on each call, so an app's commands come and go with it. Then it names the framework's
 * commands ({@code lb}, {@code scr:list}, ...); {@code help NAME} says one of ours, or hands a
 * framework command to the framework's help. {@code exit} stops the controller, as the end of the
 * console's input does. Like the other commands, no Gogo type is needed.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=help",
    "osgi.command.function=exit",
    ConsoleCommands.HELP + "=help [NAME]|this list, or what one command does",
    ConsoleCommands.HELP + "=exit|stop the controller (as Ctrl-D or the end of piped input does)"})
public final class ConsoleCommands {

    /** The service property a command component describes its functions with: {@code "SYNOPSIS|SUMMARY"}. */
    static final String HELP = "heliograph.command.help";
    static final String SCOPE = "heliograph";

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleCommands.class);
    private static final String SCOPE_PROPERTY = "osgi.command.scope";
    private static final String FUNCTION_PROPERTY = "osgi.command.function";
    private static final int LINE = 100;

    private final BundleContext context;

    @Activate
    public ConsoleCommands(BundleContext context) {
        this.context = context;
    }

    /** Heliograph's commands with their summaries, then the framework's by name. */
    public String help() {
        Map<String, String[]> ours = ours();
        int width = ours.values().stream().mapToInt(line -> line[0].length()).max().orElse(0) + 2;
        StringBuilder out = new StringBuilder("Heliograph commands (help NAME for one):\n");
        ours.values().forEach(line -> out.append(String.format("  %-" + width + "s%s%n", line[0], line[1])));
        out.append("Framework commands (help NAME for its options):\n");
        StringBuilder row = new StringBuilder(" ");
        for (String name : frameworkCommands()) {
            if (row.length() + name.length() + 1 > LINE) {
                out.append(row).append('\n');
                row = new StringBuilder(" ");
            }
            row.append(' ').append(name);
        }
        return out.append(row).toString();
    }

    /** One command: ours with its synopsis and summary, a framework one as the framework's help says it. */
    public String help(String name) {
        String[] line = ours().get(name.startsWith(SCOPE + ":") ? name.substring(SCOPE.length() + 1) : name);
        if (line != null) {
            return line[0] + "\n  " + line[1];
        }
        return frameworkHelp(name);
    }

    /** Stops the controller: the framework stops, and the launcher exits once it has. */
    public String exit() throws BundleException {
        LOG.info("console: exit, stopping the controller");
        context.getBundle(0).stop();
        return "stopping the controller";
    }

    /** Function name to {synopsis, summary}, sorted by name; a function without a summary is listed bare. */
    private Map<String, String[]> ours() {
        Map<String, String[]> lines = new TreeMap<>();
        for (ServiceReference<?> ref : commands("(" + SCOPE_PROPERTY + "=" + SCOPE + ")")) {
            for (String function : values(ref.getProperty(FUNCTION_PROPERTY))) {
                lines.putIfAbsent(function, new String[] {function, ""});
            }
            for (String help : values(ref.getProperty(HELP))) {
                int bar = help.lastIndexOf('|'); // a synopsis may have alternatives: [MAC|IP|DPID]
                String synopsis = bar < 0 ? help : help.substring(0, bar).strip();
                String function = synopsis.split(" ", 2)[0];
                lines.put(function, new String[] {synopsis, bar < 0 ? "" : help.substring(bar + 1).strip()});
            }
        }
        return lines;
    }

    /** The other scopes' functions, unscoped where no other scope has the same name ({@code lb}, {@code scr:list}). */
    private List<String> frameworkCommands() {
        Map<String, TreeSet<String>> scopes = new TreeMap<>();
        String others = "(&(" + SCOPE_PROPERTY + "=*)(!(" + SCOPE_PROPERTY + "=" + SCOPE + ")))";
        for (ServiceReference<?> ref : commands(others)) {
            String scope = String.valueOf(ref.getProperty(SCOPE_PROPERTY));
            for (String function : values(ref.getProperty(FUNCTION_PROPERTY))) {
                scopes.computeIfAbsent(function, f -> new TreeSet<>()).add(scope);
            }
        }
        List<String> names = new ArrayList<>();
        scopes.forEach((function, in) -> {
            if (in.size() == 1 && !function.equals("help") && !function.equals("exit")) {
                names.add(function);
            } else {
                in.forEach(scope -> names.add(scope + ":" + function));
            }
        });
        return names;
    }

    /**
     * The framework's own help for one of its commands: Gogo's {@code felix:help NAME}, called as the
     * shell calls any command, by its public method.
     */
    private String frameworkHelp(String name) {
        for (ServiceReference<?> ref : commands("(&(" + SCOPE_PROPERTY + "=felix)(" + FUNCTION_PROPERTY + "=help))")) {
            Object basic = context.getService(ref);
            if (basic == null) {
                continue;
            }
            try {
                Object text = basic.getClass().getMethod("help", String.class).invoke(basic, name);
                return text == null || text.toString().isBlank() ? "no command named " + name : text.toString();
            } catch (InvocationTargetException e) {
                return "help " + name + ": " + e.getCause().getMessage();
            } catch (ReflectiveOperationException e) {
                break;
            } finally {
                context.ungetService(ref);
            }
        }
        return "no Heliograph command named " + name + " (help lists them)";
    }

    private List<ServiceReference<?>> commands(String filter) {
        try {
            ServiceReference<?>[] refs = context.getServiceReferences((String) null, filter);
            return refs == null ? List.of() : List.of(refs);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException("bad command filter " + filter, e);
        }
    }

    private static List<String> values(Object property) {
        if (property instanceof String[] array) {
            return List.of(array);
        }
        return property == null ? List.of() : List.of(property.toString());
    }
}
