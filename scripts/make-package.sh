#!/usr/bin/env bash
# Builds target/package/railyard_<version>_amd64.deb: a jlink'd Java 25
# runtime and the jar under /usr/lib/railyard, /usr/bin/railyard, the hardened railyard-agent.service, the man page
# and bash completion (from the jar itself), and /etc/railyard/agent.env with comments. Then on a node:
#   apt install ./railyard_*.deb && systemctl enable --now railyard-agent
# Where rpmbuild is installed, also target/package/railyard-<version>-1.x86_64.rpm with the same files
# (src/package/rpm/railyard.spec): dnf install ./railyard-*.rpm && systemctl enable --now railyard-agent
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-java.sh"
java_home="$(railyard_find_java)"
cd "$here"
[ -f target/railyard.jar ] && [ -z "$(find src/main pom.xml -newer target/railyard.jar -print -quit)" ] \
  || JAVA_HOME="$java_home" mvn -B -q -ntp -DskipTests package
pom_version="$(sed -n 's|^  <version>\(.*\)</version>|\1|p' pom.xml | head -1)"
# Debian orders "~" before anything, so 0.1.0~snapshot sorts before the 0.1.0 release
version="${pom_version/-SNAPSHOT/~snapshot}"
out="$here/target/package"
root="$out/root"
rm -rf "$out"
mkdir -p "$root/DEBIAN" "$root/usr/lib/railyard/app" "$root/usr/bin" "$root/usr/lib/systemd/system" \
  "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" "$root/etc/railyard" \
  "$root/usr/share/doc/railyard" "$root/usr/share/lintian/overrides"
"$java_home/bin/jlink" --add-modules java.base,java.desktop,java.sql,java.logging,java.xml,java.management,jdk.httpserver,java.net.http,jdk.unsupported \
  --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output "$root/usr/lib/railyard/runtime"
# the runtime's legal notices are the JDK's licence texts: they belong with the package's documentation
mv "$root/usr/lib/railyard/runtime/legal" "$root/usr/share/doc/railyard/java-runtime-legal"
find "$root/usr/share/doc/railyard/java-runtime-legal" -type f -exec chmod 0644 {} +
# the JDK ships its binaries with symbols; the package needs none of them
find "$root/usr/lib/railyard/runtime" -type f \( -name '*.so' -o -perm -u+x \) -exec sh -c \
  'for f; do file -b "$f" | grep -q "^ELF" && strip --strip-unneeded --remove-section=.comment --remove-section=.note "$f"; done' sh {} +
cp -r target/railyard.jar target/lib "$root/usr/lib/railyard/app/"
install -m 0755 src/package/railyard "$root/usr/bin/railyard"
install -m 0644 src/package/railyard-agent.service "$root/usr/lib/systemd/system/railyard-agent.service"
install -m 0644 src/package/agent.env "$root/etc/railyard/agent.env"
run() { "$root/usr/lib/railyard/runtime/bin/java" -Xlog:disable -XX:TieredStopAtLevel=1 -jar "$root/usr/lib/railyard/app/railyard.jar" "$@"; }
run man | gzip -9n >"$root/usr/share/man/man1/railyard.1.gz"
# sourced by bash-completion, not run: no #! line
run completion | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/railyard"
chmod 0644 "$root/usr/share/bash-completion/completions/railyard"
cat >"$root/usr/share/doc/railyard/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: railyard

Files: *
Copyright: 2026 Railyard maintainers
License: see the Railyard source repository

Files: usr/lib/railyard/runtime/*
Copyright: 1995-2025 Oracle and/or its affiliates, and the OpenJDK contributors
License: GPL-2 with Classpath exception
 The runtime's notices are in /usr/share/doc/railyard/java-runtime-legal.
COPYRIGHT
printf 'railyard (%s) unstable; urgency=medium\n\n  * Built from %s.\n\n -- Railyard maintainers <railyard@localhost.invalid>  %s\n' \
  "$version" "$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo 'a source tree')" \
  "$(date -R -d "@$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)")" | gzip -9n >"$root/usr/share/doc/railyard/changelog.gz"
install -m 0644 src/package/debian/lintian-overrides "$root/usr/share/lintian/overrides/railyard"
for s in postinst prerm postrm; do install -m 0755 "src/package/debian/$s" "$root/DEBIAN/$s"; done
echo /etc/railyard/agent.env >"$root/DEBIAN/conffiles"
size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
sed -e "s/@VERSION@/$version/" -e "s/@SIZE@/$size/" src/package/debian/control >"$root/DEBIAN/control"
find "$root" -type d -exec chmod 0755 {} +
deb="$out/railyard_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zgzip --build "$root" "$deb" >/dev/null
echo "$deb"
if command -v rpmbuild >/dev/null; then
  top="$out/rpmbuild"
  mkdir -p "$top/SPECS"
  # RPM's version may hold "~" too, with the same meaning: 0.1.0~snapshot sorts before 0.1.0
  sed -e "s|@VERSION@|$version|g" -e "s|@ROOT@|$root|" \
    -e "s|@DATE@|$(LC_ALL=C date -u -d "@$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)" '+%a %b %d %Y')|" \
    -e "s|@COMMIT@|$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo 'a source tree')|" \
    src/package/rpm/railyard.spec >"$top/SPECS/railyard.spec"
  # --nodeps: the build host's own packages are not what the rpm needs (a Debian host has no RPM database of them)
  rpmbuild -bb --nodeps --quiet --define "_topdir $top" --define "_rpmdir $out" \
    --define "_build_name_fmt %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm" "$top/SPECS/railyard.spec" >/dev/null
  rm -rf "$top"
  echo "$out/railyard-$version-1.x86_64.rpm"
fi
