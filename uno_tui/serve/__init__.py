"""``uno-tui serve``: play with nothing installed, over ``ssh`` or in a browser.

One process serves everyone: an SSH front (asyncssh) and a web front (the
page and terminal of textual-serve) turn each connection into a terminal
session (:mod:`.terminal`), whose own process, forked from a warm fork
server (:mod:`.spawn`), draws the menu and the games on a pseudo-terminal
(:mod:`.child`, :mod:`.menu`). The tables open here run in the server's
process as ordinary network tables (:mod:`.tables`); the sessions reach them
over loopback like any ``uno-tui join``. :mod:`.server` puts it together and
:mod:`.command` is the ``serve`` subcommand.

Importing this package is cheap: nothing here is loaded until ``serve`` runs.
"""
