package dev.railyard.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The agent's HTTP side on the JDK's server with a virtual thread per request: /metrics (Prometheus text, or
 * OpenMetrics when the scraper asks for it), /healthz, /api/health, /api/findings, /api/inventory, the status page
 * at /, and POST /api/clear, which needs the token. Every response is built from one immutable {@link AgentState},
 * so a scrape never sees half a sample.
 */
public final class AgentHttpServer implements AutoCloseable {

    /** A request's line and headers must arrive within this; a client that sends half of them is cut off. */
    static final int REQUEST_READ_SECONDS = 5;
    /** A kept-alive connection with no request for this long is closed. */
    static final int IDLE_SECONDS = 30;
    /** Half the JDK server's output buffer (sun.net.httpserver's BufferedOutputStream, 8 KiB). */
    private static final int WRITE_SLICE = 4096;

    static {
        // The JDK's server reads these once, when the first server of the process is made, and by default waits
        // forever for a request to arrive: one client sending half a header would hold a connection for good.
        // The agent is the only HTTP server in its process; an operator's own -D setting wins.
        setIfAbsent("sun.net.httpserver.maxReqTime", REQUEST_READ_SECONDS);
        setIfAbsent("sun.net.httpserver.idleInterval", IDLE_SECONDS);
    }

    private static void setIfAbsent(String key, int seconds) {
        if (System.getProperty(key) == null) System.setProperty(key, String.valueOf(seconds));
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Supplier<AgentState> state;
    private final Agent agent;
    private final Optional<String> token;
    private final Duration staleAfter;
    private final Supplier<Instant> now;
    private final ExpositionText exposition = new ExpositionText();
    /** The bodies of the newest state scraped; replaced when a scrape finds a newer state. */
    private volatile MetricsBodies bodies = new MetricsBodies(null);

    /**
     * @param token      the clear token; empty disables the state-changing endpoints (403)
     * @param staleAfter /healthz answers 503 when the last sample is older than this
     */
    public AgentHttpServer(InetSocketAddress bind, Agent agent, Optional<String> token, Duration staleAfter,
                           Supplier<Instant> now) throws IOException {
        this.agent = agent;
        this.state = agent::state;
        this.token = token;
        this.staleAfter = staleAfter;
        this.now = now;
        this.server = HttpServer.create(bind, 64);
        server.setExecutor(executor);
        server.createContext("/", this::route);
    }

    public void start() {
        server.start();
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void route(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            if (method.equals("POST") && path.equals("/api/clear")) {
                clear(ex);
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                ex.getResponseHeaders().set("Allow", "GET, HEAD");
                send(ex, 405, "text/plain; charset=utf-8", "method not allowed: use GET or HEAD\n");
                return;
            }
            AgentState s = state.get();
            switch (path) {
                case "/metrics" -> metrics(ex, s);
                case "/healthz" -> healthz(ex, s);
                case "/api/health" -> send(ex, 200, "application/json", AgentJson.health(s, now.get(), staleAfter));
                case "/api/findings" -> send(ex, 200, "application/json", AgentJson.findings(s));
                case "/api/inventory" -> send(ex, 200, "application/json", AgentJson.inventory(s));
                case "/" -> send(ex, 200, "text/html; charset=utf-8", StatusPage.render(s, now.get(), staleAfter));
                case "/api/clear" -> {
                    ex.getResponseHeaders().set("Allow", "POST");
                    send(ex, 405, "text/plain; charset=utf-8", "POST /api/clear?component=NAME with the token\n");
                }
                // the path is not echoed: a body that repeats what a client sent is a place to inject markup
                default -> send(ex, 404, "text/plain; charset=utf-8", "not found"
                        + "\ntry /metrics, /healthz, /api/health, /api/findings, /api/inventory or /\n");
            }
        }
    }

    private void metrics(HttpExchange ex, AgentState s) throws IOException {
        boolean om = ExpositionText.acceptsOpenMetrics(ex.getRequestHeaders().getFirst("Accept"));
        MetricsBodies b = bodies;
        if (b.state() != s) bodies = b = new MetricsBodies(s);
        send(ex, 200, om ? ExpositionText.OPENMETRICS_TYPE : ExpositionText.TEXT_TYPE,
                om ? b.openMetrics(exposition) : b.text(exposition));
    }

    /** 200 while samples are fresh; 503 before the first and when sampling stalled (NVML hung, say). */
    private void healthz(HttpExchange ex, AgentState s) throws IOException {
        Optional<Instant> last = s.sample().map(NodeSample::at);
        if (last.isEmpty()) {
            send(ex, 503, "text/plain; charset=utf-8", "starting: no sample yet\n");
        } else if (Duration.between(last.get(), now.get()).compareTo(staleAfter) > 0) {
            send(ex, 503, "text/plain; charset=utf-8", "stale: last sample at " + last.get() + "\n");
        } else {
            send(ex, 200, "text/plain; charset=utf-8", "ok " + s.health() + "\n");
        }
    }

    private void clear(HttpExchange ex) throws IOException {
        if (token.isEmpty()) {
            send(ex, 403, "text/plain; charset=utf-8", "clearing is disabled: the agent was started without a token file\n");
            return;
        }
        String auth = Optional.ofNullable(ex.getRequestHeaders().getFirst("Authorization")).orElse("");
        // the scheme's name is case-insensitive (RFC 9110, 11.1): "bearer" and "BEARER" are "Bearer"
        byte[] given = auth.regionMatches(true, 0, "Bearer ", 0, 7)
                ? auth.substring(7).strip().getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(given, token.get().getBytes(StandardCharsets.UTF_8))) {
            send(ex, 401, "text/plain; charset=utf-8", "wrong or missing token\n");
            return;
        }
        String component = query(ex, "component").orElse("");
        if (component.isBlank()) {
            send(ex, 400, "text/plain; charset=utf-8", "name a component (?component=GPU0%20(...)) or all\n");
            return;
        }
        if (!agent.knows(component)) {
            send(ex, 404, "text/plain; charset=utf-8", "no component " + component + " on this node; its components: "
                    + String.join(", ", agent.componentNames()) + ", or all\n");
            return;
        }
        Agent.Cleared cleared = agent.clearing(component);
        send(ex, 200, "application/json", "{\"schemaVersion\": " + AgentJson.SCHEMA_VERSION + ", \"cleared\": "
                + cleared.cleared() + cleared.notKept().map(w -> ", \"notKept\": " + jsonString(w)).orElse("")
                + "}\n");
    }

    private static String jsonString(String s) {
        try {
            return dev.railyard.report.Json.mapper().writeValueAsString(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Optional<String> query(HttpExchange ex, String key) {
        String q = ex.getRequestURI().getRawQuery();
        if (q == null) return Optional.empty();
        for (String part : q.split("&")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).equals(key)) {
                return Optional.of(URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        send(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = ex.getResponseBody()) {
                // In slices the server's 8 KiB output buffer takes: a larger write goes past it to the socket stream,
                // which allocates a heap buffer of twice the write per connection and NIO a direct one of its size
                // (a 135 KB body: most of what a scrape allocated).
                for (int off = 0; off < body.length; off += WRITE_SLICE) {
                    out.write(body, off, Math.min(WRITE_SLICE, body.length - off));
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
