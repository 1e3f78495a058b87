"""The ``hard`` level: information-set Monte Carlo tree search (see :mod:`.bot`).

* :mod:`.belief` - what a seat knows about the hidden cards, from its events;
* :mod:`.determinize` - a full game consistent with a seat's observation;
* :mod:`.adapter` - the rollout interface over the full engine;
* :mod:`.search` - the tree search itself;
* :mod:`.bot` - the bot, its budget and its searchers.
"""

from .bot import DEFAULT_ITERATIONS, Budget, HardBot, SearchRoot, Searcher, iterations, local_searcher, search

__all__ = ["DEFAULT_ITERATIONS", "Budget", "HardBot", "SearchRoot", "Searcher", "iterations",
           "local_searcher", "search"]
