"""A NAT lab in network namespaces that a test creates and removes itself
(docs/network.md, "A NAT lab"): a WAN namespace with the rendezvous and the
relay, and two homes, each a router that masquerades (ordinary NAT, or hard:
`masquerade fully-random`, iptables's random-fully) and a handheld behind it. Documentation address
ranges only, and only inside the namespaces; the machine's own interfaces
and routes are never touched.

    wan   203.0.113.1/24 (to home 1)     198.51.100.1/24 (to home 2)
    r1    203.0.113.2/24 | 192.0.2.1/24   r2  198.51.100.2/24 | 192.0.2.1/24
    c1    192.0.2.10/24 (via r1)          c2  192.0.2.10/24 (via r2)

Both homes use the same LAN range, as two real homes do.
"""

from __future__ import annotations

import os
import shutil
import subprocess

WAN_ADDRESS = "203.0.113.1"


class NotAllowed(Exception):
    """Namespaces cannot be made here (not root, no ip or nft): the one line."""


def _run(*args: str) -> None:
    result = subprocess.run(args, capture_output=True, text=True, timeout=20, check=False)
    if result.returncode != 0:
        raise NotAllowed(f"{' '.join(args)}: {result.stderr.strip() or result.returncode}")


class Lab:
    def __init__(self, tag: str, hard: bool) -> None:
        if os.geteuid() != 0:
            raise NotAllowed("the NAT lab needs root (network namespaces)")
        for tool in ("ip", "nft"):
            if shutil.which(tool) is None:
                raise NotAllowed(f"the NAT lab needs {tool} (apt-get install iproute2 nftables)")
        self.names = {role: f"pl{tag}{role}" for role in ("wan", "r1", "c1", "r2", "c2")}
        self.made: list[str] = []
        try:
            self._build(hard)
        except NotAllowed:
            self.close()
            raise

    def prefix(self, role: str) -> tuple[str, ...]:
        return ("ip", "netns", "exec", self.names[role])

    def _in(self, role: str, *args: str) -> None:
        _run(*self.prefix(role), *args)

    def _build(self, hard: bool) -> None:
        n = self.names
        for name in n.values():
            _run("ip", "netns", "add", name)
            self.made.append(name)
            _run("ip", "-n", name, "link", "set", "lo", "up")
        tag = n["wan"][2:-3]
        links = (("wan", "r1", "203.0.113.1/24", "203.0.113.2/24"),
                 ("wan", "r2", "198.51.100.1/24", "198.51.100.2/24"),
                 ("r1", "c1", "192.0.2.1/24", "192.0.2.10/24"),
                 ("r2", "c2", "192.0.2.1/24", "192.0.2.10/24"))
        for i, (a, b, address_a, address_b) in enumerate(links):
            left, right = f"pl{tag}a{i}", f"pl{tag}b{i}"
            _run("ip", "link", "add", left, "netns", n[a], "type", "veth", "peer", "name",
                 right, "netns", n[b])
            _run("ip", "-n", n[a], "addr", "add", address_a, "dev", left)
            _run("ip", "-n", n[b], "addr", "add", address_b, "dev", right)
            _run("ip", "-n", n[a], "link", "set", left, "up")
            _run("ip", "-n", n[b], "link", "set", right, "up")
        for home, wan_side, wan_gateway in (("1", "b0", "203.0.113.1"),
                                            ("2", "b1", "198.51.100.1")):
            router = f"r{home}"
            _run("ip", "-n", n[router], "route", "add", "default", "via", wan_gateway)
            _run("ip", "-n", n[f"c{home}"], "route", "add", "default", "via", "192.0.2.1")
            self._in(router, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1")
            rule = "masquerade fully-random" if hard else "masquerade"  # iptables: random-fully
            self._in(router, "nft", f"add table ip nat; add chain ip nat post "
                     f"{{ type nat hook postrouting priority 100 ; }}; "
                     f"add rule ip nat post oifname pl{tag}{wan_side} {rule}")

    def close(self) -> None:
        for name in reversed(self.made):
            subprocess.run(["ip", "netns", "pids", name], capture_output=True, timeout=10,
                           check=False)
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10,
                           check=False)
        self.made.clear()
