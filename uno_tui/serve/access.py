"""Who may come in, and the server's own SSH host key.

Three ways to admit people, chosen on the command line:

* ``--authorized-keys FILE``: only the SSH keys listed there (OpenSSH's
  ``authorized_keys`` format);
* ``--password PW``: anyone who types the password (SSH password or
  keyboard-interactive, and the web page's login);
* neither: anyone who can reach the port. An SSH key is still taken when
  offered (any key is welcome), so that person keeps one identity.

With both, a listed key *or* the password lets a person in.

The host key is made once (Ed25519) and kept, so a returning player's
``known_hosts`` entry stays right and a changed key is a real warning.
"""

from __future__ import annotations

import hmac
import os
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from net.identity import config_dir

HOST_KEY_NAME = "ssh_host_ed25519_key"


def default_host_key_path() -> Path:
    """``ssh_host_ed25519_key`` in the uno-tui config directory (beside ``identity.key``)."""
    return config_dir() / HOST_KEY_NAME


def load_host_key(path: str | os.PathLike[str] | None = None) -> asyncssh.SSHKey:
    """The server's host key at ``path``, made (Ed25519, mode 0600) on first use.

    Raises :class:`ValueError` with a sentence for a file that is not a key.
    """
    p = Path(path) if path is not None else default_host_key_path()
    if not p.exists():
        p.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        key = asyncssh.generate_private_key("ssh-ed25519", comment="uno-tui serve")
        tmp = p.with_name(f".{p.name}.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
        try:
            os.link(tmp, p)  # another server made one first: keep theirs
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    try:
        return asyncssh.read_private_key(str(p))
    except (OSError, asyncssh.KeyImportError, ValueError) as e:
        raise ValueError(f"{p}: not a usable SSH private key ({e})") from None


@dataclass
class Admission:
    """The rule at the door: listed keys, a password, or open."""

    authorized: asyncssh.SSHAuthorizedKeys | None = None
    password: str | None = None

    @classmethod
    def from_options(cls, authorized_keys: str | None, password: str | None) -> "Admission":
        """Read ``authorized_keys`` (ValueError with the reason when it cannot be read)."""
        authorized = None
        if authorized_keys is not None:
            try:
                authorized = asyncssh.read_authorized_keys(authorized_keys)
            except (OSError, ValueError, asyncssh.KeyImportError) as e:
                raise ValueError(f"--authorized-keys {authorized_keys}: {getattr(e, 'strerror', None) or e}") from None
        if password is not None and not password:
            raise ValueError("--password must not be empty")
        return cls(authorized, password)

    @property
    def open(self) -> bool:
        """Anyone who reaches the port may play."""
        return self.authorized is None and self.password is None

    def key_allowed(self, key: asyncssh.SSHKey, host: str, addr: str) -> bool:
        if self.authorized is not None:
            return self.authorized.validate(key, host, addr) is not None
        return self.password is None  # open: any key names its holder; with a password, keys alone are not enough

    def password_ok(self, given: str) -> bool:
        if self.password is None:
            return self.open
        return hmac.compare_digest(given.encode(), self.password.encode())

    def describe(self) -> str:
        """One line for the start banner."""
        if self.open:
            return ("open: anyone who can reach the port may play (use --password or --authorized-keys "
                    "to limit who comes in)")
        parts = []
        if self.authorized is not None:
            parts.append("an SSH key listed in --authorized-keys")
        if self.password is not None:
            parts.append("the password")
        return "closed: players need " + " or ".join(parts)
