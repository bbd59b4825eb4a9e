"""``cardtui cert``: a self-signed certificate and key for a server, and how to use them."""

from __future__ import annotations

import argparse
import sys

from cardtui.i18n import _


def cmd_cert(args: argparse.Namespace) -> int:
    from cardtui.certs import default_hosts, make

    hosts = args.host or default_hosts()
    try:
        made = make(args.out, hosts, days=args.days, force=args.force)
    except (ValueError, OSError) as e:
        print(f"cardtui: {e}", file=sys.stderr)
        return 1
    print(_("certificate: {path}").format(path=made.cert_path))
    print(_("key:         {path} (keep it private)").format(path=made.key_path))
    print(_("valid for:   {names}").format(names=", ".join(made.names)))
    print(_("SHA-256 fingerprint: {fingerprint}").format(fingerprint=made.fingerprint))
    print(_("serve with:  cardtui serve --host 0.0.0.0 --tls-cert {cert} --tls-key {key}").format(
        cert=made.cert_path, key=made.key_path))
    print(_("players:     copy {file} and run cardtui connect --tls-ca {file} HOST; "
            "compare the fingerprint with `openssl x509 -noout -fingerprint -sha256 -in {file}`").format(
        file=made.cert_path.name))
    return 0


def add(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``cert`` and its flags."""
    ce = sub.add_parser("cert", help=_("make a self-signed TLS certificate and key for this server"))
    ce.add_argument("--host", action="append", metavar="NAME",
                    help=_("a host name or IP address clients will dial (repeat it; default: this machine's "
                         "names and LAN addresses); localhost and 127.0.0.1 are always included"))
    ce.add_argument("--out", default=".", metavar="DIR",
                    help=_("directory for cardtui.crt and cardtui.key (default: the current one)"))
    ce.add_argument("--days", type=int, default=825, help=_("how long the certificate is valid (default: 825)"))
    ce.add_argument("--force", action="store_true", help=_("replace an existing certificate and key"))
    ce.set_defaults(run=cmd_cert)
