"""Who is who: Ed25519 identity keys, fingerprints, known hosts, and the hashes of the fair deal.

Each user has one identity key, made on first run and kept in the user's
config directory (``$UNO_TUI_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/uno-tui``,
else ``~/.config/uno-tui``), file ``identity.key`` (mode 0600, the raw 32-byte
Ed25519 seed). Its *fingerprint* is the SHA-256 of the raw public key in hex;
the lobby shows the first 6 characters and the host's address carries the
first 16 (``uno://192.168.1.5:7777#3fa9c2d1e07b44a5``).

``known_hosts`` in the same directory remembers the host keys seen, one
``host:port hexkey`` a line, as SSH does: a host whose key changed is refused
loudly unless the address names the new key's fingerprint.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

try:
    # libsodium (through PyNaCl) signs in half the time OpenSSL takes here and checks a
    # signature in half the time too: a table checks one for every log entry it receives.
    import nacl.bindings as _sodium
    import nacl.exceptions as _sodium_errors
except ImportError:  # pragma: no cover - PyNaCl is a dependency; OpenSSL does the same, slower
    _sodium = None

FP_SHOWN = 6
"""Characters of a fingerprint shown in the lobby."""
FP_ADDRESS = 16
"""Characters of the host's fingerprint put in its address (64 bits: not worth grinding)."""
FP_MIN = 6
"""The fewest fingerprint characters an address may carry."""


def config_dir() -> Path:
    """Where the identity key and known_hosts live."""
    env = os.environ.get("UNO_TUI_CONFIG_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "uno-tui"


def H(tag: bytes, *parts: bytes) -> bytes:
    """SHA-256 of a domain tag and length-prefixed parts (no two inputs share an encoding)."""
    h = hashlib.sha256(tag)
    h.update(b"\0")
    for p in parts:
        h.update(len(p).to_bytes(4, "big"))
        h.update(p)
    return h.digest()


def fingerprint(public: bytes) -> str:
    """The full fingerprint of a raw Ed25519 public key: 64 hex characters."""
    return hashlib.sha256(public).hexdigest()


def short_fp(public: bytes | None) -> str:
    return fingerprint(public)[:FP_SHOWN] if public else ""


_key_cache: dict[tuple[str, ...], "Identity"] = {}
_key_lock = threading.Lock()


class Identity:
    """An Ed25519 key pair: signs messages, names a player across connections."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public = private.public_key().public_bytes_raw()
        self.fingerprint = fingerprint(self.public)
        # libsodium's secret key is the seed followed by the public key.
        self._sk = private.private_bytes_raw() + self.public if _sodium is not None else b""

    @property
    def short(self) -> str:
        return self.fingerprint[:FP_SHOWN]

    @classmethod
    def generate(cls) -> "Identity":
        return cls(Ed25519PrivateKey.generate())

    def private_bytes(self) -> bytes:
        return self._private.private_bytes_raw()

    def sign(self, tag: bytes, data: bytes) -> bytes:
        if _sodium is not None:
            return _sodium.crypto_sign(tag + data, self._sk)[:64]  # signature, then the message
        return self._private.sign(tag + data)

    @classmethod
    def load(cls, directory: str | os.PathLike[str] | None = None) -> "Identity":
        """The user's identity, made (atomically) on first use."""
        d = Path(directory) if directory is not None else config_dir()
        key = (str(d.resolve()),)
        with _key_lock:
            cached = _key_cache.get(key)
            if cached is not None:
                return cached
            path = d / "identity.key"
            if not path.exists():
                d.mkdir(parents=True, exist_ok=True)
                raw = Ed25519PrivateKey.generate().private_bytes_raw()
                tmp = d / f".identity.{os.getpid()}.{secrets.token_hex(4)}"
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "wb") as f:
                    f.write(raw)
                try:
                    os.link(tmp, path)  # fails if another process made one first: use theirs
                except FileExistsError:
                    pass
                finally:
                    os.unlink(tmp)
            raw = path.read_bytes()
            if len(raw) != 32:
                raise ValueError(f"{path} is not an uno-tui identity key (32 bytes expected)")
            ident = cls(Ed25519PrivateKey.from_private_bytes(raw))
            _key_cache[key] = ident
            return ident


_pub_cache: dict[bytes, Ed25519PublicKey] = {}


def _public_key(public: bytes) -> Ed25519PublicKey:
    """The parsed key (a table has a dozen keys and checks thousands of signatures: parse each once)."""
    key = _pub_cache.get(public)
    if key is None:
        key = Ed25519PublicKey.from_public_bytes(public)  # ValueError for a bad key: not cached
        if len(_pub_cache) >= 256:
            _pub_cache.clear()
        _pub_cache[public] = key
    return key


def verify(public: bytes, sig: bytes, tag: bytes, data: bytes) -> bool:
    """Whether ``sig`` is ``public``'s signature of ``tag + data``.

    With libsodium the check is RFC 8032's, and also refuses a key or an ``R``
    of small order and a non-canonical ``S`` (no honest signer makes those).
    """
    if not isinstance(public, bytes) or len(public) != 32 or not isinstance(sig, bytes) or len(sig) != 64:
        return False
    if _sodium is not None:
        try:
            _sodium.crypto_sign_open(sig + tag + data, public)
            return True
        except (_sodium_errors.CryptoError, ValueError, TypeError):
            return False
    try:
        _public_key(public).verify(sig, tag + data)
        return True
    except (InvalidSignature, ValueError):
        return False


class KnownHosts:
    """``known_hosts``: the host keys this user has seen, by ``host:port``."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.path = (Path(directory) if directory is not None else config_dir()) / "known_hosts"

    def _read(self) -> dict[str, str]:
        out: dict[str, str] = {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return out
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and len(parts[1]) == 64:
                out[parts[0]] = parts[1]
        return out

    def get(self, where: str) -> bytes | None:
        hexkey = self._read().get(where)
        return bytes.fromhex(hexkey) if hexkey else None

    def remember(self, where: str, public: bytes) -> None:
        entries = self._read()
        entries[where] = public.hex()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".known_hosts.{os.getpid()}.{secrets.token_hex(4)}")
        tmp.write_text("".join(f"{k} {v}\n" for k, v in sorted(entries.items())), encoding="utf-8")
        os.replace(tmp, self.path)
