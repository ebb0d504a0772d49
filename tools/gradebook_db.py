"""A gradebook in another database than the course root's SQLite file (PostgreSQL, for several graders).

``classroom init --db URL`` writes the URL into ``nbgrader_config.py``, which every grader reads: so
the URL must hold no password (PostgreSQL's client takes it from ``PGPASSWORD`` or ``~/.pgpass``),
and the database must answer before a course relies on it. When it does not, the instructor is
told what must exist first: the role the URL names, and its database.
"""
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


class GradebookUnreachable(Exception):
    """The gradebook's database cannot be used as given; the message says what to do."""


def check(url, language):
    """Raise ``GradebookUnreachable`` unless ``url`` names a database that answers, without a password in it."""
    parsed = make_url(url)
    if parsed.password is not None:
        raise GradebookUnreachable(say(PASSWORD_IN_URL, language))
    if parsed.get_backend_name() == "sqlite":
        return  # nbgrader creates the file
    engine = sqlalchemy.create_engine(url, connect_args={"connect_timeout": 10})
    try:
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text("SELECT 1"))
    except sqlalchemy.exc.SQLAlchemyError as error:
        reason = str(getattr(error, "orig", error)).strip().splitlines()[0]
        raise GradebookUnreachable(say(UNREACHABLE, language, url=url, error=reason, user=parsed.username or "grader",
                                       database=parsed.database or "minigrad", host=parsed.host or "localhost",
                                       port=parsed.port or 5432)) from None
    finally:
        engine.dispose()
