package dev.railyard.report;

/** HTML text and attribute escaping: every string from a node, a spec or a tool passes through here. */
final class Html {

    private Html() {
    }

    static String esc(String s) {
        if (plain(s)) return s;
        StringBuilder out = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(c -> {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> {
                    // Control characters (a kernel log line may carry them) would make the page invalid.
                    if (c < 0x20 && c != '\n' && c != '\t') out.append("&#xFFFD;");
                    else out.appendCodePoint(c);
                }
            }
        });
        return out.toString();
    }

    /** Most strings (node names, numbers) need no escaping; a 512-node heatmap escapes 130,816 of them. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '&' || c == '<' || c == '>' || c == '"' || c == '\'' || c < 0x20) return false;
        }
        return true;
    }

    /** A token safe for an id or class: letters, digits, '-' and '_' kept, the rest '_'. */
    static String token(String s) {
        return s.replaceAll("[^A-Za-z0-9_-]", "_");
    }
}
