package dev.railyard.model;

import java.util.Objects;

/**
 * One test between two nodes on one spec network: {@code client} starts it against {@code server}, whose address on
 * that network is {@code serverAddress}. The link it proves is the unordered pair.
 */
public record PairTest(String network, String client, String server, String serverAddress, PairKind kind) {

    public PairTest {
        Objects.requireNonNull(network);
        Objects.requireNonNull(client);
        Objects.requireNonNull(server);
        Objects.requireNonNull(serverAddress);
        Objects.requireNonNull(kind);
        if (client.equals(server)) throw new IllegalArgumentException("a pair needs two nodes: " + client);
    }

    /** "rail0 gpuserver1<->gpuserver2": the subject of the pair's findings, the same whichever end is client. */
    public String subject() {
        String a = client.compareTo(server) <= 0 ? client : server;
        String b = a.equals(client) ? server : client;
        return network + " " + a + "<->" + b;
    }

    public boolean involves(String node) {
        return client.equals(node) || server.equals(node);
    }
}
