"""Several gamehall nodes on one Redis: room leases and fencing, and the
hall's names and chat shared by every node (docs/scale-out.md).

Imported only when the server is started with ``--redis``.
"""

from gamehall.cluster.adoption import Adoption
from gamehall.cluster.directory import SharedDirectory
from gamehall.cluster.leases import Lease, RoomLeases
from gamehall.cluster.node import ClusterError, Node, default_node_id, open_node
from gamehall.cluster.presence import RedisPresence

__all__ = [
    "Adoption",
    "ClusterError",
    "Lease",
    "Node",
    "RedisPresence",
    "RoomLeases",
    "SharedDirectory",
    "default_node_id",
    "open_node",
]
