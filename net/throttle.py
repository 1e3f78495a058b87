"""The host's brake on online password guessing: a growing delay per failed attempt per address.

The password exchange (:mod:`net.secure`) lets nobody test a guess offline,
so guessing costs a connection per guess. This makes the connections slow
for whoever guesses wrong: after ``f`` failures in a row from one address,
that address's next attempt may begin ``min(cap, base * 2**(f - 1))``
seconds after the last failure. An attempt that comes earlier is held (in its
own connection's task: nobody else waits) when the wait is short, and refused
at once with the time left when it is not, so a client is told in words
rather than left to time out. One attempt per address runs at a time, and a
few at most wait for it (for ``hold`` seconds at most); a success clears the
address's count.

Addresses are counted by IPv4 address and by IPv6 /64 (one host usually has
a whole /64 to pick from). An attacker with many addresses gets a delay per
address: see ``docs/fairness.md``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Awaitable, Callable


class Throttled(Exception):
    """Refused at once: too many failed attempts from this address (``seconds`` until the next may begin)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"try again in {seconds:.0f} s")
        self.seconds = seconds


def address_key(ip: str) -> str:
    """What attempts are counted by: an IPv4 address, or an IPv6 address's /64."""
    try:
        addr = ipaddress.ip_address(ip.split("%", 1)[0])
    except ValueError:
        return ip
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.IPv6Network((addr, 64), strict=False))
    return str(addr)


@dataclass
class _Address:
    failures: int = 0
    next_ok: float = 0.0
    """When the next attempt may begin (the clock's time)."""
    busy: bool = False
    waiting: int = 0
    free: asyncio.Event = field(default_factory=asyncio.Event)
    seen: float = 0.0


class Attempt:
    """One password exchange under way; :meth:`done` says how it ended (once; later calls do nothing)."""

    def __init__(self, throttle: "PasswordThrottle", key: str) -> None:
        self._throttle = throttle
        self.key = key
        self._over = False

    def done(self, ok: bool) -> float:
        """Record the outcome; returns the delay now imposed on the address (0 after a success)."""
        if self._over:
            return 0.0
        self._over = True
        return self._throttle._done(self.key, ok)


class PasswordThrottle:
    """Per-address failed-attempt delays (see the module's docstring)."""

    def __init__(self, *, base: float = 0.5, cap: float = 30.0, hold: float = 2.0, max_waiting: int = 4,
                 forget: float = 600.0, max_addresses: int = 4096,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        self.base, self.cap, self.hold = base, cap, hold
        self.max_waiting = max_waiting
        self.forget = forget
        self.max_addresses = max_addresses
        self.clock = clock
        self.sleep = sleep
        self._by: OrderedDict[str, _Address] = OrderedDict()

    def delay(self, failures: int) -> float:
        """The wait imposed after ``failures`` failures in a row."""
        if failures <= 0:
            return 0.0
        return min(self.cap, self.base * 2 ** min(failures - 1, 60))

    def failures(self, ip: str) -> int:
        st = self._by.get(address_key(ip))
        return st.failures if st is not None else 0

    def waiting(self, ip: str) -> int:
        """Attempts from this address held back right now."""
        st = self._by.get(address_key(ip))
        return st.waiting if st is not None else 0

    def _state(self, key: str) -> _Address:
        now = self.clock()
        st = self._by.get(key)
        if st is not None and not st.busy and not st.waiting and now - st.seen > self.forget:
            st = None  # an old record: forgiven
        if st is None:
            st = _Address(seen=now)
            self._by[key] = st
            if len(self._by) > self.max_addresses:  # drop the longest-quiet idle ones
                for k in [k for k, s in self._by.items() if not s.busy and not s.waiting][:len(self._by) // 4]:
                    del self._by[k]
                self._by[key] = st
        self._by.move_to_end(key)
        st.seen = now
        return st

    async def enter(self, ip: str) -> Attempt:
        """Wait for this address's turn; raises :class:`Throttled` when the wait would be long."""
        key = address_key(ip)
        st = self._state(key)
        while True:
            wait = st.next_ok - self.clock()
            if wait > self.hold:
                raise Throttled(wait)
            if not st.busy and wait <= 0:
                st.busy = True
                st.free = asyncio.Event()
                return Attempt(self, key)
            if st.waiting >= self.max_waiting:
                raise Throttled(max(wait, 1.0))
            st.waiting += 1
            try:
                if st.busy:  # an honest exchange takes milliseconds: one that stalls holds nobody long
                    try:
                        await asyncio.wait_for(st.free.wait(), self.hold)
                    except asyncio.TimeoutError:
                        raise Throttled(self.hold) from None
                else:
                    await self.sleep(wait)
            finally:
                st.waiting -= 1

    def _done(self, key: str, ok: bool) -> float:
        st = self._by.get(key)
        if st is None:
            return 0.0
        st.busy = False
        st.seen = self.clock()
        if ok:
            st.failures, st.next_ok = 0, 0.0
        else:
            st.failures += 1
            st.next_ok = st.seen + self.delay(st.failures)
        st.free.set()
        return st.next_ok - st.seen if not ok else 0.0
