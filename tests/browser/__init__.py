"""Browser tests. A package, so that this folder's conftest.py is imported as
``browser.conftest`` and does not replace ``tests/conftest.py`` as the module ``conftest``."""
