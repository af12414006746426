package dev.railyard.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A step over a node's master connection mixes the remote program's stderr with the ssh client's: when the master
 * ends, the client says nothing, so the last line is the remote program's and must not be shown as ssh's words.
 */
class SshWordsTest {

    @Test
    void theSshClientsOwnLastLinesAreItsWords() {
        assertThat(SshFailure.endsInSshWords("listening\nConnection to 10.78.0.4 closed by remote host.\n")).isTrue();
        assertThat(SshFailure.endsInSshWords("Timeout, server 10.78.0.4 not responding.")).isTrue();
        assertThat(SshFailure.endsInSshWords("client_loop: send disconnect: Broken pipe")).isTrue();
        assertThat(SshFailure.endsInSshWords("ssh: connect to host 10.78.0.4 port 22: Connection refused")).isTrue();
        assertThat(SshFailure.endsInSshWords("mux_client_request_session: read from master failed: Broken pipe")).isTrue();
    }

    @Test
    void aRemoteProgramsLastLineIsNot() {
        assertThat(SshFailure.endsInSshWords("railyard bench tcp server: listening on [::]:44123\n")).isFalse();
        assertThat(SshFailure.endsInSshWords("")).isFalse();
        assertThat(SshFailure.endsInSshWords("  \n")).isFalse();
    }
}
