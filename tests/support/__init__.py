"""What the tests share: helpers for comparing with PyTorch and with central differences (``helpers``,
``strategies``), editions written for a test (``compiled_editions``), the submissions a class hands in
(``submissions``, ``stalls``, ``mistaken_class``), a costly fixture built once for all test processes
(``once``), a PostgreSQL gradebook (``database``), the course's languages (``languages``) and the dump of
everything the course says about each step (``step_dump``)."""
