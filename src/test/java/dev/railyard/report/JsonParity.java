package dev.railyard.report;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether a hand-written document is the one {@link Json#write} makes, byte for byte. (Before Json ordered a record's
 * extra properties by name, Jackson's order of PciDevice's is-method properties changed from one JVM run to the next,
 * and this comparison failed on a fresh clone.)
 */
public final class JsonParity {

    private JsonParity() {
    }

    public static void assertSameDocument(String ours, String jacksons, String what) {
        assertThat(ours).as("%s: the same bytes as Jackson's document", what).isEqualTo(jacksons);
    }
}
