package dev.railyard.report;

import dev.railyard.model.NodeInventory;

/** The human view of an inventory: one section per area, absent and failed fields spelled out. */
public final class InventoryText {
    private InventoryText() {
    }

    public static String render(NodeInventory inv) {
        return "Node " + inv.hostname() + "\n"; // TODO(lead)
    }
}
