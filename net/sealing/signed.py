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

    def __init__(self, fault: Fault, told: bool = False, by: int | None = None) -> None:
        self.told = told
        """Whether the table knows already (the alarm came from the log): not told again."""
        self.by = by
        """The participant whose ``salarm`` this is, when it came from the log."""
        super().__init__(f"{fault.code}: {fault}" + (f" (participant {fault.culprit})" if fault.culprit is not None
                                                      else ""))
        self.fault = fault


class Voided(Alarm):
    """The host voided the round: participant ``who`` left for good (its link gone longer than the
    host's grace). Its keys went with it, so no card it holds a key to can be opened and the round
    cannot end: no score is kept for it. Only the host may say so (it could as well stall the table,
    which the threat model leaves it); a void is no alarm about anyone's honesty."""

    def __init__(self, round: int, who: int | None, why: str) -> None:
        super().__init__(Fault("void", why, who), told=True)
        self.round, self.who, self.why = round, who, why


def sign(identity: Identity, body: dict[str, Any]) -> dict[str, Any]:
    """A signed message as it travels and is logged: ``{m: msgpack body, s: signature}``."""
    m = msgpack.packb(body, use_bin_type=True)
    return {"m": m, "s": identity.sign(TAG, m)}
