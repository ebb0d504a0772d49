# The two commands of the README:
#   make course   install everything, then open the course in JupyterLab
#   make test     install everything the tests need, then run the whole suite
# Others: make build (regenerate minigrad/ and course/ from solutions/), make core (fast tests).
#
# make course COURSE_LANG=zh opens the Chinese notebooks with JupyterLab's menus in Chinese;
# PORT=8890 picks another port. (Not LANG: that is the shell's locale variable.)

VENV := .venv
PY := $(VENV)/bin/python
COURSE_LANG ?= en
PORT ?= 8888
# JupyterLab's locale for each course language (zh_CN: the jupyterlab-language-pack-zh-CN package).
LAB_LOCALE_en := en
LAB_LOCALE_zh := zh_CN
# Each course language keeps its own JupyterLab user settings, where its interface language is preset.
LAB_SETTINGS ?= $(VENV)/share/jupyter/lab-user-settings/$(COURSE_LANG)
LANGUAGE_SETTING := $(LAB_SETTINGS)/@jupyterlab/translation-extension/plugin.jupyterlab-settings
# Containers and many cloud machines log in as root, where JupyterLab refuses to start unless told.
AS_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

# The tests write bytecode caches even where the environment turns them off (PYTHONDONTWRITEBYTECODE=1):
# without them pytest rewrites every test module's asserts in each of its processes, and every command a
# test starts compiles the project's modules anew.
CACHED := PYTHONDONTWRITEBYTECODE=

.PHONY: course test core build install-course install-test

course: install-course $(LANGUAGE_SETTING)
	JUPYTERLAB_SETTINGS_DIR=$(LAB_SETTINGS) $(VENV)/bin/jupyter lab --notebook-dir=course/$(COURSE_LANG) \
		--port=$(PORT) $(AS_ROOT) $(if $(CI),--no-browser,)

# Written once: a language the learner then picks in Settings > Language stays theirs.
$(LANGUAGE_SETTING):
	@test -n "$(LAB_LOCALE_$(COURSE_LANG))" || { echo "COURSE_LANG must be en or zh"; exit 2; }
	@mkdir -p $(dir $@)
	@printf '{"locale": "%s"}\n' $(LAB_LOCALE_$(COURSE_LANG)) > $@

# Four processes on two cores: much of a class's grading, the hub and the browsers wait rather than compute
# (four finished sooner than three here: bench/README.md). loadgroup keeps the tests of one costly fixture
# in one process (tests/conftest.py, COSTLY).
test: install-test
	$(CACHED) $(PY) -m pytest -n 4 --dist loadgroup $(PYTEST_ARGS)

# The fast core: no notebooks, classes, browsers or a Python per case, and 8 drawn shapes per operation, not 30.
core: install-test
	$(CACHED) MINIGRAD_EXAMPLES=8 $(PY) -m pytest -n 2 -m "not notebooks and not grading and not browser and not hub and not processes" $(PYTEST_ARGS)

build: install-test
	$(PY) -m tools.build
	$(PY) -m tools.walkthrough

install-course:
	@tools/install.sh course

install-test:
	@tools/install.sh test
