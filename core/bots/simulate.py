"""Bot-only games without a screen (``uno-tui simulate``)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..registry import variant_class
from .base import make_bot


@dataclass
class SimulationResult:
    levels: list[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)
    """Rounds won per seat; a tie shares the round between the tied seats."""
    moves: int = 0
    seconds: float = 0.0

    @property
    def shares(self) -> list[float]:
        return [w / self.games if self.games else 0.0 for w in self.wins]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def tell(bots: Sequence[Any] | Mapping[int, Any], events: Sequence[Any]) -> None:
    """Show each seat's bot (a list by seat, or a map seat -> bot) the events as that seat sees them."""
    seated = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    for seat, bot in seated:
        if bot is not None:
            bot.observe(seat, [e.view(seat) for e in events])


def play_round(game: Any, bots: Sequence[Any], max_moves: int = 20000) -> int:
    """Play one round with ``bots[p]`` deciding for seat p; return the move count.

    Each step asks every player who may act, in :meth:`~core.Game.acting_order`
    (out-of-turn players first, as a person would shout "UNO!"), and applies the
    first action offered, so out-of-turn calls race fairly with the turn. Every
    bot is shown the deal and each move's events as its seat sees them.
    """
    moves = 0
    tell(bots, game.deal_events)
    while not game.over:
        if moves >= max_moves:
            raise RuntimeError(f"round did not end after {max_moves} moves")
        acted = False
        for p in game.acting_order():
            action = bots[p].choose(game.observation(p))
            if action is not None:
                tell(bots, game.apply(p, action))
                moves += 1
                acted = True
                break
        if not acted:
            raise RuntimeError(f"no bot acted, though it is player {game.current}'s turn")
    return moves


def simulate(
    variant: str,
    levels: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    **settings: Any,
) -> SimulationResult:
    """Play ``games`` single rounds among bots of ``levels`` (one per seat).

    Each game is one round; its winner is the round's winner (a tie is
    shared). Seats keep their levels; the deal changes with each game's seed.
    ``progress`` is told the number of games played after each one (a progress bar).
    """
    cls = variant_class(variant)
    result = SimulationResult(levels=list(levels), wins=[0.0] * len(levels))
    bots = [make_bot(lv, seed=f"{seed}:{i}", **settings) for i, lv in enumerate(levels)]
    start = time.perf_counter()
    for g in range(games):
        game = cls(len(levels), seed=f"{seed}:{g}", options=options)
        result.moves += play_round(game, bots)
        winners = game.round_winners
        for w in winners:
            result.wins[w] += 1 / len(winners)
        result.games += 1
        if progress is not None:
            progress(result.games)
    result.seconds = time.perf_counter() - start
    return result
