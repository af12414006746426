package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Recognises a tool by a line only it prints and gives no verdicts of its own: the catalog rules judge it. Used for
 * rping, whose few error lines the catalog knows and which prints no numbers worth parsing.
 */
public record SignatureRecogniser(ToolKind tool, Pattern signature) implements Recogniser {

    public static SignatureRecogniser of(ToolKind tool, String regex) {
        return new SignatureRecogniser(tool, Pattern.compile(regex, Pattern.MULTILINE));
    }

    @Override
    public List<String> signatureLiterals() {
        return LinePattern.needles(signature.pattern());
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> signature.matcher(l).find());
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        return new ToolReading(List.of(), Parsed.none());
    }
}
