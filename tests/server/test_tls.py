"""TLS: `cardtui cert` makes what `cardtui serve --tls-*` and `cardtui connect --tls-ca` use."""

from __future__ import annotations

import argparse
import ipaddress
import re
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio
from cryptography import x509

import cardtui
from cardtui import cli
from cardtui.certs import fingerprint, generate, load_ca, load_pair
from cardtui.client.connection import Connection
from cardtui.server.app import Running, start

FINGERPRINT = re.compile(r"SHA-256 fingerprint: ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})")


def make_cert(out: Path, capsys: pytest.CaptureFixture[str], *hosts: str) -> str:
    args = ["cert", "--out", str(out)]
    for host in hosts:
        args += ["--host", host]
    assert cli.main(args) == 0
    match = FINGERPRINT.search(capsys.readouterr().out)
    assert match is not None
    return match.group(1)


@pytest_asyncio.fixture
async def tls_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> AsyncIterator[tuple[Running, bytes]]:
    make_cert(tmp_path / "tls", capsys, "cardtui.test")
    pair = load_pair(tmp_path / "tls" / "cardtui.crt", tmp_path / "tls" / "cardtui.key")
    running = await start("127.0.0.1", 0, tmp_path / "store.db", tls=pair)
    try:
        yield running, pair[0]
    finally:
        await running.stop(grace=0.2)


def test_cert_writes_a_certificate_a_key_and_prints_the_fingerprint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tls"
    printed = make_cert(out, capsys, "table.lan", "192.0.2.9")
    cert_pem = (out / "cardtui.crt").read_bytes()
    assert printed == fingerprint(cert_pem)
    assert stat.S_IMODE((out / "cardtui.key").stat().st_mode) == 0o600
    san = x509.load_pem_x509_certificate(cert_pem).extensions.get_extension_for_class(x509.SubjectAlternativeName)
    assert set(san.value.get_values_for_type(x509.DNSName)) == {"table.lan", "localhost"}
    assert set(san.value.get_values_for_type(x509.IPAddress)) == {
        ipaddress.ip_address("192.0.2.9"), ipaddress.ip_address("127.0.0.1")
    }


def test_cert_keeps_an_existing_key_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = make_cert(tmp_path, capsys)
    assert cli.main(["cert", "--out", str(tmp_path)]) == 1
    assert "--force" in capsys.readouterr().err
    assert fingerprint((tmp_path / "cardtui.crt").read_bytes()) == first
    assert cli.main(["cert", "--out", str(tmp_path), "--force"]) == 0
    assert fingerprint((tmp_path / "cardtui.crt").read_bytes()) != first


def test_serve_help_documents_every_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["serve", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    sub = next(a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction))
    serve = sub.choices["serve"]
    flags = [opt for action in serve._actions for opt in action.option_strings]
    for flag in ("--host", "--port", "--db", "--bot-delay", "--next-hand-delay", "--log-level",
                 "--tls-cert", "--tls-key", "--no-announce"):
        assert flag in flags
    for action in serve._actions:
        assert action.help, f"{action.option_strings} has no help"
        assert all(opt in text for opt in action.option_strings)


def test_serve_refuses_half_or_mismatched_tls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cert, _ = generate(["localhost"])
    _, other_key = generate(["localhost"])
    (tmp_path / "c.pem").write_bytes(cert)
    (tmp_path / "k.pem").write_bytes(other_key)
    assert cli.main(["serve", "--tls-cert", str(tmp_path / "c.pem")]) == 2
    assert "both --tls-cert and --tls-key" in capsys.readouterr().err
    assert cli.main(["serve", "--tls-cert", str(tmp_path / "c.pem"), "--tls-key", str(tmp_path / "k.pem")]) == 2
    assert "does not belong" in capsys.readouterr().err
    assert cli.main(["serve", "--tls-cert", str(tmp_path / "none.pem"), "--tls-key", str(tmp_path / "k.pem")]) == 2
    assert "Cannot read the certificate" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not a PEM certificate"):
        load_ca(tmp_path / "k.pem")


async def test_a_client_with_the_certificate_reaches_get_info(tls_server: tuple[Running, bytes]) -> None:
    running, cert = tls_server
    for host in ("127.0.0.1", "localhost"):
        conn = Connection.open(f"{host}:{running.port}", tls_ca=cert)
        try:
            assert (await conn.info()).version == cardtui.__version__
        finally:
            await conn.close()


async def test_plain_or_wrongly_trusting_clients_are_unavailable(tls_server: tuple[Running, bytes]) -> None:
    running, _ = tls_server
    stranger, _ = generate(["localhost"])
    for tls_ca in (None, stranger):
        conn = Connection.open(f"127.0.0.1:{running.port}", tls_ca=tls_ca)
        try:
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await conn.info()
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        finally:
            await conn.close()


async def test_a_tls_client_on_a_plain_server_is_unavailable(server: Running) -> None:
    cert, _ = generate(["localhost"])
    conn = Connection.open(f"127.0.0.1:{server.port}", tls_ca=cert)
    try:
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await conn.info()
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        await conn.close()
