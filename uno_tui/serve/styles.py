"""Parsed stylesheets shared by every app a process runs, and by every session forked after.

Textual parses an app's CSS (its files and every widget's ``DEFAULT_CSS``)
each time an app starts, into a cache that belongs to that app alone. A
served session starts several apps (the menu, a table, the menu again), and
every session used to parse the same CSS again: the largest part of the
time from a connection to its menu drawn. :class:`SharedStylesheet` keeps
the parsed rules in one process-wide cache instead, keyed by the CSS, where
it came from and the theme's variables (the rules have the variables
substituted in); the fork server fills it once (:func:`.zygote.warm`) and
every session starts with it full.

A parsed rule set is only read once made, and each app's styles are built
from it afresh, so sharing the rules shares nothing an app changes.
"""

from __future__ import annotations

from typing import Any

from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet

_PARSED: dict[tuple[Any, ...], list[RuleSet]] = {}
"""Rules by (theme variables, CSS, origin, defaults?, tie breaker, scope)."""
MAX_PARSED = 512
"""Entries kept (a handful of apps and themes need a few hundred); past this, no more are added."""


class SharedStylesheet(Stylesheet):
    """A :class:`~textual.css.stylesheet.Stylesheet` whose parsed rules come from the process-wide cache."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._theme_key: tuple[tuple[str, str], ...] | None = None

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._theme_key = None

    def _parse_rules(self, css: str, read_from: Any, is_default_rules: bool = False, tie_breaker: int = 0,
                     scope: str = "") -> list[RuleSet]:
        if self._theme_key is None:
            self._theme_key = tuple(sorted(self._variables.items()))
        key = (self._theme_key, css, read_from, is_default_rules, tie_breaker, scope)
        rules = _PARSED.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            if len(_PARSED) < MAX_PARSED and not any(rule.errors for rule in rules):
                _PARSED[key] = rules
        return rules


_VARIABLES: dict[tuple[Any, ...], dict[str, str]] = {}
"""The CSS variables by (app class, theme): Textual works them out from the theme's colours each time
an app asks (twice as one starts), a few milliseconds each."""


class SharedStyles:
    """Mixin for an :class:`textual.app.App`: its CSS parsed once per process (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[call-arg]
        app: Any = self
        app.stylesheet = SharedStylesheet(variables=app.get_css_variables())

    def get_css_variables(self) -> dict[str, str]:
        app: Any = self
        theme = app.current_theme
        key = (type(self), repr(theme))  # (a theme is a dataclass: its repr names every colour)
        variables = _VARIABLES.get(key)
        if variables is None:
            variables = super().get_css_variables()  # type: ignore[misc]
            if len(_VARIABLES) < MAX_PARSED:
                _VARIABLES[key] = variables
        app.theme_variables = dict(variables)  # (as Textual's own sets it)
        return dict(variables)
