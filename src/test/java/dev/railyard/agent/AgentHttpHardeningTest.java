package dev.railyard.agent;

import dev.railyard.cli.Main;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent's HTTP server on a real socket, as a careless or hostile client meets it. */
class AgentHttpHardeningTest {

    static final String TOKEN = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;
    @TempDir
    Path tokenDir;

    AgentTree tree;
    Agent agent;
    AgentHttpServer server;
    final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        tree = new AgentTree(dir);
        agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        agent.tick();
        server = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.of(TOKEN),
                Duration.ofSeconds(10), tree.clock::now);
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
        tree.kernelLog.close();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
    }

    @Test
    void aConnectionWithHalfItsHeadersIsClosed() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
            s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: agent\r\nX-Partial: ".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            // the read blocks until the server closes the connection; the socket timeout only bounds a failing test
            s.setSoTimeout((AgentHttpServer.REQUEST_READ_SECONDS + 25) * 1000);
            long start = System.nanoTime();
            InputStream in = s.getInputStream();
            int first = in.read();
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(first).as("closed without an answer").isEqualTo(-1);
            assertThat(waitedMs).isLessThan((AgentHttpServer.REQUEST_READ_SECONDS + 5) * 1000L);
        }
        assertThat(client.send(HttpRequest.newBuilder(uri("/healthz")).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).as("the server still answers").isEqualTo(200);
    }

    @Test
    void aWrongMethodGetsAnAllowHeader() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/metrics"))
                .method("DELETE", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
        HttpResponse<String> clear = client.send(HttpRequest.newBuilder(uri("/api/clear")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(clear.headers().firstValue("Allow")).hasValue("POST");
    }

    @Test
    void theBearerSchemeIsCaseInsensitive() throws Exception {
        for (String scheme : new String[]{"bearer", "BEARER", "Bearer"}) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/api/clear?component=all"))
                    .header("Authorization", scheme + " " + TOKEN).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(scheme).isEqualTo(200);
        }
    }

    @Test
    void aNotFoundBodyDoesNotEchoThePath() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/%3Cscript%3Ealert(1)%3C/script%3E")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).startsWith("not found\n").doesNotContain("script").doesNotContain("alert");
    }

    @Test
    void clearingAnUnknownNameExits2AndListsTheComponents() throws Exception {
        Path token = tokenDir.resolve("agent.token");
        Files.writeString(token, TOKEN + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int rc = cl.execute("agent", "clear", "mlx5_42:1", "--url", "http://127.0.0.1:" + server.address().getPort(),
                "--token-file", token.toString());
        assertThat(rc).isEqualTo(2);
        assertThat(err.toString()).contains("no component mlx5_42:1 on this node; its components: ")
                .contains("mlx5_0:1").contains("eth0").contains(", or all");
        assertThat(out.toString()).doesNotContain("cleared");

        out.getBuffer().setLength(0);
        assertThat(cl.execute("agent", "clear", "mlx5_0:1", "--url", "http://127.0.0.1:" + server.address().getPort(),
                "--token-file", token.toString())).isZero();
        assertThat(out.toString()).contains("\"cleared\": 1");
    }
}
