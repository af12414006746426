package dev.railyard.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * railyard(1) in troff (man(7) macros), from the command model itself: every command's description, arguments,
 * options and examples, so the manual says what --help says and cannot drift from it.
 */
final class ManPage {

    private ManPage() {
    }

    static String render(CommandLine top) {
        CommandSpec root = top.getCommandSpec();
        String version = new VersionProvider().getVersion()[0];
        StringBuilder out = new StringBuilder();
        out.append(".TH RAILYARD 1 \"\" \"").append(escape(version)).append("\" \"User Commands\"\n");
        out.append(".SH NAME\n");
        out.append("railyard \\- ").append(escape(lowerFirst(text(first(root.usageMessage().description()))))).append('\n');
        out.append(".SH SYNOPSIS\n.B railyard\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n");
        out.append(".SH DESCRIPTION\n");
        paragraphs(out, root.usageMessage().description());
        out.append(".PP\nEvery command takes \\fB\\-h\\fR, \\fB\\-\\-help\\fR; \\fBrailyard \\-V\\fR prints the version.\n");
        options(out, root);
        out.append(".SH COMMANDS\n");
        for (CommandLine c : commands(top)) command(out, c.getCommandSpec());
        out.append(".SH EXIT STATUS\n");
        out.append(".TP\n.B 0\nno FAIL finding, or the command did what was asked\n");
        out.append(".TP\n.B 1\nat least one FAIL finding\n");
        out.append(".TP\n.B 2\na usage or cluster-spec error\n");
        out.append(".TP\n.B 3\na prerequisite is missing (the message names what to install)\n");
        out.append(".SH ENVIRONMENT\n");
        out.append(".TP\n.B COLUMNS\nthe width text output wraps at (default: the terminal's, or 100 when piped)\n");
        out.append(".TP\n.B NO_COLOR\nwhen set and not empty, no colour even on a terminal\n");
        out.append(".TP\n.B RAILYARD_TIMINGS\nwhen set, inventory prints where its time went to standard error\n");
        out.append(".SH SEE ALSO\n.BR nvidia-smi (1),\n.BR ibstat (8),\n.BR ib_write_bw (1)\n");
        return out.toString();
    }

    /** Every command below the top, depth first, in help order. */
    private static List<CommandLine> commands(CommandLine top) {
        List<CommandLine> out = new ArrayList<>();
        for (CommandLine c : top.getSubcommands().values().stream().distinct().toList()) {
            out.add(c);
            out.addAll(commands(c));
        }
        return out;
    }

    private static void command(StringBuilder out, CommandSpec c) {
        out.append(".SS \"").append(escape(c.qualifiedName())).append("\"\n");
        paragraphs(out, c.usageMessage().description());
        for (PositionalParamSpec p : c.positionalParameters()) {
            if (p.hidden()) continue;
            out.append(".TP\n\\fI").append(escape(p.paramLabel())).append("\\fR\n");
            out.append(escape(text(String.join(" ", p.description())))).append('\n');
        }
        options(out, c);
        List<String> footer = List.of(c.usageMessage().footer());
        int examples = footer.indexOf("Examples:") >= 0 ? footer.indexOf("Examples:") : footer.indexOf("Example:");
        if (examples >= 0) {
            out.append(".PP\nExamples:\n.RS\n.nf\n");
            for (String line : footer.subList(examples + 1, footer.size())) out.append(escape(text(line).strip())).append('\n');
            out.append(".fi\n.RE\n");
        }
    }

    private static void options(StringBuilder out, CommandSpec c) {
        for (OptionSpec o : c.options()) {
            if (o.hidden() || o.usageHelp() || o.versionHelp()) continue;
            out.append(".TP\n\\fB").append(escape(String.join(", ", o.names()))).append("\\fR");
            if (o.arity().max() > 0) out.append(" \\fI").append(escape(o.paramLabel())).append("\\fR");
            out.append('\n').append(escape(text(String.join(" ", o.description())))).append('\n');
        }
    }

    private static void paragraphs(StringBuilder out, String[] lines) {
        for (String line : lines) {
            if (line.isBlank()) continue;
            out.append(".PP\n").append(escape(text(line))).append('\n');
        }
    }

    /** picocli's format text as it prints it: %n a line break, %% a percent sign. */
    private static String text(String s) {
        return s.replace("%n", " ").replace("%%", "%");
    }

    private static String first(String[] lines) {
        return lines.length == 0 ? "" : lines[0];
    }

    private static String lowerFirst(String s) {
        String t = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
        return t.isEmpty() ? t : t.substring(0, 1).toLowerCase(Locale.ROOT) + t.substring(1);
    }

    /** Backslashes and dashes escaped, and a line never starting with a control character. */
    static String escape(String s) {
        String e = s.replace("\\", "\\e").replace("-", "\\-");
        StringBuilder out = new StringBuilder();
        for (String line : e.split("\n", -1)) {
            if (!out.isEmpty()) out.append('\n');
            if (line.startsWith(".") || line.startsWith("'")) out.append("\\&");
            out.append(line);
        }
        return out.toString();
    }
}
