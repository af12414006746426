package dev.railyard.cluster;

/** How a launcher finds Railyard on a node. */
public sealed interface RemoteRailyard {

    /** Copied as this bundle to each node that lacks it, into the node's cache, and run from there. */
    record FromBundle(Bundle bundle) implements RemoteRailyard {}

    /** Already on every node at this absolute path (a shared directory, an installed package). */
    record AtPath(String path) implements RemoteRailyard {
        public AtPath {
            if (!path.startsWith("/")) throw new IllegalArgumentException("not an absolute path: " + path);
        }
    }
}
