"""``uno-tui serve``: its arguments and how it is started.

Only argparse is imported until the command runs, so ``uno-tui --help``
stays fast; asyncssh, aiohttp and the server come in with ``serve`` itself.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from typing import Any

from net.commands import number, pause_seconds, positive_int
from net.seats import HostConfig

SERVE_HELP = "serve uno-tui to anyone with ssh (and to browsers, with --web): nothing to install for them"


_port = number(int, "a port number", lambda v: 0 <= v <= 65535, "a port is 1 to 65535 (0 picks a free one)")
_duration = number(float, "a number of seconds", lambda v: v > 0, "must be more than 0")


def add_serve_subcommand(subparsers: Any) -> None:
    """Register ``serve`` on the ``uno-tui`` command's subparsers (its ``func`` runs it)."""
    s = subparsers.add_parser(
        "serve", help=SERVE_HELP,
        description=SERVE_HELP + ". Each visitor gets a menu: play against bots, open a table here, or join "
        "or watch a table open here. Tables here are ordinary uno-tui tables: players with their own uno-tui "
        "can join them too. The server sees the hands of those who play through it; see "
        "docs/playing-together.md.",
        epilog="example: uno-tui serve --ssh 2222 --web 8080   (friends: ssh -p 2222 NAME@THIS-MACHINE)")
    s.add_argument("--ssh", type=_port, default=None, metavar="PORT",
                   help="serve over SSH on this port: ssh -p PORT NAME@HOST, where NAME is the player's name")
    s.add_argument("--bind", default="0.0.0.0", metavar="ADDR", help="address to listen on (default: all)")
    s.add_argument("--web", type=_port, default=None, metavar="PORT",
                   help="also serve the game to browsers on this port (http://HOST:PORT/)")
    s.add_argument("--authorized-keys", default=None, metavar="FILE",
                   help="only the SSH keys in FILE (OpenSSH authorized_keys format) may come in")
    s.add_argument("--password", default=None, metavar="PW",
                   help="players must give this password (ssh asks it; so does the web page)")
    s.add_argument("--host-key", default=None, metavar="PATH",
                   help="the server's SSH host key, made on first use and kept "
                        "(default: ssh_host_ed25519_key in the uno-tui config directory)")
    s.add_argument("--max-sessions", type=positive_int, default=32, metavar="N",
                   help="players connected at once; more are turned away with a message (default: %(default)s)")
    s.add_argument("--idle-timeout", type=_duration, default=1800.0, metavar="SECONDS",
                   help="close a session after this long without a key press (default: %(default)g)")
    s.add_argument("--bot-delay", type=pause_seconds, default=HostConfig.bot_delay, metavar="SECONDS",
                   help="pause before a bot moves at the tables here (default: %(default)g)")
    s.add_argument("--fast", action="store_true",
                   help="no pause before the bots' moves in games against bots")
    s.set_defaults(func=run_serve, command_parser=s)


def run_serve(args: argparse.Namespace) -> int:
    """``uno-tui serve``: check the arguments (exit 2 with what is wrong), then serve until ctrl+c."""
    parser: argparse.ArgumentParser = args.command_parser
    if args.ssh is None and args.web is None:
        parser.error("say where to serve: --ssh PORT (and/or --web PORT)")
    if args.ssh is not None and args.ssh == args.web and args.ssh != 0:
        parser.error("--ssh and --web need different ports")
    try:
        import asyncssh  # noqa: F401
        if args.web is not None:
            import textual_serve  # noqa: F401
    except ImportError as e:
        print(f"uno-tui serve needs the {e.name} package: pip install asyncssh textual-serve "
              "(they come with uno-tui; this installation lacks them)", file=sys.stderr)
        return 2
    from .access import Admission
    from .server import ServeConfig

    try:
        admission = Admission.from_options(args.authorized_keys, args.password)
    except ValueError as e:
        parser.error(str(e))
    if args.web is not None and admission.authorized is not None and admission.password is None:
        parser.error("--web with --authorized-keys needs --password too: a browser has no SSH key to show")
    config = ServeConfig(ssh_port=args.ssh, bind=args.bind, web_port=args.web, authorized_keys=args.authorized_keys,
                         password=args.password, host_key=args.host_key, max_sessions=args.max_sessions,
                         idle_timeout=args.idle_timeout, bot_delay=args.bot_delay,
                         pacing=(0.0, 0.0) if args.fast else (0.6, 0.9))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    for noisy in ("asyncssh", "aiohttp.access", "net", "uno_tui.netplay"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return asyncio.run(_main(config, admission))


async def _main(config: Any, admission: Any) -> int:
    from .server import serve

    task = asyncio.ensure_future(serve(config, admission, sys.stdout, sys.stderr))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, task.cancel)
    try:
        return await task
    except asyncio.CancelledError:
        print("uno-tui serve: stopped", flush=True)
        return 0
