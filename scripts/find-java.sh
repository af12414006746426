# Sourced by ./railyard and ./run-tests: prints the home of a JDK 25, or explains on stderr and fails.
railyard_find_java() {
  local candidate
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*25* /opt/java/*25* "${RAILYARD_JAVA_HOME:-}"; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] || continue
    # The JDK's release file names its version: reading it costs nothing, while 'java -version' starts a whole JVM
    # (about 0.1 s, a fifth of inventory's budget) on every run.
    if [ -f "$candidate/release" ]; then
      if grep -Eq '^JAVA_VERSION="(2[5-9]|[3-9][0-9])' "$candidate/release"; then
        echo "$candidate"
        return 0
      fi
      continue
    fi
    if "$candidate/bin/java" -version 2>&1 | head -n1 | grep -Eq 'version "(2[5-9]|[3-9][0-9])'; then
      echo "$candidate"
      return 0
    fi
  done
  echo "railyard: no JDK 25 found (looked at \$JAVA_HOME=${JAVA_HOME:-unset} and /usr/lib/jvm/*25*); install Temurin 25 or set JAVA_HOME" >&2
  return 1
}
