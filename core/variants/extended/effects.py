"""Effects of the extended rules: their classes, the seed's priority order, and how
effects meet.

An *effect* is a plain dict (so it is saved with the game and sent over the wire)::

    {"id": 7, "kind": "draw", "cls": "activating", "tier": 6, "on": 2,
     "trail": [move, ...], ...kind-specific fields}

``on`` is the player the effect sits on (or is aimed at). ``trail`` records every
*move* that brought it there: the card(s) played, by whom, the effect's fields just
before (``prev``, ``None`` for the move that created it) and what ``last`` and the
colour were before the card replaced them. The trail is what makes the rules
uniform:

* a Rebound (反弹) sends an effect back to the player of the latest move;
* a Regret Pill (后悔药) pops the latest move and restores ``prev`` (the card goes
  back to its player, who plays again without it);
* nobody in a trail can win while the effect is unresolved (it can still come
  back to them: the seed's win condition).

The priority order of the seed (禁,炸弹 > 后悔药 > 寡妇 > 神手,夹子 > 决斗,缴械,抬杠,C4
等高级功能牌 > 反弹,pass 等防御功能牌 > 转移,加牌等低级功能牌) is :data:`TIER` (0 is the
highest). It is used wherever effects meet:

* the judgement phase resolves the activating effects on a player highest first;
* a counter card answers an effect only if the card's tier is *higher* (a smaller
  number) than the effect's, so a Skip or a Bomb cannot be answered at all, a
  Regret Pill answers everything below them, a Widow everything from a swap down,
  and Rebound and pass only the low draw and transfer effects.
"""

from __future__ import annotations

import copy
from typing import Any

CLASSES = ("instant", "lasting", "activating", "aoe", "self")
"""The seed's effect classes: 即时性, 持续性, 激活性, AOE, 自生效."""

TIER: dict[str, int] = {
    # 禁, 炸弹
    "stun": 0, "bomb": 0,
    # 后悔药
    "regret": 1,
    # 寡妇
    "widow": 2,
    # 神手, 夹子
    "swap": 3, "clip": 3,
    # 决斗, 缴械, 抬杠, C4 等高级功能牌 (手榴弹, 紧箍咒, 天选之子 are advanced cards too)
    "duel": 4, "disarm": 4, "argue": 4, "c4": 4, "grenade": 4, "curse": 4, "chosen": 4,
    # 反弹, pass 等防御功能牌
    "rebound": 5, "pass": 5,
    # 转移, 加牌等低级功能牌
    "transfer": 6, "draw": 6,
}

KIND_CLASS: dict[str, str] = {
    "stun": "activating", "draw": "activating", "transfer": "activating", "disarm": "activating",
    "curse": "activating",
    "swap": "instant", "clip": "instant", "duel": "instant",
    "bound": "lasting", "lock": "lasting", "weak": "lasting",
    "grenade": "aoe", "c4": "aoe", "argue": "aoe",
}
"""The class of each effect kind. ``bound`` is the Headband Curse's lasting sub-effect,
``lock`` the transfer lock (禁锢) after accepting a transfer, ``weak`` weakness (虚弱)."""

COUNTER_TIER: dict[str, int] = {"REGRET": TIER["regret"], "WIDOW": TIER["widow"],
                                "WRB": TIER["rebound"], "WPASS": TIER["pass"]}
"""Cards that answer an effect aimed at you, with their priority."""

CARD_EFFECT: dict[str, str] = {
    "S": "stun", "+2": "draw", "W+4": "draw", "T4": "transfer", "T5": "transfer",
    "HAND": "swap", "CLIP": "clip", "DUELC": "duel", "DUELN": "duel", "DISARM": "disarm",
    "CURSE": "curse", "WGREN": "grenade", "WC4": "c4", "WARG": "argue", "BOMB": "bomb",
    "CHOSEN": "chosen",
}
"""The effect each card puts into play."""

DRAW_VALUE = {"+2": 2, "W+4": 4}

_MUTABLE = ("on", "total", "max", "layers")


def new_effect(eid: int, kind: str, on: int, **fields: Any) -> dict[str, Any]:
    e = {"id": eid, "kind": kind, "cls": KIND_CLASS[kind], "tier": TIER.get(kind), "on": on, "trail": []}
    e.update(fields)
    return e


def push_move(e: dict[str, Any], cards: list[int], by: int, last: int | None, color: str | None) -> None:
    """Record a move *before* it changes the effect (so ``prev`` is the state to go back to)."""
    prev = {k: copy.deepcopy(e[k]) for k in _MUTABLE if k in e} if e["trail"] else None
    e["trail"].append({"cards": list(cards), "by": by, "prev": prev, "last": last, "color": color})


def pop_move(e: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Undo the latest move; returns it and whether the effect still exists."""
    move = e["trail"].pop()
    if move["prev"] is None:
        return move, False
    for k, v in move["prev"].items():
        e[k] = v
    return move, True


def sources(e: dict[str, Any]) -> set[int]:
    """Everyone the effect could still come back to (every player in its trail)."""
    return {m["by"] for m in e["trail"]}


def attached(e: dict[str, Any]) -> list[int]:
    """Card ids riding on a transfer effect, face down."""
    return [i for layer in e.get("layers", ()) for i in layer["cards"]]


def trail_cards(e: dict[str, Any]) -> list[int]:
    return [i for m in e["trail"] for i in m["cards"]]


def can_counter(rank: str, e: dict[str, Any], *, aoe: bool = False) -> bool:
    """Whether a card of ``rank`` may answer effect ``e`` aimed at its holder.

    The priority rule: only a card of higher priority (smaller tier) answers an
    effect. A Rebound or pass redirects, so it needs an activating effect that
    travels (draw, transfer); a Regret Pill takes back the card of the latest move,
    so it needs a trail and is not used inside an AOE chain.
    """
    t = COUNTER_TIER.get(rank)
    et = e.get("tier")
    if t is None or et is None or t >= et:
        return False
    if rank in ("WRB", "WPASS"):
        return e["kind"] in ("draw", "transfer")
    if rank == "REGRET":
        return not aoe and bool(e["trail"])
    return True


def judge_order(effects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The activating effects on a player in the order the judgement resolves them:
    highest priority first, then in order of arrival."""
    return sorted((e for e in effects if e["cls"] == "activating"), key=lambda e: (e["tier"], e["id"]))


def public(e: dict[str, Any]) -> dict[str, Any]:
    """What everyone may see of an effect: never the faces of attached cards."""
    out = copy.deepcopy({k: v for k, v in e.items() if k not in ("trail", "layers", "id")})
    out["effect_id"] = e["id"]  # not "id": a map with "id" and "rank" reads as a card
    out["by"] = e["trail"][-1]["by"] if e["trail"] else None
    out["sources"] = sorted(sources(e))
    if "layers" in e:
        out["attached"] = len(attached(e))
        out["layers"] = [{"by": layer["by"], "count": len(layer["cards"])} for layer in e["layers"]]
    return out
