"""The API explorer at ``/api/docs``: Swagger UI over this server's OpenAPI document.

flask-smorest serves it (``OPENAPI_SWAGGER_UI_PATH``, see :data:`SETTINGS`); its
own page would load Swagger UI from a CDN and start it with an inline script,
which the Content-Security-Policy forbids (:mod:`api.security`). So:

* Swagger UI's files come from the ``flask-swagger-ui`` package (a dependency,
  its ``dist/`` folder: Swagger UI's release, version for version), served here
  under ``/api/docs/assets/`` by :data:`bp`: no CDN, it works offline;
* the page is ``templates/swagger_ui.html``, which overrides flask-smorest's of
  the same name (the app's template folder comes before a blueprint's): it
  loads those files and ``api/static/explorer.js``, and hands the document's
  address and Swagger UI's settings over as ``data-`` attributes, so the
  page has no inline script and keeps the policy every page has;
* try-it-out sends each request to this server (the document's ``servers``
  is ``/``), with the Bearer token given under *Authorize*.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from flask import Blueprint

PATH = "/api/docs"
"""Where the explorer is (flask-smorest's ``OPENAPI_URL_PREFIX`` + ``OPENAPI_SWAGGER_UI_PATH``)."""

ASSETS = str(files("flask_swagger_ui").joinpath("dist"))
"""Swagger UI's files, as the flask-swagger-ui package ships them."""

bp = Blueprint(
    "explorer", __name__, url_prefix=PATH, static_folder=ASSETS, static_url_path="/assets"
)
"""Serves :data:`ASSETS` at ``/api/docs/assets/<file>``."""

SETTINGS: dict[str, Any] = {
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    "OPENAPI_SWAGGER_UI_URL": f"{PATH}/assets/",
    # Swagger UI's own settings (explorer.js passes them on): no call to the public
    # validator, operations open by their link, try-it-out ready at once.
    "OPENAPI_SWAGGER_UI_CONFIG": {
        "validatorUrl": None,
        "deepLinking": True,
        "tryItOutEnabled": True,
        "displayOperationId": True,
    },
}
"""The flask-smorest settings of the explorer (defaults of :func:`api.settings`)."""
