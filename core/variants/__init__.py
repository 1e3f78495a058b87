"""The variants; importing this package registers each of them."""

from . import classic, diez, extended, nomercy, wildrawz  # noqa: F401
