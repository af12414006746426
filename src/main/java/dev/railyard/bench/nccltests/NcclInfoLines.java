package dev.railyard.bench.nccltests;

import dev.railyard.model.NcclNet;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Collects the network facts from "NCCL INFO" lines into an {@link NcclNet}. */
final class NcclInfoLines {

    private static final Pattern IB_NIC = Pattern.compile("\\[(\\d{1,9})]([^:\\s\\[]+):(\\d{1,9})/(IB|RoCE)");
    private static final Pattern IFACE = Pattern.compile("\\[(\\d+)]([^:\\s\\[]+):");
    private static final Pattern USING_NETWORK = Pattern.compile("^Using network (.+?)\\s*$");

    private final List<NcclNet.IbNic> ibNics = new ArrayList<>();
    private final List<String> socketInterfaces = new ArrayList<>();
    private final List<String> plugins = new ArrayList<>();
    private final List<String> usingNetwork = new ArrayList<>();
    private boolean ibNoDevice;
    private boolean ibverbsMissing;
    private boolean socketChannels;
    private boolean ibChannels;

    /** {@code info} is the text after "NCCL INFO ". */
    void accept(String info) {
        if (info.startsWith("NET/IB : No device found")) ibNoDevice = true;
        if (info.startsWith("Failed to open libibverbs")) ibverbsMissing = true;
        if (info.startsWith("NET/IB : Using")) {
            Matcher m = IB_NIC.matcher(info);
            while (m.find()) {
                NcclNet.IbNic nic = new NcclNet.IbNic(Integer.parseInt(m.group(1)), m.group(2),
                        Integer.parseInt(m.group(3)), m.group(4));
                if (!ibNics.contains(nic)) ibNics.add(nic);
            }
        }
        if (info.startsWith("NET/Socket : Using")) {
            Matcher m = IFACE.matcher(info);
            while (m.find()) if (!socketInterfaces.contains(m.group(2))) socketInterfaces.add(m.group(2));
        }
        if (info.startsWith("NET/FastSocket") && !plugins.contains("FastSocket")) plugins.add("FastSocket");
        if (info.startsWith("NET/OFI") && !plugins.contains("OFI")) plugins.add("OFI");
        Matcher un = USING_NETWORK.matcher(info);
        if (un.matches()) usingNetwork.add(un.group(1));
        if (info.contains("via NET/Socket")) socketChannels = true;
        if (info.contains("via NET/IB")) ibChannels = true;
    }

    NcclNet result() {
        return new NcclNet(ibNics, socketInterfaces, plugins, usingNetwork, ibNoDevice, ibverbsMissing,
                socketChannels, ibChannels);
    }
}
