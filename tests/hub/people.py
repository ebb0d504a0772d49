"""What an instructor and a student do on the hub, in their own Chromium page, as they would by hand.

Everyone logs in on the hub's login page and works in the JupyterLab the hub starts for them.
A student uses nbgrader's Assignment List (Fetch, Submit, Fetch Feedback), the notebook's
Validate button and the feedback page. The instructor types the project's classroom commands
into a JupyterLab terminal (one section's next to another's, as a shell runs jobs in the
background); each command's output and exit code go to files in their home, which is how the
test reads them (a terminal's screen is a canvas).
"""
import json
import re
import time
from pathlib import Path

TIMEOUT = 180_000  # ms: generous, the whole test suite may be running alongside
SCORE = re.compile(r"\((?:Score|得分): ([\d.]+) / ([\d.]+)\)")  # the head of the feedback page, in either language


class Person:
    """Someone with an account on ``hub``, in a browser context of their own."""

    def __init__(self, browser, hub, account, viewport):
        self.account = account
        self.hub = hub
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(TIMEOUT)
        self.page = self.context.new_page()
        self.base = f"{hub.url}/user/{account.name}"

    @property
    def name(self):
        return self.account.name

    @property
    def role(self):
        """The account's name without its random prefix: "alice", "teacher"."""
        return self.name.split("-", 1)[1]

    def log_in(self):
        """Log in with the account's password; the hub starts JupyterLab (see ``wait_for_lab``)."""
        self.page.goto(f"{self.hub.url}/hub/login")
        self.page.fill("#username_input", self.name)
        self.page.fill("#password_input", self.account.password)
        self.page.click("#login_submit")

    def wait_for_lab(self):
        """Wait until JupyterLab has opened and is ready to use."""
        self.page.wait_for_url(f"{self.base}/lab**", timeout=TIMEOUT)
        self.page.locator("#jp-main-dock-panel").wait_for()
        self.page.wait_for_function("() => window.jupyterapp && window.jupyterapp.serviceManager.isReady")

    def open_lab(self, path=""):
        self.page.goto(f"{self.base}/lab/tree/{path}?reset" if path else f"{self.base}/lab?reset")
        self.wait_for_lab()

    def menu_titles(self):
        return [title.strip() for title in self.page.locator(".lm-MenuBar-itemLabel").all_text_contents()]

    def screenshot(self, path):
        self.page.screenshot(path=str(path))
        return path

    def close(self):
        self.context.close()


class Student(Person):
    """A student: works through nbgrader's Assignment List panel."""

    def open_assignment_list(self):
        self.open_lab()
        self.page.get_by_role("menuitem", name="Nbgrader", exact=True).click()
        self.page.locator('.lm-Menu-item[data-command="nbgrader:open-assignment-list"]').click()
        self.page.locator("#released_assignments_list").wait_for()

    def press(self, section, assignment, label, then_in):
        """Press the ``label`` button of ``assignment`` in list ``section``; wait for it in list ``then_in``."""
        row = self.page.locator(f"#{section}_assignments_list .list_item:not(.nested_list_item)", has_text=assignment)
        row.get_by_role("button", name=label, exact=True).click()
        self.page.locator(f"#{then_in}_assignments_list .list_item:not(.nested_list_item)", has_text=assignment).wait_for()

    def fetch(self, assignment):
        self.open_assignment_list()
        self.page.locator("#released_assignments_list .list_item:not(.nested_list_item)", has_text=assignment).wait_for()
        self.press("released", assignment, "Fetch", then_in="fetched")

    def save_files(self, files):
        """Save ``files`` (path in the home -> text) through JupyterLab, as the editor's Save does."""
        self.page.evaluate("""async files => {
            const contents = window.jupyterapp.serviceManager.contents;
            for (const [path, content] of Object.entries(files)) {
                await contents.save(path, {type: 'file', format: 'text', content});
            }
        }""", files)

    def answer(self, notebook_path, answers):
        """Write ``answers`` (grade id -> source) into the notebook's answer cells, and save it."""
        self.page.evaluate("""async ([path, answers]) => {
            const contents = window.jupyterapp.serviceManager.contents;
            const model = await contents.get(path, {content: true});
            for (const cell of model.content.cells) {
                const id = ((cell.metadata || {}).nbgrader || {}).grade_id;
                if (id in answers) cell.source = answers[id];
            }
            await contents.save(path, {type: 'notebook', format: 'json', content: model.content});
        }""", [notebook_path, answers])

    def start_validating(self, notebook_path):
        """Open the notebook and press its Validate button (nbgrader runs it on the server)."""
        self.open_lab(notebook_path)
        self.page.locator(".jp-NotebookPanel").first.wait_for()
        self.page.locator(".jp-NotebookPanel-toolbar").get_by_role("button", name="Validate").click()

    def validation(self):
        """The Validate dialog's text, once it has its verdict; the dialog is closed."""
        dialog = self.page.locator(".jp-Dialog")
        dialog.get_by_text(re.compile(r"Success!|The following cell failed:")).first.wait_for(timeout=TIMEOUT)
        text = dialog.inner_text()
        self.page.keyboard.press("Escape")
        return text

    def submit(self, assignment):
        self.open_assignment_list()
        self.press("fetched", assignment, "Submit", then_in="submitted")

    def fetch_feedback(self, assignment):
        """Press Fetch Feedback, follow "(view feedback)" and open the feedback page; its text."""
        self.open_assignment_list()
        row = self.page.locator("#submitted_assignments_list .list_item:not(.nested_list_item)", has_text=assignment)
        row.get_by_role("button", name="Fetch Feedback", exact=True).click()
        row.get_by_text("(view feedback)").click()  # the file browser goes to the feedback folder
        page_name = f"{assignment}.html"
        self.page.locator(".jp-DirListing-item", has_text=page_name).dblclick()
        frame = self.page.frame_locator(".jp-HTMLViewer iframe")
        frame.get_by_text(SCORE).first.wait_for()
        return frame.locator("body").inner_text()


class Instructor(Person):
    """The instructor: runs the project's commands in a JupyterLab terminal of their own."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.runs = 0
        self.logs = self.account.home / "class-commands"

    def open_terminal(self):
        self.open_lab()
        self.page.get_by_role("menuitem", name="File", exact=True).click()
        self.page.locator('.lm-Menu-item[data-type="submenu"]', has_text="New").first.hover()
        self.page.locator('.lm-Menu-item[data-command="terminal:create-new"]').click()
        self.page.locator(".jp-Terminal .xterm").first.wait_for()

    def run(self, commands, cwd, timeout=600):
        """Type ``commands`` into the terminal, to run side by side in ``cwd``; wait for them all.

        Returns each command's (exit code, output).
        """
        logs = []
        line = f"mkdir -p {self.logs}; "
        for command in commands:
            self.runs += 1
            output, status = self.logs / f"{self.runs}.out", self.logs / f"{self.runs}.exit"
            line += f"( (cd {cwd} && {command}) > {output} 2>&1; echo $? > {status} ) & "
            logs.append((output, status))
        self.page.locator(".jp-Terminal .xterm").first.click()
        self.page.keyboard.insert_text(line + "wait")  # at once: typing key by key is slow on a busy machine
        self.page.keyboard.press("Enter")
        deadline = time.monotonic() + timeout
        while not all(status.exists() and status.read_text().strip() for _, status in logs):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{commands} did not end within {timeout} s")
            time.sleep(0.5)
        return [(int(status.read_text()), output.read_text()) for output, status in logs]


def score_of(feedback_text):
    """(score, maximum) from the text of the feedback page."""
    found = SCORE.search(feedback_text)
    return float(found[1]), float(found[2])


def language_setting(home, locale):
    """A JupyterLab user setting that opens the interface in ``locale`` (as Settings > Language writes it)."""
    path = Path(home) / ".jupyter/lab/user-settings/@jupyterlab/translation-extension/plugin.jupyterlab-settings"
    return path, json.dumps({"locale": locale})
