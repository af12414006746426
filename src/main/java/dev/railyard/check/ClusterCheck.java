package dev.railyard.check;

import dev.railyard.model.Finding;

import java.util.List;

/** One concern judged across nodes. Pure, like {@link Check}: it reads only the facts validate gathered. */
public interface ClusterCheck {

    String id();

    List<Finding> run(ClusterInput in);

    /** The cluster checks validate runs, in report order. */
    static List<ClusterCheck> all() {
        return List.of(new ClusterMtuCheck(), new ClusterVersionsCheck(), new ClusterAddressesCheck(),
                new NetworkSeparationCheck(), new ClusterPkeyCheck());
    }
}
