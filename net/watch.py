"""What a seated player's client checks at the table that the log alone cannot prove.

The log's own rules are every auditor's (:class:`net.ledger.Ledger`): whom a
seed exchange is between, which reason a move the host made for a person
gives, who owes a verdict. Some claims only the player they are about can
judge, because they are about that player's link and clock:

* a move the host made for *me* because I was away, while my link was up
  (the entry came on it), or because my turn timer ran out, well before it
  could have;
* a log entry saying I went away past the grace period, while I was here;
* a seed exchange that leaves me out, while I am here;
* a strike for a deadline I did not miss: the answer the host says never came
  is one this client signed and sent in time. It is shown loudly, naming the
  host as the accuser, and kept in the transcript as evidence;
* a card hidden from my hand while the public list counts it.

:class:`SeatWatch` holds what that needs (when my turn began, what I sent and
when I was asked) and tells its client what to report. Every automatic move
made for this seat is reported too, so the table can show it.
"""

from __future__ import annotations

from typing import Any

from .commitments import Unfair
from .ledger import Ledger
from .identity import short_fp

TIMER_SLACK = 1.0
"""Seconds a turn timer may seem short at the table (the turn's first update reached us late)."""
REMEMBERED = 64
"""Answers remembered for a dispute (the latest ones: a strike comes within one deadline)."""

STAGE_ANSWER = {"commit": "seed", "ack": "ack", "reveal": "reveal"}
"""An abort's stage -> the answer it says is missing."""


class SeatWatch:
    """The table-side checks of one seated client (see the module's text)."""

    def __init__(self) -> None:
        self.turn_started: float | None = None
        """When the game began to wait on this seat, by this client's clock (None: unknown, e.g. just reconnected)."""
        self._turn: tuple[int, int] | None = None
        """(round, the player the game waits on) of the last update."""
        self._fresh = True
        self._asked: dict[tuple[Any, ...], float] = {}
        self.answers: dict[tuple[Any, ...], tuple[bytes, bytes, float | None]] = {}
        """(kind, epoch, attempt) or ("verdict", round) -> (message, signature, seconds after it was asked)."""

    # -- what this client sees and does ----------------------------------------------------------
    def link_up(self) -> None:
        """A new link: the first update on it shows a turn already under way, begun who knows when."""
        self._fresh = True

    def asked(self, key: tuple[Any, ...], now: float) -> None:
        """The host asked this seat for an answer (a seed, an ack, a reveal, a verdict)."""
        self._asked.setdefault(key, now)
        while len(self._asked) > REMEMBERED:
            del self._asked[next(iter(self._asked))]

    def sent(self, md: dict[str, Any], m: bytes, sig: bytes, now: float) -> None:
        """This client signed and sent ``m`` (``md`` decoded): remembered in case the host says it never came."""
        kind = md.get("k")
        if kind in ("seed", "ack", "reveal"):
            key: tuple[Any, ...] = (kind, md.get("e"), md.get("a"))
        elif kind == "verdict":
            key = ("verdict", md.get("r"))
        else:
            return
        if not all(isinstance(x, (int, str)) or x is None for x in key):
            return  # not an answer this client makes
        asked = self._asked.get(key)
        self.answers[key] = (m, sig, None if asked is None else now - asked)
        while len(self.answers) > REMEMBERED:
            del self.answers[next(iter(self.answers))]

    def update(self, obs: dict[str, Any], seat: int, now: float) -> None:
        """An update for this seat: its hand counted as the public list counts it; when a turn of ours began."""
        players, hand = obs.get("players"), obs.get("hand")
        if isinstance(players, list) and 0 <= seat < len(players) and isinstance(hand, list):
            counted = players[seat].get("cards") if isinstance(players[seat], dict) else None
            if isinstance(counted, int) and counted != len(hand):
                raise Unfair("hand", f"the table counts {counted} cards in your hand, but the host shows you "
                                     f"{len(hand)}: a card is hidden from you")
        # The host's turn timer runs for the player the game waits on (a step may ask another player
        # than the one whose turn it is): that player's "turn" here too.
        decision = obs.get("decision")
        waits_on = decision.get("player", -1) if isinstance(decision, dict) else obs.get("current", -1)
        turn = (obs.get("round", -1), waits_on)
        if self._fresh:
            self._fresh = False
            self.turn_started = None  # begun before this link: we cannot tell when
        elif turn[1] == seat and turn != self._turn:
            self.turn_started = now
        elif turn[1] != seat:
            self.turn_started = None
        self._turn = turn

    # -- what the log says about this seat -------------------------------------------------------
    def entry(self, d: dict[str, Any], index: int, live: bool, now: float, ledger: Ledger, seat: int,
              host: str, lobby: dict[str, Any] | None = None
              ) -> tuple[list[dict[str, Any]], list[tuple[int, bytes, bytes]], Unfair | None]:
        """Log entry ``d`` (number ``index``; ``live``: it came on a link that was up when it was made).

        ``lobby``: the host's latest lobby message (its seats: a person's or a bot's, and their keys).
        Returns the messages to report, the evidence to keep (``(entry, message, signature)``) and,
        for a claim this seat knows to be false, the failed check (:class:`Unfair`).
        """
        notes: list[dict[str, Any]] = []
        evidence: list[tuple[int, bytes, bytes]] = []
        try:
            self._entry(d, index, live, now, ledger, seat, host, lobby, notes, evidence)
        except Unfair as u:
            return notes, evidence, u
        return notes, evidence, None

    def _entry(self, d: dict[str, Any], index: int, live: bool, now: float, ledger: Ledger, seat: int,
               host: str, lobby: dict[str, Any] | None, notes: list[dict[str, Any]],
               evidence: list[tuple[int, bytes, bytes]]) -> None:
        k = d.get("k")
        if k == "match":
            # A match numbers its epochs and rounds from 0 again: an answer sent in the last one
            # is no evidence about this one's.
            self._asked.clear()
            self.answers.clear()
            if lobby is not None:
                self._check_keys(ledger, lobby, host)
        elif k == "step" and d.get("seat") == seat and d.get("auto"):
            why = d.get("why")
            notes.append({"type": "auto", "round": d.get("r"), "why": why, "action": d.get("a"), "live": live})
            if live:
                self._check_auto(d, why, now, ledger, host)
        elif k == "away" and d.get("seat") == seat and live:
            raise Unfair("away", f"{host} logged you away past the grace period while you were connected: it "
                                 "could then move for you and leave you out of the deal")
        elif k == "commit" and live and seat not in d.get("parts", ()) and seat not in ledger.benched \
                and ledger.keys and 0 <= seat < len(ledger.keys) and ledger.keys[seat] is not None:
            raise Unfair("parts", f"{host} left you out of the seed exchange of epoch {d.get('e')} while you "
                                  "were connected (it never logged your return)")
        elif k == "abort" and seat in d.get("missing", ()):
            kind = STAGE_ANSWER.get(d.get("stage", ""), "")
            self._dispute(notes, evidence, (kind, d.get("e"), d.get("a")), index, host,
                          f"the {d.get('stage')} deadline of epoch {d.get('e')}", kind)
        elif k == "strike" and d.get("seat") == seat:
            stage = d.get("stage")
            if stage == "verdict":
                self._dispute(notes, evidence, ("verdict", d.get("r")), index, host,
                              f"the deadline of your verdict on round {int(d.get('r', 0)) + 1}", "verdict")
            else:
                notes.append({"type": "accused", "by": host, "stage": stage, "evidence": False,
                              "reason": f"{host} refused your signed {stage} and struck you: {d.get('why')}"})

    @staticmethod
    def _check_keys(ledger: Ledger, lobby: dict[str, Any], host: str) -> None:
        """Every seat the lobby shows as a person's carries that person's key in the match header."""
        for s in lobby.get("seats", ()):
            if not isinstance(s, dict) or s.get("kind") != "human":
                continue
            i = s.get("seat")
            key = ledger.keys[i] if isinstance(i, int) and 0 <= i < len(ledger.keys) else None
            if key is None or short_fp(key) != s.get("fp"):
                raise Unfair("identity", f"{host} shows seat {i + 1 if isinstance(i, int) else i} as a person's "
                                         "at the table, but the match header gives it "
                                         + ("no identity key" if key is None else "another key")
                                         + ": the host could move for that person with no signed intent")

    def _check_auto(self, d: dict[str, Any], why: Any, now: float, ledger: Ledger, host: str) -> None:
        """A move the host made for this seat while its link was up: only the turn timer may explain it."""
        move = d.get("a") or {}
        what = str(move.get("kind", "a move"))
        if why == "timer":
            timer = ledger.timer or 0.0
            if self.turn_started is not None and now - self.turn_started < timer - TIMER_SLACK:
                raise Unfair("auto", f"{host} made a move for you ({what}) {now - self.turn_started:.1f} s into "
                                     f"your turn, saying your {timer:g} s turn timer had run out")
        elif why != "bench":
            raise Unfair("auto", f"{host} made a move for you ({what}) while you were connected, saying "
                                 f"{why or 'nothing'}: a host moving for a present player")

    def _dispute(self, notes: list[dict[str, Any]], evidence: list[tuple[int, bytes, bytes]],
                 key: tuple[Any, ...], index: int, host: str, what: str, kind: str) -> None:
        """A strike against this seat for an answer it sent: loud, naming the host, the answer kept as evidence."""
        sent = self.answers.get(key)
        if sent is None:
            notes.append({"type": "accused", "by": host, "stage": kind, "evidence": False,
                          "reason": f"{host} says you missed {what}, and struck you"})
            return
        m, sig, delay = sent
        when = f" {delay:.2f} s after it was asked" if delay is not None else ""
        notes.append({"type": "accused", "by": host, "stage": kind, "evidence": True,
                      "reason": f"{host} says you missed {what} and struck you, but your client signed and sent "
                                f"its {kind}{when}; it is kept in your transcript as evidence"})
        evidence.append((index, m, sig))

