package dev.railyard.cli;

import dev.railyard.model.RailyardException;

import java.net.InetSocketAddress;

/** "ADDR:PORT", ":PORT" or "[v6]:PORT" for a server to listen on. */
final class ListenAddress {

    private ListenAddress() {
    }

    static InetSocketAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) throw usage(text);
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw usage(text);
        }
        if (port < 0 || port > 65535) throw usage(text);
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    /**
     * The address as given, with the port the server really holds: ":0" asks the kernel for a free port, and a user
     * who wrote it needs to know which one came.
     */
    static String bound(String asGiven, int port) {
        int colon = asGiven.lastIndexOf(':');
        return (colon < 0 ? asGiven : asGiven.substring(0, colon)) + ":" + port;
    }

    private static RailyardException usage(String text) {
        return new RailyardException.Usage("not an address to listen on: '" + text + "'",
                "write ADDR:PORT, e.g. 0.0.0.0:9410 or 127.0.0.1:9410");
    }
}
