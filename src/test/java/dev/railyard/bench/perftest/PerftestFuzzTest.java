package dev.railyard.bench.perftest;

import dev.railyard.bench.ParserFuzz;
import org.junit.jupiter.api.Test;

/** Every real sample, damaged in 300 seeded ways: the parser returns a result or throws ToolParseException. */
class PerftestFuzzTest {

    @Test
    void damagedSamplesParseOrFailWithTheTypedError() {
        PerftestParser parser = new PerftestParser();
        ParserFuzz.parsesOrFailsTyped("bench/perftest", 300, parser::parse);
    }
}
