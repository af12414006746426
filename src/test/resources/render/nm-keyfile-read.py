#!/usr/bin/python3
# Reads NetworkManager keyfiles with libnm's own keyfile parser (NM.keyfile_read, the code NetworkManager's keyfile
# plugin uses), normalizes and verifies each connection, and prints the settings NetworkManager ended up with
# (connection, infiniband/ethernet MTU and mode, IP methods, addresses) as key=value lines after FILE: PATH.
# Every warning libnm raises while reading (a value it could not parse), and every group or key that no libnm
# setting has (libnm skips those silently, so a typo would go unnoticed), is printed as "WARN: ..." and makes the
# exit code 1, as does a file libnm refuses ("ERROR: ..."); a clean read exits 0.
# Usage: nm-keyfile-read.py FILE...   (needs python3-gi and gir1.2-nm-1.0)
import os
import re
import sys

import gi

gi.require_version("NM", "1.0")
from gi.repository import GLib, GObject, NM  # noqa: E402

failed = False
# nm-settings-keyfile(5): group names the keyfile format uses instead of the setting names
ALIASES = {"ethernet": "802-3-ethernet", "wifi": "802-11-wireless", "wifi-security": "802-11-wireless-security"}
# keys the keyfile format has in place of list properties (address1=, route1=, route1_options=)
IP_LIST_KEY = re.compile(r"^(address|route)[0-9]*(_options)?$")


def unknown_keys(kf):
    """libnm skips groups and keys it does not know without a warning; NetworkManager would ignore them too."""
    found = []
    for group in kf.get_groups()[0]:
        gtype = NM.Setting.lookup_type(ALIASES.get(group, group))
        if not gtype or gtype.name == "invalid":
            found.append(f"unknown setting [{group}]")
            continue
        setting = GObject.new(gtype)
        for key in kf.get_keys(group)[0]:
            if group in ("ipv4", "ipv6") and IP_LIST_KEY.match(key):
                continue
            if setting.find_property(key) is None:
                found.append(f"unknown key {key} in [{group}]")
    return found


def read(path):
    global failed
    warnings = []

    def handler(keyfile, connection, handler_type, handler_data, user_data):
        if handler_type == NM.KeyfileHandlerType.WARN:
            message, severity = handler_data.warn_get()
            warnings.append(message)
        return False

    kf = GLib.KeyFile()
    try:
        kf.load_from_file(path, GLib.KeyFileFlags.NONE)
        conn = NM.keyfile_read(kf, os.path.dirname(os.path.abspath(path)), NM.KeyfileHandlerFlags.NONE, handler, None)
        conn.normalize()
        conn.verify()
    except GLib.Error as e:
        print(f"ERROR: {path}: {e.message}")
        failed = True
        return
    for w in warnings + unknown_keys(kf):
        print(f"WARN: {path}: {w}")
        failed = True
    print(f"FILE: {path}")
    con = conn.get_setting_connection()
    print(f"connection.id={con.get_id()}")
    print(f"connection.uuid={con.get_uuid()}")
    print(f"connection.type={con.get_connection_type()}")
    print(f"connection.interface-name={con.get_interface_name()}")
    print(f"connection.autoconnect={str(con.get_autoconnect()).lower()}")
    ib = conn.get_setting_infiniband()
    if ib is not None:
        print(f"infiniband.mtu={ib.get_mtu()}")
        print(f"infiniband.transport-mode={ib.get_transport_mode()}")
    wired = conn.get_setting_wired()
    if wired is not None:
        print(f"ethernet.mtu={wired.get_mtu()}")
    for key, ip in (("ipv4", conn.get_setting_ip4_config()), ("ipv6", conn.get_setting_ip6_config())):
        if ip is None:
            continue
        print(f"{key}.method={ip.get_method()}")
        addrs = [f"{ip.get_address(i).get_address()}/{ip.get_address(i).get_prefix()}" for i in range(ip.get_num_addresses())]
        if addrs:
            print(f"{key}.addresses={','.join(addrs)}")
        print(f"{key}.may-fail={str(ip.get_may_fail()).lower()}")


for p in sys.argv[1:]:
    read(p)
sys.exit(1 if failed else 0)
