package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.fio.FioJob;
import dev.railyard.bench.fio.FioJsonParser;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/** fio JSON: one INFO verdict per job and direction with the bandwidth and IOPS it measured. */
public record FioRecogniser() implements Recogniser {

    @Override
    public ToolKind tool() {
        return ToolKind.FIO_JSON;
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.find("\"fio version\"") > 0;
    }

    @Override
    public List<Diagnosis> diagnose(TextLines text) {
        List<Diagnosis> out = new ArrayList<>();
        for (FioJob job : new FioJsonParser().parse(text.joined()).jobs()) {
            if (job.read().active()) out.add(info(job, "read", job.read().mebibytesPerSecond(), job.read().iops()));
            if (job.write().active()) out.add(info(job, "write", job.write().mebibytesPerSecond(), job.write().iops()));
        }
        return out;
    }

    private static Diagnosis info(FioJob job, String side, double mib, double iops) {
        return new Diagnosis(Severity.INFO, "fio " + job.name() + " " + side,
                String.format("%.0f MiB/s, %.0f IOPS (%s)", mib, iops, job.rw()), "", 0, "", "fio");
    }
}
