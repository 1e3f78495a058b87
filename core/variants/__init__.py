"""The variants; importing this package registers each of them."""

from . import classic, nomercy, wildrawz  # noqa: F401
