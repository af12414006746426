package dev.railyard.cli;

import dev.railyard.platform.Cancellation;
import dev.railyard.report.TextStyle;
import dev.railyard.platform.Timings;
import picocli.CommandLine;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/** The composition root: builds the command tree and is the only place that calls System.exit. */
public final class Main {

    private Main() {
    }

    /** The subcommands, in the order help lists them. */
    private static final Map<String, Function<Startup, Object>> SUBCOMMANDS = subcommands();

    /** What main started before picocli: the timings, and a live inventory when the arguments ask for one. */
    record Startup(Timings timings, Optional<InventoryPrefetch> inventory) {
        static final Startup NONE = new Startup(Timings.off(), Optional.empty());
    }

    private static Map<String, Function<Startup, Object>> subcommands() {
        Map<String, Function<Startup, Object>> m = new LinkedHashMap<>();
        m.put("inventory", s -> new InventoryCommand(s.timings(), s.inventory()));
        m.put("check", t -> new CheckCommand());
        m.put("init", t -> new InitCommand());
        m.put("capture", t -> new CaptureCommand());
        m.put("bench", t -> new BenchCommand());
        m.put("burn", t -> new BurnCommand());
        m.put("diagnose", t -> new DiagnoseCommand());
        m.put("render", t -> new RenderCommand());
        m.put("apply", t -> new ApplyCommand());
        m.put("plan", t -> new PlanCommand());
        m.put("agent", t -> new AgentCommand());
        m.put("status", t -> new StatusCommand());
        m.put("validate", t -> new ValidateCommand());
        m.put("history", t -> new HistoryCommand());
        m.put("compare", t -> new CompareCommand());
        m.put("bundle", t -> new BundleCommand());
        m.put("completion", t -> new CompletionCommand());
        m.put("man", t -> new ManCommand());
        m.put("version", t -> new VersionCommand());
        m.put("help", t -> new HelpCommand());
        return Collections.unmodifiableMap(m);
    }

    /** bench's subcommands, in the order its help lists them. */
    private static final Map<String, Function<Startup, Object>> BENCH = benchSubcommands();

    private static Map<String, Function<Startup, Object>> benchSubcommands() {
        Map<String, Function<Startup, Object>> m = new LinkedHashMap<>();
        m.put("tcp", s -> new BenchTcpCommand());
        m.put("rdma", s -> new BenchRdmaCommand());
        m.put("nccl", s -> new BenchNcclCommand(s.timings()));
        m.put("gpu", s -> new BenchGpuCommand());
        m.put("storage", s -> new BenchStorageCommand());
        return Collections.unmodifiableMap(m);
    }

    public static void main(String[] args) {
        Interrupts.install(Cancellation.create(), Thread.currentThread(), Main::endAtOnce);
        int code = run(args);
        Interrupts.returned();
        System.exit(code);
    }

    /**
     * A second Ctrl-C or SIGTERM: the user will not wait for the command to finish stopping. Also what a command
     * whose work cannot be stopped where it is (a collective inside NCCL) does once it has printed what it measured.
     */
    static void endAtOnce() {
        endNow(ExitCodes.FAIL_FINDING, "railyard: stopped at once by a second signal");
    }

    /** Ends the process now with {@code code}, after {@code line} (none when empty); the shutdown hook still runs. */
    static void endNow(int code, String line) {
        System.out.flush();
        if (!line.isEmpty()) System.err.println(line);
        System.err.flush();
        System.exit(code);
    }

    /** Runs the CLI and returns the exit code; tests call this with their own writers via {@link #commandLine()}. */
    public static int run(String... args) {
        Timings timings = timingsFor(System.getenv(), args);
        Startup startup = new Startup(timings, InventoryPrefetch.startIfLiveInventory(args, timings));
        long building = System.nanoTime();
        CommandLine cl = commandLineFor(startup, args);
        timings.record("CLI build (picocli command model, command classes)", building);
        int code = cl.execute(args);
        if (timings.on()) {
            System.err.print(timings.render());
            System.err.flush();
        }
        return code;
    }

    /**
     * Timings when asked for (--timings, or RAILYARD_TIMINGS set), started now; the launcher passes its own start
     * time in RAILYARD_T0_NS so the JVM's start-up is measured exactly.
     */
    static Timings timingsFor(Map<String, String> env, String... args) {
        boolean wanted = !env.getOrDefault("RAILYARD_TIMINGS", "").isEmpty() || Arrays.asList(args).contains("--timings");
        if (!wanted) return Timings.off();
        OptionalLong t0 = OptionalLong.empty();
        try {
            if (env.containsKey("RAILYARD_T0_NS")) t0 = OptionalLong.of(Long.parseLong(env.get("RAILYARD_T0_NS").trim()));
        } catch (NumberFormatException ignored) {
            // a malformed start time: fall back to the kernel's
        }
        return Timings.startedAtMain(t0);
    }

    /** The whole command tree. */
    public static CommandLine commandLine() {
        return build(Startup.NONE, SUBCOMMANDS.keySet());
    }

    /**
     * Only the subcommand the arguments name (all of them for help or a typo): picocli builds every command's model
     * by reflection at start-up, and a one-shot command like {@code inventory} should not pay for the others.
     */
    static CommandLine commandLineFor(String... args) {
        return commandLineFor(Startup.NONE, args);
    }

    static CommandLine commandLineFor(Timings timings, String... args) {
        return commandLineFor(new Startup(timings, Optional.empty()), args);
    }

    static CommandLine commandLineFor(Startup startup, String... args) {
        List<String> words = Arrays.stream(args).filter(a -> !a.startsWith("-")).toList();
        List<String> options = Arrays.asList(args);
        if (words.isEmpty() && (options.contains("--version") || options.contains("-V"))
                && !options.contains("--help") && !options.contains("-h")) {
            // the version alone needs no subcommand: building them all took 192 ms against inventory's 125 (1 x H200)
            return build(startup, Set.of(), Set.of());
        }
        // help CMD needs the command it is asked about: build them all, as for a typo
        if (words.isEmpty() || !SUBCOMMANDS.containsKey(words.getFirst()) || words.getFirst().equals("help")) {
            return build(startup, SUBCOMMANDS.keySet(), BENCH.keySet());
        }
        // bench nccl builds bench and nccl only, not tcp, rdma, gpu and storage as well (115 ms on a loaded VM)
        Set<String> bench = words.size() > 1 && BENCH.containsKey(words.get(1)) ? Set.of(words.get(1)) : BENCH.keySet();
        return build(startup, Set.of(words.getFirst()), bench);
    }

    private static CommandLine build(Startup startup, Set<String> names) {
        return build(startup, names, BENCH.keySet());
    }

    private static CommandLine build(Startup startup, Set<String> names, Set<String> benchNames) {
        Timings t = startup.timings();
        long start = System.nanoTime();
        CommandLine cl = new CommandLine(new RailyardCommand());
        t.record("picocli: root command", start);
        start = System.nanoTime();
        for (String name : SUBCOMMANDS.keySet()) {
            if (names.contains(name)) cl.addSubcommand(name, SUBCOMMANDS.get(name).apply(startup));
        }
        CommandLine bench = cl.getSubcommands().get("bench");
        if (bench != null) {
            for (String name : BENCH.keySet()) {
                if (benchNames.contains(name)) bench.addSubcommand(name, BENCH.get(name).apply(startup));
            }
        }
        t.record("picocli: " + (names.size() == 1 ? names.iterator().next() : names.size() + " subcommands"), start);
        start = System.nanoTime();
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        cl.setParameterExceptionHandler(new ExitCodes.ParameterHandler());
        cl.setExecutionStrategy(NumericOptions.checkedThen(new CommandLine.RunLast()));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // 100 columns piped (like the text reports), the terminal's width on one; examples fit in 80.
        cl.setUsageHelpWidth(TextStyle.DEFAULT_WIDTH);
        cl.setUsageHelpAutoWidth(true);
        separateHelpSections(cl);
        t.record("picocli: handlers, help width and sections", start);
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
