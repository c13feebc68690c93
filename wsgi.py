"""The WSGI entry point in a checkout: ``gunicorn wsgi:app`` (or ``flask --app wsgi run``);
an installed server runs ``gunicorn api.wsgi:app``."""

from api.wsgi import app

__all__ = ["app"]
