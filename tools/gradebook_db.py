"""A gradebook in another database than the course root's SQLite file (PostgreSQL, for several graders).

``classroom init --db URL`` writes the URL into ``nbgrader_config.py``, which every grader reads: so
the URL must hold no password (PostgreSQL's client takes it from ``PGPASSWORD`` or ``~/.pgpass``),
and the database must answer before a course relies on it. When it does not, the instructor is
told what must exist first: the role the URL names, and its database.
"""
import re
from urllib.parse import unquote

import sqlalchemy
from sqlalchemy.engine import make_url

from .instructor_messages import N_, say

PASSWORD_IN_URL = N_("The gradebook URL holds a password, which nbgrader_config.py would keep in plain text. "
                     "Leave it out of the URL, and give it to every grader in ~/.pgpass or in PGPASSWORD.")
UNREACHABLE = N_("""Cannot connect to the gradebook {url}:
  {error}
The database and the role must exist first. As PostgreSQL's administrator (e.g. `sudo -u postgres`):
  createuser --pwprompt {user}
  createdb --owner {user} {database}
Each grader then keeps the password in ~/.pgpass (one line, `{host}:{port}:{database}:{user}:PASSWORD`, and
`chmod 600 ~/.pgpass`) or in the variable PGPASSWORD, never in the URL.""")


NOT_A_URL = N_("The gradebook URL cannot be read as a database URL (dialect://user@host/database). "
               "Write it as e.g. postgresql+psycopg2://grader@dbhost/minigrad, without a password.")
# A query key that is, or holds, a password (libpq's password and sslpassword, other drivers' passwd and pwd),
# whatever its case; passfile names a file (like ~/.pgpass) and is welcome.
PASSWORD_KEY = re.compile(r"(?!passfile$)\w*(pass|pwd)\w*", re.I)


class GradebookUnreachable(Exception):
    """The gradebook's database cannot be used as given; the message says what to do."""


def check(url, language):
    """Raise ``GradebookUnreachable`` unless ``url`` names a database that answers, without a password in it."""
    try:
        parsed = make_url(url)
    except (sqlalchemy.exc.ArgumentError, ValueError):
        raise GradebookUnreachable(say(NOT_A_URL, language)) from None  # its message would repeat the URL
    if holds_password(parsed):
        raise GradebookUnreachable(say(PASSWORD_IN_URL, language))
    if parsed.get_backend_name() == "sqlite":
        return  # nbgrader creates the file
    engine = sqlalchemy.create_engine(url, connect_args={"connect_timeout": 10})
    try:
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text("SELECT 1"))
    except sqlalchemy.exc.SQLAlchemyError as error:
        reason = str(getattr(error, "orig", error)).strip().splitlines()[0]
        raise GradebookUnreachable(say(UNREACHABLE, language, url=parsed.render_as_string(), error=reason, user=parsed.username or "grader",
                                       database=parsed.database or "minigrad", host=parsed.host or "localhost",
                                       port=parsed.port or 5432)) from None
    finally:
        engine.dispose()


def holds_password(parsed):
    """Whether a parsed URL gives a password anywhere libpq would read one: the user part, a query key
    (percent-encoded or not), or a connection string or URL given as the database or a query value."""
    if parsed.password is not None:
        return True
    values = [parsed.database or ""]
    for key, value in parsed.query.items():
        if PASSWORD_KEY.fullmatch(unquote(key)):
            return True
        values += [value] if isinstance(value, str) else list(value)
    return any(_string_holds_password(unquote(value)) for value in values)


def _string_holds_password(text):
    """A libpq connection string (``key=value ...``) or URL with a password in it."""
    if re.search(r"\b(\w*(pass|pwd)\w*)\s*=", text, re.I) and not re.fullmatch(r"\s*passfile\s*=.*", text, re.I):
        return True
    return bool(re.match(r"\w[\w+.-]*://[^/@]*:[^/@]*@", text))
