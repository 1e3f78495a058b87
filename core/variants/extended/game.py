"""UNO 扩展规则 5.2.3 (``extended``): phases, effects and priorities (see ``docs/rules/extended.md``).

A turn is a judgement phase (the activating effects on you, highest priority
first), then a draw phase and a play phase, of which you take one or both. Every
card's function is an effect (``effects.py``); interactions that involve other
players (answering a swap or a duel, duel picks, the grenade, C4 and Argue chains,
choosing cards to shed) are held in :attr:`ExtendedGame.ctx` and answered by the
player it names (``actor``), who acts out of turn through the engine's usual
:meth:`to_act` / ``legal_actions`` contract. Randomness comes only from the deck
source (draws, reshuffles, the Clip's blind pick).
"""

from __future__ import annotations

import copy
from typing import Any

from ...actions import DRAW, PASS, Action, play_action
from ...cards import COLORS, Card
from ...events import Event
from ...game import Game, Option
from ...registry import register
from . import effects as fx
from .cards import DECK_SIZE, NUMBERS, build_faces

ACCEPT = Action("accept")
REFUSE = Action("refuse")
SEND = Action("send")
EXPLODE = Action("explode")
DUEL_COLORS = COLORS + ("black",)
TRANSFER = {"T4": range(0, 5), "T5": range(5, 10)}
TARGETED = frozenset({"DUELC", "DUELN", "CURSE"})
NAMES_COLOR = frozenset({"W", "W+4", "WGREN"})
CHANGES_LAST_BLACK = frozenset({"W", "W+4"})
PLAIN = frozenset(NUMBERS) | {"W"}
"""Plays that leave nothing behind but ``last`` and the colour (a Regret Pill can undo them)."""


def auto_hand_size(players: int) -> int:
    return 9 if players <= 3 else 7 if players <= 6 else 5


@register
class ExtendedGame(Game):
    """UNO 扩展规则 5.2.3 for 2 to 10 players; every player who goes out scores."""

    variant = "extended"
    min_players = 2
    max_players = 10
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
    @property
    def actor(self) -> int:
        """Who must act now: the turn's player, or the one an interaction is waiting for."""
        return self.ctx["actor"] if self.ctx is not None else self.current

    def to_act(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.exposed is not None:
            return super().to_act()
        return [self.actor]

    def _has_out_of_turn(self) -> bool:
        return self.ctx is not None and self.ctx["actor"] != self.current

    def _out_of_turn_actions(self, p: int) -> list[Action]:
        return self._actions(p) if self.ctx is not None and p == self.ctx["actor"] else []

    def _turn_actions(self, p: int) -> list[Action]:
        return self._actions(p) if p == self.actor else []

    def _actions(self, p: int) -> list[Action]:
        ph = self.phase
        if ph == "direction":
            n = self.num_players
            return list(dict.fromkeys(Action("direction", target=t) for t in ((p + 1) % n, (p - 1) % n)))
        if ph == "judge":
            return self._judge_actions(p)
        if ph == "main":
            return self._main_actions(p)
        ctx = self.ctx
        assert ctx is not None
        if ph == "react":
            return [ACCEPT] + self._counters(p, ctx["effect"])
        if ph == "attach":
            acts = [Action("attach", c.id) for c in self.hands[p]] if ctx["left"] else []
            return acts + [SEND]
        if ph == "duel":
            return [Action("choose", color=c) for c in DUEL_COLORS if c not in ctx["picks"]]
        if ph == "discard":
            return [Action("discard", c.id) for c in self._discardable(p)]
        if ph == "keep":
            return [Action("keep", c.id) for c in self.hands[p] if c.is_number]
        if ph in ("grenade", "c4", "argue"):
            return self._aoe_actions(p)
        return []

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

    def _card_acts(self, p: int, card: Card, kind: str = "play", color: str | None = None) -> list[Action]:
        if card.rank in NAMES_COLOR:
            return [Action(kind, card.id, c) for c in COLORS]
        if card.rank in TARGETED:
            return [Action(kind, card.id, color, t) for t in self.active if t != p]
        if kind == "play":
            return [play_action(card.id)]
        return [Action(kind, card.id, color)]

    def _main_actions(self, p: int) -> list[Action]:
        t = self.turn
        hand = self.hands[p]
        forbid = t["forbid"]
        acts: list[Action] = []
        if not t["played"] or t["extra"] > 0:
            camo = any(c.rank == "WCAMO" for c in hand)
            for c in hand:
                if c.id == forbid or c.rank == "WCAMO":
                    continue
                if self._can_play(p, c):
                    acts += self._card_acts(p, c)
                if camo and c.color is not None:
                    for col in COLORS:
                        if self._can_play(p, c, col):
                            acts += self._card_acts(p, c, "camo", col)
        if t["drew"] is None and not t["played"] and self._room(p) and self._can_draw():
            acts.append(DRAW)
        if t["drew"] is not None or t["played"] or not acts:
            acts.append(PASS)  # end the turn (or: nothing can be drawn or played)
        return acts

    def _counters(self, p: int, e: dict[str, Any], *, aoe: bool = False) -> list[Action]:
        if self._has(p, "weak"):
            return []
        return [play_action(c.id) for c in self.hands[p]
                if c.rank in fx.COUNTER_TIER and c.id != self.turn["forbid"] and fx.can_counter(c.rank, e, aoe=aoe)]

    def _judge_actions(self, p: int) -> list[Action]:
        e = self._pending(p)[0]
        acts = [ACCEPT]
        if e["kind"] == "disarm":
            acts.append(REFUSE)
        if not self._has(p, "weak"):
            forbid = self.turn["forbid"]
            for c in self.hands[p]:
                if c.id == forbid:
                    continue
                if e["kind"] == "draw" and fx.DRAW_VALUE.get(c.rank, 0) >= e["max"]:
                    acts += self._card_acts(p, c)
                elif e["kind"] == "transfer" and c.rank == e["rank"] and self._can_stack_transfer(p, c):
                    acts.append(play_action(c.id))
            acts += self._counters(p, e)
        return acts

    def _can_stack_transfer(self, p: int, card: Card) -> bool:
        return not any(e["kind"] == "lock" and e["rank"] == card.rank for e in self.effects[p])

    def _discardable(self, p: int) -> list[Card]:
        if self.ctx and self.ctx.get("filter") == "function":
            return [c for c in self.hands[p] if not c.is_number]
        return list(self.hands[p])

    def _aoe_actions(self, p: int) -> list[Action]:
        ctx = self.ctx
        assert ctx is not None
        hand = self.hands[p]
        acts: list[Action] = []
        if self.phase == "grenade":
            want = ctx["color"]
            camo = any(c.rank == "WCAMO" for c in hand)
            for c in hand:
                if c.color == want:
                    acts += [Action("play", c.id, col) for col in COLORS]
                elif camo and c.color is not None:
                    acts += [Action("camo", c.id, col) for col in COLORS]
            if not acts:
                acts.append(EXPLODE)
        elif self.phase == "c4":
            acts = [play_action(c.id) for c in hand if c.is_number] + [EXPLODE]
        else:  # argue
            acts = [play_action(c.id) for c in hand if c.is_number and int(c.rank) >= ctx["x"]]
            if not acts:
                acts.append(REFUSE)
        if p != ctx["by"]:
            acts += self._counters(p, {"kind": self.phase, "tier": fx.TIER[self.phase], "trail": []}, aoe=True)
        return acts

    # -- carrying out actions ------------------------------------------------------------
    def _do(self, p: int, action: Action, events: list[Event]) -> None:
        ph = self.phase
        if ph == "direction":
            self.direction = 1 if action.target == (p + 1) % self.num_players else -1
            events.append(Event("direction", player=p, target=action.target, reason=str(self.direction)))
            self._begin_turn(p, events)
        elif ph == "judge":
            self._do_judge(p, action, events)
        elif ph == "main":
            self._do_main(p, action, events)
        elif ph == "react":
            self._do_react(p, action, events)
        elif ph == "attach":
            self._do_attach(p, action, events)
        elif ph == "duel":
            self._do_pick(p, action, events)
        elif ph == "discard":
            self._do_discard(p, action, events)
        elif ph == "keep":
            self._do_keep(p, action, events)
        else:
            self._do_aoe(p, action, events)
        self._settle(events)

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

    def _do_judge(self, p: int, action: Action, events: list[Event]) -> None:
        e = self._pending(p)[0]
        kind = e["kind"]
        if action.kind == "accept":
            self._remove(e)
            events.append(Event("accept", player=p, reason=kind, count=e.get("total", 0)))
            if kind == "draw":
                self._draw(p, e["total"], "penalty", events)
                self.turn["skip"] = True
            elif kind == "transfer":
                got = [self.cards[i] for i in fx.attached(e)]
                self._give(p, got, "transfer", events)
                self._add(p, "lock", rank=e["rank"])
            elif kind == "disarm":
                self.turn["skip"] = True
                if self._shed_choice(p, 2, "function", events):
                    return
            elif kind == "curse":
                self._bind(p, events)
            self._judge(events)
            return
        if action.kind == "refuse":  # 缴械: draw four instead
            self._remove(e)
            events.append(Event("refuse", player=p, reason=kind))
            self._draw(p, 4, "penalty", events)
            self.turn["skip"] = True
            self._judge(events)
            return
        card = self.cards[action.card]
        if card.rank in fx.COUNTER_TIER:
            self._counter(p, card, e, events)
            return
        # Not accepting: stack a draw card, or a transfer of the same kind, and pass it on.
        self.turn["skip"] = True
        self._remove(e)
        before = len(self.hands[p])
        lb, cb = self.last, self.color
        self._lay(p, [card], events, color=action.color)
        fx.push_move(e, [card.id], p, lb, cb)
        events.append(Event("stack", player=p, cards=(card,), color=self.color, reason=kind))
        if kind == "draw":
            v = fx.DRAW_VALUE[card.rank]
            e["total"] += v
            e["max"] = max(e["max"], v)
            self._hand_shrunk(p, before, events)
            self._send(e, self._next(p), events)
            self._judge(events)
        else:
            e["layers"].append({"by": p, "cards": []})
            self.ctx = {"type": "attach", "actor": p, "effect": e, "left": 2, "before": before}
            self.phase = "attach"

    def _send(self, e: dict[str, Any], to: int, events: list[Event]) -> None:
        e["on"] = to
        self.effects[to].append(e)
        events.append(Event("effect", player=e["trail"][-1]["by"] if e["trail"] else None, target=to,
                            reason=e["kind"], count=e.get("total", len(fx.attached(e)))))

    # -- counters: where effects meet -----------------------------------------------------
    def _counter(self, p: int, card: Card, e: dict[str, Any], events: list[Event]) -> None:
        """``p`` answers effect ``e`` (on them, or aimed at them) with a higher-priority card."""
        rank = card.rank
        if rank == "REGRET":
            self._withdraw(p, card, e, events)
            return
        before = len(self.hands[p])
        self._lay(p, [card], events)
        self._hand_shrunk(p, before, events)
        in_window = self.ctx is not None
        if rank == "WIDOW":
            events.append(Event("cancel", player=p, cards=(card,), reason=e["kind"]))
            if not in_window:
                self._remove(e)
            self._cancel(e, events)
            if in_window:
                self._resume(events)
            else:
                self._judge(events)
            return
        self._remove(e)
        src = e["trail"][-1]["by"]
        fx.push_move(e, [card.id], p, None, None)  # black: last stays
        if rank == "WRB":
            events.append(Event("rebound", player=p, cards=(card,), target=src, reason=e["kind"]))
            self._send(e, src, events)
        else:  # pass: the effect and your turn go on to the next player
            events.append(Event("pass_on", player=p, cards=(card,), target=self._next(p), reason=e["kind"]))
            self._send(e, self._next(p), events)
            self.turn["skip"] = True
        self._judge(events)

    def _cancel(self, e: dict[str, Any], events: list[Event]) -> None:
        """An effect ends unresolved: cards riding on it were played with it, face up now."""
        gone = [self.cards[i] for i in fx.attached(e)]
        if gone:
            self.discard.extend(gone)
            events.append(Event("reveal", cards=tuple(gone), count=len(gone)))

    def _withdraw(self, p: int, card: Card, e: dict[str, Any], events: list[Event]) -> None:
        """后悔药 as a counter: the latest move of ``e`` is taken back and its player plays again."""
        self._take(p, [card], events)
        self.discard.append(card)  # it becomes last only if the undone move cannot restore last
        in_window = self.ctx is not None
        if not in_window:
            self._remove(e)
        had = set(fx.attached(e))
        move, alive = fx.pop_move(e)
        q = move["by"]
        back = [self.cards[i] for i in move["cards"]]
        for c in back:
            self.discard.remove(c)
        riders = had - set(fx.attached(e)) if alive else had
        if move["last"] is not None and self.last in move["cards"]:
            # The card taken back was last: last goes back to the card it covered, if that is
            # still on the pile; shuffled away (or in a hand), the pill, a played green card, is.
            if any(c.id == move["last"] for c in self.discard):
                self.last, self.color = move["last"], move["color"]
            else:
                self.last, self.color = card.id, card.color
        events.append(Event("regret", player=p, cards=(card,), target=q, reason=e["kind"]))
        self.hands[q].extend(back + [self.cards[i] for i in sorted(riders)])
        self._hand_grew(q)
        events.append(Event("withdraw", player=q, cards=tuple(back), count=len(back) + len(riders)))
        if alive:
            self.effects[e["on"]].append(e)
        self.last_turn = None
        self._begin_turn(q, events, forbid=move["cards"][0])

    # -- the main phase: draw and/or play ----------------------------------------------------
    def _do_main(self, p: int, action: Action, events: list[Event]) -> None:
        t = self.turn
        if action.kind != "pass":
            self.stuck = 0
        if action.kind == "draw":
            got = self._draw(p, 1, "turn", events)
            t["drew"] = got[0].id if got else -1
            return
        if action.kind == "pass":
            stuck = not t["played"] and t["drew"] is None
            events.append(Event("pass", player=p, reason="stuck" if stuck else "end"))
            self.stuck = self.stuck + 1 if stuck else 0
            if stuck and self.stuck >= len(self.active):
                self._unstick(events)
            self._end_turn(p, events)
            return
        card = self.cards[action.card]
        if action.kind == "camo":
            camo = next(c for c in self.hands[p] if c.rank == "WCAMO")
            self._play(p, card, action, events, camo=camo)
        else:
            self._play(p, card, action, events)

    def _unstick(self, events: list[Event]) -> None:
        """Everyone still in passed without drawing or playing (hand caps, curses): the
        table is stuck, so a new last is turned from the pile (a non-black card)."""
        self.stuck = 0
        while True:
            c = self._draw_one(events)
            if c is None:
                return
            self.discard.append(c)
            events.append(Event("flip", cards=(c,), color=c.color, reason="unstick"))
            if c.color is not None:
                self.last, self.color = c.id, c.color
                return

    def _lay(self, p: int, cards: list[Card], events: list[Event], *, color: str | None = None,
             as_color: str | None = None) -> None:
        """Cards from ``p``'s hand onto the pile; the last one replaces ``last`` unless black
        (only 改色 and +4 among black cards do, naming ``color``)."""
        for c in cards:
            self.hands[p].remove(c)
            self.discard.append(c)
        c = cards[-1]
        if c.color is not None:
            self.last, self.color = c.id, as_color or c.color
        elif c.rank in CHANGES_LAST_BLACK:
            self.last, self.color = c.id, color
        self._check_bound(p, events)

    def _play(self, p: int, card: Card, action: Action, events: list[Event], camo: Card | None = None) -> None:
        t = self.turn
        before = len(self.hands[p])
        lb, cb = self.last, self.color
        if card.rank == "REGRET" and camo is None and self._regret_turn(p, card, events):
            return
        laid = [camo, card] if camo is not None else [card]
        self._lay(p, laid, events, color=action.color, as_color=action.color if camo is not None else None)
        events.append(Event("play", player=p, cards=tuple(laid), color=self.color, target=action.target,
                            reason="camo" if camo is not None else None))
        if t["played"]:
            t["extra"] -= 1
        t["played"] += 1
        t["plays"].append({"card": card.id, "last": lb, "color": cb,
                           "plain": camo is None and card.rank in PLAIN})
        if card.rank not in TRANSFER:  # a transfer and its riders leave the hand together
            self._hand_shrunk(p, before, events)
        move = ([c.id for c in reversed(laid)], p, lb, cb)
        self._effect(p, card, action, move, events, before)

    def _new(self, kind: str, on: int, move: tuple, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        e = fx.new_effect(self.seq, kind, on, **fields)
        cards, by, lb, cb = move
        fx.push_move(e, cards, by, lb, cb)
        return e

    def _effect(self, p: int, card: Card, action: Action, move: tuple, events: list[Event],
                before: int) -> None:
        """The effect of a card played in the play phase."""
        rank = card.rank
        nxt = self._next(p)
        if rank == "S":
            self._send(self._new("stun", nxt, move), nxt, events)
        elif rank == "R":
            self.direction = -self.direction
            events.append(Event("reverse"))
        elif rank in fx.DRAW_VALUE:
            v = fx.DRAW_VALUE[rank]
            self._send(self._new("draw", nxt, move, total=v, max=v), nxt, events)
        elif rank == "INF":
            self.turn["extra"] += 1
        elif rank in TRANSFER:
            e = self._new("transfer", nxt, move, rank=rank, layers=[{"by": p, "cards": []}])
            self.ctx = {"type": "attach", "actor": p, "effect": e, "left": 2, "before": before}
            self.phase = "attach"
            if not self.hands[p]:
                self._do_attach(p, SEND, events)
            return
        elif rank == "HAND" and len(self.active) == 2:
            events.append(Event("recast", player=p))  # 单挑时神手变为重铸
            self._draw(p, 1, "recast", events)
        elif rank in ("HAND", "CLIP", "DUELC", "DUELN"):
            target = action.target if rank in TARGETED else nxt
            e = self._new(fx.CARD_EFFECT[rank], target, move, rank=rank)
            events.append(Event("aim", player=p, target=target, reason=e["kind"]))
            self.ctx = {"type": "react", "actor": target, "effect": e}
            self.phase = "react"
            return
        elif rank == "GIFT":
            if self._shed_choice(p, 1, "any", events):
                return
        elif rank == "CHOSEN":
            if self._chosen(p, events):
                return
        elif rank == "BOMB":
            self._bomb(p, events)
        elif rank in ("DISARM", "CURSE"):
            target = action.target if rank == "CURSE" else nxt
            self._send(self._new(fx.CARD_EFFECT[rank], target, move), target, events)
        elif rank == "WGREN":
            self._start_aoe("grenade", p, nxt, events, color=action.color)
            return
        elif rank == "WC4":
            self._start_aoe("c4", p, p, events)
            return
        elif rank == "WARG":
            self._start_aoe("argue", p, p, events, x=0)
            return
        self._after_play(events)

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

    def _regret_turn(self, p: int, card: Card, events: list[Event]) -> bool:
        """后悔药 in the play phase: undo the player upstream's draw or plain play."""
        rec = self.last_turn
        q = self._upstream(p)
        if rec is None or rec["player"] != q or self.out[q]:
            return False
        if rec["kind"] == "draw":
            drawn = self.cards[rec["card"]] if rec["card"] >= 0 else None
            if drawn is None or drawn not in self.hands[q]:
                return False
        elif self.last != rec["card"]:
            return False
        before = len(self.hands[p])
        lb, cb = self.last, self.color
        # Played in the play phase, the pill is a green card that was played: it becomes last
        # (非黑牌打出后将会替换last), whether it undoes a draw or a play.
        self._lay(p, [card], events)
        self._hand_shrunk(p, before, events)
        events.append(Event("regret", player=p, cards=(card,), target=q, reason=rec["kind"]))
        self.turn["played"] += 1
        self.turn["plays"].append({"card": card.id, "last": lb, "color": cb, "plain": False})
        self.last_turn = None
        if rec["kind"] == "draw":
            # The drawn card goes to the bottom of the pile, so the new one is different.
            self.hands[q].remove(drawn)
            self.draw_pile.insert(0, drawn)
            events.append(Event("withdraw", player=q, count=1, reason="draw"))
            self._draw(q, 1, "regret", events)
            self._after_play(events)
            return True
        back = self.cards[rec["card"]]
        self.discard.remove(back)
        self.hands[q].append(back)
        self._hand_grew(q)
        events.append(Event("withdraw", player=q, cards=(back,), count=1, reason="play"))
        self._begin_turn(q, events, forbid=back.id)
        return True

    def _upstream(self, p: int) -> int:
        """上家: the player before ``p`` in the order of play."""
        n = self.num_players
        q = (p - self.direction) % n
        while self.out[q] and q != p:
            q = (q - self.direction) % n
        return q

    # -- instant effects aimed at a player (answered first) --------------------------------
    def _do_react(self, p: int, action: Action, events: list[Event]) -> None:
        e = self.ctx["effect"]
        if action.kind != "accept":
            self._counter(p, self.cards[action.card], e, events)
            return
        by, kind = e["trail"][-1]["by"], e["kind"]
        self.ctx = None
        if kind == "swap":
            sizes = {by: len(self.hands[by]), p: len(self.hands[p])}
            self.hands[by], self.hands[p] = self.hands[p], self.hands[by]
            events.append(Event("swap", player=by, target=p))
            for q, before in sizes.items():
                # A hand that goes from more than one card to one must call UNO, as after a play.
                if len(self.hands[q]) != 1:
                    self.declared[q] = False
                    if self.exposed == q:
                        self.exposed = None
                elif before > 1:
                    self.declared[q] = False
                self._hand_shrunk(q, before, events)
        elif kind == "clip":
            mine = sorted(self.hands[p], key=lambda c: c.id)
            taken = self._shuffled(mine)[:2] if len(mine) > 2 else mine
            before = len(self.hands[p])
            for c in taken:
                self.hands[p].remove(c)
            self.hands[by].extend(taken)
            self._hand_grew(by)
            events.append(Event("clip", player=by, target=p, cards=tuple(taken), count=len(taken),
                                visible_to=(by, p)))
            self._hand_shrunk(p, before, events)
        else:
            self._duel(e, events)
            return
        self._resume(events)

    # -- duels -------------------------------------------------------------------------------
    def _duel(self, e: dict[str, Any], events: list[Event]) -> None:
        a, b = e["trail"][-1]["by"], e["on"]
        events.append(Event("duel", player=a, target=b, reason=e["rank"]))
        if e["rank"] == "DUELC":
            self.ctx = {"type": "duel", "actor": a, "by": a, "on": b, "picks": []}
            self.phase = "duel"
            return
        # 点数决斗: each turns cards until a number shows; the higher wins.
        va, vb = self._flip(a, True, events), self._flip(b, True, events)
        na = int(va.rank) if va is not None else -1
        nb = int(vb.rank) if vb is not None else -1
        winner = a if na > nb else b if nb > na else None
        self._duel_result(a, b, winner, events)

    def _flip(self, who: int, numbers: bool, events: list[Event]) -> Card | None:
        while True:
            c = self._draw_one(events)
            if c is None:
                return None
            self.discard.append(c)
            events.append(Event("flip", player=who, cards=(c,), color=c.color))
            if not numbers or c.is_number:
                return c

    def _do_pick(self, p: int, action: Action, events: list[Event]) -> None:
        ctx = self.ctx
        ctx["picks"].append(action.color)
        events.append(Event("pick", player=p, color=action.color))
        a, b = ctx["by"], ctx["on"]
        if len(ctx["picks"]) < 4:
            ctx["actor"] = b if p == a else a
            return
        c = self._flip(a, False, events)
        col = None if c is None else (c.color or "black")
        picks = ctx["picks"]
        winner = None
        if col in picks:
            winner = a if picks.index(col) % 2 == 0 else b
        self.ctx = None
        self._duel_result(a, b, winner, events)

    def _duel_result(self, a: int, b: int, winner: int | None, events: list[Event]) -> None:
        losers = [a, b] if winner is None else [b if winner == a else a]
        events.append(Event("duel_over", player=winner, target=losers[0] if winner is not None else None,
                            reason="draw" if winner is None else "won"))
        for q in losers:
            self._draw(q, 4, "duel", events)
        if winner is not None and self._shed_choice(winner, 2, "any", events):
            return
        self._resume(events)

    # -- shedding chosen cards (duel winner, Disarm, Reward) ----------------------------------
    def _shed_choice(self, p: int, n: int, filt: str, events: list[Event]) -> bool:
        """``p`` discards ``n`` cards (of any kind, or function cards); True if they must choose."""
        pool = [c for c in self.hands[p] if filt == "any" or not c.is_number]
        if len(pool) <= n:
            if pool:
                before = len(self.hands[p])
                self._take(p, pool, events, hand_before=before)
                self.discard.extend(pool)
                events.append(Event("discard", player=p, cards=tuple(pool), count=len(pool)))
            return False
        self.ctx = {"type": "discard", "actor": p, "left": n, "filter": filt}
        self.phase = "discard"
        return True

    def _do_discard(self, p: int, action: Action, events: list[Event]) -> None:
        c = self.cards[action.card]
        self._take(p, [c], events)
        self.discard.append(c)
        events.append(Event("discard", player=p, cards=(c,), count=1))
        self.ctx["left"] -= 1
        if self.ctx["left"] == 0 or not self._discardable(p):
            self._resume(events)

    # -- 天选之子 ------------------------------------------------------------------------------
    def _chosen(self, p: int, events: list[Event]) -> bool:
        numbers = [c for c in self.hands[p] if c.is_number]
        if len(numbers) > 1:
            self.ctx = {"type": "keep", "actor": p}
            self.phase = "keep"
            return True
        self._keep_only(p, numbers[0] if numbers else None, events)
        return False

    def _keep_only(self, p: int, keep: Card | None, events: list[Event]) -> None:
        gone = [c for c in self.hands[p] if keep is None or c.id != keep.id]
        if gone:
            self._take(p, gone, events)
            self.discard.extend(gone)
        # The kept card stays in the hand: only its owner sees which one (the rest are on the pile).
        events.append(Event("keep", player=p, cards=(keep,) if keep else (), count=len(gone), visible_to=(p,)))

    def _do_keep(self, p: int, action: Action, events: list[Event]) -> None:
        self._keep_only(p, self.cards[action.card], events)
        self._resume(events)

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

    def _bomb(self, p: int, events: list[Event]) -> None:
        plan = self.bomb_draws(p)
        events.append(Event("bomb", player=p, count=plan[0][1]))
        for q, k in plan:
            self._draw(q, k, "bomb", events)

    # -- AOE chains: grenade, C4, Argue ---------------------------------------------------------
    def _start_aoe(self, kind: str, p: int, first: int, events: list[Event], **fields: Any) -> None:
        self.ctx = {"type": kind, "actor": first, "by": p, **fields}
        self.phase = kind
        events.append(Event(kind, player=p, target=first, color=fields.get("color"), count=fields.get("x", 0)))

    def _do_aoe(self, p: int, action: Action, events: list[Event]) -> None:
        ctx = self.ctx
        kind = self.phase
        by = ctx["by"]
        if action.kind == "play" and action.color is None and self.cards[action.card].rank == "WIDOW":
            card = self.cards[action.card]
            before = len(self.hands[p])
            self._lay(p, [card], events)
            self._hand_shrunk(p, before, events)
            events.append(Event("cancel", player=p, cards=(card,), reason=kind))
            self._aoe_end(self._next(p) if kind == "grenade" else self._next(by), events)
            return
        if action.kind in ("explode", "refuse"):
            if kind == "argue":
                events.append(Event("refuse", player=p, reason="argue"))
                self._draw(p, 4, "argue", events)
                self._aoe_end(self._next(by), events)
                return
            events.append(Event("explode", player=p, reason=kind))
            self._reset(p, events)
            self._aoe_end(self._next(p) if kind == "grenade" else self._next(by), events)
            return
        card = self.cards[action.card]
        before = len(self.hands[p])
        if action.kind == "camo":
            camo = next(c for c in self.hands[p] if c.rank == "WCAMO")
            self._lay(p, [camo, card], events, as_color=ctx["color"])
            laid: tuple[Card, ...] = (camo, card)
        else:
            self._lay(p, [card], events)
            laid = (card,)
        self._hand_shrunk(p, before, events)
        events.append(Event("play", player=p, cards=laid, color=self.color, reason=kind))
        if kind == "grenade":
            ctx["color"] = action.color
            ctx["actor"] = self._next(p)
        elif kind == "c4":
            ctx["actor"] = self._next(p, int(card.rank)) if int(card.rank) else p
        else:
            ctx["x"] = int(card.rank)
            ctx["actor"] = self._next(p)
        events.append(Event("handover", player=p, target=ctx["actor"], color=ctx.get("color"),
                            count=ctx.get("x", 0), reason=kind))

    def _aoe_end(self, start: int, events: list[Event]) -> None:
        by = self.ctx["by"]
        self.ctx = None
        self._drop(by, "lock")
        self.last_turn = None
        self._begin_turn(start, events)

    def _reset(self, p: int, events: list[Event]) -> None:
        """重置: discard the whole hand, draw min{6, starting hand}."""
        gone = list(self.hands[p])
        self.hands[p] = []
        self.discard.extend(gone)
        events.append(Event("reset", player=p, cards=tuple(gone), count=len(gone)))
        self._check_bound(p, events)
        self._draw(p, self.reset_size, "reset", events)

    # -- transfer attachments -------------------------------------------------------------------
    def _do_attach(self, p: int, action: Action, events: list[Event]) -> None:
        ctx = self.ctx
        e = ctx["effect"]
        if action.kind == "attach":
            c = self.cards[action.card]
            self.hands[p].remove(c)
            self._check_bound(p, events)
            e["layers"][-1]["cards"].append(c.id)
            ctx["left"] -= 1
            events.append(Event("attach", player=p, cards=(c,), count=1, visible_to=(p,)))
            if ctx["left"] and self.hands[p]:
                return
        self._hand_shrunk(p, ctx["before"], events)
        self.ctx = None
        self._send(e, self._next(p), events)
        self._resume(events)

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
        hints = {
            "direction": "choose who plays after you: the player on either side",
            "judge": "answer the effect on you first: accept it, pass it on with a matching card, "
                     "or counter it with a card of higher priority",
            "react": "accept the effect aimed at you, or counter it (寡妇, 后悔药)",
            "attach": "attach up to two cards face down to the transfer, or send it",
            "duel": "pick a colour nobody has picked yet",
            "discard": "choose a card to discard",
            "keep": "choose the number card to keep",
            "grenade": "play a card of the named colour and name the next colour, or blow up",
            "c4": "play a number card to pass the C4 on, or let it explode",
            "argue": "play a number at least as high as the last one, or give up and draw four",
        }
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
        return hints.get(ph, f"{action} is not a legal move now")

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
        out = copy.deepcopy({k: v for k, v in ctx.items() if k not in ("effect", "before")})
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
        self.turn = d["turn"]
        self.finished = d["finished"]
        self.last_turn = d["last_turn"]
        self.seq = d["seq"]
        self.lead = d["lead"]
        self.stuck = d["stuck"]
