package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Recognises a tool by a line only it prints and gives no verdicts of its own: the catalog rules judge it. Used for
 * perftest, nccl-tests and rping until their parsers are plugged in through {@link Recogniser}.
 */
public record SignatureRecogniser(ToolKind tool, Pattern signature) implements Recogniser {

    public static SignatureRecogniser of(ToolKind tool, String regex) {
        return new SignatureRecogniser(tool, Pattern.compile(regex, Pattern.MULTILINE));
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> signature.matcher(l).find());
    }

    @Override
    public List<Diagnosis> diagnose(TextLines text) {
        return List.of();
    }
}
