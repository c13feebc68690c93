"""mkdocs hooks (``mkdocs.yml``): what the site takes from the code as it is built.

* This checkout's packages come first on ``sys.path``, so the command line
  reference (mkdocs-click imports ``scorekeeper.cli``) and the API reference
  document the code beside this folder, whatever else is installed.
* ``api/openapi.json``, the document the API reference renders, is the one the app
  serves at ``/api/openapi.json``: asked of an app over a database in a temporary
  folder, never written into ``docs/``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

CHECKOUT = Path(__file__).resolve().parent.parent

DOCUMENT = "api/openapi.json"
"""Where the site holds the OpenAPI document (``docs/api/reference.md`` names it)."""


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if str(CHECKOUT) not in sys.path:
        sys.path.insert(0, str(CHECKOUT))
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    files.append(File.generated(config, DOCUMENT, content=openapi_document()))
    return files


def openapi_document() -> str:
    """The OpenAPI document as the app serves it."""
    from api import STORAGE_KEY, create_app

    with tempfile.TemporaryDirectory() as folder:
        settings = {"DB": f"{folder}/docs.db", "SECRET_KEY": "docs", "LOG_LEVEL": "WARNING"}
        app = create_app(settings, instance_path=folder, scorepad=False)
        try:
            return app.test_client().get("/api/openapi.json").get_data(as_text=True)
        finally:
            app.extensions[STORAGE_KEY].close()
