package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * net.carrier: link flaps on physical NICs. carrier_changes counts since boot and a clean boot leaves 1-2 (down then
 * up), so one snapshot WARNs only above {@link #FLAP_THRESHOLD}; whether it is rising is the agent's flap detector's job.
 */
public final class CarrierCheck implements Check {

    static final String ID = CheckId.NET_CARRIER.id();
    static final long FLAP_THRESHOLD = 10;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (NetInterface nd : in.inventory().interfaces()) {
            if (!nd.pciAddress().isPresent()) continue; // loopback, bridges, veths: flaps there are not cabling
            String expected = "<= " + FLAP_THRESHOLD + " carrier changes since boot";
            Reading<Long> r = nd.carrierChanges();
            if (!(r instanceof Reading.Present<Long>(Long changes))) {
                out.add(Finding.unknown(ID, nd.name(), r, expected));
            } else if (changes > FLAP_THRESHOLD) {
                out.add(Finding.of(ID, Severity.WARN, nd.name(), changes + " carrier changes", expected,
                        Fix.lines(Fix.note("the link flaps: reseat or replace the cable/transceiver and check the switch port"),
                                "ip -s link show " + ShellWord.of(nd.name()), "ethtool " + ShellWord.of(nd.name()))));
            } else {
                out.add(Finding.pass(ID, nd.name(), changes + " carrier changes", expected));
            }
        }
        return out;
    }
}
