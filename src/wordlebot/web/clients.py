"""Who a connection or a request belongs to, for the caps and the queue's lines: one key per
client, the same for both.

An IPv4 peer is its address; an IPv6 peer its /64, the block one household or machine is given
(one client could otherwise use a fresh address per connection); an IPv4-mapped IPv6 address is
the IPv4 address it maps.
"""

from __future__ import annotations

import ipaddress


def client_key(address: str | None) -> str:
    """The client an address belongs to: ``203.0.113.9`` -> itself, ``2001:db8:1:2:3::4`` ->
    ``2001:db8:1:2::/64``, ``::ffff:203.0.113.9`` -> ``203.0.113.9``; anything else as given."""
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
