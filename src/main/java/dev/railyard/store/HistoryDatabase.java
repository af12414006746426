package dev.railyard.store;

import dev.railyard.model.RailyardException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** Opens the SQLite file the history lives in, with the settings every connection to it needs. */
final class HistoryDatabase {

    private HistoryDatabase() {
    }

    /**
     * A connection in WAL mode (readers never wait for the recording run) with synchronous=FULL, so each
     * committed row is on disk before the call returns: a run killed with -9, or a host that loses power, keeps
     * every measurement recorded so far. busy_timeout lets two runs on one database take turns instead of failing.
     */
    static Connection open(Path db, boolean create) {
        try {
            if (create) {
                Path parent = db.toAbsolutePath().getParent();
                if (parent != null) Files.createDirectories(parent);
            } else if (!Files.isRegularFile(db)) {
                throw new RailyardException.Usage("no history database at " + db,
                        "railyard validate records runs there; choose another with --db PATH");
            }
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA busy_timeout = 10000");
                st.execute("PRAGMA journal_mode = WAL");
                st.execute("PRAGMA synchronous = FULL");
                st.execute("PRAGMA foreign_keys = ON");
            }
            Schema.migrate(c, Schema.CURRENT);
            return c;
        } catch (IOException | SQLException e) {
            throw new RailyardException.Usage("cannot open the history database " + db + ": " + e.getMessage(),
                    "choose another place with --db PATH, or --no-history", e);
        }
    }
}
