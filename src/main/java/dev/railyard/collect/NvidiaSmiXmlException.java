package dev.railyard.collect;

/**
 * A saved nvidia-smi -q -x that is not a readable document (cut off while capturing, not XML, another root
 * element). The message names the line and column the XML parser stopped at.
 */
public final class NvidiaSmiXmlException extends Exception {

    public NvidiaSmiXmlException(String message, Throwable cause) {
        super(message, cause);
    }
}
