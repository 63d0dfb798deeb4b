package io.heliograph.webui.console;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.felix.gogo.runtime.CommandProcessorImpl;
import org.apache.felix.gogo.runtime.threadio.ThreadIOImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.webui.RestJson;
import io.heliograph.webui.api.ApiException;

/**
 * The remote console against the real shell the distribution runs (Gogo's runtime, without OSGi): what a
 * line prints and returns comes back, a failing command is an answer with its error, the login script
 * decides which scope an unscoped name means, and every limit (time, lines at once, output, the body's
 * shape) holds.
 */
class ConsoleResourceTest {

    private final ThreadIOImpl threadIo = new ThreadIOImpl();
    private CommandProcessorImpl shell;
    private final ConsoleResource resource = new ConsoleResource();
    private MockMvc mvc;

    /** Commands of two scopes, both with a {@code help}; {@code block} waits until released. */
    public static final class Ours {
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> calls = new ArrayList<>();

        public String help() {
            return "heliograph help";
        }

        public String greet(String name) {
            System.out.println("printed for " + name);
            calls.add(name);
            return "hello " + name;
        }

        public String fail() {
            throw new IllegalStateException("the switch 00:00:00:00:00:00:00:09 is not connected");
        }

        public String block() throws InterruptedException {
            release.await();
            return "released";
        }

        public void chatter() {
            String line = "x".repeat(1023);
            for (int i = 0; i < 2048; i++) {
                System.out.println(line);
            }
        }
    }

    public static final class Theirs {
        public String help() {
            return "framework help";
        }
    }

    private final Ours ours = new Ours();

    @BeforeEach
    void start() {
        threadIo.start();
        shell = new CommandProcessorImpl(threadIo);
        for (String function : List.of("help", "greet", "fail", "block", "chatter")) {
            shell.addCommand("heliograph", ours, function);
        }
        shell.addCommand("felix", new Theirs(), "help");
        resource.shell = shell;
        resource.console = new RemoteConsole("SCOPE = 'heliograph:*'\n", Duration.ofSeconds(5));
        mvc = MockMvcBuilders.standaloneSetup(resource)
                .setMessageConverters(new MappingJackson2HttpMessageConverter(RestJson.objectMapper())).build();
    }

    @AfterEach
    void stop() {
        ours.release.countDown();
        resource.deactivate();
        shell.stop();
        threadIo.stop();
    }

    private static RequestBuilder line(String body) {
        return post("/api/v1/console").contentType(MediaType.APPLICATION_JSON).content(body);
    }

    @Test
    void whatALinePrintsAndReturnsIsAnswered() throws Exception {
        JsonNode answer = ok(mvc, line("{\"command\": \"  greet operator \"}"));
        assertEquals("greet operator", answer.get("command").asText());
        assertEquals("printed for operator\nhello operator", answer.get("output").asText());
        assertTrue(answer.get("error").isNull(), answer.toString());
        assertEquals(List.of("operator"), ours.calls);
        // the shell's own syntax: a nested command, a variable in the one line a session lives for
        answer = ok(mvc, line("{\"command\": \"x = greet (greet inner); greet $x\"}"));
        assertTrue(answer.get("output").asText().endsWith("hello hello hello inner"), answer.toString());
    }

    @Test
    void aFailingOrUnknownCommandIsAnAnswerWithItsError() throws Exception {
        JsonNode answer = ok(mvc, line("{\"command\": \"fail\"}"));
        assertEquals("the switch 00:00:00:00:00:00:00:09 is not connected", answer.get("error").asText());
        answer = ok(mvc, line("{\"command\": \"no-such-command\"}"));
        assertTrue(answer.get("error").asText().contains("no-such-command"), answer.toString());
        answer = ok(mvc, line("{\"command\": \"greet\"}"));
        assertTrue(answer.get("error").asText().contains("greet"), answer.toString());
        assertEquals(List.of(), ours.calls);
    }

    @Test
    void theLoginScriptChoosesTheScopeOfAnUnscopedName() throws Exception {
        assertEquals("heliograph help", ok(mvc, line("{\"command\": \"help\"}")).get("output").asText());
        assertEquals("framework help", ok(mvc, line("{\"command\": \"felix:help\"}")).get("output").asText());
    }

    @Test
    void theLoginScriptIsTheDistributionsGoshProfile(@TempDir Path home) throws Exception {
        assertEquals("", ConsoleResource.loginScript(null));
        assertEquals("", ConsoleResource.loginScript(home.toString()));
        Files.createDirectories(home.resolve("etc"));
        Files.writeString(home.resolve("etc/gosh_profile"), "SCOPE = 'felix:*'\n");
        assertEquals("SCOPE = 'felix:*'\n", ConsoleResource.loginScript(home.toString()));
    }

    @Test
    void aBadBodyIs400NamingTheMemberAndRunsNothing() throws Exception {
        ApiException e = refused(mvc, line("{}"), 400, "command");
        assertTrue(e.message().startsWith("command is missing"), e.message());
        refused(mvc, line("{\"command\": \"   \"}"), 400, "command");
        e = refused(mvc, line("{\"command\": \"greet a\\ngreet b\"}"), 400, "command");
        assertTrue(e.message().startsWith("one line only"), e.message());
        e = refused(mvc, line("{\"command\": \"greet " + "a".repeat(ConsoleResource.MAX_LINE) + "\"}"), 400, "command");
        assertTrue(e.message().startsWith("at most 4096 characters"), e.message());
        // what the JSON mapping refuses (the server's error mapping names the member: ErrorResponsesTest)
        unreadable(line("{\"command\": \"greet a\", \"cmd\": \"greet b\"}"), "cmd");
        unreadable(line("{\"command\": 3}"), "Integer value (3)");
        unreadable(line("[\"greet a\"]"), "ConsoleCommand");
        assertEquals(List.of(), ours.calls);
    }

    @Test
    void withoutTheShellTheResourceAnswers503() throws Exception {
        resource.shell = null;
        ApiException e = refused(mvc, line("{\"command\": \"help\"}"), 503, null);
        assertTrue(e.message().contains("org.apache.felix.gogo.runtime"), e.message());
    }

    @Test
    void aLineThatRunsPastTheTimeLimitIsInterrupted() throws Exception {
        try (RemoteConsole console = new RemoteConsole("", Duration.ofMillis(200))) {
            RemoteConsole.Outcome outcome = console.run(shell, "block");
            assertEquals("the command did not end within 0 s and was interrupted", outcome.error());
            // the interrupted line gave its place back
            assertEquals("hello again", console.run(shell, "greet again").output().lines().toList().get(1));
        }
    }

    @Test
    void linesBeyondTheLimitAtOnceAreRefusedUntilOneEnds() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(RemoteConsole.MAX_RUNNING);
        try {
            List<Future<JsonNode>> blocked = new ArrayList<>();
            for (int i = 0; i < RemoteConsole.MAX_RUNNING; i++) {
                blocked.add(clients.submit(() -> ok(mvc, line("{\"command\": \"block\"}"))));
            }
            waitForBlockedLines(RemoteConsole.MAX_RUNNING);
            ApiException e = refused(mvc, line("{\"command\": \"greet late\"}"), 429, null);
            assertTrue(e.message().startsWith("4 console commands are running already"), e.message());
            ours.release.countDown();
            for (Future<JsonNode> f : blocked) {
                assertEquals("released", f.get(10, TimeUnit.SECONDS).get("output").asText());
            }
            assertEquals("printed for late\nhello late", ok(mvc, line("{\"command\": \"greet late\"}"))
                    .get("output").asText());
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void outputBeyondTheCapIsCutAndSaysSo() throws Exception {
        String output = ok(mvc, line("{\"command\": \"chatter\"}")).get("output").asText();
        assertTrue(output.endsWith("\n[output cut at 1048576 bytes]"), output.substring(output.length() - 80));
        assertEquals(RemoteConsole.MAX_OUTPUT + "\n[output cut at 1048576 bytes]".length(), output.length());
    }

    private void unreadable(RequestBuilder request, String named) throws Exception {
        MvcResult result = mvc.perform(request).andReturn();
        assertEquals(400, result.getResponse().getStatus());
        HttpMessageNotReadableException e = assertInstanceOf(HttpMessageNotReadableException.class,
                result.getResolvedException());
        assertTrue(e.getMessage().contains(named), e.getMessage());
    }

    /** Until this many threads of the console wait in {@code block}. */
    private static void waitForBlockedLines(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getState() == Thread.State.WAITING)
                .filter(e -> List.of(e.getValue()).stream().anyMatch(f -> f.getMethodName().equals("block")))
                .count() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(count + " lines never blocked");
            }
            Thread.sleep(10);
        }
    }
}
