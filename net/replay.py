"""The audit of a closed round: the engine replayed over the log must take every move and reach the same
events, hands, rulings and scores.

A part of :class:`net.ledger.Ledger` (its base): the state it reads is the ledger's.
"""

from __future__ import annotations

from typing import Any, Sequence

import core
from core import Action, IllegalAction

from .commitments import TAG_PEER, ZERO, Unfair, engine_order, public_items, unpack
from .epochs import Step, cards_word
from .identity import verify


class Replay:
    """A ledger's audit of the round just closed."""

    # -- the audit ----------------------------------------------------------------------------
    def audit_round(self) -> None:
        """Check the round just closed, in full; raises :class:`Unfair` at the first failure."""
        close = self.close
        if close is None:
            raise Unfair("protocol", "the round was not closed")
        # The host's signature on every entry (those taken unchecked at the table).
        self.check_signatures()
        self._check_openings()
        # Every signature a peer made, as copied into the log.
        for seat, m, sig, i in self.peer_blobs:
            key = self.host_pub if seat is None else self._key(seat)
            if key is None or not verify(key, sig, TAG_PEER, m):
                who = "the host" if seat is None else f"seat {seat}"
                raise Unfair("signature", f"log entry {i}: a message of {who} is not signed by {who}")
            md = unpack(m)
            if md.get("g") != self.game_id:
                raise Unfair("signature", f"log entry {i}: a signed message from another game")
            h = md.get("h")
            if h != ZERO and not (isinstance(h, bytes) and self.hash_at.get(h, i) < i):
                raise Unfair("chain", f"log entry {i}: a signed message quotes a log head that never existed")
        self.peer_blobs = []
        for step in self.steps:  # (a replayed intent's counter was refused as it came: see _counter)
            if step.intent is not None:
                md = unpack(step.intent[0])
                if md.get("k") != "intent" or md.get("seat") != step.seat or md.get("act") != step.action:
                    raise Unfair("signature", f"step {step.index}: the action does not match the signed intent")
        # The engine, replayed over the log with the committed and permuted decks (its source
        # reads this ledger's epochs, so one serves every round of the match).
        steps = list(self.steps)
        if not steps or steps[0].seat is not None or steps[0].action is not None:
            raise Unfair("protocol", "the round does not begin with its deal")
        try:
            if self.replay is None:
                game = core.new_game(self.variant, list(self.names), options=dict(self.options),
                                     source=ReplaySource(self))
                events = game.deal_events
                self.replay = game
            else:
                game = self.replay
                events = game.next_round()
        except IllegalAction as ex:
            raise Unfair("replay", f"the rules refuse to deal round {self.round + 1}: {ex}") from None
        self._compare(steps[0], events, game)
        self._compare_hand(steps[0], game)
        for step in steps[1:]:
            try:
                act = Action.from_dict(step.action or {})
                events = game.apply(int(step.seat if step.seat is not None else -1), act)
            except (IllegalAction, ValueError) as ex:
                raise Unfair("replay", f"step {step.index}: the rules refuse seat {step.seat}'s "
                                       f"{step.action}: {ex}") from None
            self._compare(step, events, game)
            self._compare_hand(step, game)
        if not game.over:
            raise Unfair("replay", "the round was closed but the rules say it goes on")
        if list(close["scores"]) != list(game.scores) or close["winner"] != game.winner or \
                close["points"] != game.last_points:
            raise Unfair("replay", f"the host scored the round {close['scores']} (winner {close['winner']}), "
                                   f"the rules score it {game.scores} (winner {game.winner})")
        # Every card delivered to this seat sits where the committed deck puts it.
        for m, _sig in self.deliveries:
            d = unpack(m)
            if d.get("r") != self.round:
                continue
            for o in d["cards"]:
                ep = self.final[int(o[0])]
                assert ep.sigma is not None
                if ep.sigma[int(o[3])] != int(o[5]):
                    raise Unfair("delivery", "a delivered card is not the one committed to its slot")
        self.deliveries = [x for x in self.deliveries if unpack(x[0]).get("r") != self.round]
        self.audited.append(self.round)

    def _compare_hand(self, step: Step, game: core.Game) -> None:
        """The hand this seat was shown after ``step`` is the one the rules give it (a seated client only)."""
        shown = self.shown.get(step.version)
        if shown is None or self.seat is None or not 0 <= self.seat < len(game.hands):
            return
        held = frozenset(c.id for c in game.hands[self.seat])
        if shown != held:
            hidden, extra = sorted(held - shown), sorted(shown - held)
            raise Unfair("hand", f"after step {step.index} the host showed this seat a hand that is not the one the "
                                 "rules give it"
                                 + (f"; left out: {cards_word(hidden, self.deck)}" if hidden else "")
                                 + (f"; not yours: {cards_word(extra, self.deck)}" if extra else ""))

    def _compare(self, step: Step, events: list[core.Event], game: core.Game) -> None:
        public = [ev.view(None).to_dict() for ev in events]
        if public != step.events:
            mine = _first_diff(public, step.events)
            raise Unfair("ruling" if "challenge" in mine else "replay",
                         f"step {step.index}: the host announced {mine[1]} but the rules give {mine[0]}")
        if game.version != step.version:
            raise Unfair("replay", f"step {step.index}: state version {step.version} announced, "
                                   f"{game.version} by the rules")
        # Each draw the host announced is the card the committed, permuted deck puts there.
        for e, a, k, who in step.draws:
            ep = self.final[int(e)]
            if ep.sigma is None or ep.pi is None:
                raise Unfair("commitment", f"epoch {e} was not opened at the end of the round")
            cid = ep.sigma[ep.pi[int(k)]]
            if who >= 0 and game.card(cid) not in game.hands[who] and not _shown(cid, public):
                raise Unfair("order", f"step {step.index}: draw {k} of epoch {e} ({self.deck[cid]}) went to "
                                      f"seat {who} by the host's word but not by the rules")

def _shown(cid: int, public: list[dict[str, Any]]) -> bool:
    return any(c.get("id") == cid for ev in public for c in ev.get("cards", ()))


def _first_diff(ours: list[Any], theirs: list[Any]) -> tuple[str, str]:
    for a, b in zip(ours, theirs):
        if a != b:
            return _event_words(a), _event_words(b)
    if len(ours) != len(theirs):
        return f"{len(ours)} events", f"{len(theirs)} events"
    return "?", "?"


def _event_words(ev: dict[str, Any]) -> str:
    parts = [ev.get("kind", "?")]
    for key in ("player", "target", "reason", "color", "count", "points"):
        if key in ev:
            parts.append(f"{key}={ev[key]}")
    if ev.get("cards"):
        parts.append("cards=" + ",".join(core.notation(c["color"], c["rank"]) for c in ev["cards"]))
    return " ".join(map(str, parts))


class ReplaySource:
    """The audit's deck source: each epoch's order from its opened slots and agreed permutation."""

    def __init__(self, ledger: Replay) -> None:
        self.ledger = ledger

    def shuffle(self, items: Sequence[Any], epoch: int) -> list[Any]:
        ep = self.ledger.final.get(epoch)
        if ep is None:
            raise Unfair("replay", f"replayed with the agreed decks, the rules need a shuffle (epoch {epoch}) "
                                   "the host never ran: the host's game did not follow the agreed deck")
        if ep.sigma is None or ep.pi is None:
            raise Unfair("commitment", f"epoch {epoch} was not opened at the end of the round")
        try:
            public = public_items(items)
        except TypeError as ex:
            raise Unfair("replay", f"epoch {epoch}: the rules asked for an impossible shuffle ({ex})") from None
        if public is not None or ep.items is not None:
            if public != ep.items:
                said = f"the tokens {ep.items}" if ep.items is not None else "cards"
                want = f"the tokens {public}" if public is not None else "cards"
                raise Unfair("deck", f"epoch {epoch}: the host shuffled {said}, the rules shuffle {want} here")
            assert public is not None
            return [public[s] for s in engine_order(ep.sigma, ep.pi)]
        want = sorted(c.id for c in items)
        got = sorted(ep.sigma)
        if want != got:
            deck = self.ledger.deck
            extra = _multiset_minus(got, want)
            missing = _multiset_minus(want, got)
            what = "the full deck" if epoch == 0 or len(want) == len(deck) else "the cards the rules reshuffle here"
            raise Unfair("deck", f"epoch {epoch}: the committed cards are not {what}"
                                 + (f"; extra: {cards_word(extra, deck)}" if extra else "")
                                 + (f"; missing: {cards_word(missing, deck)}" if missing else ""))
        by_id = {c.id: c for c in items}
        return [by_id[i] for i in engine_order(ep.sigma, ep.pi)]


def _multiset_minus(a: list[int], b: list[int]) -> list[int]:
    left = list(b)
    out = []
    for x in a:
        if x in left:
            left.remove(x)
        else:
            out.append(x)
    return out
