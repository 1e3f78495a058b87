"""One identity per person: a home directory of their own for uno-tui's files.

Everything a player's client keeps (its Ed25519 identity, ``known_hosts``,
the seat tokens that let it take a seat back, its transcripts) lives under
``UNO_TUI_CONFIG_DIR`` and ``XDG_STATE_HOME``. Every session runs as the
server's own user, so each person gets a directory and the session's process
is pointed at it:

* a person who came in with an SSH key: ``keys/<hash of the key>``, kept
  across restarts of the server (their seat and identity survive a dropped
  connection and a new day);
* anyone else: ``names/<hash of the name>`` in a directory that lives as long
  as the server runs (one identity per NAME, for the server's life).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from net.identity import Identity
from net.messages import MAX_NAME, clean_text

DEFAULT_NAME = "Player"


def clean_name(text: str | None) -> str:
    """A player name fit for other people's screens (no escapes), never empty."""
    return clean_text(text or "", MAX_NAME) or DEFAULT_NAME


@dataclass(frozen=True)
class Person:
    """Someone at the server: a name and the directory their client's files live in."""

    key: str
    """``key:<sha256 of the SSH public key>`` or ``name:<sha256 of the name>``."""
    name: str
    home: Path = field(compare=False)
    keyed: bool = False
    """Came in with an SSH key (the identity outlives the server's run)."""

    @property
    def config_dir(self) -> Path:
        return self.home / "config"

    @property
    def env(self) -> dict[str, str]:
        """What points a session's process at this person's files."""
        return {"UNO_TUI_CONFIG_DIR": str(self.config_dir), "XDG_STATE_HOME": str(self.home / "state")}


class People:
    """Makes :class:`Person` records and their directories (mode 0700)."""

    def __init__(self, keyed_dir: Path, run_dir: Path) -> None:
        self.keyed_dir = keyed_dir
        self.run_dir = run_dir
        self._identities: dict[str, bytes] = {}

    def by_key(self, public_blob: bytes, name: str) -> Person:
        digest = hashlib.sha256(public_blob).hexdigest()
        return self._make(Person(f"key:{digest}", clean_name(name), self.keyed_dir / digest[:32], keyed=True))

    def by_name(self, name: str) -> Person:
        name = clean_name(name)
        digest = hashlib.sha256(name.encode()).hexdigest()
        return self._make(Person(f"name:{digest}", name, self.run_dir / digest[:32]))

    def _make(self, person: Person) -> Person:
        person.config_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        person.home.chmod(0o700)
        return person

    def public_key(self, person: Person) -> bytes:
        """The person's uno-tui identity key (made here on first use, so tables can tell their seat)."""
        pub = self._identities.get(person.key)
        if pub is None:
            pub = self._identities[person.key] = Identity.load(person.config_dir).public
        return pub
