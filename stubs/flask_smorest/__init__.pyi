"""flask-smorest 0.47's names this project uses (it ships no types): the Api, its Blueprint's
decorators (each hands back what it was given, documented or wrapped), ``abort`` and ``Page``."""

from collections.abc import Callable, Mapping, Sequence
from http import HTTPStatus
from typing import Any, NoReturn, TypeVar

import flask
import marshmallow as ma
from apispec import APISpec
from flask.typing import ResponseReturnValue
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

_T = TypeVar("_T")
_View = TypeVar("_View", bound=Callable[..., Any])
_Status = int | str | HTTPStatus
_Schema = ma.Schema | type[ma.Schema]
_Document = Mapping[str, Any]  # an OpenAPI schema written out

def abort(http_status_code: int, exc: Exception | None = None, **kwargs: Any) -> NoReturn: ...

class Page:
    def __init__(self, collection: Sequence[Any], page_params: Any) -> None: ...
    @property
    def items(self) -> Sequence[Any]: ...
    @property
    def item_count(self) -> int: ...

class Blueprint(flask.Blueprint):
    ARGUMENTS_PARSER: FlaskParser
    def __init__(self, *args: Any, description: str = ..., **kwargs: Any) -> None: ...
    def add_url_rule(
        self,
        rule: str,
        endpoint: str | None = None,
        view_func: Callable[..., Any] | None = None,
        provide_automatic_options: bool | None = None,
        *,
        parameters: Sequence[str | Mapping[str, Any]] | None = None,
        tags: Sequence[str] | None = None,
        **options: Any,
    ) -> None: ...
    def route(  # type: ignore[override]  # a view function or a MethodView class
        self,
        rule: str,
        *,
        parameters: Sequence[str | Mapping[str, Any]] | None = None,
        tags: Sequence[str] | None = None,
        **options: Any,
    ) -> Callable[[_T], _T]: ...
    def register_views_in_doc(
        self,
        api: Api,
        app: flask.Flask,
        spec: Any,
        *,
        name: str,
        parameters: Sequence[str | Mapping[str, Any]] | None,
    ) -> None: ...
    @staticmethod
    def doc(**kwargs: Any) -> Callable[[_View], _View]: ...
    def arguments(
        self,
        schema: _Schema,
        *,
        location: str = "json",
        content_type: str | None = None,
        required: bool = True,
        description: str | None = None,
        example: Any = None,
        examples: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> Callable[[_View], _View]: ...
    def response(
        self,
        status_code: _Status,
        schema: _Schema | _Document | None = None,
        *,
        content_type: str | None = None,
        description: str | None = None,
        example: Any = None,
        examples: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
    ) -> Callable[[_View], _View]: ...
    def alt_response(
        self,
        status_code: _Status,
        response: str | None = None,
        *,
        schema: _Schema | None = None,
        content_type: str | None = None,
        description: str | None = None,
        example: Any = None,
        examples: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        success: bool = False,
    ) -> Callable[[_View], _View]: ...

class Api:
    DEFAULT_ERROR_RESPONSE_NAME: str | None
    spec: APISpec  # None until init_app, which Api(app) calls
    ma_plugin: Any
    def __init__(
        self,
        app: flask.Flask | None = None,
        *,
        spec_kwargs: Mapping[str, Any] | None = None,
        config_prefix: str = "",
    ) -> None: ...
    def init_app(
        self, app: flask.Flask, *, spec_kwargs: Mapping[str, Any] | None = None
    ) -> None: ...
    def register_blueprint(
        self,
        blp: Blueprint,
        *,
        parameters: Sequence[str | Mapping[str, Any]] | None = None,
        **options: Any,
    ) -> None: ...
    def register_converter(
        self, converter: type[BaseConverter], func: Callable[..., Mapping[str, Any]]
    ) -> None: ...
    def handle_http_exception(self, error: HTTPException) -> ResponseReturnValue: ...
