package dev.railyard.report;

import dev.railyard.model.ValidationReport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Writes one validate run's report directory: index.html (self-contained page), report.md, report.json (the
 * record through {@link ValidationJson}; docs/validate-report.md describes it) and junit.xml.
 */
public final class ValidationReportFiles {

    public static final String HTML = "index.html";
    public static final String MARKDOWN = "report.md";
    public static final String JSON = "report.json";
    public static final String JUNIT = "junit.xml";

    private ValidationReportFiles() {
    }

    /** Writes the report files into {@code dir} (created if needed) and returns their paths. */
    public static List<Path> write(ValidationReport report, Path dir) throws IOException {
        Files.createDirectories(dir);
        return List.of(
                replace(dir.resolve(HTML), ValidationHtml.render(report)),
                replace(dir.resolve(MARKDOWN), ValidationMarkdown.render(report)),
                replace(dir.resolve(JSON), ValidationJson.render(report)),
                replace(dir.resolve(JUNIT), ValidationJUnit.render(report)));
    }

    /** Through a temporary file and a rename, so a reader (a browser, CI) never sees half a file. */
    private static Path replace(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
