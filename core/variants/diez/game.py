"""Diez: UNO with 170 cards, White and Blank cards, several discard piles,
challenges on four cards, jump-ins, and a bag of 24 tokens.

See ``docs/rules/diez.md`` for the rules and every reading of the seed. The
turn is a small interpreter: playing a card queues *steps* (name a colour,
carry out the effect, end the turn); a step that needs a decision sets
:attr:`phase` to its name and :attr:`current` to the player who decides, and
waits for that player's action. The queue is part of the saved state.

Resting phases (the queue is empty): ``play``, ``drawn`` (a playable card was
just drawn) and ``stack`` (a draw stack waits for its victim). Decision
phases: ``color``, ``sub``, ``choice``, ``target``, ``token``, ``give``,
``steal``, ``drop``, ``search``, ``stitch``, ``discard``, ``proc``,
``replace``, ``link``, ``give_card``, ``magnet``, ``needle``, ``challenge``.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from ...actions import CHALLENGE, DRAW, PASS, UNO, Action
from ...cards import COLORS, Card
from ...events import Event
from ...game import Game, Option
from ...registry import register
from .cards import (
    BLANK, CHALLENGEABLE, CHOICE_EFFECTS, CHOICE_STACK_EFFECTS, STACKABLE_PROCS, STACKERS,
    TOKEN_KINDS, TOKEN_LIMIT, UNDERLINED, WHITE, build_faces, has_effect, is_black, points,
    token_bag, token_order,
)

JUMP_PHASES = frozenset({"play", "drawn", "stack", "color", "sub", "challenge"})
"""Phases in which a jump-in may interrupt (see the rules page)."""
RESTING = frozenset({"play", "drawn", "stack"})
AIMED_PROCS = frozenset({"hex", "magnet", "reveal", "white"})
"""Procs whose effect falls on the next player, so a Mirror can turn them back."""
SCORING = ("points", "rounds")
STOP = Action("stop")
DRAW_TOKEN = Action("draw_token")
REPLACE = Action("replace")
_COLOR_ACTS = tuple(Action("color", color=c) for c in COLORS)


def _step_draw(who: int, n: int = 0, *, until: str | None = None, forced: bool = False,
               reason: str = "penalty") -> dict[str, Any]:
    """A draw step: ``n`` cards, or with ``until`` cards until that colour comes and then ``n`` more."""
    return {"op": "draw", "who": who, "n": n, "until": until, "forced": forced, "reason": reason,
            "stage": "start", "got": [], "stopped": False, "counted": 0, "double": False, "hex": 0}


@register
class DiezGame(Game):
    """Diez for 2 to 10 players, 7 cards each."""

    variant = "diez"
    min_players = 2
    max_players = 10
    hand_size = 7
    OPTIONS = {
        "scoring": Option("points", "points: the winner scores the cards left in other hands; "
                          "rounds: one point per round won", lambda v: v in SCORING),
        "target_score": Option(0, "score that wins the match; 0 means 500 points or 5 rounds",
                               lambda v: v >= 0),
        "uno_calls": Option(True, "call UNO with your second-to-last card, or be caught"),
        "uno_penalty": Option(2, "cards drawn when caught without UNO (0 to 10)", lambda v: 0 <= v <= 10),
    }

    @classmethod
    def build_deck(cls, num_players: int, options: dict[str, Any]) -> list[tuple[str | None, str]]:
        return build_faces()

    def names_color(self, card: Card) -> bool:
        return False  # colours are named in a step of their own, after the play

    # -- round state ------------------------------------------------------------------------
    def _reset_round(self) -> None:
        super()._reset_round()
        n = len(self.names)
        self.piles: list[list[Card]] = [self.discard]
        self.colors: list[str | None] = [None]
        self.focus = 0
        self.jump_ok: list[bool] = [False]
        self.skipped: list[int | None] = [None]
        self.reversed: list[bool] = [False]
        self.tokens: list[list[str]] = [[] for _ in range(n)]
        self.bag: list[str] = token_bag()
        self.queue: list[dict[str, Any]] = []
        self.armed: list[bool] = [False] * n
        """Who holds a Mirror's effect from a Proc, ready for the next power card used on them."""

    def _setup(self, setup: dict[str, Any]) -> None:
        setup = dict(setup)
        tokens = setup.pop("tokens", None)
        piles = setup.pop("piles", None)
        colors = setup.pop("colors", None)
        if piles is not None:
            setup["discard"] = piles[0]
        if colors is not None:
            setup.setdefault("color", colors[0])
        super()._setup(setup)
        self.piles = [self.discard]
        self.colors = [self.color]
        self.jump_ok, self.skipped, self.reversed = [False], [None], [False]
        for k, extra in enumerate(piles[1:] if piles else [], start=1):
            pile = []
            for text in extra:
                face = self.parse(text)
                for j, c in enumerate(self.draw_pile):
                    if c.face == face:
                        pile.append(self.draw_pile.pop(j))
                        break
                else:
                    raise ValueError(f"setup names more copies of {text} than the deck holds")
            self.piles.append(pile)
            self.colors.append(colors[k] if colors else pile[-1].color)
            self.jump_ok.append(False)
            self.skipped.append(None)
            self.reversed.append(False)
        self.colors = [None if p[-1].color == BLANK else c for p, c in zip(self.piles, self.colors)]
        self._focus(0)
        if tokens is not None:
            for q, kinds in enumerate(tokens):
                for kind in kinds:
                    if kind not in self.bag:
                        raise ValueError(f"setup names more {kind} tokens than the bag holds")
                    self.bag.remove(kind)
                    self.tokens[q].append(kind)

    def _start_effect(self, card: Card, events: list[Event]) -> None:
        self.colors[0] = card.color
        self.current = self._next(self.dealer)

    def accepts_start_card(self, card: Card) -> bool:
        return card.color in COLORS and card.rank.isdigit()

    def _focus(self, i: int) -> None:
        self.focus = i
        self.discard = self.piles[i]
        self.color = self.colors[i]

    def _set_color(self, i: int, color: str | None) -> None:
        self.colors[i] = color
        if i == self.focus:
            self.color = color

    @property
    def target_score(self) -> int:
        t = int(self.options.get("target_score", 0))
        if t:
            return t
        return 5 if self.options.get("scoring") == "rounds" else 500

    def card_points(self, card: Card) -> int:
        return 0 if self.options.get("scoring") == "rounds" else points(card)

    def _round_bonus(self, winner: int) -> int:
        return 1 if self.options.get("scoring") == "rounds" else 0

    # -- piles and drawing -------------------------------------------------------------------
    def _can_draw(self) -> bool:
        return bool(self.draw_pile) or any(len(p) > 1 for p in self.piles) or bool(self.set_aside)

    def _draw_one(self, events: list[Event]) -> Card | None:
        if not self.draw_pile:
            rest: list[Card] = []
            for pile in self.piles:
                rest.extend(pile[:-1])
                del pile[:-1]
            rest += self.set_aside
            self.set_aside = []
            if not rest:
                return None
            self.draw_pile = self._shuffled(rest)
            events.append(Event("reshuffle", count=len(self.draw_pile)))
        return self.draw_pile.pop()

    def _pt(self, i: int) -> int | None:
        """The ``target`` of a play on pile ``i`` (None while there is a single pile)."""
        return None if i == 0 and len(self.piles) == 1 else i

    def _new_pile(self) -> int:
        self.piles.append([])
        self.colors.append(None)
        self.jump_ok.append(False)
        self.skipped.append(None)
        self.reversed.append(False)
        return len(self.piles) - 1

    # -- matching -----------------------------------------------------------------------------
    def _matches(self, p: int, c: Card, i: int) -> bool:
        """Whether ``c`` may be played on pile ``i`` by ``p`` under the standard playing rules."""
        if c.color is None or c.color == BLANK:
            return True
        top = self.piles[i][-1]
        col = self.colors[i]
        if col is None or top.color == BLANK or c.color == col or c.rank == top.rank:
            return True
        return c.rank in UNDERLINED and top.rank in UNDERLINED and "link" in self.tokens[p]

    def is_playable(self, card: Card) -> bool:
        return any(self._matches(self.current, card, i) for i in range(len(self.piles)))

    def _plays(self, p: int, cards: list[Card]) -> list[Action]:
        out: list[Action] = []
        n = len(self.piles)
        for c in cards:
            ok = [i for i in range(n) if self._matches(p, c, i)]
            out += [Action("play", c.id, None, self._pt(i)) for i in ok]
            if ok and c.rank in ("CD", "WC"):
                out.append(Action("play", c.id, None, n))  # start a new pile
        return out

    def _in_play(self) -> set[str]:
        return {k for toks in self.tokens for k in toks}

    def _stack_plays(self, v: int) -> list[Action]:
        if "silence" in self.tokens[v]:
            return []
        i = self.pending["pile"]
        procs = any(k in self._in_play() for k in STACKABLE_PROCS)
        out = []
        for c in self.hands[v]:
            if c.rank in STACKERS and self._matches(v, c, i) and (c.rank != "PR" or procs):
                out.append(Action("play", c.id, None, self._pt(i)))
        return out

    # -- legal actions --------------------------------------------------------------------------
    def _uno(self, p: int, acts: list[Action]) -> None:
        if acts and self.options["uno_calls"] and len(self.hands[p]) == 2 and not self.declared[p]:
            acts.append(UNO)

    def _turn_actions(self, p: int) -> list[Action]:
        ph = self.phase
        hand = self.hands[p]
        if ph == "play":
            acts = self._plays(p, hand)
            self._uno(p, acts)
            if self._can_draw():
                acts.append(DRAW)
            elif not acts:
                acts.append(PASS)
            return acts
        if ph == "drawn":
            acts = self._plays(p, [c for c in hand if c.id == self.drawn])
            self._uno(p, acts)
            acts.append(PASS)
            return acts
        if ph == "stack":
            acts = self._stack_plays(p)
            self._uno(p, acts)
            if self.pending.get("challengeable"):
                acts.append(CHALLENGE)
            acts.append(DRAW)
            return acts
        if not self.queue:
            return []
        return getattr(self, "_acts_" + self.queue[0]["op"])(p, self.queue[0])

    def _acts_color(self, p: int, s: dict) -> list[Action]:
        return list(_COLOR_ACTS) + ([PASS] if self.phase == "sub" else [])

    def _acts_choice(self, p: int, s: dict) -> list[Action]:
        if s["stack"]:
            ranks = [r for r in CHOICE_STACK_EFFECTS
                     if r != "PR" or any(k in self._in_play() for k in STACKABLE_PROCS)]
            return [Action("effect", color=r) for r in ranks]
        return [Action("effect", color=r) for r in CHOICE_EFFECTS if r != "CD"] + [PASS]

    def _acts_target(self, p: int, s: dict) -> list[Action]:
        return [Action("target", target=q) for q in self.active]

    def _acts_token(self, p: int, s: dict) -> list[Action]:
        acts = [DRAW_TOKEN] if self.bag and self._recipients(p) else []
        for q in self.active:
            acts += [Action("remove", target=q, color=k) for k in self._kinds(q)]
        return acts

    def _acts_give(self, p: int, s: dict) -> list[Action]:
        return [Action("give", target=q) for q in self._recipients(p)]

    def _acts_steal(self, p: int, s: dict) -> list[Action]:
        return [Action("take", target=q, color=k) for q in self.active if q != p for k in self._kinds(q)]

    def _acts_drop(self, p: int, s: dict) -> list[Action]:
        return [Action("drop", target=q) for q in self.active if self.tokens[q]]

    def _acts_search(self, p: int, s: dict) -> list[Action]:
        return [Action("take", card=c.id) for c in self._searchable(s)] + [PASS]

    def _acts_stitch(self, p: int, s: dict) -> list[Action]:
        return [Action("stitch", target=j) for j in range(len(self.piles)) if j != s["pile"]]

    def _acts_discard(self, p: int, s: dict) -> list[Action]:
        cards = self.hands[p] if s["mode"] == "mulligan" else [c for c in self.hands[p] if c.color == s["color"]]
        return [Action("discard", card=c.id) for c in _distinct(cards)] + [PASS]

    def _acts_proc(self, p: int, s: dict) -> list[Action]:
        held = self._in_play()
        if s["stack"]:
            return [Action("proc", color=k) for k in STACKABLE_PROCS if k in held]
        acts = []
        for k in TOKEN_KINDS:
            # A Double's Proc has no stack to double; a Mirror's effect is armed only once.
            if k not in held or k == "double" or (k == "mirror" and self.armed[p]):
                continue
            if k == "block":
                acts += [Action("proc", color=k, target=q) for q in self.active if "block" in self.tokens[q]]
            else:
                acts.append(Action("proc", color=k))
        return acts + [PASS]

    def _acts_replace(self, p: int, s: dict) -> list[Action]:
        return ([REPLACE] if self.bag else []) + [PASS]

    def _acts_link(self, p: int, s: dict) -> list[Action]:
        return [Action("play", c.id, None, self._pt(i)) for c in _distinct(self._underlined(p))
                for i in range(len(self.piles))] + [PASS]

    def _acts_give_card(self, p: int, s: dict) -> list[Action]:
        if len(self.hands[p]) < 2:
            return [PASS]
        return [Action("give", card=c.id) for c in _distinct(self.hands[p])] + [PASS]

    def _acts_magnet(self, p: int, s: dict) -> list[Action]:
        if len(self.hands[p]) < 2:
            return [PASS]
        mine = {c.id for c in self.hands[p]}
        cards = _distinct([self.cards[i] for i in s["cards"] if i in mine])
        return [Action("give", card=c.id, target=h) for c in cards for h in s["holders"]] + [PASS]

    def _acts_needle(self, p: int, s: dict) -> list[Action]:
        return [STOP, DRAW]

    def _acts_challenge(self, p: int, s: dict) -> list[Action]:
        return [CHALLENGE, PASS if s["card"] == "WC" else DRAW]

    # -- jump-ins -------------------------------------------------------------------------------
    def _has_out_of_turn(self) -> bool:
        return self.phase in JUMP_PHASES and True in self.jump_ok

    def _out_of_turn_actions(self, p: int) -> list[Action]:
        if p == self.current or self.out[p] or "silence" in self.tokens[p] or self.phase not in JUMP_PHASES:
            return []
        acts = []
        hand = self.hands[p]
        for i, pile in enumerate(self.piles):
            if not self.jump_ok[i] or self.skipped[i] == p:
                continue
            top = pile[-1]
            same = next((c for c in hand if c.face == top.face), None)
            if same is not None:
                acts.append(Action("play", same.id, None, self._pt(i)))
            if top.rank != "ST" and top.color in COLORS and top.rank in _POWER:
                stop = next((c for c in hand if c.rank == "ST" and c.color == top.color), None)
                if stop is not None:
                    acts.append(Action("play", stop.id, None, self._pt(i)))
        return acts

    def _jump_in(self, p: int, action: Action, events: list[Event]) -> None:
        i = 0 if action.target is None else action.target
        events.append(Event("jump_in", player=p, target=i))
        if self.reversed[i]:
            self.direction = -self.direction  # the Reverse jumped on is cancelled
        if len(self.hands[self.current]) != 1:
            self.declared[self.current] = False
        self.queue = []
        self.pending = None
        self.drawn = None
        self.current = p
        self.phase = "play"
        self._play(p, self.cards[action.card], i, events, jump=True)

    # -- tokens -------------------------------------------------------------------------------
    def _kinds(self, q: int) -> list[str]:
        return sorted(set(self.tokens[q]), key=token_order)

    def _recipients(self, giver: int) -> list[int]:
        others = [q for q in self.active if q != giver and len(self.tokens[q]) < TOKEN_LIMIT
                  and "block" not in self.tokens[q]]
        if others:
            return others
        return [giver] if len(self.tokens[giver]) < TOKEN_LIMIT else []

    def _draw_token(self) -> str:
        bag = sorted(self.bag, key=token_order)
        kind = self._chance(bag)[-1]
        self.bag.remove(kind)
        return kind

    def _lose_token(self, q: int, kind: str, events: list[Event], why: str = "remove", by: int | None = None) -> None:
        self.tokens[q].remove(kind)
        self.bag.append(kind)
        if why == "trigger":
            events.append(Event("token_trigger", player=q, target=by, reason=kind))
        else:
            events.append(Event("token_remove", player=by, target=q, reason=kind))

    def _mirror(self, victim: int, p: int, events: list[Event]) -> bool:
        """A Mirror on ``victim`` turns an effect of ``p``'s card back on ``p``.

        A Mirror armed by a Proc goes first (it cannot be taken away, the token can). The
        card turned back is ``p``'s own, so the draws it causes are not "forced" ones.
        """
        if victim == p:
            return False
        if self.armed[victim]:
            self.armed[victim] = False
            events.append(Event("mirror_used", player=victim, target=p))
            return True
        if "mirror" in self.tokens[victim]:
            self._lose_token(victim, "mirror", events, "trigger", by=p)
            return True
        return False

    # -- UNO catches ----------------------------------------------------------------------------
    def _catch_draw(self, q: int, n: int, events: list[Event]) -> None:
        # A catch is no card's doing, so no token acts on it, but the Needle lets the drawer stop
        # "regardless of what caused them to draw". The draw is a step in front of whatever was
        # going on, which carries on afterwards as it was.
        step = _step_draw(q, n, reason="uno")
        if self.phase in RESTING:
            self.queue = [step, {"op": "resume", "who": self.current, "phase": self.phase, "drawn": self.drawn}]
        else:
            self.queue.insert(0, step)
        self._run(events)

    def _step_resume(self, s: dict, events: list[Event]) -> bool:
        self.queue.pop(0)
        self.current, self.phase, self.drawn = s["who"], s["phase"], s["drawn"]
        return False

    # -- carrying out actions --------------------------------------------------------------------
    def _do(self, p: int, action: Action, events: list[Event]) -> None:
        kind = action.kind
        if kind == "play" and p != self.current:
            self._jump_in(p, action, events)
            return
        ph = self.phase
        if ph in ("play", "drawn"):
            if kind == "play":
                self._play(p, self.cards[action.card], action.target or 0, events)
            elif kind == "draw":
                self._turn_draw(p, events)
            else:
                events.append(Event("pass", player=p, reason="keep" if ph == "drawn" else "empty"))
                self._pass_turn(p)
        elif ph == "stack":
            if kind == "play":
                self._play(p, self.cards[action.card], action.target or 0, events)
            elif kind == "draw":
                self._take_stack(p, events)
            else:
                self._challenge_stack(p, events)
        else:
            step = self.queue[0]
            getattr(self, "_decide_" + step["op"])(p, action, step, events)
            self._run(events)

    def _pass_turn(self, p: int) -> None:
        if self.phase == "over":
            return
        if len(self.hands[p]) != 1:
            self.declared[p] = False
        self.phase = "play"
        self.drawn = None
        self.pending = None
        self.current = self._next(p)

    def judged_color(self, p: int, action: Action) -> str | None:
        if action.kind != "play" or self.cards[action.card].rank not in CHALLENGEABLE:
            return None
        t = action.target or 0  # the pile it goes on, as _play and _jump_in read it
        return self.colors[t] if t < len(self.piles) else None  # a new pile: never a bluff

    def _expose(self, p: int) -> None:
        if self.options["uno_calls"] and len(self.hands[p]) == 1 and not self.declared[p]:
            self.exposed = p

    def _end(self) -> dict[str, Any]:
        for s in reversed(self.queue):
            if s["op"] == "end":
                return s
        raise AssertionError("no end step queued")

    def _insert_before_end(self, *steps: dict[str, Any]) -> None:
        k = next(j for j in range(len(self.queue) - 1, -1, -1) if self.queue[j]["op"] == "end")
        self.queue[k:k] = list(steps)

    # -- playing a card --------------------------------------------------------------------------
    def _play(self, p: int, card: Card, t: int, events: list[Event], *, jump: bool = False) -> None:
        n = len(self.piles)
        on_stack = self.phase == "stack" and not jump
        t0 = self.pending["total"] if on_stack else 0
        hand = self.hands[p]
        if t == n:
            i = self._new_pile()
            before = None
        else:
            i = t
            before = self.colors[i]
        bluff = card.rank in CHALLENGEABLE and before is not None and any(
            c.color == before for c in hand if c.id != card.id)
        hand.remove(card)
        self.piles[i].append(card)
        self.jump_ok[i], self.skipped[i], self.reversed[i] = True, None, False
        if card.color is not None:  # a black card keeps the colour in play until it names one
            self.colors[i] = None if card.color == BLANK else card.color
        self._focus(i)
        self.drawn = None
        events.append(Event("play", player=p, cards=(card,), target=i, reason="new_pile" if t == n else None))
        self._expose(p)
        if not hand and not is_black(card):
            self.queue = []
            self._end_round(p, events)
            return
        snared = has_effect(card) and "snare" in self.tokens[p]
        if snared:
            self._lose_token(p, "snare", events, "trigger", by=p)
        end = {"op": "end", "who": p, "to": None, "phase": "play", "play": True}
        steps: list[dict[str, Any]] = []
        if card.rank == "WDA" and not snared:
            steps.append({"op": "drop", "who": p})
        if is_black(card):
            steps.append({"op": "color", "who": p, "pile": i, "sub": True})
        if snared and on_stack:
            self.pending = None
            steps.append(_step_draw(p, t0, forced=True))
        elif not snared and has_effect(card) and card.rank != "WDA":
            steps.append({"op": "effect", "who": p, "pile": i, "rank": card.rank, "stack": on_stack,
                          "bluff": bluff, "t0": t0, "via": None, "new": t == n})
        if not on_stack or snared:
            self.pending = None
        steps.append(end)
        self.queue = steps
        self._run(events)

    # -- the step interpreter --------------------------------------------------------------------
    def _run(self, events: list[Event]) -> None:
        while self.queue and self.phase != "over":
            step = self.queue[0]
            if getattr(self, "_step_" + step["op"])(step, events):
                return

    def _wait(self, step: dict, phase: str | None = None, who: int | None = None) -> bool:
        self.phase = phase or step["op"]
        self.current = step["who"] if who is None else who
        return True

    def _step_end(self, s: dict, events: list[Event]) -> bool:
        p = s["who"]
        if s.get("play") and not self.hands[p] and not s.get("drew"):
            # A black card played as the last card (or a Flush that emptied the hand): draw 2.
            s["drew"] = True
            events.append(Event("last_black", player=p))
            self.queue.insert(0, _step_draw(p, 2, reason="last"))
            return False
        self.queue.pop(0)
        if len(self.hands[p]) != 1:
            self.declared[p] = False
        self.current = self._next(p) if s["to"] is None else s["to"]
        self.phase = s["phase"]
        self.drawn = None
        if self.phase != "stack":
            self.pending = None
        return False

    # colour --------------------------------------------------------------------------------
    def _step_color(self, s: dict, events: list[Event]) -> bool:
        if s["sub"]:
            holders = [q for q in self.active if q != s["who"] and "sub" in self.tokens[q]]
            if holders:
                return self._wait(s, "sub", holders[0])
            s["sub"] = False
        return self._wait(s, "color")

    def _decide_color(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        if a.kind == "pass":  # the Sub holder lets the player choose
            s["sub"] = False
            return
        if self.phase == "sub":
            self._lose_token(p, "sub", events, "trigger", by=s["who"])
        self.queue.pop(0)
        self._set_color(s["pile"], a.color)
        events.append(Event("color", player=p, color=a.color, target=s["pile"]))

    # effects ---------------------------------------------------------------------------------
    def _step_effect(self, s: dict, events: list[Event]) -> bool:
        self.queue.pop(0)
        getattr(self, "_fx_" + _FX_NAMES[s["rank"]])(s, events)
        return False

    def _start_stack(self, s: dict, total: int, events: list[Event], *, challengeable: bool = False) -> None:
        p, v = s["who"], self._next(s["who"])
        if self._mirror(v, p, events):
            self._insert_before_end(_step_draw(p, total, forced=False))
            return
        self.pending = {"kind": "stack", "pile": s["pile"], "total": total, "victim": v, "by": p,
                        "challengeable": challengeable, "bluff": s["bluff"] and challengeable, "before": 0}
        end = self._end()
        end["to"], end["phase"] = v, "stack"

    def _move_stack(self, s: dict, v: int, events: list[Event], *, add: int = 0,
                    challengeable: bool = False) -> None:
        p = s["who"]
        pend = self.pending
        before = pend["total"]
        total = before + add
        if self._mirror(v, p, events):
            self.pending = None
            self._insert_before_end(_step_draw(p, total, forced=False))
            return
        pend.update(total=total, victim=v, by=p, challengeable=challengeable,
                    bluff=s["bluff"] and challengeable, before=before, pile=s["pile"])
        events.append(Event("stack", player=p, target=v, count=total))
        end = self._end()
        end["to"], end["phase"] = v, "stack"

    def _fx_skip(self, s: dict, events: list[Event]) -> None:
        p = s["who"]
        v = self._next(p)
        if s["stack"]:
            if s["via"] is None:
                self.skipped[s["pile"]] = v
            self._move_stack(s, v, events)
            return
        if self._mirror(v, p, events):
            return  # not played on v after all: v may jump in on it
        if s["via"] is None:
            self.skipped[s["pile"]] = v
        events.append(Event("skip", player=v))
        self._end()["to"] = self._next(v)

    def _fx_reverse(self, s: dict, events: list[Event]) -> None:
        p = s["who"]
        self.direction = -self.direction
        if s["via"] is None:
            self.reversed[s["pile"]] = True
        events.append(Event("reverse"))
        if s["stack"]:
            self._move_stack(s, self._next(p), events)
        elif len(self.active) == 2:
            events.append(Event("skip", player=self._next(p)))
            self._end()["to"] = p

    def _fx_draw2(self, s: dict, events: list[Event]) -> None:
        if s["stack"]:
            self._move_stack(s, self._next(s["who"]), events, add=2)
        else:
            self._start_stack(s, 2, events)

    def _fx_draw4(self, s: dict, events: list[Event]) -> None:
        if s["stack"]:
            self._move_stack(s, self._next(s["who"]), events, add=4, challengeable=True)
        else:
            self._start_stack(s, 4, events, challengeable=True)

    def _fx_stop(self, s: dict, events: list[Event]) -> None:
        if s["stack"]:
            self.pending = None
            events.append(Event("stop", player=s["who"]))

    def _fx_tag(self, s: dict, events: list[Event]) -> None:
        self.queue.insert(0, {"op": "target", "who": s["who"], "stack": s["stack"], "pile": s["pile"],
                              "bluff": False})

    def _step_target(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_target(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        q = a.target
        events.append(Event("tag", player=p, target=q))
        if s["stack"]:
            self._move_stack(s, q, events)
        elif self._mirror(q, p, events):
            self._end()["to"] = p
        else:
            self._end()["to"] = q

    def _fx_dagger(self, s: dict, events: list[Event]) -> None:
        p = s["who"]
        v = self._next(p)
        if self._mirror(v, p, events):
            self._insert_before_end(_step_draw(p, 1, forced=False, reason="dagger"))
            return
        self._end()["to"] = v
        if s["via"] is not None:  # a Choice's Dagger: its challenge has been had
            self._insert_before_end(_step_draw(v, 1, forced=True, reason="dagger"))
        else:
            self.queue.insert(0, {"op": "challenge", "who": v, "by": p, "card": "DG", "bluff": s["bluff"],
                                  "pile": s["pile"]})

    def _fx_token(self, s: dict, events: list[Event]) -> None:
        self.queue.insert(0, {"op": "token", "who": s["who"]})

    def _fx_trade(self, s: dict, events: list[Event]) -> None:
        p = s["who"]
        v = self._next(p)
        if self._mirror(v, p, events):
            return
        self.hands[p], self.hands[v] = self.hands[v], self.hands[p]
        events.append(Event("swap", player=p, target=v))
        self._hands_moved()

    def _hands_moved(self) -> None:
        self.exposed = None
        self.declared = [len(h) == 1 for h in self.hands]

    def _fx_share(self, s: dict, events: list[Event]) -> None:
        p = s["who"]
        v = self._next(p)
        if self._mirror(v, p, events):
            v = p
        self._share(v, events)

    def _share(self, v: int, events: list[Event]) -> None:
        others = [q for q in self.active if q != v]
        most = max((len(self.hands[q]) for q in others), default=0)
        mine = len(self.hands[v])
        if mine >= most:
            events.append(Event("share", player=v, count=0))
            return
        order = [self._next(v, k) for k in range(1, len(self.active))]
        donor = next(q for q in order if len(self.hands[q]) == most)
        k = (most - mine + 1) // 2
        pool = sorted(self.hands[donor], key=lambda c: c.id)
        taken = self._chance(pool)[:k]
        for c in taken:
            self.hands[donor].remove(c)
        self.hands[v].extend(taken)
        events.append(Event("share", player=v, target=donor, cards=tuple(taken), count=k,
                            visible_to=(v, donor)))
        self._hands_moved()

    def _fx_proc(self, s: dict, events: list[Event]) -> None:
        if any(a.kind == "proc" for a in self._acts_proc(s["who"], s)):
            self.queue.insert(0, {"op": "proc", "who": s["who"], "pile": s["pile"], "stack": s["stack"],
                                  "via": s["via"], "bluff": False})

    def _fx_cut(self, s: dict, events: list[Event]) -> None:
        if s.get("new"):
            events.append(Event("cut", player=s["who"], target=s["pile"]))

    def _fx_steal(self, s: dict, events: list[Event]) -> None:
        p = s["who"]
        if len(self.tokens[p]) >= TOKEN_LIMIT:
            return
        if any(self.tokens[q] for q in self.active if q != p):
            self.queue.insert(0, {"op": "steal", "who": p})
        elif self.bag:
            kind = self._draw_token()
            self.tokens[p].append(kind)
            events.append(Event("token_give", player=p, target=p, reason=kind))

    def _fx_revive(self, s: dict, events: list[Event]) -> None:
        step = {"op": "search", "who": s["who"], "where": s["pile"], "ace": False}
        if self._searchable(step):
            self.queue.insert(0, step)

    def _fx_stitch(self, s: dict, events: list[Event]) -> None:
        if len(self.piles) == 2:
            self._stitch(s["who"], s["pile"], 1 - s["pile"], events)
        elif len(self.piles) > 2:
            self.queue.insert(0, {"op": "stitch", "who": s["who"], "pile": s["pile"]})

    def _fx_mulligan(self, s: dict, events: list[Event]) -> None:
        self.queue.insert(0, {"op": "discard", "who": s["who"], "mode": "mulligan", "pile": s["pile"],
                              "color": None, "count": 0})

    def _fx_flush(self, s: dict, events: list[Event]) -> None:
        self.queue.insert(0, {"op": "discard", "who": s["who"], "mode": "flush", "pile": s["pile"],
                              "color": self.colors[s["pile"]], "count": 0})

    def _fx_drawcolor(self, s: dict, events: list[Event]) -> None:
        p = s["who"]
        v = self._next(p)
        if self._mirror(v, p, events):
            self._insert_before_end(_step_draw(p, until=self.colors[s["pile"]], forced=False, reason="draw_color"))
            return
        self._end()["to"] = self._next(v)
        self.queue.insert(0, {"op": "challenge", "who": v, "by": p, "card": "WDC", "bluff": s["bluff"],
                              "pile": s["pile"], "color": self.colors[s["pile"]]})

    def _fx_choice(self, s: dict, events: list[Event]) -> None:
        step = {"op": "choice", "who": s["who"], "pile": s["pile"], "stack": s["stack"], "bluff": s["bluff"],
                "t0": s["t0"], "new": s.get("new", False)}
        if s.get("new"):
            self._choice_chosen(step, "CD")
        else:
            self.queue.insert(0, step)

    def _step_choice(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_choice(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        events.append(Event("choice", player=p, reason=None if a.kind == "pass" else a.color))
        self._choice_chosen(s, None if a.kind == "pass" else a.color)

    def _choice_chosen(self, s: dict, rank: str | None) -> None:
        p = s["who"]
        steps: list[dict[str, Any]] = [{"op": "challenge", "who": self._next(p), "by": p, "card": "WC",
                                        "bluff": s["bluff"], "pile": s["pile"], "t0": s["t0"],
                                        "stack": s["stack"], "effect": rank}]
        if rank is not None:
            steps.append({"op": "effect", "who": p, "pile": s["pile"], "rank": rank, "stack": s["stack"],
                          "bluff": False, "t0": s["t0"], "via": "WC", "new": s.get("new", False)})
        self.queue[0:0] = steps

    # -- decision steps ------------------------------------------------------------------------
    def _step_challenge(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_challenge(self, v: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        card, p = s["card"], s["by"]
        if a.kind != "challenge":
            if card == "DG":
                self.queue.insert(0, _step_draw(v, 1, forced=True, reason="dagger"))
            elif card == "WDC":
                events.append(Event("skip", player=v))
                self.queue.insert(0, _step_draw(v, until=s["color"], forced=True, reason="draw_color"))
            return
        guilty = s["bluff"]
        self._challenge_events(v, p, card, guilty, events)
        end = self._end()
        if card == "DG":
            self.queue.insert(0, _step_draw(p, 8, reason="guilty") if guilty
                              else _step_draw(v, 9, forced=True, reason="innocent"))
        elif card == "WDC":
            if guilty:
                end["to"] = v
                self.queue.insert(0, _step_draw(p, until=s["color"], reason="guilty"))
            else:
                events.append(Event("skip", player=v))
                # "affected then must draw 2 extra": one forced draw (until the colour, then 2), so
                # Hex adds once, Double doubles all of it and a Magnet is offered once.
                self.queue.insert(0, _step_draw(v, 2, until=s["color"], forced=True, reason="innocent"))
        else:  # Choice
            if guilty:
                if self.queue and self.queue[0]["op"] == "effect":
                    self.queue.pop(0)  # the card loses its effect
                if s["stack"]:
                    self.pending = None
                end["to"], end["phase"] = v, "play"
                self.queue.insert(0, _step_draw(p, 2 + (s["t0"] if s["stack"] else 0), reason="guilty"))
            else:
                self.queue.insert(0, _step_draw(v, 3, forced=True, reason="innocent"))

    def _challenge_events(self, v: int, p: int, card: str, guilty: bool, events: list[Event]) -> None:
        events.append(Event("challenge", player=v, target=p, reason="guilty" if guilty else "innocent",
                            cards=(), count=0, color=card))
        events.append(Event("show_hand", player=p, target=v, cards=tuple(self.hands[p]),
                            count=len(self.hands[p]), visible_to=(v, p)))

    def _take_stack(self, v: int, events: list[Event]) -> None:
        total = self.pending["total"]
        self.pending = None
        events.append(Event("skip", player=v))
        self.queue = [_step_draw(v, total, forced=True), {"op": "end", "who": v, "to": self._next(v),
                                                          "phase": "play"}]
        self._run(events)

    def _challenge_stack(self, v: int, events: list[Event]) -> None:
        pend = self.pending
        self.pending = None
        p, total, guilty = pend["by"], pend["total"], pend["bluff"]
        self._challenge_events(v, p, "W+4", guilty, events)
        if guilty:
            self.queue = [_step_draw(p, total, reason="guilty"), {"op": "end", "who": v, "to": v, "phase": "play"}]
        else:
            events.append(Event("skip", player=v))
            self.queue = [_step_draw(v, total + 2, forced=True, reason="innocent"),
                          {"op": "end", "who": v, "to": self._next(v), "phase": "play"}]
        self._run(events)

    # tokens -------------------------------------------------------------------------------------
    def _step_token(self, s: dict, events: list[Event]) -> bool:
        if not self._acts_token(s["who"], s):
            self.queue.pop(0)
            return False
        return self._wait(s)

    def _decide_token(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        if a.kind == "remove":
            self._lose_token(a.target, a.color, events, by=p)
            return
        kind = self._draw_token()
        events.append(Event("token_draw", player=p, reason=kind))
        self.queue.insert(0, {"op": "give", "who": p, "token": kind})

    def _step_give(self, s: dict, events: list[Event]) -> bool:
        rec = self._recipients(s["who"])
        if len(rec) == 1:
            self.queue.pop(0)
            self._give_token(s["who"], rec[0], s["token"], events)
            return False
        return self._wait(s)

    def _decide_give(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        self._give_token(p, a.target, s["token"], events)

    def _give_token(self, p: int, q: int, kind: str, events: list[Event]) -> None:
        self.tokens[q].append(kind)
        events.append(Event("token_give", player=p, target=q, reason=kind))

    def _step_steal(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_steal(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        self.tokens[a.target].remove(a.color)
        self.tokens[p].append(a.color)
        events.append(Event("token_steal", player=p, target=a.target, reason=a.color))

    def _step_drop(self, s: dict, events: list[Event]) -> bool:
        if not any(self.tokens[q] for q in self.active):
            self.queue.pop(0)
            return False
        return self._wait(s)

    def _decide_drop(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        q = a.target
        gone = self.tokens[q]
        self.bag += gone
        self.tokens[q] = []
        events.append(Event("token_drop", player=p, target=q, count=len(gone), reason=",".join(gone)))

    # search (Revive, Ace) ----------------------------------------------------------------------------
    def _searchable(self, s: dict) -> list[Card]:
        if s["where"] == "draw":
            return _distinct(self.draw_pile[::-1])
        pile = self.piles[s["where"]]
        return _distinct([c for c in pile[:-1][::-1] if c.color is not None])

    def _step_search(self, s: dict, events: list[Event]) -> bool:
        if not self._searchable(s):
            self.queue.pop(0)
            return False
        return self._wait(s)

    def _decide_search(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        if a.kind == "pass":
            return
        card = self.cards[a.card]
        if s["where"] == "draw":
            self.draw_pile.remove(card)
        else:
            self.piles[s["where"]].remove(card)
        if s["ace"]:
            self._lose_token(p, "ace", events, "trigger")
            self.queue[0]["n"] -= 1  # the draw this Ace served
        self._give(p, [card], "ace" if s["where"] == "draw" else "revive", events)

    # stitch ------------------------------------------------------------------------------------
    def _step_stitch(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_stitch(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        self._stitch(p, s["pile"], a.target, events)

    def _stitch(self, p: int, i: int, j: int, events: list[Event]) -> None:
        self.piles[i].extend(self.piles[j])
        self.colors[i], self.jump_ok[i] = self.colors[j], self.jump_ok[j]
        self.skipped[i], self.reversed[i] = self.skipped[j], self.reversed[j]
        for lst in (self.piles, self.colors, self.jump_ok, self.skipped, self.reversed):
            del lst[j]
        events.append(Event("stitch", player=p, target=j, count=len(self.piles)))
        self._focus(i - 1 if j < i else i)

    # Mulligan and Flush ---------------------------------------------------------------------------
    def _step_discard(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_discard(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        if a.kind == "pass":
            self.queue.pop(0)
            if s["mode"] == "mulligan" and s["count"]:
                self.draw_pile = self._shuffled(self.draw_pile)
                events.append(Event("reshuffle", count=len(self.draw_pile), reason="mulligan"))
                self.queue.insert(0, _step_draw(p, s["count"], reason="mulligan"))
            return
        card = self.cards[a.card]
        self.hands[p].remove(card)
        s["count"] += 1
        if s["mode"] == "mulligan":
            self.draw_pile.append(card)
            events.append(Event("discard", player=p, cards=(card,), count=1, reason="mulligan",
                                visible_to=(p,)))
        else:
            i = s["pile"]
            self.piles[i].append(card)
            self.jump_ok[i], self.skipped[i], self.reversed[i] = False, None, False
            events.append(Event("discard", player=p, cards=(card,), count=1, reason="flush", target=i))
            # Only a Flush shrinks the hand for good; a Mulligan draws as many back, so its
            # discards never leave a player on one card (and a catch would redraw the same cards).
            self._expose(p)

    # Proc -----------------------------------------------------------------------------------------
    def _step_proc(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_proc(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        if a.kind == "pass":
            return
        kind = a.color
        events.append(Event("proc", player=p, reason=kind, target=a.target))
        v = self._next(p)
        if s["stack"]:
            if kind in ("silence", "snare"):
                self.pending = None
                events.append(Event("stop", player=p))
            elif kind == "double":
                self._move_stack({**s, "who": p, "bluff": False}, v, events, add=self.pending["total"])
            else:  # mirror: the stack goes back to whoever sent it, who cannot counter it
                by, total = self.pending["by"], self.pending["total"]
                self.pending = None
                self._insert_before_end(_step_draw(by, total, forced=True))
                end = self._end()
                end["to"] = self._next(by) if v == by else v
            return
        # Procs aimed at the next player can meet a Mirror: then they act the other way round.
        who, on = (v, p) if kind in AIMED_PROCS and self._mirror(v, p, events) else (p, v)
        if kind == "hex":
            n = len(self.tokens[on])
            if n:
                self._insert_before_end(_step_draw(on, n, forced=on != p, reason="hex"))
        elif kind == "magnet":
            self.queue.insert(0, {"op": "give_card", "who": who, "to": on})
        elif kind == "mirror":
            self.armed[p] = True
            events.append(Event("mirror_armed", player=p))
        elif kind == "block":
            self.tokens[a.target].remove("block")
            self.queue.insert(0, {"op": "replace", "who": p, "holder": a.target})
        elif kind == "reveal":
            events.append(Event("reveal", player=on, cards=tuple(self.hands[on]), count=len(self.hands[on])))
        elif kind == "link":
            if self._underlined(p):
                self.queue.insert(0, {"op": "link", "who": p})
        elif kind == "ace":
            self.queue.insert(0, {"op": "search", "who": p, "where": "draw", "ace": False})
        elif kind == "sub":
            self.queue.insert(0, {"op": "color", "who": p, "pile": s["pile"], "sub": False})
        elif kind == "white":
            self._white(on, events)

    def _white(self, q: int, events: list[Event]) -> bool:
        for j in range(len(self.draw_pile) - 1, -1, -1):
            if self.draw_pile[j].color == WHITE:
                card = self.draw_pile.pop(j)
                self._give(q, [card], "white", events)
                return True
        return False

    def _step_replace(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_replace(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        h = s["holder"]
        events.append(Event("token_remove", player=p, target=h, reason="block"))
        if a.kind == "replace":
            kind = self._draw_token()
            self._give_token(p, h, kind, events)
        self.bag.append("block")

    def _underlined(self, p: int) -> list[Card]:
        return [c for c in self.hands[p] if c.rank in UNDERLINED]

    def _step_link(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_link(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        if a.kind == "pass":
            return
        card = self.cards[a.card]
        i = a.target or 0
        self.hands[p].remove(card)
        self.piles[i].append(card)
        self.jump_ok[i], self.skipped[i], self.reversed[i] = True, None, False
        self.colors[i] = card.color
        self._focus(i)
        events.append(Event("play", player=p, cards=(card,), target=i, reason="link"))
        self._expose(p)
        if not self.hands[p]:
            self.queue = []
            self._end_round(p, events)

    def _step_give_card(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_give_card(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        if a.kind == "give":
            self._hand_over(p, s["to"], self.cards[a.card], events)

    def _hand_over(self, p: int, q: int, card: Card, events: list[Event]) -> None:
        self.hands[p].remove(card)
        self.hands[q].append(card)
        self.declared[q] = False
        events.append(Event("give_card", player=p, target=q, cards=(card,), count=1, visible_to=(p, q)))
        self._expose(p)

    def _step_magnet(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_magnet(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        if a.kind == "give":
            self._hand_over(p, a.target, self.cards[a.card], events)

    def _step_needle(self, s: dict, events: list[Event]) -> bool:
        return self._wait(s)

    def _decide_needle(self, p: int, a: Action, s: dict, events: list[Event]) -> None:
        self.queue.pop(0)
        if a.kind == "stop":
            events.append(Event("needle", player=p))
            self.queue[0]["stopped"] = True

    # drawing ---------------------------------------------------------------------------------------
    def _turn_draw(self, p: int, events: list[Event]) -> None:
        if self._plays(p, self.hands[p]):
            # Holding a playable card: one card, played or kept if it can be, else kept.
            c = self._draw_one(events)
            if c is None:
                events.append(Event("empty", player=p))
                self._pass_turn(p)
                return
            self._give(p, [c], "turn", events)
            if self._plays(p, [c]):
                self.phase, self.drawn = "drawn", c.id
            else:
                self._pass_turn(p)
            return
        self.queue = [{"op": "natural", "who": p, "extra": 0, "bomb": None, "stopped": False}]
        self._run(events)

    def _step_natural(self, s: dict, events: list[Event]) -> bool:
        p = s["who"]
        while True:
            if s["stopped"]:
                s["extra"] = 0
                if s["bomb"] is None:
                    self.queue.pop(0)
                    self._pass_turn(p)
                    return False
            if s["extra"] > 0:
                c = self._draw_one(events)
                if c is None:
                    s["extra"] = 0
                    continue
                s["extra"] -= 1
                self._give(p, [c], "bomb", events)
                if c.rank == "N" and s["extra"] > 0:
                    self.queue.insert(0, {"op": "needle", "who": p})
                    return False
                continue
            if s["bomb"] is not None:
                self.queue.pop(0)
                self.phase, self.drawn, self.current = "drawn", s["bomb"], p
                return False
            c = self._draw_one(events)
            if c is None:
                self.queue.pop(0)
                events.append(Event("empty", player=p))
                self._pass_turn(p)
                return False
            self._give(p, [c], "turn", events)
            if c.rank == "WB":
                events.append(Event("bomb", player=p))
                s["bomb"], s["extra"] = c.id, 3
                continue
            if self._plays(p, [c]):
                self.queue.pop(0)
                self.phase, self.drawn, self.current = "drawn", c.id, p
                return False
            if c.rank == "N":
                self.queue.insert(0, {"op": "needle", "who": p})
                return False

    def _step_draw(self, s: dict, events: list[Event]) -> bool:
        q = s["who"]
        toks = self.tokens[q]
        if s["stage"] == "start":
            s["stage"] = "ace"
            if s["forced"]:
                if "double" in toks:
                    self._lose_token(q, "double", events, "trigger")
                    if s["until"] is None:
                        s["n"] *= 2
                    else:
                        s["double"] = True
                hexes = toks.count("hex")
                if hexes:
                    events.append(Event("token_effect", player=q, reason="hex", count=hexes))
                    if s["until"] is None:
                        s["n"] += hexes
                    else:
                        s["hex"] = hexes
        if s["stage"] == "ace":
            s["stage"] = "white"
            if s["forced"] and s["until"] is None and s["n"] >= 1 and "ace" in toks and self.draw_pile:
                self.queue.insert(0, {"op": "search", "who": q, "where": "draw", "ace": True})
                return False
        if s["stage"] == "white":
            s["stage"] = "draw"
            if s["forced"] and s["until"] is None and s["n"] >= 1 and "white" in toks:
                if self._white(q, events):
                    s["got"].append(self.hands[q][-1].id)
                    self._lose_token(q, "white", events, "trigger")
                    s["n"] -= 1
        if s["stage"] == "draw":
            batch: list[Card] = []
            needle = False
            while not s["stopped"]:
                if s["until"] is None and s["n"] <= 0:
                    break
                c = self._draw_one(events)
                if c is None:
                    s["until"], s["n"] = None, 0
                    break
                batch.append(c)
                if s["until"] is not None:
                    s["counted"] += 1
                    if c.color == s["until"]:
                        # The colour came: what is still due is the extra cards (n), a Double's
                        # second helping of all of it, and the Hex cards.
                        s["until"] = None
                        s["n"] = s["n"] * (2 if s["double"] else 1) + (s["counted"] if s["double"] else 0) + s["hex"]
                else:
                    s["n"] -= 1
                if c.rank == "N" and (s["n"] > 0 or s["until"] is not None):
                    needle = True
                    break
            if batch:
                s["got"] += [c.id for c in batch]
                self._give(q, batch, s["reason"], events)
            if needle:
                self.queue.insert(0, {"op": "needle", "who": q})
                return False
            s["stage"] = "magnet"
        if s["stage"] == "magnet":
            self.queue.pop(0)
            holders = [h for h in self.active if h != q and "magnet" in self.tokens[h]]
            mine = {c.id for c in self.hands[q]}
            got = [i for i in s["got"] if i in mine]
            if s["forced"] and holders and got and len(self.hands[q]) >= 2:
                self.queue.insert(0, {"op": "magnet", "who": q, "cards": got, "holders": holders})
        return False

    # -- explanations ---------------------------------------------------------------------------
    def _explain_turn(self, p: int, action: Action) -> str:
        hints = {
            "play": "play a matching card on a pile, or draw (d)",
            "drawn": "play the card you drew, or keep it (p)",
            "stack": "answer the stack on its pile with a stacking card, challenge a Draw 4, or draw (d)",
            "color": "name a colour: red, yellow, green or blue",
            "sub": "use your Sub token to name the colour, or let it be (p)",
            "choice": "choose the Choice's effect",
            "target": "choose a player",
            "token": "draw a token to give, or remove one",
            "give": "give the token to a player who may take it",
            "steal": "take a token from another player",
            "drop": "choose a player whose tokens all go",
            "search": "take a card from the searched pile, or none (p)",
            "stitch": "choose the pile to stitch on",
            "discard": "discard a card, or stop discarding (p)",
            "proc": "choose a token effect to activate",
            "replace": "replace the Block with a token from the bag, or not (p)",
            "link": "play an underlined number, or not (p)",
            "give_card": "give a card to the next player, or not (p)",
            "magnet": "give a drawn card to a Magnet holder, or not (p)",
            "needle": "stop drawing (the Needle) or go on drawing (d)",
            "challenge": "challenge the card, or accept it",
        }
        return f"{action} is not legal now: {hints.get(self.phase, 'wait')}"

    def _explain(self, p: int, action: Action) -> str:
        if action.kind == "play" and p != self.current and self.phase not in ("over",):
            if "silence" in self.tokens[p]:
                return "a Silence token keeps you from jumping in"
            return "only a card identical to a top card (or a Stop on a power card of its colour) can jump in"
        return super()._explain(p, action)

    # -- invariants -------------------------------------------------------------------------------
    def all_cards(self) -> list[Card]:
        return [c for h in self.hands for c in h] + self.draw_pile + self.set_aside + [
            c for pile in self.piles for c in pile]

    def _inconsistencies(self) -> list[str]:
        out = []
        k = len(self.piles)
        if not all(len(x) == k for x in (self.colors, self.jump_ok, self.skipped, self.reversed)):
            out.append("the piles' colours and marks do not match the piles")
        if any(not pile for pile in self.piles):
            out.append("a discard pile is empty")
        if not 0 <= self.focus < k or self.discard is not self.piles[self.focus]:
            out.append("the focused pile is not the discard pile")
        if any(c is not None and c not in COLORS and c != WHITE for c in self.colors):
            out.append(f"a pile's colour is neither a suit nor white: {self.colors}")
        held = Counter(self.bag) + sum((Counter(t) for t in self.tokens), Counter())
        for s in self.queue:  # a token on its way: drawn and not yet given, or a Block being replaced
            held[s["token"] if s["op"] == "give" else "block"] += s["op"] in ("give", "replace")
        if held != Counter(token_bag()):
            out.append(f"tokens are lost or made: {dict(held - Counter(token_bag()))} "
                       f"{dict(Counter(token_bag()) - held)}")
        if any(len(t) > TOKEN_LIMIT for t in self.tokens):
            out.append(f"a player carries more than {TOKEN_LIMIT} tokens")
        return out

    # -- observation -------------------------------------------------------------------------------
    def _public_pending(self) -> dict[str, Any] | None:
        if self.pending is None:
            return None
        return {k: v for k, v in self.pending.items() if k != "bluff"}

    def _observe_public(self, obs: dict[str, Any]) -> None:
        obs["discard"] = [self.discard[-1].to_dict()] if self.discard else []
        obs["piles"] = [{"top": pile[-1].to_dict() if pile else None, "count": len(pile), "color": self.colors[i],
                         "jump": self.jump_ok[i]} for i, pile in enumerate(self.piles)]
        obs["focus"] = self.focus
        obs["tokens"] = [sorted(t, key=token_order) for t in self.tokens]
        obs["bag_count"] = len(self.bag)
        for q, pl in enumerate(obs["players"]):
            pl["tokens"] = obs["tokens"][q]
            pl["revealed"] = "reveal" in self.tokens[q]
            pl["mirror_armed"] = self.armed[q]
            if pl["revealed"]:
                pl["hand"] = [c.to_dict() for c in self.hands[q]]
        step = self._step_now()
        obs["step"] = None if step is None else copy.deepcopy({  # a snapshot: the queue's steps change in place
            k: v for k, v in step.items()
            if k in ("op", "who", "pile", "token", "card", "by", "mode", "color", "holder", "to", "stack",
                     "effect", "holders", "where")})

    def _step_now(self) -> dict[str, Any] | None:
        return self.queue[0] if self.queue and self.phase not in RESTING else None

    def _observe_private(self, obs: dict[str, Any], me: int | None) -> None:
        step = self._step_now()
        if step is not None and step["op"] == "search" and me == step["who"]:
            where = step["where"]
            cards = self.draw_pile if where == "draw" else self.piles[where][:-1]
            obs["search"] = [c.to_dict() for c in sorted(cards, key=lambda c: c.id)]

    # -- serialisation --------------------------------------------------------------------------------
    def _save_extra(self) -> dict[str, Any]:
        return {
            "piles": [[c.id for c in p] for p in self.piles],
            "colors": list(self.colors),
            "focus": self.focus,
            "jump_ok": list(self.jump_ok),
            "skipped": list(self.skipped),
            "reversed": list(self.reversed),
            "tokens": [list(t) for t in self.tokens],
            "bag": list(self.bag),
            "queue": copy.deepcopy(self.queue),
            "armed": list(self.armed),
        }

    def _load_extra(self, d: dict[str, Any]) -> None:
        self.piles = [[self.cards[i] for i in p] for p in d["piles"]]
        self.colors = list(d["colors"])
        self.jump_ok = list(d["jump_ok"])
        self.skipped = list(d["skipped"])
        self.reversed = list(d["reversed"])
        self.tokens = [list(t) for t in d["tokens"]]
        self.bag = list(d["bag"])
        self.queue = copy.deepcopy(list(d["queue"]))
        self.armed = [bool(x) for x in d.get("armed", [False] * len(self.names))]
        if self.pending is not None:
            self.pending = dict(self.pending)
        self._focus(d["focus"])


def _distinct(cards: list[Card]) -> list[Card]:
    """One card per face, the first of each (a choice among identical cards is one choice)."""
    seen: set = set()
    out = []
    for c in cards:
        if c.face not in seen:
            seen.add(c.face)
            out.append(c)
    return out


_POWER = frozenset({"S", "R", "+2", "ST", "TG", "DG", "TK", "TR", "SH", "PR", "CD", "SL", "RV", "SD"})
_FX_NAMES = {
    "S": "skip", "R": "reverse", "+2": "draw2", "ST": "stop", "TG": "tag", "DG": "dagger", "TK": "token",
    "TR": "trade", "SH": "share", "PR": "proc", "CD": "cut", "SL": "steal", "RV": "revive", "SD": "stitch",
    "W+4": "draw4", "WM": "mulligan", "WF": "flush", "WDC": "drawcolor", "WC": "choice",
}
