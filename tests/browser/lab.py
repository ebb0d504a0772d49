"""A JupyterLab server and a notebook opened in it, driven the way a learner would drive it.

``JupyterLab`` runs one server on 127.0.0.1 whose whole state (configuration, runtime files,
settings, workspaces, IPython profile) lives in one temporary folder, so a test leaves nothing
behind on the machine. ``Notebook`` wraps a Playwright page showing one notebook: open it, wait for
its kernel, use the Run menu, read what the cells show.

What a cell *shows* is read from the page (prompts, output text, drawings). Whether an output is an
error is read from JupyterLab's own notebook model (the page cannot tell a traceback from a warning:
both are rendered as stderr text), which the server exposes as ``window.jupyterapp``.
"""
import json
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat

VENV_BIN = Path(sys.executable).parent
# A code point no font draws: the browser shows the same "missing glyph" box for it as for any
# character that the installed fonts lack. Comparing glyphs against it detects those boxes.
NO_SUCH_GLYPH = "\U0010FFFD"
DONE = re.compile(r"\[\d+\]:")  # the prompt of a cell that has run
CHINESE_MENUS = {"Run": "运行"}  # the menus the tests use, as jupyterlab-language-pack-zh-CN names them


def free_port():
    """A TCP port that nothing listens on right now, below Linux's ephemeral range (32768 and up).

    Ports the system hands out on its own (a kernel's ZeroMQ sockets, a client's end of a
    connection) come from that range; a port chosen under it is not taken by one of them in the
    moment between this probe and the server's bind, which a parallel test run would otherwise
    hit now and then ("port N is not available", exit code 1).
    """
    while True:
        port = random.randrange(20000, 32768)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


class JupyterLab:
    """One JupyterLab server, started in ``root_dir``, with its state kept under ``home``.

    ``pythonpath`` becomes the PYTHONPATH of the server and its kernels (any PYTHONPATH of the
    test run is dropped): it decides which edition of minigrad a notebook imports. ``env`` is the environment the server runs in; use it for any
    other Jupyter command (nbgrader) that must see the same configuration.
    """

    def __init__(self, root_dir, home, pythonpath=None, log_path=None):
        self.root_dir = Path(root_dir)
        self.home = Path(home)
        self.log_path = Path(log_path) if log_path else self.home / "server.log"
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.config_dir = self.home / "config"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        if pythonpath:
            env["PYTHONPATH"] = str(pythonpath)
        env.update(
            JUPYTER_CONFIG_DIR=str(self.config_dir),
            JUPYTER_DATA_DIR=str(self.home / "data"),
            JUPYTER_RUNTIME_DIR=str(self.home / "runtime"),
            JUPYTERLAB_SETTINGS_DIR=str(self.home / "settings"),
            JUPYTERLAB_WORKSPACES_DIR=str(self.home / "workspaces"),
            IPYTHONDIR=str(self.home / "ipython"),
            MPLCONFIGDIR=str(self.home / "matplotlib"),
            PATH=os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")]),  # nbgrader calls alembic
        )
        self.env = env
        self.config_dir.mkdir(parents=True, exist_ok=True)
        # No "Would you like to receive Jupyter news?" toast over the screenshots, and no network.
        self.write_setting("@jupyterlab/apputils-extension", "notification",
                           {"fetchNews": "false", "checkForUpdates": False})

    def write_setting(self, extension, plugin, values):
        """User settings, as if changed in JupyterLab's Settings Editor."""
        path = self.home / "settings" / extension / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))

    def start(self, timeout=90, attempts=3):
        """Start the server and wait until it answers; on a port taken meanwhile, try another."""
        for _ in range(attempts):
            if self._launch(timeout):
                return self
            self.port = free_port()
            self.base_url = f"http://127.0.0.1:{self.port}"
        raise RuntimeError(f"JupyterLab found no free port in {attempts} attempts; see {self.log_path}")

    def _launch(self, timeout):
        """True once the server answers; False if it exited because its port was taken."""
        command = [
            sys.executable, "-m", "jupyterlab", "--no-browser",
            "--ip=127.0.0.1", f"--port={self.port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root_dir}",
            "--ServerApp.open_browser=False",
            "--ServerApp.allow_root=True",  # containers often run as root
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: the notebook model, see above
        ]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(command, cwd=self.root_dir, env=self.env,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while not self.answers():
            if self.process.poll() is not None:
                self.log.close()
                if f"port {self.port} is not available" in self.log_path.read_text():
                    return False
                raise RuntimeError(f"JupyterLab exited with code {self.process.returncode}; see {self.log_path}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"JupyterLab did not answer within {timeout} s; see {self.log_path}")
            time.sleep(0.1)
        return True

    def request(self, path, method="GET"):
        request = urllib.request.Request(self.base_url + path, method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read()

    def answers(self):
        try:
            self.request("/api/status")
            return True
        except (urllib.error.URLError, ConnectionError, OSError):
            return False

    def stop(self):
        """Ask the server to shut down (it stops its kernels first); force it if it does not."""
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                self.request("/api/shutdown", method="POST")
                self.process.wait(timeout=30)
            except (urllib.error.URLError, OSError, subprocess.TimeoutExpired):
                self.process.terminate()
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        self.log.close()

    def url(self, path=""):
        """The address that opens ``path`` (or just JupyterLab) in a fresh workspace (no tabs restored)."""
        where = f"/lab/tree/{path}" if path else "/lab"
        return f"{self.base_url}{where}?reset&token={self.token}"


class Notebook:
    """One notebook open in JupyterLab in a browser page."""

    def __init__(self, page, lab, path, timeout=180_000):
        self.page = page
        self.lab = lab
        self.path = path  # relative to the server's root_dir
        self.timeout = timeout  # ms; generous: the whole test suite may be running alongside
        self.source = nbformat.read(lab.root_dir / path, as_version=4)

    def open(self):
        self.page.goto(self.lab.url(self.path))
        self.page.locator(".jp-NotebookPanel").first.wait_for(timeout=self.timeout)
        self.wait_for_idle_kernel()
        return self

    def wait_for_idle_kernel(self):
        """The status bar says "<kernel name> | Idle" (in Chinese "| 空闲"): the kernel is up and has nothing to do."""
        status = self.page.locator(".jp-StatusBar-Widget").get_by_text(re.compile(r"\| (Idle|空闲)$"))
        status.wait_for(timeout=self.timeout)

    # --- cells -----------------------------------------------------------------------------

    def code_cell_indices(self, contains=""):
        """Indices (among all cells) of the code cells whose source contains ``contains``."""
        return [i for i, cell in enumerate(self.source.cells) if cell.cell_type == "code" and contains in cell.source]

    def cell(self, index):
        return self.page.locator(".jp-NotebookPanel .jp-Cell").nth(index)

    def prompts(self):
        """Each code cell's prompt: "[ ]:" not run, "[*]:" running or queued, "[3]:" done."""
        return self.page.locator(".jp-NotebookPanel .jp-CodeCell .jp-InputPrompt").all_text_contents()

    def output_text(self, index):
        return self.cell(index).locator(".jp-OutputArea").text_content()

    def drawings(self, index):
        """The sizes of the SVG pictures cell ``index`` shows: inline ``<svg>`` elements, and images
        whose source is SVG (JupyterLab shows an ``image/svg+xml`` output as such an image)."""
        cell = self.cell(index)
        cell.scroll_into_view_if_needed()
        return cell.locator(".jp-OutputArea").evaluate("""async area => {
            const images = [...area.querySelectorAll('img')].filter(img => img.src.startsWith('data:image/svg+xml'));
            await Promise.all(images.map(img => img.decode().catch(() => null)));
            const sizes = images.map(img => [img.naturalWidth, img.naturalHeight]);
            for (const svg of area.querySelectorAll('.jp-OutputArea-output svg')) {
                if (svg.closest('button')) continue;  // a widget's icon, not a drawing
                const box = svg.getBoundingClientRect();
                sizes.push([box.width, box.height]);
            }
            return sizes;
        }""")

    # --- running ---------------------------------------------------------------------------

    def menu(self, menu, command):
        """Choose a command from the menu bar, as a learner does: e.g. Run > Run All Cells (运行 in Chinese)."""
        name = re.compile(f"^({menu}|{CHINESE_MENUS[menu]})$")
        self.page.get_by_role("menuitem", name=name).click()
        self.page.locator(f'.lm-Menu-item[data-command="{command}"]').click()

    def run_all(self):
        self.menu("Run", "runmenu:run-all")
        self.wait_for_run(self.code_cell_indices()[0])

    def run_from(self, index):
        """Select cell ``index`` and choose Run > Run Selected Cell and All Below (JupyterLab greys that out on
        the last cell, where Run > Run Selected Cell does the same)."""
        self.cell(index).locator(".jp-InputPrompt").click()
        last = index == len(self.source.cells) - 1
        self.menu("Run", "notebook:run-cell" if last else "notebook:run-all-below")
        self.wait_for_run(index)

    def wait_for_run(self, first):
        """Wait until the first cell of a run has its number and no cell is queued any more.

        JupyterLab marks every queued cell "[*]" before the first one finishes; when a cell
        fails, the cells queued after it go back to "[ ]". So both conditions together mean
        the run is over, whether it reached the end or stopped at an error.
        """
        position = self.code_cell_indices().index(first)
        self.page.wait_for_function(
            """([position]) => {
                const prompts = [...document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell .jp-InputPrompt')]
                    .map(p => p.textContent);
                return /\\[\\d+\\]:/.test(prompts[position]) && !prompts.some(p => p.includes('[*]'));
            }""", arg=[position], timeout=self.timeout, polling=100)
        self.wait_for_idle_kernel()

    def not_run_yet(self):
        """Indices of the code cells that have not run."""
        return [i for i, prompt in zip(self.code_cell_indices(), self.prompts()) if not DONE.fullmatch(prompt.strip())]

    # --- what JupyterLab holds ------------------------------------------------------------

    def model(self):
        """The notebook as JupyterLab holds it now, outputs included (what Save would write)."""
        data = self.page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.toJSON()")
        return nbformat.from_dict(data)

    def errors(self):
        """(cell index, exception name, message) of every error output."""
        return [(i, output.ename, output.evalue) for i, cell in enumerate(self.model().cells)
                if cell.cell_type == "code" for output in cell.outputs if output.output_type == "error"]

    # --- pictures --------------------------------------------------------------------------

    def screenshot(self, path, center_on=None):
        """Save what the browser shows, scrolled so that cell ``center_on`` is in the middle."""
        if center_on is not None:
            self.cell(center_on).evaluate("cell => cell.scrollIntoView({block: 'center'})")
            self.page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        self.page.screenshot(path=str(path))
        return path


def glyph_report(page, element):
    """Draw each Chinese character of ``element``'s text in the font the page uses for it.

    Returns the font, each character's bitmap (as a string of 0 and 1) and the bitmap of
    ``NO_SUCH_GLYPH``. Without a font that has the characters, every one of them is drawn as
    the same missing-glyph box as ``NO_SUCH_GLYPH``; with one, each has its own shape.
    """
    return element.evaluate("""(el, noSuchGlyph) => {
        const style = getComputedStyle(el);
        const font = `${style.fontWeight} 48px ${style.fontFamily}`;
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 64;
        const ctx = canvas.getContext('2d', {willReadFrequently: true});
        const bitmap = ch => {
            ctx.clearRect(0, 0, 64, 64);
            ctx.font = font;
            ctx.fillText(ch, 4, 52);
            const alpha = ctx.getImageData(0, 0, 64, 64).data.filter((_, i) => i % 4 === 3);
            return Array.from(alpha, a => (a > 127 ? '1' : '0')).join('');
        };
        const chars = [...new Set(el.textContent.match(/\\p{Script=Han}/gu) || [])];
        return {font, glyphs: Object.fromEntries(chars.map(ch => [ch, bitmap(ch)])), missing: bitmap(noSuchGlyph)};
    }""", NO_SUCH_GLYPH)


def cjk_fonts():
    """The font files fontconfig knows for Chinese (``fc-list :lang=zh``), or [] if none."""
    if not shutil.which("fc-list"):
        return []
    listed = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True).stdout
    return sorted({line.split(":")[0].strip() for line in listed.splitlines() if line.strip()})
