package org.datsim.core.param;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 15: "did you mean" by Levenshtein distance. */
class SuggestionsTest {

    private static final List<String> NAMES = List.of("hca.mtu", "hca.wqe_interval", "hca.wqe_process", "link.latency",
            "link.bandwidth", "run", "bench");

    @Test
    void nearestFirstAndNothingFarAway() {
        assertEquals(List.of("hca.mtu"), Suggestions.closest("hca.mtuu", NAMES));
        assertEquals(List.of("link.bandwidth"), Suggestions.closest("link.bandwith", NAMES));
        assertEquals(List.of("run"), Suggestions.closest("rn", NAMES));
        assertEquals(List.of("bench"), Suggestions.closest("bnch", NAMES));
        assertEquals(List.of(), Suggestions.closest("completely.different", NAMES));
        assertEquals(List.of("hca.mtu"), Suggestions.closest("mtu", NAMES), "a segment of a dotted name");
        assertEquals("; did you mean hca.wqe_interval?", Suggestions.hint("hca.wqe_intervall", NAMES));
        assertEquals("", Suggestions.hint("zzzzzzzz", NAMES));
    }

    @Test
    void unknownParameterMessageSuggests() {
        Params p = Params.defaults(List.of(ParamSpec.time("hca.wqe_interval", "0ns", "x")));
        List<String> problems = new java.util.ArrayList<>();
        p.with(java.util.Map.of("hca.wqe_intervl", "1ns"), problems);
        assertEquals(List.of("hca.wqe_intervl: unknown parameter (see `datsim params` for the catalogue); did you mean"
                + " hca.wqe_interval?"), problems);
    }
}
