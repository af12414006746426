package dev.railyard.bench.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

/** Opens a client connection from the chosen local address and sends the session header. */
final class Connections {

    private Connections() {
    }

    static SocketChannel open(ClientSettings s) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            if (s.bind().isPresent()) ch.bind(new InetSocketAddress(s.bind().get(), 0));
            ch.connect(s.server());
            SessionHeader.writeFully(ch, new SessionHeader(s.mode(), s.streams(), s.msgSize()).encode());
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }
}
