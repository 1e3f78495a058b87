"""Observation patches: an update carries only what changed in the view its peer already holds.

A view (:meth:`core.Game.observation`) is a map of some forty keys, most of
which a move leaves alone; the discard pile only grows, and of the players'
rows one or two change. The host remembers the last view it sent each peer
and sends :func:`diff` of it; the peer rebuilds the whole view with
:func:`apply`. A patch is a map::

    {"base": 41,                      # the version of the view it applies to
     "set": {"current": 2, ...},      # keys with a new value (or new keys)
     "add": {"discard": [card]},      # lists that only grew: the new items
     "at":  {"players": [[1, row]]},  # lists of the same length: changed items by index
     "del": ["drawn"]}                # keys no longer in the view

Empty parts are left out. :func:`apply` checks a patch against the view as
strictly as a message is checked against its schema: a patch that does not
fit (another base, a key that is not there, an index out of range) raises
:class:`PatchError` and changes nothing; the peer then asks for the whole
view again by reconnecting.
"""

from __future__ import annotations

from typing import Any

PARTS = ("set", "add", "at", "del")


class PatchError(ValueError):
    """A patch that does not fit the view it is applied to."""


def diff(old: dict[str, Any], new: dict[str, Any], base: int) -> dict[str, Any]:
    """The patch that turns ``old`` into ``new`` (``base``: ``old``'s version)."""
    set_: dict[str, Any] = {}
    add: dict[str, list[Any]] = {}
    at: dict[str, list[list[Any]]] = {}
    for k, v in new.items():
        if k not in old:
            set_[k] = v
            continue
        was = old[k]
        if was is v or (was == v and type(was) is type(v)):  # (True == 1, but not on the wire)
            continue
        if type(v) is list and type(was) is list:
            n, m = len(was), len(v)
            if m > n and v[:n] == was:
                add[k] = v[n:]
                continue
            if m == n and m > 1:
                changed = [[i, x] for i, (w, x) in enumerate(zip(was, v, strict=True)) if w != x]
                if 2 * len(changed) <= m:
                    at[k] = changed
                    continue
        set_[k] = v
    patch: dict[str, Any] = {"base": base}
    if set_:
        patch["set"] = set_
    if add:
        patch["add"] = add
    if at:
        patch["at"] = at
    gone = [k for k in old if k not in new]
    if gone:
        patch["del"] = gone
    return patch


def merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """One patch doing both ``a`` and ``b`` (patches of disjoint keys, for the same base)."""
    out = dict(a)
    for part in PARTS:
        if part in b:
            out[part] = out.get(part, []) + b[part] if part == "del" else {**out.get(part, {}), **b[part]}
    return out


def apply(view: dict[str, Any], patch: Any) -> dict[str, Any]:
    """A new view: ``view`` with ``patch`` applied. ``view`` itself is left as it was."""
    if not isinstance(patch, dict):
        raise PatchError("a patch must be a map")
    unknown = [k for k in patch if k != "base" and k not in PARTS]
    if unknown:
        raise PatchError(f"a patch has no part {str(unknown[0])[:32]!r}")
    if patch.get("base") != view.get("version"):
        raise PatchError(f"a patch for view version {patch.get('base')!r} came to a client holding "
                         f"version {view.get('version')!r}")
    out = dict(view)
    set_ = patch.get("set", {})
    add = patch.get("add", {})
    at = patch.get("at", {})
    gone = patch.get("del", [])
    if not (isinstance(set_, dict) and isinstance(add, dict) and isinstance(at, dict) and isinstance(gone, list)):
        raise PatchError("a patch's parts have the wrong types")
    for k, v in set_.items():
        if not isinstance(k, str):
            raise PatchError("a patch sets a key that is not a string")
        out[k] = v
    for k, items in add.items():
        was = view.get(k) if isinstance(k, str) else None
        if not isinstance(was, list) or not isinstance(items, list):
            raise PatchError(f"a patch adds to {str(k)[:32]!r}, which is not a list")
        out[k] = was + items
    for k, changes in at.items():
        was = view.get(k) if isinstance(k, str) else None
        if not isinstance(was, list) or not isinstance(changes, list):
            raise PatchError(f"a patch changes items of {str(k)[:32]!r}, which is not a list")
        now = list(was)
        for change in changes:
            if not (isinstance(change, list) and len(change) == 2 and type(change[0]) is int
                    and 0 <= change[0] < len(now)):
                raise PatchError(f"a patch changes an item of {k!r} that is not there")
            now[change[0]] = change[1]
        out[k] = now
    for k in gone:
        if not isinstance(k, str) or k not in out:
            raise PatchError(f"a patch removes {str(k)[:32]!r}, which is not in the view")
        del out[k]
    return out
