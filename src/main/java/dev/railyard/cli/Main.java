package dev.railyard.cli;

import picocli.CommandLine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** The composition root: builds the command tree and is the only place that calls System.exit. */
public final class Main {

    private Main() {
    }

    /** The subcommands, in the order help lists them. */
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("inventory", InventoryCommand::new);
        m.put("check", CheckCommand::new);
        m.put("init", InitCommand::new);
        m.put("capture", CaptureCommand::new);
        m.put("bench", BenchCommand::new);
        m.put("diagnose", DiagnoseCommand::new);
        m.put("render", RenderCommand::new);
        m.put("apply", ApplyCommand::new);
        m.put("plan", PlanCommand::new);
        m.put("agent", AgentCommand::new);
        m.put("status", StatusCommand::new);
        m.put("validate", ValidateCommand::new);
        m.put("history", HistoryCommand::new);
        m.put("compare", CompareCommand::new);
        m.put("bundle", BundleCommand::new);
        return Collections.unmodifiableMap(m);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns the exit code; tests call this with their own writers via {@link #commandLine()}. */
    public static int run(String... args) {
        return commandLineFor(args).execute(args);
    }

    /** The whole command tree. */
    public static CommandLine commandLine() {
        return build(SUBCOMMANDS.keySet());
    }

    /**
     * Only the subcommand the arguments name (all of them for help or a typo): picocli builds every command's model
     * by reflection at start-up, and a one-shot command like {@code inventory} should not pay for the others.
     */
    static CommandLine commandLineFor(String... args) {
        for (String a : args) {
            if (a.startsWith("-")) continue;
            return build(SUBCOMMANDS.containsKey(a) ? Set.of(a) : SUBCOMMANDS.keySet());
        }
        return build(SUBCOMMANDS.keySet());
    }

    private static CommandLine build(Set<String> names) {
        CommandLine cl = new CommandLine(new RailyardCommand());
        for (String name : SUBCOMMANDS.keySet()) {
            if (names.contains(name)) cl.addSubcommand(name, SUBCOMMANDS.get(name).get());
        }
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        cl.setParameterExceptionHandler(new ExitCodes.ParameterHandler());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        separateHelpSections(cl);
        return cl;
    }

    /** A blank line and a heading before the arguments, options and subcommands of every help page. */
    private static void separateHelpSections(CommandLine cl) {
        CommandLine.Model.UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
        if (usage.parameterListHeading().isEmpty()) usage.parameterListHeading("%nArguments:%n");
        if (usage.optionListHeading().isEmpty()) usage.optionListHeading("%nOptions:%n");
        if (usage.commandListHeading().equals("Commands:%n")) usage.commandListHeading("%nCommands:%n");
        cl.getSubcommands().values().forEach(Main::separateHelpSections);
    }
}
