package dev.railyard.model;

/**
 * A class directory that exists but could not be listed (a link out of the root, no permission): what is in it is
 * unknown, so checks judge what they expected there UNKNOWN with {@code cause}, never missing.
 */
public record Unlisted(Subsystem subsystem, String path, String cause) {

    public enum Subsystem { NET, INFINIBAND }

    /** The words a finding shows. */
    public String describe() {
        return path + " could not be listed: " + cause;
    }
}
