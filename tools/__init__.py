"""The project's build and classroom tools (not part of the minigrad package). Each module's docstring says
what it holds; here is the order to read them in.

The build (``python -m tools.build``), from ``solutions/`` to what learners get:
  editions (the learner's package, stubs in place of solution regions) → notebooks (one bilingual chapter
  source, a notebook per language) → catalogues (the translations, compiled) → readme and import_graph (the
  README's map) → build. Beside it: update_catalogues (new messages into the ``.po`` files), lock (the
  dependency lock), record_torch_rng.

A submission's way through grading, in the order it goes:
  1. lms, roster, collect: an LMS download becomes ``submitted/<student>/<chapter>/``, made gradable;
  2. classwide, workers, ledger: the class, graded by parallel workers under a watchdog, each submission once;
  3. grading: nbgrader's autograde, made safe: the notebook runs in a sandbox (sandbox, limits), and each
     graded cell is judged by freshchecks (the step's checks in fresh interpreters); a step that stalls has
     its stub put back (stubs); tampering names the read-only cells a student changed; grading_report is
     what all of them say about the submission;
  4. feedback_page (with grader_paths and deadlines): the page the student reads;
  5. gradesheets: the grades in the files Canvas and Moodle import; class_report: the class at a glance.
classroom is the instructor's command line over all of it, nbgraderapp its access to nbgrader, gradebook_db a
gradebook in PostgreSQL; instructor_messages prints the commands' words in the course's language.
"""
