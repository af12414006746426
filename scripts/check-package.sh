#!/usr/bin/env bash
# CI's check of the .deb from scripts/make-package.sh, on the machine it runs on (root): lintian clean (overrides
# explained in src/package/debian/lintian-overrides), the unit's systemd-analyze verify and security exposure,
# install, 'railyard --version', purge, and nothing left behind.
# With a second argument, the .rpm as far as a Debian machine can check it (scripts/check-rpm.sh).
set -euo pipefail
deb="${1:?usage: check-package.sh target/package/railyard_VERSION_amd64.deb [target/package/railyard-VERSION.x86_64.rpm]}"
fail() { echo "check-package: $*" >&2; exit 1; }
if [ -n "${2:-}" ]; then "$(dirname "${BASH_SOURCE[0]}")/check-rpm.sh" "$2" || fail "the .rpm"; fi
command -v dpkg >/dev/null || fail "no dpkg"
lintian --fail-on error,warning "$deb" || fail "lintian reports the package"
if dpkg -s railyard >/dev/null 2>&1; then fail "railyard is already installed here: the check would remove it"; fi
before="$(mktemp)"; after="$(mktemp)"
trap 'rm -f "$before" "$after"' EXIT
# what the package may touch: every path outside /proc, /sys, /dev, /run, /tmp and dpkg's and apt's own records
snapshot() {
  find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /var/lib/dpkg \
    -o -path /var/cache -o -path /var/log -o -path /work -o -path /root \) -prune -o -print 2>/dev/null | sort
}
snapshot >"$before"
dpkg -i "$deb" >/dev/null || { apt-get install -f -y -qq >/dev/null; dpkg -s railyard >/dev/null || fail "dpkg -i failed"; }
systemd-analyze verify /usr/lib/systemd/system/railyard-agent.service || fail "systemd-analyze verify"
score="$(systemd-analyze security --offline=yes /usr/lib/systemd/system/railyard-agent.service | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')"
echo "check-package: systemd-analyze security exposure $score"
awk -v s="$score" 'BEGIN { exit !(s != "" && s + 0 <= 3.0) }' || fail "exposure $score is above 3.0"
railyard --version || fail "railyard --version"
# the installed runtime has every module the agent needs: one sample of this machine, as JSON
timeout 120 railyard agent --once --format json >/dev/null || fail "railyard agent --once"
[ -s /usr/share/man/man1/railyard.1.gz ] || fail "no man page"
[ -s /usr/share/bash-completion/completions/railyard ] || fail "no bash completion"
grep -q '^RAILYARD_AGENT_ARGS=' /etc/railyard/agent.env || fail "no /etc/railyard/agent.env"
dpkg --purge railyard >/dev/null || fail "dpkg --purge failed"
snapshot >"$after"
left="$(comm -13 "$before" "$after")"
[ -z "$left" ] || fail "left behind after purge: $left"
echo "check-package: $deb: lintian clean, unit verified, installed, ran, purged without a trace"
