package dev.railyard.bench.fio;

import dev.railyard.bench.TextLines;
import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads fio's human-readable output: fio 3 ("read: IOPS=9924, BW=77.5MiB/s", "READ: bw=36.0MiB/s") and fio 1.x/2.x
 * ("write: io=481228KB, bw=24060KB/s, iops=6015", "READ: io=…, aggrb=…"). fio 2 wrote binary units as "KB"; fio 3
 * writes "KiB" and adds decimal ones in brackets, which are skipped. Lines it does not know are skipped.
 */
public final class FioTextParser {

    private static final String NUM = "(\\d{1,15}(?:\\.\\d{1,9})?)";
    private static final String UNIT = "([KMGTP]?i?B)";
    private static final Pattern VERSION = Pattern.compile("^\\s*fio-(\\d\\S*)\\s*$|fio=fio-(\\S+?),");
    private static final Pattern SPEC = Pattern.compile("^\\s*(\\S+): \\(g=(\\d{1,6})\\): rw=(\\w+)");
    private static final Pattern JOB = Pattern.compile(
            "^\\s*(\\S+): \\(groupid=(\\d{1,6}), jobs=(\\d{1,6})\\): err=\\s*(\\d{1,6})");
    private static final Pattern DIR3 = Pattern.compile(
            "^\\s*(read|write|trim)\\s*: IOPS=" + NUM + "([kKmM]?), BW=" + NUM + UNIT + "/s(?:[^)]*\\)\\(" + NUM + UNIT
                    + "/)?");
    private static final Pattern DIR2 = Pattern.compile(
            "^\\s*(read|write|trim)\\s*: io=" + NUM + UNIT + ", bw=" + NUM + UNIT + "/s, iops=" + NUM + "([kKmM]?)");
    private static final Pattern GROUP = Pattern.compile("^\\s*Run status group (\\d{1,6})");
    private static final Pattern SUM3 = Pattern.compile(
            "^\\s*(READ|WRITE|TRIM): bw=" + NUM + UNIT + "/s.*?io=" + NUM + UNIT);
    private static final Pattern SUM2 = Pattern.compile(
            "^\\s*(READ|WRITE|TRIM): io=" + NUM + UNIT + ", aggrb=" + NUM + UNIT + "/s");
    private static final Pattern KILLED = Pattern.compile("^\\s*fio: pid=\\d+, got signal=(\\d+)");
    private static final Pattern ERROR = Pattern.compile("^\\s*fio: (.*(?:error|failed|Error|No such|denied).*)$");

    public FioTextResult parse(TextLines text) {
        String version = "";
        Map<String, String> rw = new HashMap<>();
        List<FioJob> jobs = new ArrayList<>();
        List<FioGroup> groups = new ArrayList<>();
        List<FioTextResult.Failure> failures = new ArrayList<>();
        String job = null;
        FioDirection read = idle(), write = idle();
        int group = 0;
        for (int i = 1; i <= text.lines().size(); i++) {
            String line = text.line(i);
            if (line.isBlank()) continue;
            Matcher m;
            if (version.isEmpty() && (m = VERSION.matcher(line)).find()) {
                version = m.group(1) != null ? m.group(1) : m.group(2);
            } else if ((m = SPEC.matcher(line)).find()) {
                rw.putIfAbsent(m.group(1), m.group(3));
            } else if ((m = JOB.matcher(line)).find()) {
                if (job != null) jobs.add(new FioJob(job, rw.getOrDefault(job, ""), read, write));
                job = m.group(1);
                read = idle();
                write = idle();
                if (!m.group(4).equals("0")) {
                    failures.add(new FioTextResult.Failure(false, "job " + job + " ended with err=" + m.group(4), i,
                            line));
                }
            } else if ((m = DIR3.matcher(line)).find() && job != null) {
                long io = m.group(6) == null ? 1 : bytes(m.group(6), m.group(7));
                FioDirection d = direction(mib(m.group(4), m.group(5)), scaled(m.group(2), m.group(3)), io);
                if (m.group(1).equals("write")) write = d;
                else if (m.group(1).equals("read")) read = d;
            } else if ((m = DIR2.matcher(line)).find() && job != null) {
                FioDirection d = direction(mib(m.group(4), m.group(5)), scaled(m.group(6), m.group(7)),
                        bytes(m.group(2), m.group(3)));
                if (m.group(1).equals("write")) write = d;
                else if (m.group(1).equals("read")) read = d;
            } else if ((m = GROUP.matcher(line)).find()) {
                group = Integer.parseInt(m.group(1));
            } else if ((m = SUM3.matcher(line)).find()) {
                groups.add(new FioGroup(group, m.group(1), mib(m.group(2), m.group(3)), bytes(m.group(4), m.group(5))));
            } else if ((m = SUM2.matcher(line)).find()) {
                groups.add(new FioGroup(group, m.group(1), mib(m.group(4), m.group(5)), bytes(m.group(2), m.group(3))));
            } else if ((m = KILLED.matcher(line)).find()) {
                failures.add(new FioTextResult.Failure(true, "a job was killed by signal " + m.group(1), i, line));
            } else if ((m = ERROR.matcher(line)).find()) {
                failures.add(new FioTextResult.Failure(false, m.group(1).strip(), i, line));
            }
        }
        if (job != null) jobs.add(new FioJob(job, rw.getOrDefault(job, ""), read, write));
        return new FioTextResult(version, jobs, groups, failures);
    }

    private static FioDirection idle() {
        return new FioDirection(0, 0, 0, OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(),
                OptionalDouble.empty());
    }

    private static FioDirection direction(double mibps, double iops, long ioBytes) {
        return new FioDirection(Math.round(mibps * 1024), iops, Math.max(ioBytes, 1), OptionalDouble.empty(),
                OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty());
    }

    /** "51.1" "MiB" → 51.1; fio 2's "KB" is KiB, like its "MB"; a bare "B" is bytes. */
    static double mib(String value, String unit) {
        return Double.parseDouble(value) * factor(unit) / 1_048_576.0;
    }

    static long bytes(String value, String unit) {
        return (long) Math.min(Long.MAX_VALUE, Double.parseDouble(value) * factor(unit));
    }

    private static double factor(String unit) {
        return Math.pow(1024, "BKMGTP".indexOf(unit.charAt(0)));
    }

    private static double scaled(String value, String suffix) {
        double v = Double.parseDouble(value);
        return switch (suffix.toLowerCase()) {
            case "k" -> v * 1e3;
            case "m" -> v * 1e6;
            default -> v;
        };
    }
}
