package dev.railyard.bench.ibtools;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses show_gids. Columns are separated by tabs or by spaces (pastes lose the tabs) and the IPv4 column is empty
 * for link-local GIDs, so rows are matched by shape rather than by column position.
 */
public final class ShowGidsParser {

    static final String TOOL = "show_gids";
    private static final Pattern ROW = Pattern.compile(
            "^(\\S+)\\s+(\\d{1,3})\\s+(\\d{1,5})\\s+((?:[0-9a-fA-F]{4}:){7}[0-9a-fA-F]{4})\\s+"
                    + "(?:(\\d{1,3}(?:\\.\\d{1,3}){3})\\s+)?(v[12])\\s*(\\S*)\\s*$");
    private static final Pattern FOUND = Pattern.compile("^n_gids_found=(\\d{1,9})");

    public ShowGids parse(String output) {
        TextLines text = TextLines.of(output);
        List<GidEntry> entries = new ArrayList<>();
        int found = -1;
        boolean header = false;
        for (int i = 1; i <= text.lines().size(); i++) {
            String line = text.line(i);
            Matcher m;
            if (line.matches("^\\s*DEV\\s+PORT\\s+INDEX\\s+GID.*")) header = true;
            if ((m = ROW.matcher(line)).matches()) {
                entries.add(new GidEntry(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                        m.group(4).toLowerCase(), m.group(5) == null ? "" : m.group(5), m.group(6), m.group(7)));
            } else if ((m = FOUND.matcher(line.strip())).find()) {
                found = Integer.parseInt(m.group(1));
            }
        }
        if (!header && entries.isEmpty()) {
            int n = text.firstNonBlank();
            throw new ToolParseException(TOOL, n, text.line(n), "no show_gids header (DEV PORT INDEX GID ...)");
        }
        return new ShowGids(entries, found);
    }
}
