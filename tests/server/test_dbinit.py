"""``cardtui db init``, with the role and the database made as docs/operating.md says (one statement at a time),
against the tests' real PostgreSQL; a role that may not make the schema is told so in a sentence, by ``db init``
and by ``serve``, and nothing is made."""

from __future__ import annotations

import secrets
import subprocess

import pytest

from cardtui.cli import main
from tests.postgres import Cluster

pytestmark = [pytest.mark.postgresql, pytest.mark.xdist_group("postgresql")]


def admin(cluster: Cluster, tool: str, *args: str) -> None:
    """A PostgreSQL client tool, run as the cluster's administrator (``cardtui`` in the tests' cluster; on a
    Debian host it is ``sudo -u postgres``)."""
    done = subprocess.run([str(cluster.bin / tool), "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "cardtui",
                           *args], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def url(cluster: Cluster, role: str, database: str) -> str:
    return f"postgresql://{role}@127.0.0.1:{cluster.port}/{database}"


def tables(cluster: Cluster, database: str) -> set[str]:
    import psycopg  # loaded by the PostgreSQL tests' own test process, not by every one that collects them

    with psycopg.connect(cluster.url(database), autocommit=True) as db:
        rows = db.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
        return {str(r[0]) for r in rows}


def test_db_init_makes_the_schema_in_a_database_made_as_the_docs_say(postgres: Cluster,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    name = f"room_{secrets.token_hex(4)}"
    admin(postgres, "createuser", name)  # docs: sudo -u postgres createuser --pwprompt cardtui
    admin(postgres, "createdb", "-O", name, name)  # docs: sudo -u postgres createdb -O cardtui cardtui
    assert main(["db", "init", url(postgres, name, name)]) == 0
    said = capsys.readouterr()
    assert "schema is made" in said.out and f"role {name}" in said.out, said
    assert {"tables", "owners", "meta", "hands", "players"} <= tables(postgres, name)
    assert main(["db", "init", url(postgres, name, name)]) == 0  # again: nothing to do, and it says so
    assert "up to date" in capsys.readouterr().out


def test_the_psql_statements_of_the_docs_work_one_at_a_time(postgres: Cluster,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    name = f"room_{secrets.token_hex(4)}"
    admin(postgres, "psql", "-d", "postgres", "-c", f"CREATE ROLE {name} LOGIN PASSWORD 'not-this-one'")
    admin(postgres, "psql", "-d", "postgres", "-c", f"CREATE DATABASE {name} OWNER {name}")
    assert main(["db", "init", url(postgres, name, name)]) == 0, capsys.readouterr().err


def test_a_role_without_the_rights_is_told_what_it_needs(postgres: Cluster,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    owner, lesser = f"room_{secrets.token_hex(4)}", f"guest_{secrets.token_hex(4)}"
    admin(postgres, "createuser", owner)
    admin(postgres, "createuser", lesser)
    admin(postgres, "createdb", "-O", owner, owner)
    admin(postgres, "psql", "-d", owner, "-c", "REVOKE CREATE ON SCHEMA public FROM PUBLIC")  # as PostgreSQL 15 has it
    target = url(postgres, lesser, owner)
    assert main(["db", "init", target]) == 1
    said = capsys.readouterr().err
    assert "cannot be used" in said and "permission denied" in said and "own the database" in said, said
    assert "Traceback" not in said and said.count("\n") == 1
    assert main(["serve", "--db", target, "--port", "0", "--workers", "1", "--no-announce",
                 "--analysis-workers", "0"]) == 1
    said = capsys.readouterr().err
    assert "cannot be used" in said and "Traceback" not in said, said
    assert tables(postgres, owner) == set()


def test_db_init_refuses_what_is_not_a_database_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "init", "store.db"]) == 2
    assert "is not a PostgreSQL database" in capsys.readouterr().err


def test_db_init_says_why_a_database_cannot_be_reached(postgres: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "init", url(postgres, "cardtui", "no_such_database")]) == 1
    said = capsys.readouterr().err
    assert "cannot be opened" in said and "no_such_database" in said and "Traceback" not in said, said
