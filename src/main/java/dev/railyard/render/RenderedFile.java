package dev.railyard.render;

/**
 * One rendered file: its path relative to the root it belongs under ("etc/nccl.conf"), its text, and its mode.
 * NetworkManager and netplan ignore or warn about files others can read, hence the mode travels with the text.
 */
public record RenderedFile(String path, String content, int mode) {

    public static final int PUBLIC = 0644;
    public static final int PRIVATE = 0600;

    public RenderedFile {
        if (path.startsWith("/") || path.contains("..")) throw new IllegalArgumentException("not a relative path: " + path);
    }

    public static RenderedFile of(String path, String content) {
        return new RenderedFile(path, content, PUBLIC);
    }

    public String modeOctal() {
        return String.format("%04o", mode);
    }
}
