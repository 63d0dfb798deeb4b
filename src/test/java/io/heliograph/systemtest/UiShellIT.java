package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 5, the web UI's shell in headless Chromium against the real distribution: the login page
 * needs no credentials, a wrong password is refused, the administrator's password logs in (as a
 * bearer token), the navigation and the overview appear, the API page renders the OpenAPI document,
 * and logging out revokes the session's token. Screenshots of each step are kept as artifacts.
 */
@Timeout(300)
class UiShellIT {

    private static final Duration PAGE = Duration.ofSeconds(20);

    @Test
    void anOperatorLogsInSeesTheOverviewAndTheApiAndLogsOut() {
        Path artifacts = ArtifactDirectory.forTest("UiShellIT");
        Cleanup cleanup = new Cleanup("UiShellIT");
        ControllerDistribution distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        ControllerProcess controller = null;
        Browser browser = null;
        try {
            controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
            controller.awaitHealthy(Duration.ofSeconds(60));
            ControllerProcess.Credentials admin = controller.credentials(Duration.ofSeconds(10));
            RestClient rest = controller.rest();
            String instanceId = rest.get("/api/v1/controller").json().get("instanceId").asText();

            browser = Browser.start(artifacts, 1280, 800);
            Browser page = browser;
            page.open(URI.create("http://127.0.0.1:" + controller.httpPort() + "/"));
            Poll.until("the login form", PAGE, () -> page.find("#login").isDisplayed());
            assertTrue(!page.find("#nav").isDisplayed() && !page.find("#logout").isDisplayed(),
                    "no navigation before logging in");
            page.screenshot("1-login");

            page.logIn(admin.user(), "not-the-password");
            Poll.until("the refusal to show", PAGE,
                    () -> page.find("#login-error").getText().contains("Wrong user or password"));
            page.screenshot("2-refused");

            page.logIn(admin.user(), admin.password());
            Poll.until("the overview with this controller's instance id", PAGE,
                    () -> page.find("#page").getText().contains(instanceId));
            assertTrue(!page.find("#login").isDisplayed(), "the login form is gone once logged in");
            String navigation = page.find("#nav").getText();
            assertTrue(navigation.contains("Overview") && navigation.contains("API"), navigation);
            page.screenshot("3-overview");
            JsonNode tokens = rest.get("/api/v1/auth/tokens").json();
            assertEquals(1, tokens.size(), "the login made one token: " + tokens);
            assertTrue(tokens.get(0).get("name").asText().startsWith("web UI"), tokens.toString());

            page.find("#nav a[href='#/api']").click();
            Poll.until("the API page to list /api/v1/controller", PAGE,
                    () -> page.find("#page").getText().contains("/api/v1/controller"));
            assertTrue(page.find("#page").getText().contains("/api/v1/auth/tokens"));
            page.screenshot("4-api");

            assertTrue(!page.find("#login").isDisplayed(), "no login form over the API page");
            page.find("#logout").click();
            Poll.until("the login form after logging out", PAGE, () -> page.find("#login").isDisplayed());
            Poll.until("the session's token to be revoked", PAGE, () -> rest.get("/api/v1/auth/tokens").json().size() == 0);
            page.screenshot("5-logged-out");
        } finally {
            cleanup.close("browser", browser);
            cleanup.close("controller", controller);
            cleanup.close("distribution copy", distribution);
            cleanup.finish();
        }
    }
}
