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
# No "Would you like to get notified about official Jupyter news?" when the course opens, nor, once that is
# answered, "A newer version of JupyterLab is available" (JupyterLab checks whatever the news answer; the
# course's JupyterLab is the lock's, requirements.lock).
NEWS_SETTING := $(LAB_SETTINGS)/@jupyterlab/apputils-extension/notification.jupyterlab-settings
# The course's own Jupyter configuration, which only `make course` reads (through JUPYTER_CONFIG_PATH, ahead of
# the environment's): a learner working alone gets none of nbgrader's panels, which are for an instructor
# (Create Assignment, the formgrader) and a hub's students (Assignment List, Validate). nbgrader stays installed
# and on everywhere else: minigrad-classroom, an instructor's `jupyter lab`, a hub (README, JupyterHub).
COURSE_CONFIG ?= $(VENV)/etc/jupyter-course
# nbgrader's JupyterLab extension and its server extensions (as nbgrader's own jupyter_server_config.d/ names them).
NBGRADER_LAB := @jupyter/nbgrader
NBGRADER_SERVER_OFF := "nbgrader.server_extensions.formgrader": false, \
	"nbgrader.server_extensions.validate_assignment": false, \
	"nbgrader.server_extensions.assignment_list": false, "nbgrader.server_extensions.course_list": false
COURSE_CONFIG_FILES := $(COURSE_CONFIG)/labconfig/page_config.json $(COURSE_CONFIG)/jupyter_server_config.json
# Containers and many cloud machines log in as root, where JupyterLab refuses to start unless told.
AS_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

# The tests write bytecode caches even where the environment turns them off (PYTHONDONTWRITEBYTECODE=1):
# without them pytest rewrites every test module's asserts in each of its processes, and every command a
# test starts compiles the project's modules anew.
CACHED := PYTHONDONTWRITEBYTECODE=
# One BLAS and OpenMP thread per test process (numpy's OpenBLAS, PyTorch): the suite runs four processes on two
# cores, where each library's own threads would only wait on each other.
ONE_THREAD := OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

.PHONY: course test core build install-course install-test

course: install-course $(LANGUAGE_SETTING) $(NEWS_SETTING) $(COURSE_CONFIG_FILES)
	JUPYTER_CONFIG_PATH=$(abspath $(COURSE_CONFIG))$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH)) \
	JUPYTERLAB_SETTINGS_DIR=$(LAB_SETTINGS) $(VENV)/bin/jupyter lab --notebook-dir=course/$(COURSE_LANG) \
		--port=$(PORT) $(AS_ROOT) $(if $(CI),--no-browser,)

# Written once: a language the learner then picks in Settings > Language stays theirs.
$(LANGUAGE_SETTING):
	@test -n "$(LAB_LOCALE_$(COURSE_LANG))" || { echo "COURSE_LANG must be en or zh"; exit 2; }
	@mkdir -p $(dir $@)
	@printf '{"locale": "%s"}\n' $(LAB_LOCALE_$(COURSE_LANG)) > $@

# Written once too: a learner who turns them on in Settings > Notifications keeps them.
$(NEWS_SETTING):
	@mkdir -p $(dir $@)
	@printf '{"fetchNews": "false", "checkForUpdates": false}\n' > $@

# Written again whenever this Makefile changes: they are the course's, not the learner's.
$(COURSE_CONFIG)/labconfig/page_config.json: Makefile
	@mkdir -p $(dir $@)
	@printf '{"disabledExtensions": {"%s": true}}\n' $(NBGRADER_LAB) > $@

$(COURSE_CONFIG)/jupyter_server_config.json: Makefile
	@mkdir -p $(dir $@)
	@printf '{"ServerApp": {"jpserver_extensions": {%s}}}\n' '$(NBGRADER_SERVER_OFF)' > $@

# Four processes on two cores: much of a class's grading, the hub and the browsers wait rather than compute
# (four finished sooner than three here: bench/README.md). loadgroup keeps the tests of one costly fixture
# in one process (tests/conftest.py, COSTLY).
test: install-test
	$(CACHED) $(ONE_THREAD) $(PY) -m pytest -n 4 --dist loadgroup $(PYTEST_ARGS)

# The fast core: no notebooks, classes, browsers or a Python per case, and 8 drawn shapes per operation, not 30.
core: install-test
	$(CACHED) $(ONE_THREAD) MINIGRAD_EXAMPLES=8 $(PY) -m pytest -n 2 -m "not notebooks and not grading and not browser and not hub and not processes" $(PYTEST_ARGS)

build: install-test
	$(PY) -m tools.build
	$(PY) -m tools.walkthrough

install-course:
	@tools/install.sh course

install-test:
	@tools/install.sh test
