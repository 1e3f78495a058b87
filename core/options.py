"""Rule options: each variant's ``OPTIONS`` map a name to an :class:`Option`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Option:
    """One rule option: its type, default and the values it accepts."""

    default: Any
    doc: str
    check: Callable[[Any], bool] | None = None
    """Extra validation beyond the type; returns True when the value is good."""

    def validate(self, name: str, value: Any) -> Any:
        typ = type(self.default)
        if typ is int and isinstance(value, bool) or not isinstance(value, typ):
            raise ValueError(f"option {name!r} must be {typ.__name__}, not {value!r}")
        if self.check is not None and not self.check(value):
            raise ValueError(f"option {name!r}: bad value {value!r} ({self.doc})")
        return value
