package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.core.trace.TraceSchema;
import org.junit.jupiter.api.Test;

/**
 * timeline.js cannot import the schema's constants, so this checks it: every mark kind it compares with is a kind the
 * schema declares or one of the timeline's own marks (TimelineData's {@code inline}, {@code stale_payload},
 * {@code mem_read_stale}). A renamed trace kind fails here instead of leaving the timeline's marks uncoloured.
 */
class TimelineKindsTest {

    private static final Set<String> TIMELINE_OWN = Set.of("inline", "stale_payload", "mem_read_stale");

    @Test
    void everyKindTimelineJsComparesWithIsDeclaredOrTheTimelinesOwn() throws IOException {
        String js;
        try (InputStream in = Timeline.class.getResourceAsStream("timeline.js")) {
            js = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher m = Pattern.compile("kind\\s*[!=]==?\\s*'([a-z_]+)'").matcher(js);
        Set<String> compared = new TreeSet<>();
        Set<String> unknown = new TreeSet<>();
        while (m.find()) {
            compared.add(m.group(1));
            if (!TraceSchema.isKind(m.group(1)) && !TIMELINE_OWN.contains(m.group(1))) {
                unknown.add(m.group(1));
            }
        }
        assertTrue(compared.contains("drop") && compared.contains("cm_retry"), compared::toString);
        assertEquals(Set.of(), unknown);
    }
}
