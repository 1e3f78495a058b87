"""Variants register here by name; the engine finds them by that name."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .game import Game

_VARIANTS: dict[str, type["Game"]] = {}
G = TypeVar("G", bound="type[Game]")


def register(cls: G) -> G:
    """Class decorator: make a :class:`~core.Game` subclass available by its ``variant`` name."""
    if not cls.variant:
        raise ValueError(f"{cls.__name__} has no variant name")
    _VARIANTS[cls.variant] = cls
    return cls


def variant_class(name: str) -> type["Game"]:
    try:
        return _VARIANTS[name]
    except KeyError:
        known = ", ".join(_VARIANTS)
        raise ValueError(f"unknown variant {name!r} (known: {known})") from None


def variant_names() -> tuple[str, ...]:
    return tuple(_VARIANTS)
