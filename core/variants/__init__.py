"""The variants; importing this package registers each of them."""

from . import classic, wildrawz  # noqa: F401
