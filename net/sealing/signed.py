"""The sealed table's signed messages, and the alarm a failed check raises."""

from __future__ import annotations

from typing import Any

import msgpack

from ..identity import Identity
from ..sealed import Fault

TAG = b"uno-tui/sealed/v1 "
"""What every signed message of the sealed table is signed under."""


class Alarm(Exception):
    """A check of the sealed table failed: ``fault`` names the kind and, when it can, the culprit."""

    def __init__(self, fault: Fault, told: bool = False) -> None:
        self.told = told
        """Whether the table knows already (the alarm came from the log): not told again."""
        super().__init__(f"{fault.code}: {fault}" + (f" (participant {fault.culprit})" if fault.culprit is not None
                                                      else ""))
        self.fault = fault


def sign(identity: Identity, body: dict[str, Any]) -> dict[str, Any]:
    """A signed message as it travels and is logged: ``{m: msgpack body, s: signature}``."""
    m = msgpack.packb(body, use_bin_type=True)
    return {"m": m, "s": identity.sign(TAG, m)}
