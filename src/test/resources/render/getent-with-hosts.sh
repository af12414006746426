#!/bin/sh
# Usage: getent-with-hosts.sh HOSTS_FILE NAME...
# In a mount namespace of its own (run it under unshare -m), puts HOSTS_FILE over /etc/hosts and prints
# 'getent hosts NAME' for each name, so the real resolver (nsswitch "files", host.conf) reads the rendered file.
set -eu
hosts=$1
shift
mount --bind "$hosts" /etc/hosts
for name in "$@"; do
  getent hosts "$name" || echo "NOT FOUND $name"
done
