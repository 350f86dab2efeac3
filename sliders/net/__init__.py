"""Games over the network: a host that runs rooms of games with the one game driver, the
versioned messages it speaks (docs/protocol.md), and a client that keeps a copy of a room's game
and seats a bot. Loaded only by the commands that use it (``sliders host``, ``sliders join``)."""
