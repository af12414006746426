package dev.railyard.bench.ibtools;

/**
 * One port as ibstat prints it. rate is ibstat's Gb/s figure (a Down/Polling port reports a meaningless 10 or 40);
 * baseLid 65535 (0xffff) means no LID was assigned: no subnet manager reached the port.
 */
public record IbstatPort(int number, String state, String physicalState, int rate, int baseLid, int smLid,
                         String linkLayer) {

    public static final int NO_LID = 65535;

    public boolean active() {
        return state.equalsIgnoreCase("Active");
    }

    public boolean infiniband() {
        return linkLayer.equalsIgnoreCase("InfiniBand");
    }
}
