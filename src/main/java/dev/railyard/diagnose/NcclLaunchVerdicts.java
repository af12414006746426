package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.NcclRankDevice;
import dev.railyard.model.NcclTestsResult;
import dev.railyard.model.NcclTestsRun;
import dev.railyard.check.BenchVerdicts;
import dev.railyard.model.Severity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
                    "build nccl-tests with MPI=1 (make MPI=1 MPI_HOME=...) and launch with mpirun -np N or srun "
                            + "--mpi=pmix; one process per GPU, -g 1",
                    n, text.line(n), "nccl-tests"));
        }
        return Optional.empty();
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
                "paste the table to its end (the # Avg bus bandwidth line) to judge the largest size",
                first.lineNumber(), text.line(first.lineNumber()), "nccl-tests"));
    }
}
