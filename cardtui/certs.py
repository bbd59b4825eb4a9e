"""Self-signed TLS certificates for a table server on the LAN.

The certificate is its own CA: players copy it (or check its fingerprint) and pass it to
``cardtui connect --tls-ca``, so no public CA is needed for a room of friends.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import ifaddr
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CERT_FILE = "cardtui.crt"
KEY_FILE = "cardtui.key"
ALWAYS = ("localhost", "127.0.0.1")


@dataclass(frozen=True)
class Made:
    """What ``make`` wrote and what a player checks before trusting it."""

    cert_path: Path
    key_path: Path
    fingerprint: str
    names: tuple[str, ...]


def default_hosts() -> list[str]:
    """This machine's names and LAN addresses: what a player types or discovery hands out."""
    names: list[str] = []
    host = socket.gethostname().strip()
    if host:
        names.append(host)
        if "." not in host:
            names.append(f"{host}.local")
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ipaddress.ip_address(ip.ip).is_loopback:
                names.append(ip.ip)
    return names


def subject_names(hosts: Iterable[str]) -> tuple[str, ...]:
    """The names and addresses the certificate vouches for, localhost always among them."""
    seen: dict[str, None] = {}
    for name in (*hosts, *ALWAYS):
        name = name.strip().strip("[]")
        if name:
            seen.setdefault(name.lower(), None)
    return tuple(seen)


def _general_name(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def fingerprint(cert_pem: bytes) -> str:
    """SHA-256 of the certificate, as colon-separated hex (what browsers and openssl show)."""
    cert = x509.load_pem_x509_certificate(cert_pem)
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


def generate(hosts: Iterable[str], days: int = 825) -> tuple[bytes, bytes]:
    """A fresh P-256 key and a self-signed certificate for ``hosts``: (cert PEM, key PEM)."""
    if days < 1:
        raise ValueError("A certificate must be valid for at least one day.")
    names = subject_names(hosts)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "cardtui"),
        x509.NameAttribute(NameOID.COMMON_NAME, names[0][:64]),
    ])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))  # tolerate clocks a little behind
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName([_general_name(n) for n in names]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_pem = cert.public_bytes(serialization.Encoding.PEM)
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return cert_pem, key_pem


def make(out: str | Path, hosts: Iterable[str], days: int = 825, force: bool = False) -> Made:
    """Write ``cardtui.crt`` and ``cardtui.key`` (readable by the owner only) into ``out``."""
    directory = Path(out)
    cert_path, key_path = directory / CERT_FILE, directory / KEY_FILE
    if not force:
        for path in (cert_path, key_path):
            if path.exists():
                raise FileExistsError(f"{path} already exists; use --force to replace it.")
    hosts = list(hosts)
    cert_pem, key_pem = generate(hosts, days)
    directory.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    with os.fdopen(os.open(key_path, flags, 0o600), "wb") as f:
        f.write(key_pem)
    os.chmod(key_path, 0o600)  # an existing file keeps its old mode through O_CREAT
    cert_path.write_bytes(cert_pem)
    return Made(cert_path, key_path, fingerprint(cert_pem), subject_names(hosts))


def load_pair(cert_path: str | Path, key_path: str | Path) -> tuple[bytes, bytes]:
    """Read a certificate and its key for the server, refusing files that do not belong together."""
    cert_pem = _read(cert_path, "certificate")
    key_pem = _read(key_path, "key")
    try:
        cert = x509.load_pem_x509_certificate(cert_pem)
    except ValueError:
        raise ValueError(f"{cert_path} is not a PEM certificate.") from None
    try:
        key = serialization.load_pem_private_key(key_pem, password=None)
    except (ValueError, TypeError):
        raise ValueError(f"{key_path} is not an unencrypted PEM private key.") from None
    public = serialization.PublicFormat.SubjectPublicKeyInfo
    if key.public_key().public_bytes(serialization.Encoding.DER, public) != cert.public_key().public_bytes(
        serialization.Encoding.DER, public
    ):
        raise ValueError(f"The key {key_path} does not belong to the certificate {cert_path}.")
    return cert_pem, key_pem


def load_ca(path: str | Path) -> bytes:
    """Read the certificate a client trusts (the server's own, when it is self-signed)."""
    pem = _read(path, "certificate")
    try:
        x509.load_pem_x509_certificate(pem)
    except ValueError:
        raise ValueError(f"{path} is not a PEM certificate.") from None
    return pem


def _read(path: str | Path, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise ValueError(f"Cannot read the {what} {path}: {err.strerror or err}.") from None
