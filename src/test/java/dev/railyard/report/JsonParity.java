package dev.railyard.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether a hand-written document is the one {@link Json#write} makes. Jackson writes the properties it finds
 * through public is-methods (PciDevice.isNetwork) in the order reflection lists those methods, and HotSpot lists them
 * by where the method names happen to lie in memory: the order changed between this machine's JDK and the GPU
 * machine's jlink'd runtime. So the documents are compared as trees, their layout by rewriting ours through
 * Jackson's pretty printer, and their field order line by line without those properties.
 */
public final class JsonParity {

    /** The properties Jackson takes from is-methods of the inventory's records. */
    private static final Pattern FROM_IS_METHODS =
            Pattern.compile("^\\s*\"(nvidiaGpu|rdmaCapable|network|ethernet|infiniband)\" : (true|false),?$");

    private JsonParity() {
    }

    public static void assertSameDocument(String ours, String jacksons, String what) {
        try {
            JsonNode tree = Json.mapper().readTree(ours);
            assertThat(tree).as("%s: the same document as Jackson's", what).isEqualTo(Json.mapper().readTree(jacksons));
            assertThat(ours).as("%s: laid out as Jackson's pretty printer lays it out", what)
                    .isEqualTo(Json.mapper().writeValueAsString(tree));
        } catch (JsonProcessingException e) {
            throw new AssertionError(what + ": not JSON: " + e.getOriginalMessage(), e);
        }
        assertThat(withoutIsMethods(ours)).as("%s: fields in Jackson's order", what).isEqualTo(withoutIsMethods(jacksons));
    }

    private static List<String> withoutIsMethods(String doc) {
        return doc.lines().filter(l -> !FROM_IS_METHODS.matcher(l).matches())
                .map(l -> l.endsWith(",") ? l.substring(0, l.length() - 1) : l).toList();
    }
}
