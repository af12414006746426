package dev.railyard.bench.ibtools;

/** One port from ibv_devinfo: state as printed without its number ("PORT_DOWN"), link layer, LIDs, active MTU. */
public record IbvPort(int number, String state, String linkLayer, int portLid, int smLid, int activeMtu) {
    public boolean active() {
        return state.equals("PORT_ACTIVE");
    }
}
