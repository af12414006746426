package dev.railyard.bench.perftest;

import dev.railyard.Jargon;
import dev.railyard.check.PerftestPairVerdict;
import dev.railyard.check.RunnableFixes;
import dev.railyard.model.Finding;
import dev.railyard.model.PerftestResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Every finding of one side of a perftest pair (timeouts, a bad exit, an unknown link rate) has a runnable fix. */
class PerftestPairVerdictFixesTest {

    private static final String TABLE = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
            + " 65536      5000           4554.47            4554.40              0.072870\n";

    @Test
    void everyPairFindingIsRunnableAndFreeOfJargon() {
        PortChoice port = PortChoice.choose(PortChoiceTest.seed000(4), PortChoiceTest.peer("10.0.0.2"));
        PerftestPair server = new PerftestPair(PerftestPair.Test.WRITE_BW, PerftestPair.Side.SERVER, port,
                Optional.empty(), false, false, OptionalLong.empty(), OptionalInt.empty(), false);
        PerftestPair client = new PerftestPair(PerftestPair.Test.WRITE_BW, PerftestPair.Side.CLIENT, port,
                Optional.of("10.0.0.2"), false, false, OptionalLong.empty(), OptionalInt.empty(), false);
        PerftestResult none = new PerftestParser().parse("");
        PerftestResult table = new PerftestParser().parse(TABLE);
        PerftestPairVerdict rated = new PerftestPairVerdict(Optional.of(40.0), 0.9, 2.0);
        PerftestPairVerdict unrated = new PerftestPairVerdict(Optional.empty(), 0.9, 2.0);
        List<Finding> all = new ArrayList<>();
        all.add(rated.judge(server, new PerftestRunner.Run(List.of("ib_write_bw"), none, 124, true)));
        all.add(rated.judge(client, new PerftestRunner.Run(List.of("ib_write_bw"), none, 124, true)));
        all.add(rated.judge(client, new PerftestRunner.Run(List.of("ib_write_bw"), none, 1, false)));
        all.add(rated.judge(server, new PerftestRunner.Run(List.of("ib_write_bw"), none, 0, false)));
        all.add(unrated.judge(client, new PerftestRunner.Run(List.of("ib_write_bw"), table, 0, false)));
        assertThat(all).filteredOn(f -> !f.remediation().isEmpty()).hasSizeGreaterThanOrEqualTo(4);
        for (Finding f : all) {
            RunnableFixes.assertRunnable(f);
            assertThat(Jargon.in(f.subject(), f.observed() + "\n" + f.expected() + "\n" + f.remediation())).isEmpty();
        }
    }
}
