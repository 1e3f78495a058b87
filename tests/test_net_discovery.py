"""LAN discovery never fails loudly: it finds the table, or says why it cannot."""

from __future__ import annotations

import asyncio

from net import PROTOCOL_VERSION, discovery


async def test_advertise_and_browse_find_the_table_or_explain() -> None:
    ad, note = await asyncio.wait_for(discovery.advertise("Test Table", 7799, properties={"variant": "classic"}), 10)
    try:
        assert note
        found, message = await asyncio.wait_for(discovery.browse(1.0), 10)
        assert message
        if ad is not None and found:  # multicast works here: the table is listed with its port
            table = next(f for f in found if f.name.startswith("Test Table"))
            assert table.port == 7799 and table.properties["v"] == str(PROTOCOL_VERSION) and table.address.endswith(":7799")
        if not found:
            assert "address" in message  # the user is asked for one
    finally:
        if ad is not None:
            await ad.close()


def test_local_ip_is_an_address() -> None:
    ip = discovery.local_ip()
    assert ip.count(".") == 3
