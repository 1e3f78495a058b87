"""Diez: UNO with 170 cards, White and Blank cards, several discard piles,
challenges on four cards, jump-ins, and a bag of 24 tokens.

See ``docs/rules/diez.md`` for the rules and every reading of the seed. This module is
the table: its state, the turn's own phases, matching, jump-ins, playing a card and
running the turn's queue of *steps*. Playing a card queues steps (name a colour, carry out
the effect, end the turn); each kind is a class in :data:`.steps.STEPS`: the decisions
in ``decisions.py``, the draws in ``draws.py``, the effects in ``effects.py``, and a sealed
game's own (its claims) in ``sealed.py``. Views are built in ``view.py``, scripted positions
laid out in ``scripted.py``. A step
that needs a decision sets :attr:`phase` to its name and waits for its player (the
:attr:`decision`); :attr:`current` stays whose turn it is. The queue is saved state.

Resting phases (the queue is empty): ``play``, ``drawn`` (a playable card was
just drawn) and ``stack`` (a draw stack waits for its victim). Decision
phases: ``color``, ``sub``, ``choice``, ``target``, ``token``, ``give``,
``steal``, ``drop``, ``search``, ``stitch``, ``discard``, ``proc``,
``replace``, ``link``, ``give_card``, ``magnet``, ``needle``, ``challenge``; and in a sealed
game ``drawing``, ``forced_draw``, ``rule``, ``white``.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from ...actions import CHALLENGE, DRAW, PASS, UNO, Action
from ...cards import COLORS, Card
from ...decisions import Step, StepState
from ...events import Event
from ...game import Game, Option
from ...registry import register
from . import decisions, draws, effects, jumps, scripted, sealed, tokens, view  # noqa: F401  (steps register)
from .cards import (
    BLANK, CHALLENGEABLE, STACKABLE_PROCS, STACKERS, TOKEN_LIMIT, UNDERLINED, WHITE, build_faces, has_effect,
    is_black, points, token_bag,
)
from .steps import JUMP_PHASES, RESTING, STEPS, draw_step

SCORING = ("points", "rounds")


@register
class DiezGame(Game):
    """Diez for 2 to 10 players, 7 cards each."""

    variant = "diez"
    start_aside = True  # "the *top* card of the discard pile ... must be a non-white number"
    min_players = 2
    max_players = 10
    asks_others = True
    sealable = True
    hand_size = 7
    AUTOMATIC = frozenset({"drawing", "forced_draw", "rule", "white"})
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
        setup, extra = scripted.split(setup)
        super()._setup(setup)
        scripted.lay_out(self, extra)

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
        if self._slots is not None:  # a sealed game plays only the cards it can see
            cards = self._seen(cards)
        n = len(self.piles)
        for c in cards:
            ok = [i for i in range(n) if self._matches(p, c, i)]
            out += [Action("play", c.id, None, self._pt(i)) for i in ok]
            if ok and c.rank in ("CD", "WC"):
                out.append(Action("play", c.id, None, n))  # start a new pile
        return out

    def _stack_plays(self, v: int) -> list[Action]:
        if "silence" in self.tokens[v]:
            return []
        i = self.pending["pile"]
        procs = any(k in tokens.in_play(self) for k in STACKABLE_PROCS)
        out = []
        for c in self._seen(self.hands[v]):
            if c.rank in STACKERS and self._matches(v, c, i) and (c.rank != "PR" or procs):
                out.append(Action("play", c.id, None, self._pt(i)))
        return out

    # -- legal actions --------------------------------------------------------------------------
    def _uno(self, p: int, acts: list[Action]) -> None:
        # A sealed game cannot see others' cards: a call with a hidden card is its caller's word.
        if ((acts or self._could_hide(self.hands[p])) and self.options["uno_calls"] and len(self.hands[p]) == 2
                and not self.declared[p]):
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
        return []

    def _decider(self) -> int:
        if self.phase in RESTING or not self.queue:
            return self.current
        return Step.decider(self.queue[0])

    def _decision_actions(self, p: int) -> list[Action]:
        if self.phase in RESTING or not self.queue:
            return self._turn_actions(p)
        step = self.queue[0]
        return STEPS[step["op"]].legal(self, p, step)

    # -- jump-ins (jumps.py) ---------------------------------------------------------------------
    def _has_out_of_turn(self) -> bool:
        return self.phase in JUMP_PHASES and True in self.jump_ok

    def _out_of_turn_actions(self, p: int) -> list[Action]:
        return jumps.jump_ins(self, p)

    # -- UNO catches ----------------------------------------------------------------------------
    def _catch_draw(self, q: int, n: int, events: list[Event]) -> None:
        # A catch is no card's doing, so no token acts on it, but the Needle lets the drawer stop
        # "regardless of what caused them to draw". The draw is a step in front of whatever was
        # going on, which carries on afterwards as it was.
        step = draw_step(q, n, reason="uno")
        if self.phase in RESTING:
            self.queue = [step, {"op": "resume", "who": self.current, "phase": self.phase, "drawn": self.drawn}]
        else:
            self.queue.insert(0, step)
        self._run(events)
        if self._slots is not None and self.phase != "over":
            sealed.open_revealed(self)  # a catch is no _do: the cards drawn by a Reveal holder

    # -- carrying out actions --------------------------------------------------------------------
    def _do(self, p: int, action: Action, events: list[Event]) -> None:
        self._do_move(p, action, events)
        if self._slots is not None and self.phase != "over":
            sealed.open_revealed(self)

    def _do_move(self, p: int, action: Action, events: list[Event]) -> None:
        kind = action.kind
        if kind == "play" and p != self._decider():
            jumps.jump_in(self, p, action, events)
            return
        ph = self.phase
        if ph in ("play", "drawn"):
            if kind == "play":
                self._play(p, self.cards[action.card], action.target or 0, events)
            elif kind == "draw":
                draws.turn_draw(self, p, events)
            else:
                events.append(Event("pass", player=p, reason="keep" if ph == "drawn" else "empty"))
                self._pass_turn(p)
        elif ph == "stack":
            if kind == "play":
                self._play(p, self.cards[action.card], action.target or 0, events)
            elif kind == "draw":
                effects.take_stack(self, p, events)
            else:
                effects.challenge_stack(self, p, events)
        else:
            step = self.queue[0]
            STEPS[step["op"]].resolve(self, p, action, step, events)
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
        bluff: Any = card.rank in CHALLENGEABLE and before is not None
        if bluff and self._slots is not None:
            # A sealed game cannot tell: a challenger is shown the hand it was played from and rules.
            bluff = {"hand": [c.id for c in hand if c.id != card.id], "color": before}
        elif bluff:
            bluff = any(c.color == before for c in hand if c.id != card.id)
        hand.remove(card)
        card = self._open([card])[0]  # a sealed game: shown as it is played (sent with the move)
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
            tokens.lose(self, p, "snare", events, "trigger", by=p)
        end = {"op": "end", "who": p, "to": None, "phase": "play", "play": True}
        steps: list[dict[str, Any]] = []
        if card.rank == "WDA" and not snared:
            steps.append({"op": "drop", "who": p})
        if is_black(card):
            steps.append({"op": "color", "who": p, "pile": i, "sub": True})
        if snared and on_stack:
            self.pending = None
            steps.append(draw_step(p, t0, forced=True))
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
        """Run the queue's steps until one waits for a decision, the queue is done or the round is."""
        while self.queue and self.phase != "over":
            step = self.queue[0]
            if STEPS[step["op"]].start(self, step, events):
                return

    def _wait(self, step: StepState, phase: str | None = None, who: int | None = None) -> bool:
        """Wait on ``step``, in the phase named for it (or ``phase``), for its player (or ``who``).

        The turn stays :attr:`current`'s; the player asked is the decision's (:meth:`_decider`).
        """
        self.phase = phase or step["op"]
        if who is None or who == step["who"]:
            step.pop("asks", None)
        else:
            step["asks"] = who
        return True

    # -- explanations ---------------------------------------------------------------------------
    def _card_lists(self) -> list[list[Card]]:
        return [*self.hands, self.draw_pile, *self.piles, self.set_aside]

    def _face_down(self) -> list[Card]:
        # A scripted Reveal token's holder plays with its hand face up from the start.
        return [c for q, h in enumerate(self.hands) if "reveal" not in self.tokens[q] for c in h] + self.draw_pile

    def _claim_cards(self, p: int) -> list[Card]:
        cards = sealed.claim_cards(self, p)
        return super()._claim_cards(p) if cards is None else cards

    def _claim_words(self, p: int, action: Action) -> str:
        return sealed.claim_words(self, p, action) or super()._claim_words(p, action)

    def _explain_turn(self, p: int, action: Action) -> str:
        if self.phase in RESTING or not self.queue:
            hint = {"play": "play a matching card on a pile, or draw (d)",
                    "drawn": "play the card you drew, or keep it (p)",
                    "stack": "answer the stack on its pile with a stacking card, challenge a Draw 4, or draw (d)",
                    }.get(self.phase, "wait")
        elif self.phase == "sub":
            hint = "use your Sub token to name the colour, or let it be (p)"
        else:
            hint = STEPS[self.queue[0]["op"]].hint
        return f"{action} is not legal now: {hint}"

    def _explain(self, p: int, action: Action) -> str:
        if action.kind == "play" and self.phase != "over" and p != self._decider():
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

    # -- observation (view.py) -----------------------------------------------------------------------
    def _public_pending(self) -> dict[str, Any] | None:
        return view.public_pending(self)

    def _observe_public(self, obs: dict[str, Any]) -> None:
        view.observe_public(self, obs)

    def _observe_private(self, obs: dict[str, Any], me: int | None) -> None:
        view.observe_private(self, obs, me)

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
        if self.phase == "sub" and self.queue and "asks" not in self.queue[0]:
            self.queue[0]["asks"] = self.current  # saved before steps named the player they ask

