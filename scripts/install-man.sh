#!/usr/bin/env bash
# Installs railyard(1) and the bash completion: the manual from 'railyard man', the completion from
# 'railyard completion'. MANDIR and COMPLETIONDIR override where they go (defaults below; root needed for those).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mandir="${MANDIR:-/usr/local/share/man}/man1"
completiondir="${COMPLETIONDIR:-/etc/bash_completion.d}"
mkdir -p "$mandir" "$completiondir"
"$here/railyard" man >"$mandir/railyard.1"
"$here/railyard" completion >"$completiondir/railyard"
command -v mandb >/dev/null && mandb -q "${MANDIR:-/usr/local/share/man}" 2>/dev/null || true
echo "installed $mandir/railyard.1 (man railyard) and $completiondir/railyard (new shells complete railyard)"
