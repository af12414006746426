package dev.railyard.bench.nccltests;

import dev.railyard.bench.ParserFuzz;
import org.junit.jupiter.api.Test;

/** Every real sample, damaged in 300 seeded ways: the parser returns a result or throws ToolParseException. */
class NcclTestsFuzzTest {

    @Test
    void damagedSamplesParseOrFailWithTheTypedError() {
        NcclTestsParser parser = new NcclTestsParser();
        ParserFuzz.parsesOrFailsTyped("bench/nccltests", 300, parser::parse);
    }
}
