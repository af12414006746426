package dev.railyard.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.report.Json;
import dev.railyard.testing.RealTool;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real Prometheus server (Debian's prometheus package) scraping one target every second into its own TSDB,
 * queried through its HTTP API as Grafana queries it.
 */
final class RealPrometheus implements AutoCloseable {

    private final Process process;
    private final int port;
    private final HttpClient client = HttpClient.newHttpClient();

    private RealPrometheus(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts Prometheus on a free port, scraping {@code target} (host:port) as job "railyard", and waits until it is ready. */
    static RealPrometheus scraping(String target, Path dir) throws Exception {
        Path prometheus = RealTool.require("prometheus", "prometheus");
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: railyard
                    static_configs:
                      - targets: ['%s']
                """.formatted(target));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process p = new ProcessBuilder(prometheus.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).start();
        // One thread reads its log to the end, the ready line included: closing the pipe early would end Prometheus
        // with SIGPIPE at its next log line (a Go program's default on a broken stdout).
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.contains("Server is ready to receive web requests")) ready.complete(true);
                }
            } catch (IOException e) {
                // the process is gone
            }
            ready.complete(false);
        });
        RealPrometheus server = new RealPrometheus(p, port);
        if (!ready.get(60, TimeUnit.SECONDS)) {
            server.close();
            throw new AssertionError("prometheus exited before it was ready");
        }
        return server;
    }

    /** The result array of an instant query (evaluated now). */
    JsonNode query(String promql) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + port + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = Json.mapper().readTree(r.body());
        if (!"success".equals(body.path("status").asText())) {
            throw new AssertionError("query " + promql + " failed: " + r.body());
        }
        return body.path("data").path("result");
    }

    /**
     * Waits until the target has been scraped at least {@code scrapes} times (Prometheus's own count), each
     * query answered at once: the wait is on Prometheus's progress, bounded by a deadline.
     */
    void awaitScrapes(int scrapes) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String q = "count_over_time(up{job=\"railyard\"}[5m]) >= " + scrapes;
        while (queryOrEmpty(q).isEmpty()) {
            if (System.nanoTime() > deadline) throw new AssertionError("Prometheus did not scrape the agent " + scrapes + " times");
            CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS)).join();
        }
    }

    /** Its web listener and its "ready" log line are started apart: a refused connection is "not yet". */
    private JsonNode queryOrEmpty(String promql) throws IOException, InterruptedException {
        try {
            return query(promql);
        } catch (java.net.ConnectException e) {
            if (!process.isAlive()) throw e;
            return Json.mapper().createArrayNode();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(20, TimeUnit.SECONDS);
        client.close();
    }
}
