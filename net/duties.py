"""Who takes part in the deal, who may be played for, and who owes a verdict: the seats' rules of the log.

A part of :class:`net.ledger.Ledger` (its base): the state it reads is the ledger's.
"""

from __future__ import annotations

from typing import Any, Iterable

from .answers import answer_fault
from .commitments import HOST_PID, MAX_REDRAWS, TAG_PEER, ZERO, Unfair, unpack
from .epochs import EpochPublic
from .identity import verify


class Duties:
    """The seats' rules: people, strikes and the refusals they carry, verdicts owed."""

    # -- the seats' rules: who takes part, who may be played for, who owes a verdict -------------
    def _person(self, seat: Any, what: str) -> int:
        """``seat`` as a seat that holds a person (a key in the match header)."""
        if not isinstance(seat, int) or not 0 <= seat < len(self.keys) or self.keys[seat] is None:
            raise Unfair("protocol", f"a {what} entry for seat {seat}, which holds no person")
        return seat

    def people(self) -> list[int]:
        """The seats of this match's people who take part now: a key in the header, not benched, not away."""
        return [i for i, k in enumerate(self.keys) if k is not None and i not in self.benched and i not in self.away]

    def who(self, pids: Iterable[int]) -> str:
        """The participants ``pids`` in words, for a reason: their names and seats, or the host."""
        names = ["the host" if p == HOST_PID else
                 (f"{self.names[p]} (seat {p + 1})" if 0 <= p < len(self.names) else f"seat {p}") for p in pids]
        return ", ".join(names) or "nobody"

    def _check_parts(self, ep: EpochPublic) -> None:
        """Every seed exchange is between the host and exactly the people who take part (see :meth:`people`).

        A host that leaves the people out chooses the order alone; one that adds
        or drops a seat the log does not show benched or away picks its partners.
        """
        want = [HOST_PID] + self.people()
        if sorted(ep.parts) != want:
            raise Unfair("parts", f"epoch {ep.e}: the seed exchange is between {self.who(sorted(ep.parts))}, but "
                                  f"it must be between {self.who(want)} (the host and every seated person the "
                                  "log does not show benched or away): the host could choose the order")

    def _check_attempt(self, e: int, a: int) -> None:
        if e in self.final:
            raise Unfair("rewind", f"epoch {e} was shuffled again after its seeds were revealed: "
                                   "the host re-ran a settled shuffle")
        prev = self.open_attempts.get(e)
        if prev is not None:
            raise Unfair("protocol", f"epoch {e}: attempt {a} begins while attempt {prev} was neither "
                                     "finished nor called off")
        tried = [aa for (ee, aa) in self.epochs if ee == e]
        if tried and a <= max(tried):
            raise Unfair("protocol", f"epoch {e}: attempt {a} comes after attempt {max(tried)}")

    def _counter(self, pid: int, md: Any) -> None:
        """A signed message's counter is used once per participant in the whole match (no replay)."""
        n = md.get("n") if isinstance(md, dict) else None
        if not isinstance(n, int) or isinstance(n, bool):
            raise Unfair("protocol", f"log entry {len(self.entries) - 1}: a signed message without its counter")
        key = (pid, n)
        if key in self.counters:
            who = "the host" if pid == HOST_PID else f"seat {pid}"
            raise Unfair("replay", f"log entry {len(self.entries) - 1}: {who}'s signed message #{n} was used "
                                   "before in this match: a replay")
        self.counters.add(key)

    def redraws(self) -> int:
        """Times in this match the host went back past a revealed shuffle (a rewind or a restart)."""
        g = self.game_id or b""
        return self.rewinds.get(g, 0) + self.restarts.get(g, 0)

    def _check_redraws(self) -> None:
        if self.redraws() > MAX_REDRAWS:
            raise Unfair("rewind", f"the host went back past a revealed shuffle {self.redraws()} times in this "
                                   f"match; a crash may do that once, more is a host drawing again until it "
                                   "likes the deal")

    def _abort(self, d: dict[str, Any]) -> list[tuple[Any, ...]]:
        ep = self._ep(d)
        stage, missing = d["stage"], [int(p) for p in d["missing"]]
        if ep.aborted or ep.pi is not None:
            raise Unfair("protocol", f"epoch {ep.e} attempt {ep.a} called off when it was over already")
        ep.aborted = True
        self.open_attempts.pop(ep.e, None)
        out: list[tuple[Any, ...]] = []
        if stage == "restart":  # a resumed host calls off the attempt its crash interrupted
            if missing:
                raise Unfair("strike", f"epoch {ep.e}: a restart strikes nobody")
            if HOST_PID in ep.reveals:
                self.restarts[self.game_id or b""] = self.restarts.get(self.game_id or b"", 0) + 1
                self._check_redraws()
                out.append(("warn", "the host restarted after revealing its seed for a shuffle and shuffles "
                                    "again (a crash may do this once in a match)"))
            return out
        answered = {"commit": ep.seeds, "ack": {int(b[0]): b for b in ep.acks},
                    "reveal": ep.reveals}.get(stage)
        if answered is None or not missing:
            raise Unfair("protocol", f"epoch {ep.e}: an abort at stage {stage!r} naming {missing}")
        for pid in missing:
            if pid not in ep.parts or pid == HOST_PID:
                raise Unfair("strike", f"epoch {ep.e}: the host struck {self.who([pid])}, who was not asked")
            if pid in answered:
                raise Unfair("strike", f"epoch {ep.e}: the host struck {self.who([pid])} for missing the {stage} "
                                       "deadline, but that answer is in the log")
            self.strikes[pid] = self.strikes.get(pid, 0) + 1
        if self.seat is not None and self.seat in missing:
            out.append(("warn", f"the host says this seat missed the {stage} deadline of epoch {ep.e}"))
        return out

    def _strike(self, d: dict[str, Any]) -> None:
        """A strike outside an abort: a refused answer (the answer is its evidence) or a missing verdict."""
        seat = self._person(d["seat"], "strike")
        stage = d["stage"]
        if stage == "verdict":
            r = d["r"]
            if self.close is None or r != self.round:
                raise Unfair("strike", f"a strike for a verdict on round {r}, which is not the round just closed")
            if seat in self.verdicts.setdefault(r, set()):
                raise Unfair("strike", f"the host struck {self.who([seat])} for missing the verdict on round "
                                       f"{r + 1}, but that verdict is in the log")
            if seat not in self.people():
                raise Unfair("strike", f"the host struck {self.who([seat])} for a verdict it did not owe")
            self.verdicts[r].add(seat)
        else:
            self._check_refusal(seat, stage, d)
        self.strikes[seat] = self.strikes.get(seat, 0) + 1

    def _check_refusal(self, seat: int, stage: str, d: dict[str, Any]) -> None:
        """The answer a strike refused must be the seat's own, and bad: else the strike is the host's lie."""
        m, sig = d.get("m"), d.get("sig")
        key = self.keys[seat]
        if not isinstance(m, bytes) or not isinstance(sig, bytes) or key is None or not verify(key, sig, TAG_PEER, m):
            raise Unfair("strike", f"the host struck {self.who([seat])} for a refused {stage} without that "
                                   "player's signed message as evidence")
        md = unpack(m)
        if not isinstance(md, dict) or md.get("seat") != seat or md.get("g") != self.game_id:
            raise Unfair("strike", f"the evidence of a strike against {self.who([seat])} is not that player's "
                                   "message in this game")
        if stage in ("seed", "ack", "reveal"):
            ep = self.epochs.get((md.get("e"), md.get("a")))  # type: ignore[arg-type]
            if ep is None:
                return  # about an attempt this log never committed: refusing it was right
            fault = answer_fault(stage, md, root=ep.root, shown=ep.set_hash, key=key, committed=ep.seeds.get(seat))
        elif stage == "head":
            h = md.get("h")
            fault = None if h == ZERO or (isinstance(h, bytes) and h in self.hash_at) else "unknown head"
        else:
            return  # a receipt or a verdict refused for what only the host could check (its deliveries)
        if fault is None:
            raise Unfair("strike", f"the host struck {self.who([seat])} for a {stage} that is good: "
                                   "a false accusation")

    def _check_verdicts(self, what: str) -> None:
        """Before the next deal (or match): every person's verdict on the last round, or a strike for it."""
        r, self.closed_round = self.closed_round, None
        if r is None:
            return
        missing = [p for p in self.people() if p not in self.verdicts.get(r, set())]
        if missing:
            raise Unfair("verdict", f"{what} without the verdict on round {r + 1} of {self.who(missing)}: "
                                    "neither the verdict nor a strike for missing it is in the log "
                                    "(the host dropped it)")

    def check_end(self) -> None:
        """The match is over (the host said ``end``): the last round's verdicts must all be in the log."""
        self._check_verdicts("the match ended")

    def missing_verdicts(self) -> list[int]:
        """The people whose verdict on the round just closed the log does not hold yet."""
        r = self.closed_round
        if r is None:
            return []
        return [p for p in self.people() if p not in self.verdicts.get(r, set())]

    def verdict_owed(self, seat: int) -> int | None:
        """The round just closed, if the log holds neither ``seat``'s verdict on it nor a strike for it."""
        r = self.closed_round
        if r is None or seat not in self.people() or seat in self.verdicts.get(r, set()):
            return None
        return r
