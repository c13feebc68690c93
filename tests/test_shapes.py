"""Response schemas derived from result types (api.shapes), on small results of its own."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import marshmallow as ma
import pytest
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import fields

from api.shapes import Shapes
from scorekeeper.results import Result


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Pay(Result):
    amount: float


@dataclass(frozen=True, slots=True)
class Small(Result):
    colour: Colour
    """The colour."""
    cards: tuple[str, ...]
    pay: Pay | tuple[Pay, ...] | None


@dataclass(frozen=True, slots=True)
class Large(Result):
    colour: Colour | None
    sizes: tuple[tuple[int, ...], ...]
    note: str
    """Only the large one has it.

    Not this paragraph."""


@dataclass(frozen=True, slots=True)
class Stored(Result):
    id: str
    inner: Small | Large
    hidden: bool = False


def document(shapes: Shapes, *kinds: object) -> dict:
    spec = APISpec("t", "1", "3.0.3", plugins=[MarshmallowPlugin()])
    for kind in kinds:
        spec.components.schema(shapes.name(kind), schema=shapes.schema(kind))
    for name, schema in shapes.components().items():
        if name not in spec.components.schemas:
            spec.components.schema(name, schema=schema)
    return spec.to_dict()["components"]["schemas"]


def test_a_union_is_one_schema_of_every_members_fields():
    shapes = Shapes({Small | Large: "Either"}, extra={Small: {"pay": {"maxItems": 2}}})
    either = document(shapes, Small | Large)["Either"]
    assert list(either["properties"]) == ["colour", "cards", "pay", "sizes", "note"]
    assert sorted(either["required"]) == ["colour"]
    colour = either["properties"]["colour"]
    assert colour["enum"] == ["red", "blue", None] and colour["description"] == "The colour."
    assert either["properties"]["note"]["description"] == "Only the large one has it."
    assert either["properties"]["sizes"]["items"] == {"type": "array", "items": {"type": "integer"}}
    assert either["properties"]["pay"]["nullable"] is True  # on the field, not in a branch
    pay = either["properties"]["pay"]["oneOf"]
    assert pay[0] == {"$ref": "#/components/schemas/Pay"}
    # the list's items name Pay by an alias (one model in two branches: no typescript-fetch)
    items = {"$ref": "#/components/schemas/PayItem"}
    assert pay[1] == {"type": "array", "items": items, "maxItems": 2}
    assert shapes.aliases() == {"PayItem": {"allOf": [{"$ref": "#/components/schemas/Pay"}]}}


def test_a_flat_part_takes_the_place_of_its_field():
    shapes = Shapes({Small | Large: "Either"}, flat={Stored: ("inner", {"hidden"})})
    stored = document(shapes, Stored)["Stored"]
    assert list(stored["properties"]) == ["id", "colour", "cards", "pay", "sizes", "note"]
    assert sorted(stored["required"]) == ["colour", "id"]


def test_two_shapes_under_one_name_are_refused():
    shapes = Shapes({Small: "Same", Large: "Same"})
    shapes.schema(Small)
    with pytest.raises(TypeError, match="two shapes named Same"):
        shapes.schema(Large)
    with pytest.raises(TypeError, match="name the union"):
        Shapes().schema(Small | Large)


class PayByHand(ma.Schema):
    """A schema written by hand for a result whose fields derive no schema."""

    amount = fields.Float(required=True)


@dataclass(frozen=True, slots=True)
class Wallet(Result):
    owner: str
    last: Pay | None


def test_a_schema_given_by_hand_is_nested_where_its_result_is_a_field():
    shapes = Shapes(given={Pay: PayByHand})
    wallet = document(shapes, Wallet)["Wallet"]
    assert wallet["properties"]["last"] == {
        "anyOf": [{"type": "object", "nullable": True}, {"$ref": "#/components/schemas/PayByHand"}]
    }
    assert shapes.schema(Pay) is PayByHand
    assert "Pay" not in shapes.components()  # the given schema is no derived one
