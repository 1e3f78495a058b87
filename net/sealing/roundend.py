"""A sealed table's round end, as every peer makes it: the seeds opened, the round audited, the
verdicts signed; and the check of an accusation (a part of :class:`net.sealing.SealedPeer`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Iterable

import core

from ..runtime import collect_when_idle
from ..sealed import Epoch, Fault, Reveal, audit_round, verify_accusation
from .peerstate import PeerState
from .signed import Alarm, Voided


class RoundEnd(PeerState):
    """The round's reveal, audit and verdict; accusations (a base of :class:`~net.sealing.SealedPeer`,
    whose state it reads)."""

    start: core.Game
    epochs: list[Epoch]
    moves: list[tuple[int, core.Action]]
    public: Any
    results: list[Any]
    audits: list[core.Audit]
    verdicts: list[dict[str, Any]]
    reveal_timeout: float

    secret_opened: int | None = None
    """The round whose secret this peer has opened (``sreveal``), once."""

    if TYPE_CHECKING:  # the peer's (see net.sealing.lockstep)
        async def take(self, kind: str, authors: Iterable[int], *, deadline: float | None = None,
                       missing: str = "protocol") -> dict[int, dict[str, Any]]: ...

        async def _entry(self) -> tuple[int, dict[str, Any]]: ...

        def _check_dealt(self) -> None: ...

        waiting_on: set[int]
        link_breaks: int

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

    def _open_secret(self) -> None:
        """Open this participant's round secret to the table (``sreveal``), once a round."""
        if self.secret is not None and self.secret_opened != self.round:
            self.secret_opened = self.round
            self.send({"k": "sreveal", "r": self.round, "rv": self.secret.reveal().to_wire()})

    def _reveals(self, got: dict[int, dict[str, Any]]) -> list[Reveal]:
        reveals = []
        for author, body in got.items():
            rv = Reveal.from_wire(body.get("rv"))
            if rv.pid != author:
                raise Alarm(Fault("reveal", "a seed opened in another's name", author))
            reveals.append(rv)
        return reveals

    async def _end_round(self) -> None:
        g = self.game
        assert g is not None
        self._open_secret()
        got = await self.take("sreveal", self.pids, deadline=self.reveal_timeout, missing="withheld")
        self._check_dealt()
        result = audit_round(self.keys, self.epochs, self._reveals(got), self.envelopes)
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
        collect_when_idle()  # between rounds: a collector pass due soon runs now, not in a move

    # -- a slot that opened to no card ----------------------------------------------------------------
    def _unnamed_card(self, alarm: Alarm) -> bool:
        """A slot opened to no card, every key of it checked (this peer's finding, or another's
        ``salarm``): some pass put another value in it, and only the passes made again can say whose."""
        return (alarm.fault.code == "card" and alarm.fault.culprit is None and not isinstance(alarm, Voided)
                and getattr(self, "keys", None) is not None and bool(self.epochs))

    async def _name_by_audit(self, alarm: Alarm) -> Alarm:
        """The round is void: every participant opens its round secret now, as at the round's end, and
        every peer makes every pass again. The audit names the pass's author (``substitution``); one
        who withholds its secret is named for that (``withheld``). If every pass is sound, the alarm
        was false: its author is named (``accusation``). Moves and alarms still in the log are passed
        over (another peer may have found the same slot)."""
        self._open_secret()
        want, got = set(self.pids), {}
        self.waiting_on = want
        loop = asyncio.get_running_loop()
        until, breaks = loop.time() + self.reveal_timeout, self.link_breaks
        try:
            while want:
                try:
                    author, body = await asyncio.wait_for(self._entry(), max(0.0, until - loop.time()))
                except asyncio.TimeoutError:
                    if self.link_breaks != breaks or self.link_breaks % 2:  # our link was down: wait again (take's rule)
                        breaks, until = self.link_breaks, loop.time() + self.reveal_timeout
                        continue
                    late = sorted(want)
                    return Alarm(Fault("withheld", f"participants {late} did not open their round secret "
                                                   "after a slot opened to no card", late[0]), told=True)
                except Voided as v:
                    return v
                except Alarm as a:
                    if a.told:
                        continue  # another peer's alarm, logged: the audit answers it too
                    return a
                if body.get("k") == "sreveal" and author in want and body.get("r") == self.round:
                    want.discard(author)
                    got[author] = body
            audit_round(self.keys, self.epochs, self._reveals(got), self.envelopes, unfinished=True)
        except Fault as f:
            return Alarm(f, told=True)
        except Alarm as a:
            return a
        if alarm.by is not None:
            return Alarm(Fault("accusation", f"participant {alarm.by} said a slot opened to no card, but every "
                                             "pass made again is sound", alarm.by), told=True)
        return alarm
