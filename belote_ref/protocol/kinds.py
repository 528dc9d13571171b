"""The protocol's version and kinds, in a module of their own so that the command line's parser
names the kinds without loading the protocol."""

__all__ = ["KINDS", "PROTOCOL_VERSION"]

PROTOCOL_VERSION = 3
KINDS = ("deal", "auction", "legal_plays", "trick_winner", "announcements", "score", "replay", "match", "play")
