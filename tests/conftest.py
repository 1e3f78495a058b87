"""Shared fixtures: every test gets its own config and state directories.

The identity key, ``known_hosts`` and the transcripts go to temporary
directories (``UNO_TUI_CONFIG_DIR``, ``XDG_STATE_HOME``), never the user's.
Subprocesses started by a test inherit them.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("UNO_TUI_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(base / "state"))
    return base
