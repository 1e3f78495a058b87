"""UNO 扩展规则 5.2.3 (``extended``): the table (see ``docs/rules/extended.md``).

A turn is a judgement phase (the activating effects on you, highest priority
first), then a draw phase and a play phase, of which you take one or both. Every
card's function is an effect (``effects.py``); what a card does when played is
``plays.py``. Each phase that waits for a player is a class in ``decisions.py``;
interactions that involve other players (answering a swap or a duel, duel picks,
the grenade, C4 and Argue chains, choosing cards to shed) are held in
:attr:`ExtendedGame.ctx`, whose ``who`` is the player the game waits on (the
:attr:`decision`), while :attr:`current` stays whose turn it is. This module keeps
the turn, effects on players, hands, the pile, winning and the views. Randomness
comes only from the deck source (draws, reshuffles, the Clip's blind pick).
"""

from __future__ import annotations

import copy
from typing import Any

from ...actions import Action
from ...cards import COLORS, Card
from ...events import Event
from ...game import Game, Option
from ...registry import register
from . import effects as fx
from .cards import DECK_SIZE, build_faces
from .decisions import STEPS
from .plays import CHANGES_LAST_BLACK, NAMES_COLOR, TRANSFER


def auto_hand_size(players: int) -> int:
    return 9 if players <= 3 else 7 if players <= 6 else 5


@register
class ExtendedGame(Game):
    """UNO 扩展规则 5.2.3 for 2 to 10 players; every player who goes out scores."""

    variant = "extended"
    sealable = True
    min_players = 2
    max_players = 10
    asks_others = True
    AUTOMATIC = frozenset({"keep"})
    """天选之子 at a sealed table asks its player which number card it keeps (only it sees them);
    holding one number card, or none, leaves a single answer, made at once for a person."""
    OPTIONS = {
        "hand_size": Option(0, "cards dealt: 5, 7 or 9; 0 picks by players (2-3: 9, 4-6: 7, 7-10: 5)",
                            lambda v: v in (0, 5, 7, 9)),
        "target_score": Option(15, "points that win the match (1 or more)", lambda v: v >= 1),
        "uno_penalty": Option(2, "cards drawn when caught without UNO (0 to 10)", lambda v: 0 <= v <= 10),
    }

    # -- the deck and the deal --------------------------------------------------------
    @classmethod
    def build_deck(cls, num_players: int, options: dict[str, Any]) -> list[tuple[str | None, str]]:
        faces = build_faces()
        assert len(faces) == DECK_SIZE
        return faces

    @property
    def hand_size(self) -> int:  # type: ignore[override]
        return self.options["hand_size"] or auto_hand_size(self.num_players)

    @property
    def hand_cap(self) -> int:
        """No card comes from the pile to a hand beyond this (three times the deal)."""
        return 3 * self.hand_size

    @property
    def reset_size(self) -> int:
        """A reset draws min{6, starting hand}."""
        return min(6, self.hand_size)

    def names_color(self, card: Card) -> bool:
        return card.rank in NAMES_COLOR

    def is_playable(self, card: Card) -> bool:
        return self._can_play(self.current, card)

    def card_points(self, card: Card) -> int:
        return 0  # scoring counts players, not cards

    def accepts_start_card(self, card: Card) -> bool:
        return card.color is not None

    def _reset_round(self) -> None:
        super()._reset_round()
        n = self.num_players
        self.last: int | None = None
        self.effects: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.ctx: dict[str, Any] | None = None
        self.turn: dict[str, Any] = self._fresh_turn(None)
        self.finished: list[int] = []
        self.last_turn: dict[str, Any] | None = None
        self.seq = 0
        self.stuck = 0  # stuck passes in a row
        if not hasattr(self, "lead"):
            self.lead: int | None = None  # last round's fastest winner starts the next

    @staticmethod
    def _fresh_turn(forbid: int | None) -> dict[str, Any]:
        return {"stage": "judge", "drew": None, "played": 0, "extra": 0, "forbid": forbid, "skip": False,
                "plays": []}

    def _start_effect(self, card: Card, events: list[Event]) -> None:
        # The starting card is only ``last``; the first player then chooses the direction.
        self.last = card.id
        first = self.lead if self.lead is not None else self._next(self.dealer)
        self.current = first
        self.phase = "direction"

    def _setup(self, setup: dict[str, Any]) -> None:
        super()._setup(setup)
        self.last = self.discard[-1].id
        self._begin_turn(self.current, [])

    @property
    def top(self) -> Card:  # type: ignore[override]
        """``last``: the card that decides what may be played (black cards other than
        改色 and +4 go on the pile without replacing it)."""
        return self.cards[self.last] if self.last is not None else self.discard[-1]

    # -- who acts ------------------------------------------------------------------------
    def _decider(self) -> int:
        return self.ctx["who"] if self.ctx is not None else self.current

    def _decision_actions(self, p: int) -> list[Action]:
        return STEPS[self.phase].legal(self, p, self.ctx)  # type: ignore[arg-type]

    def _do(self, p: int, action: Action, events: list[Event]) -> None:
        STEPS[self.phase].resolve(self, p, action, self.ctx, events)  # type: ignore[arg-type]
        self._settle(events)

    @property
    def actor(self) -> int:
        """Who must act now: the turn's player, or the one an interaction waits on (the same
        as ``decision.player``; kept for the screens, which read it as ``actor``)."""
        return self._decider()

    # -- rules of play -----------------------------------------------------------------
    def _room(self, p: int) -> int:
        """How many cards ``p`` may still take from the pile (cap, Headband Curse)."""
        if self._has(p, "bound"):
            return 0
        return max(0, self.hand_cap - len(self.hands[p]))

    def _can_play(self, p: int, card: Card, as_color: str | None = None) -> bool:
        """The play rule: black, or the number/function of last, or the colour in play;
        and the card's own condition (Transfer), and no transfer lock."""
        last = self.top
        color = as_color or card.color
        if card.rank in TRANSFER:
            if any(e["kind"] == "lock" and e["rank"] == card.rank for e in self.effects[p]):
                return False
            return last.rank == card.rank or (
                color == self.color and last.is_number and int(last.rank) in TRANSFER[card.rank])
        if color is None:
            return True
        return color == self.color or card.rank == last.rank

    # -- carrying out actions ------------------------------------------------------------
    # -- turns and the judgement phase -------------------------------------------------
    def _begin_turn(self, p: int, events: list[Event], forbid: int | None = None) -> None:
        self.ctx = None
        self.current = p
        self.drawn = None
        self.turn = self._fresh_turn(forbid)
        self._judge(events)

    def _pending(self, p: int) -> list[dict[str, Any]]:
        return fx.judge_order(self.effects[p])

    def _judge(self, events: list[Event]) -> None:
        """Resolve the activating effects on the current player, highest priority first."""
        p = self.current
        self.turn["stage"] = "judge"
        while True:
            pending = self._pending(p)
            if not pending:
                break
            e = pending[0]
            if e["kind"] == "stun":  # 禁: nothing answers it; it stuns and weakens
                self._remove(e)
                events.append(Event("skip", player=p, reason="stun"))
                self.turn["skip"] = True
                self._add(p, "weak")
                continue
            self.phase = "judge"
            return
        self._drop(p, "weak")  # weakness lasts for the judgement of the turn it was given
        if self.turn["skip"]:
            self._end_turn(p, events)
            return
        self.turn["stage"] = "main"
        self.phase = "main"

    def _end_turn(self, p: int, events: list[Event]) -> None:
        t = self.turn
        self._drop(p, "lock")
        self._drop(p, "weak")
        rec = None
        if t["stage"] == "main":
            if t["plays"] and len(t["plays"]) == 1 and t["plays"][0]["plain"]:
                rec = {"kind": "play", "player": p, **t["plays"][0]}
            elif not t["plays"] and t["drew"] is not None:
                rec = {"kind": "draw", "player": p, "card": t["drew"]}
        self.last_turn = rec
        self._begin_turn(self._next(p), events)

    # -- counters: where effects meet -----------------------------------------------------
    # -- the main phase: draw and/or play ----------------------------------------------------
    def _lay(self, p: int, cards: list[Card], events: list[Event], *, color: str | None = None,
             as_color: str | None = None) -> None:
        """Cards from ``p``'s hand onto the pile; the last one replaces ``last`` unless black
        (only 改色 and +4 among black cards do, naming ``color``)."""
        for c in cards:
            self.hands[p].remove(c)
        cards = self._open(cards)  # laid face up: its holder shows them with the move
        self.discard.extend(cards)
        c = cards[-1]
        if c.color is not None:
            self.last, self.color = c.id, as_color or c.color
        elif c.rank in CHANGES_LAST_BLACK:
            self.last, self.color = c.id, color
        self._check_bound(p, events)

    def _after_play(self, events: list[Event]) -> None:
        p = self.current
        self.ctx = None
        if self.hands[p] and self.turn["extra"] > 0:
            self.phase = "main"  # 无限: one more play (or end the turn)
            return
        self._end_turn(p, events)

    def _resume(self, events: list[Event]) -> None:
        """An interaction of the turn's player is over: carry on where the turn was."""
        self.ctx = None
        if self.turn["stage"] == "judge":
            self._judge(events)
        else:
            self._after_play(events)

    # -- instant effects aimed at a player (answered first) --------------------------------
    # -- duels -------------------------------------------------------------------------------
    # -- shedding chosen cards (duel winner, Disarm, Reward) ----------------------------------
    # -- 天选之子 ------------------------------------------------------------------------------
    # -- 炸弹 ---------------------------------------------------------------------------------
    def bomb_draws(self, p: int) -> list[tuple[int, int]]:
        """(player, cards) for a Bomb played by ``p``: x = players in, minus the distance
        (counted either way round, the shorter way) from ``p``; ``p`` first, then outwards."""
        act = self.active
        x = len(act)
        i = act.index(p)
        out = [(p, x)]
        dist = []
        for j, q in enumerate(act):
            if q == p:
                continue
            fwd = (j - i) % x if self.direction == 1 else (i - j) % x
            d = min(fwd, x - fwd)
            dist.append((d, 0 if fwd <= x - fwd else 1, q))
        for d, side, q in sorted(dist):
            out.append((q, x - d))
        return out

    # -- AOE chains: grenade, C4, Argue ---------------------------------------------------------
    # -- transfer attachments -------------------------------------------------------------------
    # -- effects on players -------------------------------------------------------------------
    def _has(self, p: int, kind: str) -> bool:
        return any(e["kind"] == kind for e in self.effects[p])

    def _add(self, p: int, kind: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        e = fx.new_effect(self.seq, kind, p, **fields)
        self.effects[p].append(e)
        return e

    def _drop(self, p: int, kind: str) -> None:
        self.effects[p] = [e for e in self.effects[p] if e["kind"] != kind]

    def _remove(self, e: dict[str, Any]) -> None:
        self.effects[e["on"]] = [x for x in self.effects[e["on"]] if x["id"] != e["id"]]

    def _bind(self, p: int, events: list[Event]) -> None:
        """紧箍咒 takes hold: the effective hand halves (rounded up), again if already bound."""
        cur = next((e for e in self.effects[p] if e["kind"] == "bound"), None)
        base = cur["eff"] if cur else len(self.hands[p])
        eff = -(-base // 2)
        if cur:
            cur["eff"] = eff
        else:
            self._add(p, "bound", eff=eff)
        events.append(Event("bound", player=p, count=eff))
        self._check_bound(p, events)

    def _check_bound(self, p: int, events: list[Event]) -> None:
        for e in self.effects[p]:
            if e["kind"] == "bound" and len(self.hands[p]) <= e["eff"]:
                self._drop(p, "bound")
                events.append(Event("released", player=p))
                return

    # -- hands --------------------------------------------------------------------------------
    def _take(self, p: int, cards: list[Card], events: list[Event], hand_before: int | None = None) -> None:
        before = len(self.hands[p]) if hand_before is None else hand_before
        for c in cards:
            self.hands[p].remove(c)
        self._hand_shrunk(p, before, events)

    def _hand_grew(self, q: int) -> None:
        """Cards came to ``q`` from another hand or the pile: no UNO call stands, nor can be caught."""
        self.declared[q] = False
        if self.exposed == q:
            self.exposed = None

    def _hand_shrunk(self, p: int, before: int, events: list[Event]) -> None:
        """From more than one card to exactly one: UNO must be called (or two cards drawn)."""
        if before > 1 and len(self.hands[p]) == 1 and not self.declared[p]:
            self.exposed = p
        elif self.exposed == p and len(self.hands[p]) != 1:
            self.exposed = None  # the single card is gone: nothing is left to catch
        self._check_bound(p, events)

    def _draw(self, p: int, n: int, reason: str, events: list[Event]) -> list[Card]:
        room = self._room(p)
        if n > room:
            events.append(Event("capped", player=p, count=n - room, reason=reason))
            n = room
        return super()._draw(p, n, reason, events)

    def _protected(self) -> set[int]:
        """Discards that stay out of a reshuffle: last, and cards of unresolved effects."""
        keep = {self.last} if self.last is not None else set()
        for e in self._all_effects():
            keep.update(fx.trail_cards(e))
        return keep

    def _all_effects(self) -> list[dict[str, Any]]:
        out = [e for es in self.effects for e in es]
        if self.ctx is not None and "effect" in self.ctx:
            out.append(self.ctx["effect"])
        return out

    def _reshuffle_pool(self) -> list[Card]:
        """What the next reshuffle makes the draw pile of: the discards but the protected ones,
        and the cards set aside."""
        keep = self._protected()
        return [c for c in self.discard if c.id not in keep] + self.set_aside

    def _can_draw(self) -> bool:
        if self.draw_pile or self.set_aside:
            return True
        keep = self._protected()
        return any(c.id not in keep for c in self.discard)

    def _draw_one(self, events: list[Event]) -> Card | None:
        if not self.draw_pile:
            keep = self._protected()
            pool = [c for c in self.discard if c.id not in keep] + self.set_aside
            if not pool:
                return None
            self.discard = [c for c in self.discard if c.id in keep]
            self.draw_pile = self._shuffled(pool)
            self.set_aside = []
            events.append(Event("reshuffle", count=len(self.draw_pile)))
        return self.draw_pile.pop()

    # -- winning ------------------------------------------------------------------------------
    def blocked(self) -> set[int]:
        """Players who may not win yet: an effect is on them, or an unresolved effect could
        still come back to them (they are in its trail), or a chain is under way."""
        out: set[int] = set()
        for es in self.effects:
            for e in es:
                out.add(e["on"])
                out |= fx.sources(e)
        if self.ctx is not None:
            out |= set(self.active)
        return out

    def _settle(self, events: list[Event]) -> None:
        while self.phase != "over" and self.ctx is None:
            blocked = self.blocked()
            n = self.num_players
            ready = [q for q in sorted(self.active, key=lambda q: (q - self.current) % n)
                     if not self.hands[q] and q not in blocked]
            if not ready:
                return
            self._win(ready[0], events)

    def _win(self, p: int, events: list[Event]) -> None:
        self.out[p] = True
        self.finished.append(p)
        if self.exposed == p:
            self.exposed = None
        pts = len(self.active)
        self.scores[p] += pts
        events.append(Event("win", player=p, points=pts))
        if pts <= 1:
            self._round_over(events)
        elif p == self.current:
            self._begin_turn(self._next(p), events)

    def _round_over(self, events: list[Event]) -> None:
        self._open_hands()  # the hands left are shown
        self.phase = "over"
        self.ctx = None
        self.exposed = None
        self.winner = self.finished[0]
        self.lead = self.finished[0]
        self.last_points = len(self.names) - 1
        events.append(Event("round_over", player=self.winner, points=self.last_points))
        if self.match_winner is not None:
            events.append(Event("match_over", player=self.match_winner, points=self.scores[self.match_winner]))

    @property
    def round_winners(self) -> list[int]:
        """Everyone who went out this round, fastest first."""
        return list(self.finished) if self.over else []

    # -- explanations -------------------------------------------------------------------------
    def _explain(self, p: int, action: Action) -> str:
        if self.phase == "over" or action.kind in ("uno", "catch"):
            return super()._explain(p, action)
        if p != self.actor:
            return f"it is {self.names[self.actor]}'s move now ({self.phase}), not {self.names[p]}'s"
        return self._explain_turn(p, action)

    def _explain_turn(self, p: int, action: Action) -> str:
        ph = self.phase
        if ph == "main":
            card = self._hand_card(p, action.card)
            if action.kind in ("play", "camo") and card is None:
                return "you do not hold that card"
            if action.kind in ("play", "camo") and self.turn["played"] and not self.turn["extra"]:
                return "you have already played this turn"
            if action.kind in ("play", "camo") and card is not None and card.id == self.turn["forbid"]:
                return "that card was taken back with a Regret Pill: play another"
            if action.kind in ("play", "camo"):
                return f"{card} cannot be played on {self.top} (colour {self.color}) like that"
            if action.kind == "draw":
                return "you cannot draw now (already drawn or played, hand cap reached, or bound)"
            if action.kind == "pass":
                return "draw or play first: you must take at least one of the two"
            return f"{action.kind!r} is not a move in the play phase"
        return STEPS[ph].hint if ph in STEPS else f"{action} is not a legal move now"

    # -- invariants ---------------------------------------------------------------------------
    def _inconsistencies(self) -> list[str]:
        out = []
        if self.last is not None and all(c.id != self.last for c in self.discard):
            out.append(f"last ({self.cards[self.last]}) is not on the discard pile")
        if not self.over and self.color not in COLORS:
            out.append(f"the colour in play {self.color!r} is not a suit")
        for q, es in enumerate(self.effects):
            if any(e["on"] != q for e in es):
                out.append(f"an effect listed on player {q} names another player")
        if any(not self.out[q] for q in self.finished):
            out.append("a player who went out is still in")
        return out

    # -- observation and state ----------------------------------------------------------------
    def _public_pending(self) -> dict[str, Any] | None:
        if self.phase == "judge":
            return fx.public(self._pending(self.current)[0])
        if self.ctx is not None:
            return self._public_ctx()
        return None

    def _public_ctx(self) -> dict[str, Any] | None:
        ctx = self.ctx
        if ctx is None:
            return None
        # A copy all the way down: an observation is a snapshot, and the context changes in place.
        out = copy.deepcopy({k: v for k, v in ctx.items() if k not in ("op", "who", "effect", "before")})
        out["type"], out["actor"] = ctx["op"], ctx["who"]  # the names the screens read
        if "effect" in ctx:
            out["effect"] = fx.public(ctx["effect"])
        return out

    def _observe_public(self, obs: dict[str, Any]) -> None:
        obs.update({
            "last": self.top.to_dict() if self.discard else None,
            "actor": self.actor if self.phase != "over" else None,
            "hand_size": self.hand_size,
            "hand_cap": self.hand_cap,
            "effects": [[fx.public(e) for e in es] for es in self.effects],
            "interaction": self._public_ctx(),
            "finished": list(self.finished),
            "round_winners": self.round_winners,
            "turn": {k: self.turn[k] for k in ("stage", "played", "extra", "skip")}
            | {"drew": self.turn["drew"] is not None, "forbid": self.turn["forbid"]},
        })
        for q, info in enumerate(obs["players"]):
            info["finished"] = q in self.finished
            info["room"] = self._room(q)

    def _face_down(self) -> list[Card]:
        return super()._face_down() + self.riders()

    def riders(self) -> list[Card]:
        """The cards riding face down on transfers: nobody sees them until someone accepts."""
        return [self.cards[i] for e in self._all_effects() for i in fx.attached(e)]

    def all_cards(self) -> list[Card]:
        """Every card of the game wherever it is (hands, piles, riding on transfers)."""
        out = [c for h in self.hands for c in h] + self.draw_pile + self.discard + self.set_aside
        out += [self.cards[i] for e in self._all_effects() for i in fx.attached(e)]
        return out

    def _save_extra(self) -> dict[str, Any]:
        return copy.deepcopy({
            "last": self.last, "effects": self.effects, "ctx": self.ctx, "turn": self.turn,
            "finished": self.finished, "last_turn": self.last_turn, "seq": self.seq, "lead": self.lead,
            "stuck": self.stuck,
        })

    def _load_extra(self, d: dict[str, Any]) -> None:
        d = copy.deepcopy(d)
        self.last = d["last"]
        self.effects = d["effects"]
        self.ctx = d["ctx"]
        if self.ctx is not None and "type" in self.ctx:  # saved before interactions were steps
            self.ctx["op"], self.ctx["who"] = self.ctx.pop("type"), self.ctx.pop("actor")
        self.turn = d["turn"]
        self.finished = d["finished"]
        self.last_turn = d["last_turn"]
        self.seq = d["seq"]
        self.lead = d["lead"]
        self.stuck = d["stuck"]
