# The two commands of the README:
#   make course   install everything, then open the course in JupyterLab
#   make test     install everything the tests need, then run the whole suite
# Others: make build (regenerate minigrad/ and course/ from solutions/), make core (fast tests).

VENV := .venv
PY := $(VENV)/bin/python
LANG_DIR ?=

.PHONY: course test core build install-course install-test

course: install-course
	$(VENV)/bin/jupyter lab --notebook-dir=course $(if $(CI),--no-browser,)

test: install-test
	$(PY) -m pytest -n 2 $(PYTEST_ARGS)

core: install-test
	$(PY) -m pytest -n 2 -m "not notebooks and not grading and not browser" $(PYTEST_ARGS)

build: install-test
	$(PY) -m tools.build

install-course:
	@tools/install.sh course

install-test:
	@tools/install.sh test
