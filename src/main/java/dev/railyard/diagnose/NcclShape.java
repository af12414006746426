package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.BenchVerdicts;
import dev.railyard.check.Fix;
import dev.railyard.model.NcclTestsRow;
import dev.railyard.model.NcclTestsRun;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an nccl-tests paste says beyond its largest row: a busbw that falls off above some size (a cliff where a
 * protocol, channel count or the fabric stops scaling), and whether the job ran on one host, where NCCL needs no
 * network at all (GPUs talk over NVLink, PCIe P2P or shared memory), so a missing libibverbs or NET/Socket there is
 * not a fault.
 */
final class NcclShape {

    private static final Pattern LOG_HOST = Pattern.compile("^\\s*([\\w.\\-]{1,64}):\\d+:\\d+ \\[(\\d+)] ");
    private static final Pattern RANK_HOST = Pattern.compile("#\\s*Rank\\s+(\\d+) (?:Group\\s+\\d+ )?Pid\\s+\\d+ on\\s+(\\S+)");
    private static final Pattern COMM_RANK = Pattern.compile("NCCL INFO (?:comm \\S+ )?rank (\\d+) nranks (\\d+)");
    private static final double CLIFF = 0.7;

    private NcclShape() {
    }

    /**
     * The one host of the job when the paste proves there was one: every rank of "nranks N" (NCCL's INIT lines) or
     * of the rank table is on it. A paste of one node's log of a larger job names one host too, so that alone is not
     * proof; empty when not proven.
     */
    static Set<String> hosts(TextLines text) {
        Set<String> hosts = new TreeSet<>();
        Set<Integer> ranks = new TreeSet<>();
        int nranks = 0;
        boolean table = false;
        for (String l : text.lines()) {
            Matcher m = LOG_HOST.matcher(l);
            if (m.find() && l.contains("NCCL")) hosts.add(m.group(1));
            Matcher c = COMM_RANK.matcher(l);
            if (c.find()) {
                ranks.add(Integer.parseInt(c.group(1)));
                nranks = Integer.parseInt(c.group(2));
            }
            Matcher r = RANK_HOST.matcher(l);
            if (r.find()) {
                hosts.add(r.group(2));
                table = true;
            }
        }
        boolean allRanks = table || nranks > 0 && ranks.size() == nranks;
        return hosts.size() == 1 && allRanks ? hosts : Set.of();
    }

    /** A channel NCCL connected over the network ("... via NET/Socket/0"): ranks on more than one host. */
    private static final Pattern VIA_NET = Pattern.compile("\\bvia NET/|\\bnNodes [2-9]|\\bnNodes \\d{2,}");

    /**
     * The one host the paste shows when it shows no other: every NCCL log line and rank-table line names it, and no
     * channel goes over the network. Weaker than {@link #hosts}: a paste of one node's log of a larger job looks the
     * same when it carries no channel lines, so it makes a network verdict a WARN, not an INFO.
     */
    static Optional<String> onlyHostSeen(TextLines text) {
        Set<String> hosts = new TreeSet<>();
        Set<String> gpus = new TreeSet<>();
        for (String l : text.lines()) {
            if (VIA_NET.matcher(l).find()) return Optional.empty();
            Matcher m = LOG_HOST.matcher(l);
            if (m.find() && l.contains("NCCL")) {
                hosts.add(m.group(1));
                gpus.add(m.group(2));
            }
            Matcher r = RANK_HOST.matcher(l);
            if (r.find()) {
                hosts.add(r.group(2));
                gpus.add(r.group(1));
            }
        }
        // one line of one GPU shows nothing of the job; several GPUs of one host and none elsewhere do
        return hosts.size() == 1 && gpus.size() >= 2 ? Optional.of(hosts.iterator().next()) : Optional.empty();
    }

    /**
     * On one host a transport verdict about the network (Socket, libibverbs) says nothing about the job: INFO where
     * the paste proves one host, WARN where it only shows one (a FAIL needs a sign of a second host).
     */
    static List<Diagnosis> oneHost(List<Diagnosis> in, TextLines text) {
        Set<String> proven = hosts(text);
        Optional<String> seen = proven.size() == 1 ? Optional.empty() : onlyHostSeen(text);
        if (proven.size() != 1 && seen.isEmpty()) return in;
        List<Diagnosis> out = new ArrayList<>();
        for (Diagnosis d : in) {
            String c = d.cause();
            boolean network = c.contains("libibverbs") || c.contains("Socket") || c.contains("NET/IB");
            if (network && proven.size() == 1 && d.severity().atLeast(Severity.WARN)) {
                out.add(Diagnosis.of(d.finding().id(), Severity.INFO, d.subject(), "one host ("
                        + proven.iterator().next() + "): NCCL needs no network between GPUs of one node, so this "
                        + "does not slow the job (" + c + ")", "", d.lineNumber(), d.line(), d.source()));
            } else if (network && seen.isPresent() && d.severity() == Severity.FAIL) {
                out.add(Diagnosis.of(d.finding().id(), Severity.WARN, d.subject(), "every NCCL line here is from "
                        + seen.get() + " and no channel goes over the network: on one host NCCL needs no network "
                        + "(NVLink, PCIe P2P or shared memory); if the job spans hosts, this is its path between them: " + c,
                        d.fix(), d.lineNumber(), d.line(), d.source()));
            } else {
                out.add(d);
            }
        }
        return out;
    }

    /** busbw at the largest size below 70 % of the best busbw of a larger-than-1-MB size before it. */
    static Optional<Diagnosis> cliff(String subject, NcclTestsRun run, TextLines text) {
        List<NcclTestsRow> rows = run.rows();
        if (rows.size() < 3) return Optional.empty();
        NcclTestsRow best = null;
        for (NcclTestsRow r : rows) {
            if (r.sizeBytes() >= (1 << 20) && (best == null || r.outOfPlace().busbwGBps() > best.outOfPlace().busbwGBps())) {
                best = r;
            }
        }
        NcclTestsRow last = rows.getLast();
        if (best == null || best == last || last.outOfPlace().busbwGBps() >= CLIFF * best.outOfPlace().busbwGBps()) {
            return Optional.empty();
        }
        NcclTestsRow drop = null;
        for (NcclTestsRow r : rows) {
            if (r.sizeBytes() > best.sizeBytes() && r.outOfPlace().busbwGBps() < CLIFF * best.outOfPlace().busbwGBps()) {
                drop = r;
                break;
            }
        }
        NcclTestsRow at = drop == null ? last : drop;
        int n = TableRows.lastLineWith(text, at.sizeBytes(), at.count());
        return Optional.of(Diagnosis.of(BenchVerdicts.NCCL_BUSBW, Severity.WARN, subject, String.format(Locale.ROOT,
                        "busbw falls from %.2f GB/s at %d B to %.2f GB/s from %d B on: above that size the transfer "
                                + "stops scaling (a protocol or buffer change, or the fabric saturating under "
                                + "larger messages)", best.outOfPlace().busbwGBps(), best.sizeBytes(),
                        at.outOfPlace().busbwGBps(), at.sizeBytes()),
                Fix.lines("export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING   # which algorithm and protocol each size uses",
                        Fix.note("run the sweep again with NCCL_PROTO=Simple and with NCCL_ALGO=Ring: a cliff that "
                                + "moves with them is NCCL's choice, one that stays is the fabric")),
                n, text.line(n), "nccl-tests"));
    }
}
