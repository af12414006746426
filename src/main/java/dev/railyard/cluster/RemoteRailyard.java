package dev.railyard.cluster;

import java.util.List;

/** How a launcher finds Railyard on a node. */
public sealed interface RemoteRailyard {

    /**
     * Copied to each node that lacks it, into the node's cache, and run from there: of {@code bundles}, the one
     * built for the node's machine ({@link BundleChoice}); the first is the default.
     */
    record FromBundle(List<Bundle> bundles) implements RemoteRailyard {
        public FromBundle {
            bundles = List.copyOf(bundles);
            if (bundles.isEmpty()) throw new IllegalArgumentException("no bundle");
        }

        public FromBundle(Bundle bundle) {
            this(List.of(bundle));
        }
    }

    /** Already on every node at this absolute path (a shared directory, an installed package). */
    record AtPath(String path) implements RemoteRailyard {
        public AtPath {
            if (!path.startsWith("/")) throw new IllegalArgumentException("not an absolute path: " + path);
        }
    }
}
