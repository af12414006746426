package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * bench nccl's and bench gpu's arguments are judged before libcudart or libnccl is loaded: on this machine (no
 * CUDA) a check that came too late would answer exit 3 ("could not be loaded") instead of 2.
 */
class GpuBenchArgumentsTest {

    private final StringWriter err = new StringWriter();

    private int run(String args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        return cl.execute(("bench nccl " + args).split(" "));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "-g 0                         | -g 0: a run needs at least one GPU",
            "-g -1                        | cannot be negative, got -1",
            "--procs -2                   | --procs cannot be negative, got -2",
            "broadcast -g 2 --root-rank 2 | --root-rank 2 but there are 2 ranks",
            "reduce -g 2 -r 3             | --root-rank 3 but there are 2 ranks",
            "-b 1X                        | '1X' is not a size",
            "--rank 1 --nranks 2 --rendezvous nohostport | rendezvous 'nohostport' is not HOST:PORT",
            "--rank 1 --nranks 2 --rendezvous n1:http    | the port is not a number",
            "--rank 1 --nranks 2 --rendezvous 127.0.0.1:0 | the port is not 1..65535",
            "--rank 2 --nranks 2 --rendezvous 127.0.0.1:9 | rank 2 is outside 0..1",
    })
    void usageErrorsExitTwoBeforeAnyLibraryLoads(String args, String message) {
        assertThat(run(args)).as(err.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains(message).doesNotContain("Exception").doesNotContain("could not be loaded");
    }

    @Test
    void rankVariablesThatAreNotNumbersAreUsageErrors() {
        assertThatThrownBy(() -> BenchNcclCommand.RankEnvironment.detect(null, null, null, null,
                Map.of("OMPI_COMM_WORLD_RANK", "one", "OMPI_COMM_WORLD_SIZE", "2")::get))
                .hasMessageContaining("OMPI_COMM_WORLD_RANK='one' is not a number");
        assertThatThrownBy(() -> BenchNcclCommand.RankEnvironment.detect(null, null, null, null,
                Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2")::get))
                .hasMessageContaining("needs a rendezvous address");
    }

    @Test
    void launcherVariablesGiveRankSizeDeviceAndTheMasterAddress() {
        var env = BenchNcclCommand.RankEnvironment.detect(null, null, null, null, Map.of("SLURM_PROCID", "3",
                "SLURM_NTASKS", "8", "SLURM_LOCALID", "1", "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "29511")::get);
        assertThat(env).isEqualTo(new BenchNcclCommand.RankEnvironment(true, 3, 8, 1,
                new InetSocketAddress("127.0.0.1", 29511)));
        var single = BenchNcclCommand.RankEnvironment.detect(null, null, null, null, Map.<String, String>of()::get);
        assertThat(single.multiProcess()).isFalse();
    }

    /** Where the ranks ran picks bench.nccl.busbw's fix: NVLink within one node, the fabric across nodes. */
    @Test
    void ranksMeetingOnThisHostAreOneNodeAndElsewhereMaySpanNodes() {
        assertThat(BenchNcclCommand.RankEnvironment.detect(null, null, null, null, Map.<String, String>of()::get).span())
                .isEqualTo(dev.railyard.check.rules.NcclBusbwRule.Span.ONE_NODE);
        assertThat(new BenchNcclCommand.RankEnvironment(true, 3, 8, 1, new InetSocketAddress("127.0.0.1", 29511)).span())
                .isEqualTo(dev.railyard.check.rules.NcclBusbwRule.Span.ONE_NODE);
        assertThat(new BenchNcclCommand.RankEnvironment(true, 3, 8, 1, new InetSocketAddress("192.0.2.1", 29511)).span())
                .isEqualTo(dev.railyard.check.rules.NcclBusbwRule.Span.NODES);
    }

    @Test
    void anUnresolvableRendezvousHostIsAUsageError() {
        assertThatThrownBy(() -> BenchNcclCommand.RankEnvironment.address("no-such-host.invalid:29500"))
                .hasMessageContaining("rendezvous host 'no-such-host.invalid' does not resolve");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--size 0      | --size must be at least 1 byte",
            "--iters 0     | --iters must be at least 1",
            "--devices 0,-1 | --devices cannot be negative, got -1"})
    void benchGpuChecksItsArgumentsBeforeLoadingCuda(String args, String message) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute(("bench gpu " + args.trim()).split("\\s+"))).as(err.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains(message).doesNotContain("could not be loaded");
    }
}
