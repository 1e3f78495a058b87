"""``python -m net``: the headless host and bot commands without the TUI."""

import sys

from .commands import main

sys.exit(main())
