package dev.railyard.report;

import dev.railyard.model.ValidationReport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Writes one validate run's report directory: index.html (self-contained page), report.md, report.json (the
 * record through {@link ValidationJson}; docs/validate-report.md describes it), junit.xml, and pairs.jsonl.gz with
 * every pair test, one JSON object a line, which report.json names. A matrix the page draws by groups of nodes is
 * also written whole as CSV beside it.
 */
public final class ValidationReportFiles {

    public static final String HTML = "index.html";
    public static final String MARKDOWN = "report.md";
    public static final String JSON = "report.json";
    public static final String JUNIT = "junit.xml";
    public static final String PAIRS = "pairs.jsonl.gz";

    private ValidationReportFiles() {
    }

    /** Writes the report files into {@code dir} (created if needed) and returns their paths. */
    public static List<Path> write(ValidationReport report, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>(List.of(
                replace(dir.resolve(HTML), ValidationHtml.render(report)),
                replace(dir.resolve(MARKDOWN), ValidationMarkdown.render(report)),
                replace(dir.resolve(JSON), ValidationJson.renderWithPairsFile(report, PAIRS)),
                replace(dir.resolve(JUNIT), ValidationJUnit.render(report))));
        out.add(pairs(dir.resolve(PAIRS), report));
        for (PairMatrix m : PairMatrix.of(report)) {
            if (PairSection.grouped(m)) out.add(replace(dir.resolve(PairMatrixCsv.fileName(m)), PairMatrixCsv.render(m)));
        }
        return out;
    }

    private static Path pairs(Path file, ValidationReport report) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
            ValidationJson.writePairLines(report, gz);
        }
        return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Through a temporary file and a rename, so a reader (a browser, CI) never sees half a file. */
    private static Path replace(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
