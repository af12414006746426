package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.ShellWord;
import dev.railyard.model.NcclRankDevice;
import dev.railyard.model.NcclTestsResult;
import dev.railyard.model.NcclTestsRun;
import dev.railyard.check.BenchVerdicts;
import dev.railyard.check.Fix;
import dev.railyard.model.Severity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** What the shape of an nccl-tests output says about how it was run: separate jobs, or a paste cut short. */
final class NcclLaunchVerdicts {

    private NcclLaunchVerdicts() {
    }

    /**
     * The same rank on two hosts: each process thought it was the whole job, so nccl-tests was built without MPI
     * (MPI=1) or started by a launcher that gave it no rank. Its numbers measure one GPU talking to itself.
     */
    static Optional<Diagnosis> separateJobs(String subject, NcclTestsRun run, TextLines text) {
        Map<Integer, List<NcclRankDevice>> byRank = run.devices().stream()
                .collect(Collectors.groupingBy(NcclRankDevice::rank, LinkedHashMap::new, Collectors.toList()));
        for (Map.Entry<Integer, List<NcclRankDevice>> e : byRank.entrySet()) {
            List<String> hosts = e.getValue().stream().map(NcclRankDevice::host).distinct().toList();
            if (hosts.size() < 2) continue;
            int n = TableRows.firstLineMatching(text, Pattern.compile("Rank\\s+" + e.getKey() + "\\s.*\\b"
                    + Pattern.quote(hosts.get(1)) + "\\b"));
            return Optional.of(Diagnosis.of(BenchVerdicts.NCCL_BUSBW, Severity.FAIL, subject,
                    "Rank " + e.getKey() + " appears on " + hosts.size() + " hosts (" + String.join(", ", hosts)
                            + "): the processes did not start as one job, so each measured only itself",
                    oneJob(run),
                    n, text.line(n), "nccl-tests"));
        }
        return Optional.empty();
    }

    /**
     * nccl-tests built with MPI, started as one job of one process per GPU on the hosts the paste names. The
     * paste does not say which test ran, so the command names all_reduce_perf and says so.
     */
    private static String oneJob(NcclTestsRun run) {
        Map<String, Set<Integer>> perHost = run.devices().stream().collect(Collectors.groupingBy(
                NcclRankDevice::host, LinkedHashMap::new, Collectors.mapping(NcclRankDevice::device,
                        Collectors.toSet())));
        int processes = perHost.values().stream().mapToInt(Set::size).sum();
        String hosts = perHost.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue().size())
                .collect(Collectors.joining(","));
        return Fix.lines(Fix.note("nccl-tests forms one job only when built with MPI; in the nccl-tests directory:"),
                "make MPI=1 MPI_HOME=\"$(dirname \"$(dirname \"$(command -v mpicc)\")\")\"",
                Fix.note("then one process per GPU (-g 1), " + processes + " in all (srun --mpi=pmix does the same "
                        + "under Slurm); all_reduce_perf stands for the test you ran:"),
                "mpirun -np " + processes + " -H " + ShellWord.of(hosts) + " ./build/all_reduce_perf -b 8 -e 1G -g 1");
    }

    /** A row that did not read: say where the table was cut, and that the rows before it were judged. */
    static Optional<Diagnosis> skipped(NcclTestsResult r, TextLines text) {
        if (r.skippedRows().isEmpty()) return Optional.empty();
        NcclTestsResult.SkippedRow first = r.skippedRows().getFirst();
        boolean anyRows = r.runs().stream().anyMatch(run -> !run.rows().isEmpty());
        String after = first.afterSize() > 0 ? "truncated after the " + first.afterSize() + " B row" : "truncated";
        return Optional.of(Diagnosis.of(BenchVerdicts.NCCL_BUSBW, anyRows ? Severity.INFO : Severity.UNKNOWN,
                "nccl-tests table", after + ": line " + first.lineNumber() + " is not a whole row (" + first.reason()
                        + (r.skippedRows().size() > 1 ? "; " + r.skippedRows().size() + " such rows" : "")
                        + ")" + (anyRows ? "; the whole rows were judged" : ""),
                Rerun.andDiagnose("the table was " + after + ": the largest size needs it whole, to its "
                        + "\"# Avg bus bandwidth\" line", "nccl-tests.txt"),
                first.lineNumber(), text.line(first.lineNumber()), "nccl-tests"));
    }
}
