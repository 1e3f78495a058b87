"""The extended rules' decisions: each phase the game can wait in, one class each, in
:data:`STEPS`: the turn's own (choosing the direction, the judgement, the draw and play phase)
and the interactions that ask another player (answering a swap, a clip or a duel, the colour
duel's picks, attaching cards to a transfer, choosing cards to shed or keep, the grenade, C4
and 抬杠 chains). A class says what the player may answer (``legal``) and how it resolves
(``resolve``); the interaction under way is :attr:`ExtendedGame.ctx` (its ``who`` is the
player it waits on), which the engine reports as :attr:`core.Game.decision`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...actions import DRAW, PASS, Action, play_action
from ...cards import COLORS, Card
from ...decisions import Step, StepState, Steps
from ...events import Event
from . import effects as fx
from . import plays
from .plays import ACCEPT, EXPLODE, NAMES_COLOR, REFUSE, SEND, TARGETED

if TYPE_CHECKING:
    from .game import ExtendedGame

DUEL_COLORS = COLORS + ("black",)
STEPS: Steps[ExtendedGame] = Steps()
"""Every phase of the extended rules that waits for a decision, by name."""


# -- what is legal --------------------------------------------------------------------------------

def counters(g: ExtendedGame, p: int, e: dict[str, Any], *, aoe: bool = False) -> list[Action]:
    if g._has(p, "weak"):
        return []
    return [play_action(c.id) for c in g.hands[p]
            if c.rank in fx.COUNTER_TIER and c.id != g.turn["forbid"] and fx.can_counter(c.rank, e, aoe=aoe)]


def card_acts(g: ExtendedGame, p: int, card: Card, kind: str = "play", color: str | None = None) -> list[Action]:
    if card.rank in NAMES_COLOR:
        return [Action(kind, card.id, c) for c in COLORS]
    if card.rank in TARGETED:
        return [Action(kind, card.id, color, t) for t in g.active if t != p]
    if kind == "play":
        return [play_action(card.id)]
    return [Action(kind, card.id, color)]


def can_stack_transfer(g: ExtendedGame, p: int, card: Card) -> bool:
    return not any(e["kind"] == "lock" and e["rank"] == card.rank for e in g.effects[p])


def discardable(g: ExtendedGame, p: int) -> list[Card]:
    if g.ctx and g.ctx.get("filter") == "function":
        return [c for c in g.hands[p] if not c.is_number]
    return list(g.hands[p])


def judge_actions(g: ExtendedGame, p: int) -> list[Action]:
    e = g._pending(p)[0]
    acts = [ACCEPT]
    if e["kind"] == "disarm":
        acts.append(REFUSE)
    if not g._has(p, "weak"):
        forbid = g.turn["forbid"]
        for c in g.hands[p]:
            if c.id == forbid:
                continue
            if e["kind"] == "draw" and fx.DRAW_VALUE.get(c.rank, 0) >= e["max"]:
                acts += card_acts(g, p, c)
            elif e["kind"] == "transfer" and c.rank == e["rank"] and can_stack_transfer(g, p, c):
                acts.append(play_action(c.id))
        acts += counters(g, p, e)
    return acts


def main_actions(g: ExtendedGame, p: int) -> list[Action]:
    t = g.turn
    hand = g.hands[p]
    forbid = t["forbid"]
    acts: list[Action] = []
    if not t["played"] or t["extra"] > 0:
        camo = any(c.rank == "WCAMO" for c in hand)
        for c in hand:
            if c.id == forbid or c.rank == "WCAMO":
                continue
            if g._can_play(p, c):
                acts += card_acts(g, p, c)
            if camo and c.color is not None:
                for col in COLORS:
                    if g._can_play(p, c, col):
                        acts += card_acts(g, p, c, "camo", col)
    if t["drew"] is None and not t["played"] and g._room(p) and g._can_draw():
        acts.append(DRAW)
    if t["drew"] is not None or t["played"] or not acts:
        acts.append(PASS)  # end the turn (or: nothing can be drawn or played)
    return acts


def aoe_actions(g: ExtendedGame, p: int) -> list[Action]:
    ctx = g.ctx
    assert ctx is not None
    hand = g.hands[p]
    acts: list[Action] = []
    if g.phase == "grenade":
        want = ctx["color"]
        camo = any(c.rank == "WCAMO" for c in hand)
        for c in hand:
            if c.color == want:
                acts += [Action("play", c.id, col) for col in COLORS]
            elif camo and c.color is not None:
                acts += [Action("camo", c.id, col) for col in COLORS]
        if not acts:
            acts.append(EXPLODE)
    elif g.phase == "c4":
        acts = [play_action(c.id) for c in hand if c.is_number] + [EXPLODE]
    else:  # argue
        acts = [play_action(c.id) for c in hand if c.is_number and int(c.rank) >= ctx["x"]]
        if not acts:
            acts.append(REFUSE)
    if p != ctx["by"]:
        acts += counters(g, p, {"kind": g.phase, "tier": fx.TIER[g.phase], "trail": []}, aoe=True)
    return acts


# -- the turn -------------------------------------------------------------------------------------

@STEPS.register
class Direction(Step["ExtendedGame"]):
    """The first player of a round names the neighbour who plays second."""

    op = "direction"
    hint = "choose who plays after you: the player on either side"

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        n = g.num_players
        return list(dict.fromkeys(Action("direction", target=t) for t in ((p + 1) % n, (p - 1) % n)))

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        g.direction = 1 if action.target == (p + 1) % g.num_players else -1
        events.append(Event("direction", player=p, target=action.target, reason=str(g.direction)))
        g._begin_turn(p, events)


@STEPS.register
class Judge(Step["ExtendedGame"]):
    """The judgement: the activating effect of highest priority on the player, answered."""

    op = "judge"
    hint = ("answer the effect on you first: accept it, pass it on with a matching card, "
            "or counter it with a card of higher priority")

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        return judge_actions(g, p)

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        e = g._pending(p)[0]
        kind = e["kind"]
        if action.kind == "accept":
            g._remove(e)
            events.append(Event("accept", player=p, reason=kind, count=e.get("total", 0)))
            if kind == "draw":
                g._draw(p, e["total"], "penalty", events)
                g.turn["skip"] = True
            elif kind == "transfer":
                got = [g.cards[i] for i in fx.attached(e)]
                g._give(p, got, "transfer", events)
                g._add(p, "lock", rank=e["rank"])
            elif kind == "disarm":
                g.turn["skip"] = True
                if plays.shed_choice(g, p, 2, "function", events):
                    return
            elif kind == "curse":
                g._bind(p, events)
            g._judge(events)
            return
        if action.kind == "refuse":  # 缴械: draw four instead
            g._remove(e)
            events.append(Event("refuse", player=p, reason=kind))
            g._draw(p, 4, "penalty", events)
            g.turn["skip"] = True
            g._judge(events)
            return
        card = g.cards[action.card]
        if card.rank in fx.COUNTER_TIER:
            plays.counter(g, p, card, e, events)
            return
        # Not accepting: stack a draw card, or a transfer of the same kind, and pass it on.
        g.turn["skip"] = True
        g._remove(e)
        before = len(g.hands[p])
        lb, cb = g.last, g.color
        g._lay(p, [card], events, color=action.color)
        fx.push_move(e, [card.id], p, lb, cb)
        events.append(Event("stack", player=p, cards=(card,), color=g.color, reason=kind))
        if kind == "draw":
            v = fx.DRAW_VALUE[card.rank]
            e["total"] += v
            e["max"] = max(e["max"], v)
            g._hand_shrunk(p, before, events)
            plays.send(g, e, g._next(p), events)
            g._judge(events)
        else:
            e["layers"].append({"by": p, "cards": []})
            g.ctx = {"op": "attach", "who": p, "effect": e, "left": 2, "before": before}
            g.phase = "attach"


@STEPS.register
class Main(Step["ExtendedGame"]):
    """The draw and play phases: draw, play (or camouflage), or end the turn."""

    op = "main"

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        return main_actions(g, p)

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        t = g.turn
        if action.kind != "pass":
            g.stuck = 0
        if action.kind == "draw":
            got = g._draw(p, 1, "turn", events)
            t["drew"] = got[0].id if got else -1
            return
        if action.kind == "pass":
            stuck = not t["played"] and t["drew"] is None
            events.append(Event("pass", player=p, reason="stuck" if stuck else "end"))
            g.stuck = g.stuck + 1 if stuck else 0
            if stuck and g.stuck >= len(g.active):
                plays.unstick(g, events)
            g._end_turn(p, events)
            return
        card = g.cards[action.card]
        if action.kind == "camo":
            camo = next(c for c in g.hands[p] if c.rank == "WCAMO")
            plays.play(g, p, card, action, events, camo=camo)
        else:
            plays.play(g, p, card, action, events)


# -- interactions ---------------------------------------------------------------------------------

@STEPS.register
class React(Step["ExtendedGame"]):
    """An instant effect aimed at the player (神手, 夹子, a duel): accept it, or counter it."""

    op = "react"
    hint = "accept the effect aimed at you, or counter it (寡妇, 后悔药)"

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        return [ACCEPT] + counters(g, p, s["effect"])

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        e = g.ctx["effect"]
        if action.kind != "accept":
            plays.counter(g, p, g.cards[action.card], e, events)
            return
        by, kind = e["trail"][-1]["by"], e["kind"]
        g.ctx = None
        if kind == "swap":
            sizes = {by: len(g.hands[by]), p: len(g.hands[p])}
            g.hands[by], g.hands[p] = g.hands[p], g.hands[by]
            events.append(Event("swap", player=by, target=p))
            for q, before in sizes.items():
                # A hand that goes from more than one card to one must call UNO, as after a play.
                if len(g.hands[q]) != 1:
                    g.declared[q] = False
                    if g.exposed == q:
                        g.exposed = None
                elif before > 1:
                    g.declared[q] = False
                g._hand_shrunk(q, before, events)
        elif kind == "clip":
            mine = sorted(g.hands[p], key=lambda c: c.id)
            taken = g._shuffled(mine)[:2] if len(mine) > 2 else mine
            before = len(g.hands[p])
            for c in taken:
                g.hands[p].remove(c)
            g.hands[by].extend(taken)
            g._hand_grew(by)
            events.append(Event("clip", player=by, target=p, cards=tuple(taken), count=len(taken),
                                visible_to=(by, p)))
            g._hand_shrunk(p, before, events)
        else:
            plays.duel(g, e, events)
            return
        g._resume(events)


@STEPS.register
class Attach(Step["ExtendedGame"]):
    """A transfer's player attaches up to two cards face down, one at a time, then sends it."""

    op = "attach"
    hint = "attach up to two cards face down to the transfer, or send it"

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        acts = [Action("attach", c.id) for c in g.hands[p]] if s["left"] else []
        return acts + [SEND]

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        ctx = g.ctx
        e = ctx["effect"]
        if action.kind == "attach":
            c = g.cards[action.card]
            g.hands[p].remove(c)
            g._check_bound(p, events)
            e["layers"][-1]["cards"].append(c.id)
            ctx["left"] -= 1
            events.append(Event("attach", player=p, cards=(c,), count=1, visible_to=(p,)))
            if ctx["left"] and g.hands[p]:
                return
        plays.send_transfer(g, p, events)


@STEPS.register
class Duel(Step["ExtendedGame"]):
    """The colour duel: the two pick a colour in turn (five colours, four picks)."""

    op = "duel"
    hint = "pick a colour nobody has picked yet"

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        return [Action("choose", color=c) for c in DUEL_COLORS if c not in s["picks"]]

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        ctx = g.ctx
        ctx["picks"].append(action.color)
        events.append(Event("pick", player=p, color=action.color))
        a, b = ctx["by"], ctx["on"]
        if len(ctx["picks"]) < 4:
            ctx["who"] = b if p == a else a
            return
        c = plays.flip(g, a, False, events)
        col = None if c is None else (c.color or "black")
        picks = ctx["picks"]
        winner = None
        if col in picks:
            winner = a if picks.index(col) % 2 == 0 else b
        g.ctx = None
        plays.duel_result(g, a, b, winner, events)


@STEPS.register
class Discard(Step["ExtendedGame"]):
    """Cards to shed (a duel's winner, 缴械, 奖励), chosen one at a time."""

    op = "discard"
    hint = "choose a card to discard"

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        return [Action("discard", c.id) for c in discardable(g, p)]

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        c = g.cards[action.card]
        g._take(p, [c], events)
        g.discard.append(c)
        events.append(Event("discard", player=p, cards=(c,), count=1))
        g.ctx["left"] -= 1
        if g.ctx["left"] == 0 or not discardable(g, p):
            g._resume(events)


@STEPS.register
class Keep(Step["ExtendedGame"]):
    """天选之子: the one number card kept."""

    op = "keep"
    hint = "choose the number card to keep"

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        return [Action("keep", c.id) for c in g.hands[p] if c.is_number]

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        plays.keep_only(g, p, g.cards[action.card], events)
        g._resume(events)


class Chain(Step["ExtendedGame"]):
    """An AOE chain (手榴弹, C4, 抬杠): whoever it reaches plays on, or it ends on them."""

    def legal(self, g: ExtendedGame, p: int, s: StepState) -> list[Action]:
        return aoe_actions(g, p)

    def resolve(self, g: ExtendedGame, p: int, action: Action, s: StepState, events: list[Event]) -> None:
        ctx = g.ctx
        kind = g.phase
        by = ctx["by"]
        if action.kind == "play" and action.color is None and g.cards[action.card].rank == "WIDOW":
            card = g.cards[action.card]
            before = len(g.hands[p])
            g._lay(p, [card], events)
            g._hand_shrunk(p, before, events)
            events.append(Event("cancel", player=p, cards=(card,), reason=kind))
            plays.aoe_end(g, g._next(p) if kind == "grenade" else g._next(by), events)
            return
        if action.kind in ("explode", "refuse"):
            if kind == "argue":
                events.append(Event("refuse", player=p, reason="argue"))
                g._draw(p, 4, "argue", events)
                plays.aoe_end(g, g._next(by), events)
                return
            events.append(Event("explode", player=p, reason=kind))
            plays.reset(g, p, events)
            plays.aoe_end(g, g._next(p) if kind == "grenade" else g._next(by), events)
            return
        card = g.cards[action.card]
        before = len(g.hands[p])
        if action.kind == "camo":
            camo = next(c for c in g.hands[p] if c.rank == "WCAMO")
            g._lay(p, [camo, card], events, as_color=ctx["color"])
            laid: tuple[Card, ...] = (camo, card)
        else:
            g._lay(p, [card], events)
            laid = (card,)
        g._hand_shrunk(p, before, events)
        events.append(Event("play", player=p, cards=laid, color=g.color, reason=kind))
        if kind == "grenade":
            ctx["color"] = action.color
            ctx["who"] = g._next(p)
        elif kind == "c4":
            ctx["who"] = g._next(p, int(card.rank)) if int(card.rank) else p
        else:
            ctx["x"] = int(card.rank)
            ctx["who"] = g._next(p)
        events.append(Event("handover", player=p, target=ctx["who"], color=ctx.get("color"),
                            count=ctx.get("x", 0), reason=kind))


@STEPS.register
class Grenade(Chain):
    op = "grenade"
    hint = "play a card of the named colour and name the next colour, or blow up"


@STEPS.register
class C4(Chain):
    op = "c4"
    hint = "play a number card to pass the C4 on, or let it explode"


@STEPS.register
class Argue(Chain):
    op = "argue"
    hint = "play a number at least as high as the last one, or give up and draw four"
