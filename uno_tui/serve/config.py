"""What ``uno-tui serve`` is told (built by its command line, read by the server and its sessions)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ServeConfig:
    """What ``uno-tui serve`` is told."""

    ssh_port: int | None = 2222
    """None: no SSH, the web only."""
    bind: str = "0.0.0.0"
    web_port: int | None = None
    authorized_keys: str | None = None
    password: str | None = None
    host_key: str | None = None
    max_sessions: int = 32
    idle_timeout: float = 1800.0
    """Seconds without a key press after which a session is closed."""
    bot_delay: float = 0.5
    """Pause before a bot moves at the server's tables."""
    pacing: tuple[float, float] = (0.6, 0.9)
    """Pauses before the bots' moves in a game against bots."""
    state_dir: str | None = None
    """Where the people who come with an SSH key keep their files (default: the user's state directory)."""
