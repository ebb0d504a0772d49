"""Fixtures of the hub test (tests/browser/test_class_on_hub.py): system accounts and a running JupyterHub.

The test lives with the browser tests so that it shares their one Playwright driver per process
(Playwright's synchronous API allows only one), and imports these fixtures.

Everything is made under one folder that every account can traverse (pytest's own temporary
folders are private to root) and removed afterwards, also when a test fails: the hub and its
proxy, every learner's server, every process left running as a test account, the accounts
and their homes. A teardown that finds one of them still there fails the test run.
"""
import os
import secrets
import shutil
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT

from . import accounts
from .server import CLASS_BIN, PROXY, Hub

HUB_ARTIFACTS = ROOT / "test-artifacts" / "hub"


def missing_for_a_hub():
    """Why a hub cannot run here, or None."""
    if not accounts.can_make_accounts():
        return "making system accounts needs root (the hub runs as root, as on The Littlest JupyterHub)"
    if not PROXY.exists():
        return f"no {PROXY.relative_to(ROOT)}: tools/install.sh test installs it from npm"
    if not (CLASS_BIN / "jupyterhub-singleuser").exists():
        return "no .venv/class (the learners' Python): tools/install.sh test makes it"
    return None


@pytest.fixture(scope="module")
def class_folder():
    """A folder for homes, exchanges and the hub's state, that every test account can traverse."""
    if reason := missing_for_a_hub():
        pytest.skip(reason)
    folder = Path(tempfile.mkdtemp(prefix="minigrad-hub-"))
    folder.chmod(0o755)
    (folder / "home").mkdir(mode=0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def instructor_checkout(class_folder):
    """The repository as the instructor's account reads it: a copy in the class folder, readable by all.
    The clone the tests run from may sit where other accounts cannot enter (a private home or temporary
    folder); an instructor works in a checkout of their own."""
    copy = class_folder / "minigrad-course"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".venv", ".git", "test-artifacts", "__pycache__", ".pytest_cache", ".hypothesis"))
    for path in [copy, *copy.rglob("*")]:
        path.chmod(path.stat().st_mode | (0o555 if path.is_dir() else 0o444))
    return copy


@pytest.fixture(scope="module")
def make_account(class_folder):
    """``make_account("alice")`` adds a system user (its name gets a random prefix); all are removed at the end."""
    prefix = "mg" + secrets.token_hex(2)
    made = []

    def make(role):
        account = accounts.create(f"{prefix}-{role}", class_folder / "home")
        made.append(account)
        return account

    yield make
    left = [account.name for account in made if not accounts.remove(account)]
    assert not left, f"accounts not removed: {left}"


@pytest.fixture(scope="module")
def start_hub(class_folder):
    """``start_hub(users, admins, configs)`` starts a JupyterHub; it is stopped at the end, its processes gone."""
    hubs = []

    def start(users, admins, configs):
        state = class_folder / f"hub-{len(hubs)}"
        state.mkdir(mode=0o700)
        hub = Hub(state, users, admins)
        hubs.append(hub)
        for name, config in configs.items():
            hub.person_config(name, config)
        return hub.start()

    yield start
    running = [hub.url for hub in hubs if not hub.stop()]
    for hub in hubs:
        HUB_ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(hub.log_path, HUB_ARTIFACTS / f"jupyterhub-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log")
    assert not running, f"processes of the hub at {running} outlived it"
