package io.heliograph.webui.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

import jakarta.servlet.http.HttpServletRequest;

import org.apache.felix.service.command.CommandProcessor;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.auth.Authentication;

/**
 * {@code POST /api/v1/console}: one line of the controller's console (the Gogo shell of
 * {@code --console}), run for a remote operator authenticated like every other request, as the REST
 * client {@code heliograph-shell} sends it. Each line is logged with who sent it.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("The console: one command line run as the local console runs it, for a remote shell")
@RequestMapping(path = "/api/v1/console", produces = "application/json")
public class ConsoleResource implements RestResource {

    /** How long a line may run before it is interrupted. */
    static final Duration TIME_LIMIT = Duration.ofSeconds(60);
    /** The longest line accepted. */
    static final int MAX_LINE = 4096;

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleResource.class);
    /** The framework property the launcher sets to the distribution, whose etc/gosh_profile is the login script. */
    private static final String GOSH_HOME = "gosh.home";

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile CommandProcessor shell;

    RemoteConsole console;

    @Activate
    void activate(BundleContext context) throws IOException {
        console = new RemoteConsole(loginScript(context.getProperty(GOSH_HOME)), TIME_LIMIT);
    }

    @Deactivate
    void deactivate() {
        console.close();
    }

    /** The console's login script, etc/gosh_profile of the distribution; none without one. */
    static String loginScript(String home) throws IOException {
        if (home == null) {
            return "";
        }
        try {
            return Files.readString(Path.of(home, "etc", "gosh_profile"), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    @ApiDescription("Runs one console command line (help lists the commands) and answers its output; a command"
            + " that fails answers 200 with its error, as a shell would print it")
    @OperationId("runConsoleCommand")
    @PostMapping(consumes = "application/json")
    public ConsoleOutput run(@RequestBody ConsoleCommand request, HttpServletRequest http) {
        String line = request.command();
        if (line == null || line.isBlank()) {
            throw ApiException.badRequest("command", "command is missing: the body is {\"command\": \"help\"}");
        }
        if (line.length() > MAX_LINE) {
            throw ApiException.badRequest("command", "at most " + MAX_LINE + " characters, got " + line.length());
        }
        if (line.chars().anyMatch(c -> c == '\n' || c == '\r' || c == 0)) {
            throw ApiException.badRequest("command", "one line only: no line breaks or NUL characters");
        }
        CommandProcessor processor = shell;
        if (processor == null) {
            throw ApiException.unavailable("the console is not running (the Gogo runtime bundle,"
                    + " org.apache.felix.gogo.runtime, is not active)");
        }
        LOG.info("remote console, {}: {}", http.getAttribute(Authentication.PRINCIPAL), line);
        try {
            RemoteConsole.Outcome outcome = console.run(processor, line.strip());
            return new ConsoleOutput(line.strip(), outcome.output(), outcome.error());
        } catch (RemoteConsole.BusyException e) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, null, e.getMessage());
        }
    }

    /** A command line to run. */
    public record ConsoleCommand(@ApiDescription("one console command line, e.g. \"switches\" or \"help hosts\"")
                                 @ApiSchema(required = true) String command) {
    }

    /** What a line did. */
    public record ConsoleOutput(@ApiDescription("the line that ran") @ApiSchema(required = true) String command,
                                @ApiDescription("what it printed, then its result as the console shows it")
                                @ApiSchema(required = true) String output,
                                @ApiDescription("why it failed (an unknown command, bad arguments, an exception,"
                                        + " the time limit); null when it did not") String error) {
    }
}
