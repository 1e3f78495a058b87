"""A sealed table's round end, as every peer makes it: the seeds opened, the round audited, the
verdicts signed; and the check of an accusation (a part of :class:`net.sealing.SealedPeer`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import core

from ..sealed import Envelope, Epoch, Fault, Reveal, RoundKeys, RoundSecret, audit_round, verify_accusation
from .signed import Alarm


class RoundEnd:
    """The round's reveal, audit and verdict; accusations (a base of :class:`~net.sealing.SealedPeer`,
    whose state it reads)."""

    pid: int | None
    round: int
    game: core.Game | None
    start: core.Game
    keys: RoundKeys
    secret: RoundSecret | None
    epochs: list[Epoch]
    envelopes: list[Envelope]
    handle_of: dict[tuple[int, int], int]
    moves: list[tuple[int, core.Action]]
    public: Any
    results: list[Any]
    audits: list[core.Audit]
    verdicts: list[dict[str, Any]]
    reveal_timeout: float

    if TYPE_CHECKING:  # the peer's (see net.sealing.lockstep)
        @property
        def pids(self) -> list[int]: ...

        @property
        def deck(self) -> tuple[tuple[str | None, str], ...]: ...

        def _size(self) -> int: ...

        def send(self, body: dict[str, Any]) -> None: ...

        async def take(self, kind: str, authors: Iterable[int], *, deadline: float | None = None,
                       missing: str = "protocol") -> dict[int, dict[str, Any]]: ...

    def _accusation(self, accuser: int, body: dict[str, Any]) -> Fault:
        """Check an accusation (the opened, signed body of an envelope sent to the accuser): the
        fault it proves against the sender, or, if it proves nothing, the accuser's."""
        sender, opened, sig = body.get("from"), body.get("body"), body.get("sig")
        if not (isinstance(sender, int) and isinstance(opened, bytes) and isinstance(sig, bytes)):
            return Fault("accusation", "a malformed accusation", accuser)
        epochs = self.epochs

        def bad(it: list[Any]) -> bool:
            return not (0 <= it[0] < len(epochs) and 0 <= it[1] < epochs[it[0]].n and it[2] in self.keys.X
                        and isinstance(it[3], bytes) and epochs[it[0]].check_share(it[1], it[2], it[3]))

        proven = verify_accusation(self.keys, sender, opened, sig, bad)
        return proven or Fault("accusation", f"an accusation against {sender} that proves nothing", accuser)

    async def _end_round(self) -> None:
        g = self.game
        assert g is not None
        if self.secret is not None:
            self.send({"k": "sreveal", "r": self.round, "rv": self.secret.reveal().to_wire()})
        got = await self.take("sreveal", self.pids, deadline=self.reveal_timeout, missing="withheld")
        reveals = []
        for author, body in got.items():
            rv = Reveal.from_wire(body.get("rv"))
            if rv.pid != author:
                raise Alarm(Fault("reveal", "a seed opened in another's name", author))
            reveals.append(rv)
        result = audit_round(self.keys, self.epochs, reveals, self.envelopes)
        self.results.append(result)
        faces = {h: self.deck[h] for h in range(self._size())}
        for (e, s), h in self.handle_of.items():
            faces[h] = self.deck[result.cards[e][s]]
        audit = core.replay(self.start, self.moves, faces, public=self.public)
        self.audits.append(audit)
        verdict = {"k": "sverdict", "r": self.round, "ok": not audit.false_claims,
                   "false": [[f.seat, f.words] for f in audit.false_claims]}
        if self.pid is not None:
            self.send(verdict)
        for author, body in (await self.take("sverdict", self.pids)).items():
            self.verdicts.append({"from": author, "r": body.get("r"), "ok": body.get("ok"), "false": body.get("false")})
