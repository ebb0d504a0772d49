"""What grading says about a submission: ``grading-report.json`` beside each graded notebook.

Autograde (``grading.SandboxedExecute``, and ``tampering`` after it) writes there each incident as its kind
and plain fields; the class summary, the class report and the feedback page read it back and say each
incident in the course's language (``said``).
"""
from .instructor_messages import N_, say

REPORT = "grading-report.json"
# What grading notes about a submission: in nbgrader's log (English), and in the course's language in the
# class summary and on the student's feedback page (``said``).
INCIDENTS = {
    "unreadable": N_("{notebook} was unreadable or missing: the released notebook stood in for it"),
    "not_submitted": N_("{name} was not submitted: its steps were graded on the released stub"),
    "checks_stopped": N_("the checks of step {step} were stopped: {why}"),
    "checks_crashed": N_("the checks of step {step} crashed without a verdict"),
    "left_out": N_("the notebook ran with the stub of step {step} in place of its code, which stalled or crashed its "
                   "checks"),
    "no_kernel": N_("the notebook's kernel did not start or answer ({error})"),
    "notebook_stopped": N_("the notebook was stopped at cell {index}: {why}"),
    "kernel_exited": N_("the notebook was stopped at cell {index}: the kernel exited with code {code}"),
    "limit_in_cell": N_("cell {index} hit the {limit} ({error})"),
    # read-only cells the student changed (tools.tampering)
    "locked_edited": N_("the read-only cell {cell} was edited: the instructor's cell was put back and graded"),
    "locked_deleted": N_("the read-only cell {cell} was deleted: the instructor's cell was put back and graded"),
    "check_changed": N_("the check cell {cell} was edited or deleted: what the notebook shows there is not a verdict "
                        "of the checks"),
}

def said(report, language):
    """The incidents of a grading report (as ``SandboxedExecute`` writes it) in ``language``; the report is read
    as untrusted: what is not one of ``INCIDENTS`` with plain fields is left out."""
    notes = report.get("said") if isinstance(report, dict) else None
    return [say(INCIDENTS[note["kind"]], language, **{k: str(v) and say(str(v), language)  # "" is gettext's header
                                                       for k, v in note["fields"].items()})
            for note in notes or [] if isinstance(note, dict) and note.get("kind") in INCIDENTS
            and isinstance(note.get("fields"), dict)][:100]
