package io.heliograph.vdn.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.heliograph.webui.testing.OpenApiContract;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every operation of the app's REST resources has a summary and its own declared operation id. */
class OpenApiContractTest {

    @Test
    void everyOperationHasASummaryAndItsOwnOperationId() {
        OpenApiContract.Result result = OpenApiContract.problems("io.heliograph.vdn");
        assertEquals(1, result.resources().size(), "the app's resources: " + result.resources());
        assertEquals(List.of(), result.problems());
    }
}
