package dev.railyard.model;

/** What a run of bad pairs points at. */
public enum CulpritKind {
    /** Most of one node's pairs are bad: its NIC, cable, switch port or host tuning. */
    NODE,
    /** One pair is bad while both nodes are fine elsewhere: the cable or the path between them. */
    LINK,
    /** Every pair of one network is bad: the switch, the subnet manager, or a setting common to the rail. */
    RAIL
}
