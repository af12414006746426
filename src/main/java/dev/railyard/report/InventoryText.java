package dev.railyard.report;

import dev.railyard.model.NodeInventory;
import dev.railyard.model.ValueText;

/**
 * The human view of an inventory: a header, then one section per area (GPUs, RDMA, network, PCIe affinity, host).
 * Every field is shown as read, as "absent (why)" or as "failed (path: cause)"; an area with nothing says "none found".
 */
public final class InventoryText {

    private InventoryText() {
    }

    public static String render(NodeInventory inv) {
        return render(inv, TextStyle.PLAIN);
    }

    /** Tables wrap their cells within the width; any other line too long wraps under its own indent. */
    public static String render(NodeInventory inv, TextStyle style) {
        StringBuilder out = new StringBuilder();
        out.append("Node ").append(ValueText.printable(inv.hostname())).append("  root ")
                .append(ValueText.printable(inv.root())).append("  at ").append(Quantities.time(inv.takenAt())).append('\n');
        out.append("  OS ").append(ValueText.printable(ReadingText.of(inv.host().os())))
                .append("  kernel ").append(ValueText.printable(ReadingText.of(inv.host().kernel()))).append('\n');
        out.append('\n');
        GpuSection.appendTo(out, inv.gpu());
        out.append('\n');
        RdmaSection.appendTo(out, inv.rdmaDevices(), inv.interfaces());
        out.append('\n');
        NetSection.appendTo(out, inv.interfaces(), style.width());
        out.append('\n');
        TopologySection.appendTo(out, inv.topology());
        out.append('\n');
        HostSection.appendTo(out, inv.host(), inv.xidEvents());
        // the sections escape their cells; this catches any value printed outside a table (terminal escapes)
        return Wrap.lines(ValueText.escapeControls(out.toString(), true), style.width());
    }
}
