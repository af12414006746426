package dev.railyard.cluster;

import java.util.List;
import java.util.Optional;

/**
 * Which bundle a node gets, and with which Java, once its {@code uname -m} is known: the bundle built for its
 * machine with that bundle's own runtime; else, when the spec names a JDK 25 on the node, the first bundle's jars
 * (they run on any machine) with that JDK; else the node is refused in one sentence naming both ways out. Nothing is
 * refused on a guess: a node or bundle whose machine is unknown gets the first bundle as it is.
 */
sealed interface BundleChoice {

    /** Copy {@code bundle}; run it with {@code javaHome}'s {@code bin/java} when present, else its own runtime. */
    record Ship(Bundle bundle, Optional<String> javaHome) implements BundleChoice {}

    /** No bundle fits and no JDK is named: the node is not prepared. */
    record Refuse(String reason) implements BundleChoice {}

    /** A bundle with the machine its runtime is built for (empty when its runtime could not be read). */
    record Built(Bundle bundle, Optional<String> machine) {}

    static BundleChoice of(String node, Optional<String> nodeMachine, List<Built> bundles, Optional<String> javaHome) {
        if (bundles.isEmpty()) throw new IllegalArgumentException("no bundle to choose from");
        Built first = bundles.getFirst();
        if (nodeMachine.isEmpty()) return new Ship(first.bundle(), Optional.empty());
        String machine = BundleArchitecture.machine(nodeMachine.get());
        for (Built b : bundles) {
            if (b.machine().isEmpty() || b.machine().get().equals(machine)) return new Ship(b.bundle(), Optional.empty());
        }
        if (javaHome.isPresent()) return new Ship(first.bundle(), javaHome);
        List<String> built = bundles.stream().map(b -> b.machine().orElseThrow()).distinct().toList();
        return new Refuse(node + " is " + machine + " but the bundle" + (built.size() > 1 ? "s are" : " is")
                + " built for " + String.join(" and ", built) + ": build one on a " + machine
                + " machine with 'railyard bundle --out railyard-" + machine + ".tar.gz' and add it with --bundle,"
                + " or name the node's JDK 25 in the spec (java: /usr/lib/jvm/... under the node)");
    }

    /**
     * The argv that starts Railyard from an unpacked bundle: its {@code bin/railyard}, under {@code env} naming the
     * node's own JDK when the bundle's runtime is for another machine.
     */
    static List<String> program(String railyard, Optional<String> javaHome) {
        return javaHome.map(j -> List.of("env", "RAILYARD_JAVA=" + j + "/bin/java", railyard))
                .orElse(List.of(railyard));
    }

    /** Why the node's own JDK could not start Railyard ({@code --version} failed), in one sentence. */
    static String javaFailed(dev.railyard.model.ClusterSpec.Node node, String javaHome, StepResult version) {
        String said = (version.stderr() + version.stdout()).strip();
        return "the JDK named for " + node.name() + " in the spec (java: " + javaHome + ") did not start Railyard"
                + " (exit " + version.exitCode() + (said.isEmpty() ? "" : ": " + said.lines().findFirst().orElse(""))
                + "): name the home of a JDK 25 there, or add a bundle built on such a machine with --bundle";
    }
}
