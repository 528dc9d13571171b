"""The protocol's version and kinds, in a module of their own so that the command line's parser
names the kinds without loading the protocol."""

__all__ = ["KINDS", "KIND_SINCE", "PROTOCOL_VERSION", "SPOKEN_PROTOCOLS"]

PROTOCOL_VERSION = 3
KINDS = ("deal", "auction", "legal_plays", "trick_winner", "announcements", "score", "replay", "match", "play")

#: Every version of the protocol the reference engine speaks, oldest first.
SPOKEN_PROTOCOLS = (1, 2, 3)

#: The version that brought each kind newer than version 1.
KIND_SINCE = {"play": 2}
