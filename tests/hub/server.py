"""A JupyterHub for a class, on the loopback address, laid out as The Littlest JupyterHub lays one out.

JupyterHub (PyPI) runs as root with its proxy, ``configurable-http-proxy`` (npm, installed by
``tools/install.sh test`` into ``.venv/node``). People log in with their system account's password
(PAM, the hub's default authenticator) and each gets JupyterLab running as that account
(``LocalProcessSpawner``), from the environment ``.venv/class`` links to (what ``make course`` installs, on
the system's Python, in a folder every account can reach), with nbgrader's panels. What differs per
person sits in a folder of their own that the spawner points ``JUPYTER_CONFIG_PATH`` at: which
nbgrader exchange they use, for one.
"""
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from browser.lab import free_port

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent  # the hub's own Python (it runs as root)
# The learners' Python: one every system account can run, outside the clone (tools/install.sh test makes it
# and links it as .venv/class).
CLASS_BIN = (ROOT / ".venv" / "class").resolve() / "bin"
PROXY = ROOT / ".venv" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
SERVICE = "class-admin"  # the hub service whose token the tests and the benchmark use

CONFIG = """\
# JupyterHub configuration written by tests/hub/server.py: loopback only.
c = get_config()
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.JupyterHub.db_url = "sqlite:///{state}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{state}/cookie_secret"
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every learner's server
c.JupyterHub.authenticator_class = "pam"  # system accounts and their passwords, as on TLJH
c.Authenticator.allowed_users = {users!r}
c.Authenticator.admin_users = {admins!r}
c.JupyterHub.spawner_class = "localprocess"  # each server runs as its user's system account
c.Spawner.ip = "127.0.0.1"
c.Spawner.cmd = [{singleuser!r}]
c.Spawner.default_url = "/lab"
c.Spawner.args = [
    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: the tests read what JupyterLab holds
    "--ServerApp.shutdown_no_activity_timeout=0",
]
c.Spawner.environment = {{
    "PATH": {path!r},
    "JUPYTER_CONFIG_PATH": lambda spawner: "{people}/" + spawner.user.name,
}}
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
c.JupyterHub.services = [{{"name": "{service}", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{
    "name": "{service}",
    "scopes": ["admin:users", "admin:servers", "access:servers", "tokens"],
    "services": ["{service}"],
}}]
"""


def group_alive(pgid):
    """Whether any process of process group ``pgid`` still runs."""
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


class Hub:
    """One JupyterHub process (and its proxy) with its state in ``state``, and per-user config beside it."""

    def __init__(self, state, users, admins=()):
        self.state = Path(state)
        self.people = self.state.with_name(self.state.name + "-people")  # readable by all; the state is not
        self.users, self.admins = sorted(users), sorted(admins)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = secrets.token_hex(32)
        self.process = None
        self.log_path = self.state / "jupyterhub.log"

    def write_config(self):
        self.people.mkdir(parents=True, exist_ok=True)
        self.people.chmod(0o755)
        text = CONFIG.format(
            port=self.port, hub_port=free_port(), proxy_api_port=free_port(), proxy=str(PROXY),
            state=self.state, users=set(self.users), admins=set(self.admins),
            singleuser=str(CLASS_BIN / "jupyterhub-singleuser"),
            path=os.pathsep.join([str(CLASS_BIN), "/usr/local/bin", "/usr/bin", "/bin"]),
            people=self.people, service=SERVICE, token=self.token)
        path = self.state / "jupyterhub_config.py"
        path.write_text(text)
        path.chmod(0o600)  # it holds the service's token
        return path

    def person_config(self, name, nbgrader_config):
        """Give ``name``'s server an ``nbgrader_config.py`` (its exchange, its course)."""
        folder = self.people / name
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)
        (folder / "nbgrader_config.py").write_text(nbgrader_config)
        (folder / "nbgrader_config.py").chmod(0o644)

    def start(self, timeout=60):
        config = self.write_config()
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [str(VENV_BIN / "jupyterhub"), "-f", str(config)], cwd=self.state, stdout=self.log,
            stderr=subprocess.STDOUT, start_new_session=True,  # the hub and its proxy: one process group
            env=dict(os.environ, PATH=os.pathsep.join([str(VENV_BIN), os.environ["PATH"]])))
        deadline = time.monotonic() + timeout
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"JupyterHub did not start within {timeout} s; see {self.log_path}")
            time.sleep(0.2)
        return self

    def answers(self):
        try:
            self.api("GET", "/")
            return True
        except (urllib.error.URLError, OSError):
            return False

    def api(self, method, path, body=None, timeout=30):
        """Call the hub's REST API (``/hub/api`` + ``path``) with the service's token; the JSON answer."""
        request = urllib.request.Request(f"{self.url}/hub/api{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
        return json.loads(text) if text else None

    def start_server(self, name, timeout=180):
        """Spawn ``name``'s server through the API and wait until the hub says it is ready."""
        self.api("POST", f"/users/{name}/server")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.api("GET", f"/users/{name}")["servers"].get("", {}).get("ready"):
                return
            time.sleep(0.5)
        raise TimeoutError(f"{name}'s server was not ready within {timeout} s; see {self.log_path}")

    def stop(self):
        """Stop the hub (it stops every learner's server first), then its whole process group.

        Returns whether every process of the group is gone.
        """
        if self.process is None:
            return True
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        group = self.process.pid
        try:
            os.killpg(group, signal.SIGKILL)  # the proxy, if it outlived the hub
        except ProcessLookupError:
            pass
        self.process.wait()
        self.log.close()
        self.process = None
        deadline = time.monotonic() + 5
        while group_alive(group) and time.monotonic() < deadline:
            time.sleep(0.1)
        return not group_alive(group)
