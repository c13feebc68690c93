"""The WSGI entry point of an installed server: ``gunicorn api.wsgi:app``.

The checkout's top-level ``wsgi.py`` (``gunicorn wsgi:app``, ``flask --app wsgi run``)
is this module under a shorter name; the wheel installs no top-level module.
"""

from . import create_app

app = create_app()
