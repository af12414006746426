package dev.railyard.diagnose;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LinePatternTest {

    @Test
    void needlesAreTheLongestPlainRunOfEachAlternative() {
        assertThat(LinePattern.needles("Port number \\d+ state is Down")).containsExactly(" state is Down");
        assertThat(LinePattern.needles("\\bState:\\s*Initializing\\b|\\bPORT_INIT\\b"))
                .containsExactly("Initializing", "PORT_INIT");
        assertThat(LinePattern.needles("No (?:RDMA|IB) devices found")).containsExactly(" devices found");
        assertThat(LinePattern.needles("# ?nThread")).containsExactly("nThread");
    }

    @Test
    void optionalOrRepeatedCharactersAreNotRequired() {
        assertThat(LinePattern.needles("abcd?efg")).containsExactly("abc");
        assertThat(LinePattern.needles("xyzb+cde")).containsExactly("xyzb");
    }

    @Test
    void withoutARequiredLiteralEveryLineIsTried() {
        assertThat(LinePattern.needles("^\\s*\\d+\\s+\\d+|NCCL INFO")).isEmpty();
        assertThat(LinePattern.needles("(?i)port down")).isEmpty();
        assertThat(LinePattern.compile("^\\s*\\d+\\s+\\d+").find("  12  34")).isTrue();
    }

    @Test
    void theFilterNeverChangesWhatMatches() {
        LinePattern p = LinePattern.compile("completion\\b.*\\berror 12\\b|transport retry counter exceeded");
        assertThat(p.find("NET/IB : Got completion with error 12, opcode 0")).isTrue();
        assertThat(p.find("transport retry counter exceeded")).isTrue();
        assertThat(p.find("completion with error 5")).isFalse();
        assertThat(p.find("an unrelated line")).isFalse();
    }
}
