"""A throwaway PostgreSQL server for the tests of shared gradebooks (Debian's server, started by the test)."""
import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import sqlalchemy


@pytest.fixture(scope="module")
def postgres():
    """A throwaway PostgreSQL server (Debian's) on a unix socket in a temp folder; its URL, then it stops."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not binaries:
        pytest.skip("PostgreSQL's server is not installed (Debian: apt-get install postgresql)")
    bindir = Path(binaries[-1]).parent
    as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    folder = Path(tempfile.mkdtemp(prefix="minigrad-pg-"))
    if as_owner:
        shutil.chown(folder, "postgres")

    def run(*command):
        subprocess.run([*as_owner, *command], check=True, capture_output=True, cwd=folder)

    run(bindir / "initdb", "-D", folder / "data", "-U", "grader", "--auth=trust")
    run(bindir / "pg_ctl", "-D", folder / "data", "-w", "-l", folder / "log", "-o",
        f"-k {folder} -c listen_addresses='' -c max_connections=50", "start")
    try:
        run(bindir / "createdb", "-h", folder, "-U", "grader", "minigrad")
        yield f"postgresql+psycopg2://grader@/minigrad?host={folder}"
    finally:
        run(bindir / "pg_ctl", "-D", folder / "data", "-m", "immediate", "stop")
        shutil.rmtree(folder)


def new_database(url, name):
    """Create database ``name`` on the server of ``url`` (a postgres fixture's); return its URL."""
    with sqlalchemy.create_engine(url, isolation_level="AUTOCOMMIT").connect() as server:
        server.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    return url.replace("/minigrad?", f"/{name}?")
