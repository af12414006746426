package dev.railyard.bench.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The first bytes of every benchmark connection, so one server port serves both modes: magic, version, mode,
 * how many parallel streams the client opens (so a --once server knows when the session is over), message size.
 */
public record SessionHeader(TcpMode mode, int streams, int msgSize) {

    static final int MAGIC = 0x52595442; // "RYTB"
    static final int VERSION = 1;
    static final int BYTES = 12;
    /** Echo buffers are allocated from this, so a hostile or confused client cannot make the server allocate GBs. */
    static final int MAX_MSG_SIZE = 64 << 20;

    public SessionHeader {
        if (streams < 1 || streams > Short.MAX_VALUE) throw new IllegalArgumentException("streams out of range: " + streams);
        if (msgSize < 1 || msgSize > MAX_MSG_SIZE) throw new IllegalArgumentException("message size out of range: " + msgSize);
    }

    ByteBuffer encode() {
        return ByteBuffer.allocate(BYTES)
                .putInt(MAGIC).put((byte) VERSION).put((byte) mode.wire()).putShort((short) streams).putInt(msgSize)
                .flip();
    }

    static SessionHeader decode(ByteBuffer buf) {
        int magic = buf.getInt();
        if (magic != MAGIC) throw new IllegalArgumentException("not a railyard bench tcp client (magic %08x)".formatted(magic));
        int version = buf.get();
        if (version != VERSION) throw new IllegalArgumentException("protocol version " + version + ", this server speaks " + VERSION);
        TcpMode mode = TcpMode.fromWire(buf.get());
        int streams = buf.getShort();
        int msgSize = buf.getInt();
        return new SessionHeader(mode, streams, msgSize);
    }

    static SessionHeader read(SocketChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(BYTES);
        readFully(ch, buf);
        return decode(buf.flip());
    }

    static void readFully(SocketChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            if (ch.read(buf) < 0) throw new EOFException("peer closed after " + buf.position() + " of " + buf.limit() + " bytes");
        }
    }

    static void writeFully(SocketChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) ch.write(buf);
    }
}
