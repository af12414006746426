#!/usr/bin/env bash
# The .rpm from scripts/make-package.sh, checked as far as a Debian machine can: rpmlint clean (filters explained in
# src/package/rpm/rpmlintrc), the files, config file and scriptlets it declares, and an install into a throwaway
# root with its own RPM database (no scriptlets: they call systemctl, which that root lacks), the packaged runtime
# running the packaged jar from there, and an erase that leaves no file behind but the database.
# Not checked here: dnf's dependency resolution and the scriptlets on a real RPM distribution.
set -euo pipefail
rpm_file="$(realpath "${1:?usage: check-rpm.sh target/package/railyard-VERSION-1.x86_64.rpm}")"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "check-rpm: $*" >&2; exit 1; }
command -v rpm >/dev/null || fail "no rpm (apt-get install rpm)"
if command -v rpmlint >/dev/null; then
  out="$(rpmlint -r "$here/src/package/rpm/rpmlintrc" "$rpm_file" 2>&1)" || fail "rpmlint reports the package:
$out"
  grep -q ' 0 errors, 0 warnings' <<<"$out" || fail "rpmlint reports the package:
$out"
else
  echo "check-rpm: no rpmlint here; skipped"
fi
files="$(rpm -qlp "$rpm_file")"
for f in /usr/bin/railyard /usr/lib/railyard/runtime/bin/java /usr/lib/railyard/app/railyard.jar \
    /usr/lib/systemd/system/railyard-agent.service /usr/share/man/man1/railyard.1.gz \
    /usr/share/bash-completion/completions/railyard /etc/railyard/agent.env; do
  grep -qx "$f" <<<"$files" || fail "$f is not in the package"
done
grep -q '^/DEBIAN\|^/usr/share/lintian' <<<"$files" && fail "the .deb's control files are in the .rpm"
[ "$(rpm -qpc "$rpm_file")" = /etc/railyard/agent.env ] || fail "agent.env is not its one config file"
rpm -qp --scripts "$rpm_file" | grep -q 'daemon-reload' || fail "no scriptlets"
[ "$(rpm -qp --qf '%{ARCH}' "$rpm_file")" = x86_64 ] || fail "not x86_64"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# the database where RPM distributions keep it (Debian's rpm defaults to ~/.rpmdb); Debian's rpm warns on stderr that
# alien is the way to install an .rpm there, which is not what this does
db=(--root "$tmp" --dbpath /var/lib/rpm)
rpm "${db[@]}" --initdb
rpm "${db[@]}" -i --nodeps --noscripts "$rpm_file" 2> >(grep -v 'Alien\|assuming you know' >&2) \
  || fail "rpm -i into a throwaway root"
rpm "${db[@]}" -V --nodeps --noscripts railyard || fail "rpm -V: installed files differ from the package"
"$tmp/usr/lib/railyard/runtime/bin/java" -Xlog:disable -jar "$tmp/usr/lib/railyard/app/railyard.jar" --version \
  || fail "the packaged runtime does not run the packaged jar"
rpm "${db[@]}" -e --nodeps --noscripts railyard 2> >(grep -v 'Alien\|assuming you know' >&2) || fail "rpm -e"
left="$(find "$tmp" -type f -not -path "$tmp/var/lib/rpm/*")"
[ -z "$left" ] || fail "left behind after erase: $left"
echo "check-rpm: $rpm_file: rpmlint clean, files and scriptlets as declared, installed, ran, erased without a trace"
